/* exec between fork and exec in a traced, multi-threaded program: the exec
   wrappers (src/trace/trace_exec.c) may run where only async-signal-safe work is
   allowed (the runner's worker processes,
   src/bench/workers/bench_workers.c, call execve right after fork). They
   must never wait for a lock that another thread of the parent held at
   the fork, nor write the parent's trace from a child. Each mode bounds every child's life (10 s), so a hang fails the
   test instead of stopping it.
   Usage: test_trace_exec_fork MODE PREFIX [BLOCKER-MODULE]
     clone-loader    tracing off; another thread is inside dlopen (the
                     module's constructor), holding the dynamic loader's
                     lock; a child made by clone (no fork handlers, so the
                     lock is copied held) execs /bin/true
     clone-recorder  tracing on; another thread holds the recorder's lock;
                     a clone child execs /bin/true
     vfork           tracing on, threads recording; vfork + execve 50 times:
                     the children leave the parent's trace alone
     fork            tracing on, threads recording; fork + execve 50 times:
                     each child's trace is whole, with its end record
     workers         tracing on, threads recording; the runner's worker
                     processes (this program, forked and exec'd 3 times) */
#define PROF_TRACE 1
#include "trace_util.h"

#if defined(TRACE_TEST_DLOPEN) /* dynamic builds */
# include <dlfcn.h>
#endif
#include <errno.h>
#include <glob.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>

extern char ** environ;
/* the recorder's lock (src/trace/trace.c) */
void prof_impl_tr_lock(void);
void prof_impl_tr_unlock(void);

static const char * prefix;
static char path[512];

/* ---- children ------------------------------------------------------------- */

static void exec_true(void)
{
    char * argv[] = { (char *) "true", NULL };
    execve("/bin/true", argv, environ);
    _exit(127);
}

/* A child made by the clone system call alone, as fork() but without its
   handlers (glibc's fork resets its own locks in the child; this copies
   them as they are): the child execs /bin/true. */
static pid_t clone_exec(void)
{
    pid_t pid;
    fflush(NULL);
    pid = (pid_t) syscall(SYS_clone, (unsigned long) SIGCHLD, 0UL, 0UL, 0UL, 0UL);
    if (pid == 0)
        exec_true();
    return pid;
}

static __attribute__((noinline)) pid_t vfork_exec(void)
{
    pid_t pid = vfork();
    if (pid == 0)
        exec_true();
    return pid;
}

static pid_t fork_exec(void)
{
    pid_t pid;
    fflush(NULL);
    pid = fork();
    if (pid == 0)
        exec_true();
    return pid;
}

/* Child pid's wait status, waiting at most 10 s; -1 (after killing it)
   if it had not ended by then: it hung. */
static int wait_bounded(pid_t pid)
{
    double t0 = mono_ns();
    int st = -1;
    while (pid > 0 && waitpid(pid, &st, WNOHANG) == 0)
    {
        if (mono_ns() - t0 > 10e9)
        {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            return -1;
        }
        sleep_ms(2);
    }
    return pid > 0 ? st : -1;
}

static int exited_0(int st)
{
    return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* ---- threads that hold a lock, or record ------------------------------------- */

static int ready[2], go[2];

static void signal_ready(void)
{
    CHECK(write(ready[1], "r", 1) == 1, "ready");
}

static void wait_go(void)
{
    char c;
    CHECK(read(go[0], &c, 1) == 1, "go");
}

static void * hold_recorder_lock(void * arg)
{
    (void) arg;
    prof_impl_tr_lock();
    signal_ready();
    wait_go();
    prof_impl_tr_unlock();
    return NULL;
}

#if defined(TRACE_TEST_DLOPEN)
static void * load_blocker(void * module)
{
    void * h = dlopen((const char *) module, RTLD_NOW | RTLD_LOCAL);
    CHECK(h != NULL, "dlopen %s: %s", (const char *) module, dlerror());
    return h;
}

#endif

/* stop ends the recording threads. While paused is set, or once they have
   recorded burst_cap bursts of 100 zones since the last resume_recording
   (0: no cap), they wait (1 ms naps) instead of recording; bursts counts
   the bursts, resumed the resumes (all atomic, burst_cap set before the
   threads start). */
static int stop, paused, bursts, resumed, burst_cap;

static void * record(void * arg)
{
    int i, seen = 0, n = 0;
    (void) arg;
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED))
    {
        int r = __atomic_load_n(&resumed, __ATOMIC_RELAXED);
        if (r != seen)
            seen = r, n = 0;
        if (__atomic_load_n(&paused, __ATOMIC_RELAXED)
            || (burst_cap > 0 && n >= burst_cap))
        {
            sleep_ms(1);
            continue;
        }
        for (i = 0; i < 100; i++)
        {
            PROF_ZONE_BEGIN("busy");
            PROF_ZONE_END("busy");
        }
        n++;
        __atomic_fetch_add(&bursts, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

/* Lets the recording threads record again and returns once they have
   recorded two bursts since: they are under way when the caller forks. */
static void resume_recording(void)
{
    int b0 = __atomic_load_n(&bursts, __ATOMIC_RELAXED);
    __atomic_fetch_add(&resumed, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&paused, 0, __ATOMIC_RELAXED);
    while (__atomic_load_n(&bursts, __ATOMIC_RELAXED) - b0 < 2)
        sched_yield();
}

/* ---- the modes -------------------------------------------------------------- */

#if defined(TRACE_TEST_DLOPEN)
static void * lookup(void * arg)
{
    (void) arg;
    return dlsym(RTLD_DEFAULT, "printf");
}

/* 1 if a dlsym from another thread is still waiting after 300 ms, as it
   must while the module's constructor holds the loader's lock; th then
   finishes when it is released. */
static int loader_lock_held(pthread_t * th)
{
    struct timespec until;
    void * r;
    pthread_create(th, NULL, lookup, NULL);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 300000000L;
    if (until.tv_nsec >= 1000000000L)
        until.tv_sec++, until.tv_nsec -= 1000000000L;
    return pthread_timedjoin_np(*th, &r, &until) != 0;
}

static int clone_loader(const char * module)
{
    char fds[32];
    pthread_t loader, probe;
    void * h = NULL;
    int st, held;
    snprintf(fds, sizeof fds, "%d,%d", go[0], ready[1]);
    setenv("TRACE_BLOCKER_FDS", fds, 1);
    pthread_create(&loader, NULL, load_blocker, (void *) module);
    {
        char c;
        CHECK(read(ready[0], &c, 1) == 1, "the module's constructor ran");
    }
    held = loader_lock_held(&probe);
    st = held ? wait_bounded(clone_exec()) : 0;
    CHECK(write(go[1], "g", 1) == 1, "go");
    pthread_join(loader, &h);
    pthread_join(probe, NULL);
    if (h != NULL)
        dlclose(h);
    if (!held)
    {
        printf("test_trace_exec_fork: this C library does not hold its "
               "loader's lock while a constructor runs: nothing to test\n");
        return 77;
    }
    CHECK(exited_0(st), "a child cloned while another thread held the "
          "loader's lock: status %d (-1: it hung, killed after 10 s)", st);
    return 0;
}
#endif

static void clone_recorder(void)
{
    pthread_t holder;
    pt_trace t;
    int st;
    CHECK(prof_trace_open(path) == 0, "open");
    zones(10);
    pthread_create(&holder, NULL, hold_recorder_lock, NULL);
    {
        char c;
        CHECK(read(ready[0], &c, 1) == 1, "the lock is held");
    }
    st = wait_bounded(clone_exec());
    CHECK(write(go[1], "g", 1) == 1, "go");
    pthread_join(holder, NULL);
    CHECK(exited_0(st), "a child cloned while another thread held the "
          "recorder's lock: status %d (-1: it hung, killed after 10 s)", st);
    zones(10);
    CHECK(prof_trace_flush() == 0, "flush");
    CHECK(load_trace(path, &t, NULL) == 0 && count_zones(&t, "z", -1, 0) == 20
          && !t.has_end, "the parent's trace: %zu zones, end record %d (the "
          "child's buffers are the parent's)", count_zones(&t, "z", -1, 0),
          t.has_end);
    pt_free(&t);
}

/* The trace of a child of fork, <path>.<pid>: whole, with its end
   record (its exec wrapper wrote it). */
static void check_child_trace(pid_t pid)
{
    char p[600];
    pt_trace t;
    snprintf(p, sizeof p, "%s.%ld", path, (long) pid);
    CHECK(load_trace(p, &t, NULL) == 0 && t.has_end && t.lost == 0,
          "the trace of child %ld", (long) pid);
    pt_free(&t);
    remove(p);
}

/* Threads recording while make() starts 50 children that exec. They
   record from just before each fork or vfork until it returns (the exec,
   for vfork), 20,000 zones at most, and pause while the child is waited
   for: recording throughout wrote a trace of some 300 MB (17 s quiet,
   minutes when loaded, mostly reading it back), the pauses at most 16 MB. */
static void children_while_recording(pid_t (*make)(void), const char * what)
{
    pthread_t th[2];
    int i, hung = 0, failed = 0;
    pt_trace t;
    const char * w;
    setenv("PROF_TRACE_BUFFER_KB", "4", 1); /* the lock is taken often */
    CHECK(prof_trace_open(path) == 0, "open");
    __atomic_store_n(&paused, 1, __ATOMIC_RELAXED);
    burst_cap = 100;
    for (i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, record, NULL);
    for (i = 0; i < 50; i++)
    {
        pid_t pid;
        int st;
        resume_recording();
        pid = make();
        __atomic_store_n(&paused, 1, __ATOMIC_RELAXED);
        st = wait_bounded(pid);
        hung += st == -1;
        failed += !exited_0(st);
        if (make == fork_exec && exited_0(st))
            check_child_trace(pid);
        zones(10);
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    for (i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    CHECK(failed == 0, "%s: %d of 50 children failed, %d hung", what, failed, hung);
    CHECK(prof_trace_flush() == 0 && prof_trace_lost() == 0, "lost");
    CHECK(load_trace(path, &t, &w) == 0 && count_zones(&t, "z", -1, 0) == 500
          && count_zones(&t, "busy", -1, 0) > 0 && !t.has_end
          && strstr(w, "unmatched") == NULL, "%s: the parent's trace: %zu zones, "
          "end record %d (none before exit): %s", what,
          count_zones(&t, "z", -1, 0), t.has_end, w);
    pt_free(&t);
}

static void target(void * arg, ulong count)
{
    volatile ulong i;
    (void) arg;
    PROF_ZONE_BEGIN("target");
    for (i = 0; i < count; i++)
        ;
    PROF_ZONE_END("target");
}

/* The traces of the workers, <path>.<pid>: 3 of them, each whole. */
static void check_worker_traces(void)
{
    char pattern[600];
    glob_t g;
    size_t i;
    snprintf(pattern, sizeof pattern, "%s.*", path);
    CHECK(glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc == 3, "%zu worker "
          "traces", g.gl_pathc);
    for (i = 0; i < g.gl_pathc; i++)
    {
        pt_trace t;
        const char * w;
        CHECK(load_trace(g.gl_pathv[i], &t, &w) == 0 && t.has_end
              && count_zones(&t, "target", -1, 0) > 0 && w[0] == '\0',
              "%s: %zu target zones, end %d: %s", g.gl_pathv[i],
              count_zones(&t, "target", -1, 0), t.has_end, w);
        pt_free(&t);
    }
    globfree(&g);
}

/* The runner's worker processes, started while threads record; each
   worker, this program run again, traces to the same path: it writes
   <path>.<pid>, never the parent's file. */
static void workers(void)
{
    pthread_t th[2];
    prof_bench * b;
    const prof_result * r;
    pt_trace t;
    const char * w;
    int i, worker = getenv("PROFILER_WORKER") != NULL;
    setenv("PROF_TRACE_BUFFER_KB", "4", 1);
    CHECK(prof_trace_open(path) == 0, "open");
    for (i = 0; !worker && i < 2; i++)
        pthread_create(&th[i], NULL, record, NULL);
    b = prof_bench_new();
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_budget_s(b, 0.05);
    CHECK(prof_bench_set_processes(b, 3) == 0, "processes");
    r = prof_bench_run(b, "loop", target, NULL);
    CHECK(prof_bench_finish(b) == 0, "finish");
    CHECK(worker || (r != NULL && r->processes == 3), "%d processes",
          r != NULL ? r->processes : -1);
    prof_bench_free(b);
    if (worker)
        exit(0);
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    for (i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    CHECK(prof_trace_flush() == 0 && prof_trace_lost() == 0, "lost");
    /* the workers ran the target; the parent's trace is its own, whole */
    CHECK(load_trace(path, &t, &w) == 0 && count_zones(&t, "busy", -1, 0) > 0
          && strstr(w, "unreadable") == NULL && strstr(w, "not defined") == NULL
          && strstr(w, "unmatched") == NULL, "the parent's trace: %zu busy "
          "zones: %s", count_zones(&t, "busy", -1, 0), w);
    pt_free(&t);
    check_worker_traces();
}

/* The parent's trace and its children's, <path>.<pid>. */
static void remove_traces(void)
{
    char pattern[600];
    glob_t g;
    size_t i;
    snprintf(pattern, sizeof pattern, "%s.*", path);
    if (glob(pattern, 0, NULL, &g) == 0)
        for (i = 0; i < g.gl_pathc; i++)
            remove(g.gl_pathv[i]);
    globfree(&g);
    remove(path);
}

int main(int argc, char ** argv)
{
    const char * mode = argc > 2 ? argv[1] : "";
    int rc = 0;
    if (argc < 3)
    {
        fprintf(stderr, "usage: test_trace_exec_fork MODE PREFIX [MODULE]\n");
        return 2;
    }
    prefix = argv[2];
    snprintf(path, sizeof path, "%s-%s.ptrace", prefix, mode);
    if (getenv("PROFILER_WORKER") == NULL)
        remove_traces(); /* a run that was stopped may have left some */
    CHECK(pipe(ready) == 0 && pipe(go) == 0, "pipes");
#if defined(TRACE_TEST_DLOPEN)
    if (strcmp(mode, "clone-loader") == 0 && argc > 3)
        rc = clone_loader(argv[3]);
    else
#endif
    if (strcmp(mode, "clone-recorder") == 0)
        clone_recorder();
    else if (strcmp(mode, "vfork") == 0)
        children_while_recording(vfork_exec, "vfork");
    else if (strcmp(mode, "fork") == 0)
        children_while_recording(fork_exec, "fork");
    else if (strcmp(mode, "workers") == 0)
        workers();
    else
        CHECK(0, "unknown mode %s", mode);
    if (rc != 77)
        rc = check_report("test_trace_exec_fork");
    remove_traces();
    return rc;
}
