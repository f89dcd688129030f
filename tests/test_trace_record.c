/* The recorder: every way events reach the file (on demand, thread exit,
   exit() with a zone open, a full buffer), the bad outputs (an unwritable
   path, /dev/full: messages, counted losses, no crash), fatal signals
   (SIGSEGV, SIGABRT, SIGINT: what was recorded is in the file) and fork.
   Each case runs in a child process with its own trace file; the parent
   reads the file with the reader. */
#define PROF_TRACE 1
#define TRACE_TEST_DIR "/tmp/prof-trace-test-XXXXXX"
#include "trace_util.h"

#include <pthread.h>
#include <signal.h>

/* ---- on demand, thread exit ---------------------------------------------- */

/* PROF_ZONE / PROF_FUNC end on every way out of their block */
static int early(int i)
{
    PROF_FUNC();
    if (i % 2)
        return 1;
    {
        PROF_ZONE("block");
        for (;;)
        {
            PROF_ZONE("loop body");
            if (i++ > 2)
                break;
        }
    }
    return 0;
}

static void child_flush(void)
{
    pt_trace t;
    int i;
    CHECK(prof_trace_open(path) == 0, "open");
    zones(1000);
    for (i = 0; i < 4; i++)
        (void) early(i);
    CHECK(prof_trace_flush() == 0, "flush");
    CHECK(load_trace(path, &t, NULL) == 0 && t.events == 2000 + 2 * (4 + 2 + 6)
          && count_zones(&t, "z", -1, 0) == 1000, "%llu events after flush",
          (unsigned long long) t.events);
    CHECK(count_zones(&t, "early", -1, 0) == 4 && count_zones(&t, "block", -1, 0) == 2
          && count_zones(&t, "loop body", -1, 0) == 6, "scoped zones");
    pt_free(&t);
}

static void * thread_body(void * arg)
{
    prof_trace_thread_name((const char *) arg);
    zones(500);
    return NULL;
}

static void child_thread_exit(void)
{
    pthread_t th;
    pt_trace t;
    CHECK(prof_trace_open(path) == 0, "open");
    pthread_create(&th, NULL, thread_body, (void *) "t1");
    pthread_join(th, NULL);
    CHECK(load_trace(path, &t, NULL) == 0 && t.events == 1000 && t.nthreads == 1
          && strcmp(t.threads[0].name, "t1") == 0, "%llu events at thread exit",
          (unsigned long long) t.events);
    pt_free(&t);
    _exit(check_failures ? 10 : 0); /* no exit-time flush: the file is as is */
}

static void test_flush_and_thread_exit(void)
{
    pt_trace t;
    const char * w;
    set_path("flush.ptrace");
    CHECK(run_child(child_flush) == 0, "child failed");
    CHECK(load_trace(path, &t, &w) == 0 && t.events == 2024 && t.has_end, "after exit");
    CHECK(w[0] == '\0', "warnings: %s", w);
    pt_free(&t);

    set_path("thread.ptrace");
    CHECK(run_child(child_thread_exit) == 0, "child failed");
    CHECK(load_trace(path, &t, &w) == 0 && t.events == 1000 && !t.has_end, "thread");
    CHECK(strstr(w, "no end record") != NULL, "%s", w);
    pt_free(&t);
}

/* ---- exit() with a zone open; a small buffer ------------------------------ */

static void leave(void)
{
    PROF_ZONE("leaving");
    exit(3);
}

static void child_exit_open(void)
{
    prof_trace_open(path);
    zones(10);
    PROF_ZONE_BEGIN("open at exit");
    leave();
}

static void child_small_buffer(void)
{
    setenv("PROF_TRACE_BUFFER_KB", "4", 1); /* 256 events */
    prof_trace_open(path);
    zones(10000);
}

/* A 4 GiB buffer would be written as a chunk whose 32-bit size wraps to 0:
   refused (it was accepted before), the default used, nothing lost. */
static void child_huge_buffer(void)
{
    capture_t cap;
    const char * err;
    setenv("PROF_TRACE_BUFFER_KB", "4194304", 1);
    capture_begin(&cap, 2);
    prof_trace_open(path);
    zones(10);
    err = capture_end(&cap);
    CHECK(strstr(err, "PROF_TRACE_BUFFER_KB=4194304 is not a whole number of "
                 "KiB in 4..2097152; using 1024") != NULL, "stderr: %s", err);
}

static void test_exit_and_buffer(void)
{
    pt_trace t;
    const char * w;
    int st;
    set_path("exit.ptrace");
    st = run_child(child_exit_open);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3, "status %d", st);
    CHECK(load_trace(path, &t, &w) == 0 && t.has_end, "read");
    CHECK(count_zones(&t, "z", -1, 0) == 10
          && count_zones(&t, "open at exit", -1, PT_NO_END) == 1
          && count_zones(&t, "leaving", -1, PT_NO_END) == 1, "zones");
    CHECK(strstr(w, "'open at exit' still open at the end") != NULL, "%s", w);
    pt_free(&t);

    set_path("small.ptrace");
    CHECK(run_child(child_small_buffer) == 0, "child failed");
    CHECK(load_trace(path, &t, &w) == 0 && t.events == 20000 && t.lost == 0
          && count_zones(&t, "z", -1, 0) == 10000, "%llu events",
          (unsigned long long) t.events);
    CHECK(w[0] == '\0', "warnings: %s", w);
    pt_free(&t);

    set_path("huge.ptrace");
    CHECK(run_child(child_huge_buffer) == 0, "child failed");
    CHECK(load_trace(path, &t, &w) == 0 && t.events == 20 && t.lost == 0,
          "%llu events", (unsigned long long) t.events);
    pt_free(&t);
}

/* ---- the output path: PROF_TRACE_FILE, the default -------------------------- */

static void child_env_path(void)
{
    setenv("PROF_TRACE_FILE", path, 1);
    zones(3); /* no prof_trace_open: tracing starts here */
}

static void child_default_path(void)
{
    unsetenv("PROF_TRACE_FILE");
    if (chdir(dir) != 0)
        exit(20);
    zones(4);
}

static void test_paths(void)
{
    pt_trace t;
    char def[300] = "";
    set_path("from-env.ptrace");
    CHECK(run_child(child_env_path) == 0, "child failed");
    CHECK(load_trace(path, &t, NULL) == 0 && count_zones(&t, "z", -1, 0) == 3,
          "PROF_TRACE_FILE");
    pt_free(&t);
    /* the default, prof-trace.<pid>.ptrace in the current directory: the
       child's pid is the only one in dir named so */
    CHECK(run_child(child_default_path) == 0, "child failed");
    {
        FILE * ls;
        char cmd[400];
        snprintf(cmd, sizeof cmd, "ls %s | grep '^prof-trace\\.[0-9]*\\.ptrace$'", dir);
        ls = popen(cmd, "r");
        CHECK(ls != NULL && fgets(def, sizeof def, ls) != NULL, "no default file in %s", dir);
        if (ls != NULL)
            pclose(ls);
        def[strcspn(def, "\n")] = '\0';
        snprintf(path, sizeof path, "%s/%s", dir, def);
        CHECK(load_trace(path, &t, NULL) == 0 && count_zones(&t, "z", -1, 0) == 4,
              "default path %s", path);
        pt_free(&t);
    }
}

/* ---- bad outputs ------------------------------------------------------------ */

static void child_bad_output(void)
{
    capture_t c;
    const char * err;
    capture_begin(&c, 2);
    CHECK(prof_trace_open(path) == -1, "open of %s succeeded", path);
    zones(10);
    CHECK(prof_trace_flush() == -1, "flush succeeded");
    CHECK(prof_trace_lost() == 20, "lost %llu", prof_trace_lost());
    err = capture_end(&c);
    CHECK(strstr(err, "profiler: trace: cannot ") != NULL
          && strstr(err, path) != NULL, "stderr: %s", err);
}

static void test_bad_output(void)
{
    set_path("no-such-dir/x.ptrace");
    CHECK(run_child(child_bad_output) == 0, "unwritable path");
    if (access("/dev/full", W_OK) == 0)
    {
        snprintf(path, sizeof path, "/dev/full");
        CHECK(run_child(child_bad_output) == 0, "/dev/full");
    }
}

/* ---- signals ---------------------------------------------------------------- */

static int crash_signal;

static void child_crash(void)
{
    prof_trace_open(path);
    zones(100);
    PROF_ZONE_BEGIN("crashing");
    if (crash_signal == SIGABRT)
        abort();
    raise(crash_signal);
}

static void test_signals(void)
{
    static const int sigs[] = { SIGSEGV, SIGABRT, SIGINT, SIGTERM };
    size_t i;
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    {
        pt_trace t;
        const char * w;
        char name[64];
        int st;
        crash_signal = sigs[i];
        snprintf(name, sizeof name, "signal-%d.ptrace", sigs[i]);
        set_path(name);
        st = run_child(child_crash);
        /* dies by the signal, as without the recorder (a sanitizer's own
           SIGSEGV handler may exit instead) */
        CHECK((WIFSIGNALED(st) && WTERMSIG(st) == sigs[i])
              || (sigs[i] == SIGSEGV && WIFEXITED(st) && WEXITSTATUS(st) != 0),
              "signal %d: status %d", sigs[i], st);
        CHECK(load_trace(path, &t, &w) == 0, "signal %d: read", sigs[i]);
        CHECK(count_zones(&t, "z", -1, 0) == 100
              && count_zones(&t, "crashing", -1, PT_NO_END) == 1,
              "signal %d: %llu events", sigs[i], (unsigned long long) t.events);
        CHECK(t.has_end && t.end_signal == sigs[i], "signal %d: end %d",
              sigs[i], t.end_signal);
        pt_free(&t);
    }
}

/* ---- fork: the child writes its own file ------------------------------------ */

static void child_forks(void)
{
    pid_t pid;
    prof_trace_open(path);
    zones(10);
    PROF_ZONE_BEGIN("unwritten at fork"); /* stays the parent's */
    pid = child_zones(5);
    PROF_ZONE_END("unwritten at fork");
    {
        char p2[300];
        pt_trace t;
        snprintf(p2, sizeof p2, "%s.%ld", path, (long) pid);
        CHECK(load_trace(p2, &t, NULL) == 0 && t.events == 10
              && count_zones(&t, "z", -1, 0) == 5, "fork child: %llu events",
              (unsigned long long) t.events);
        pt_free(&t);
    }
}

static void test_fork(void)
{
    pt_trace t;
    const char * w;
    set_path("fork.ptrace");
    CHECK(run_child(child_forks) == 0, "child failed");
    CHECK(load_trace(path, &t, &w) == 0 && t.events == 22
          && count_zones(&t, "unwritten at fork", -1, 0) == 1, "parent: %llu",
          (unsigned long long) t.events);
    pt_free(&t);
}

int main(void)
{
    if (mkdtemp(dir) == NULL)
        return 1;
    test_flush_and_thread_exit();
    test_exit_and_buffer();
    test_paths();
    test_bad_output();
    test_signals();
    test_fork();
    return finish_in(dir, "test_trace_record");
}
