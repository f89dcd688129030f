/* The recorder never loses or destroys a trace: a second prof_trace_open
   of the same path keeps what was written, and so does going back to an
   earlier file;
   a path that does not fit is refused, never cut (PROF_TRACE_FILE, and a
   forked child's <path>.<pid>); a program with its own SIGTERM handler,
   signalled every millisecond while it flushes, gets a trace with every
   event once (the handler's own are counted as lost), without stalling; a child forked before the
   parent recorded anything keeps its events with PROF_TRACE_FILE set;
   PROF_TRACE_BUFFER_KB is parsed strictly and a buffer above the memory cap
   is said so; buffers are touched when made, so recording does not fault.
   Each case runs in a child process with its own trace file. */
#define PROF_TRACE 1
#define TRACE_TEST_DIR "/tmp/prof-trace-safety-XXXXXX"
#include "trace_util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/stat.h>
#include <time.h>

/* 1 if file p holds exactly text. */
static int has_text(const char * p, const char * text)
{
    const char * s = check_file_text(p);
    return s != NULL && strcmp(s, text) == 0;
}

/* ---- item 5: a second open of the same path -------------------------------- */

static void child_reopen(void)
{
    CHECK(prof_trace_open(path) == 0, "open");
    zones(10);
    CHECK(prof_trace_flush() == 0, "flush");
    CHECK(prof_trace_open(path) == 0, "second open of the same path");
    zones(5);
}

static void test_reopen(void)
{
    pt_trace t;
    const char * w;
    set_path("reopen.ptrace");
    CHECK(run_child(child_reopen) == 0, "child failed");
    CHECK(load_trace(path, &t, &w) == 0 && count_zones(&t, "z", -1, 0) == 15
          && t.lost == 0 && t.has_end, "reopen: %zu zones, lost %llu",
          count_zones(&t, "z", -1, 0), (unsigned long long) t.lost);
    CHECK(w[0] == '\0', "warnings: %s", w);
    pt_free(&t);
}

/* ---- going back to an earlier file ------------------------------------------ */

/* n zones named label */
static void named_zones(const char * label, int n)
{
    int i;
    for (i = 0; i < n; i++)
    {
        PROF_ZONE_BEGIN(label);
        PROF_ZONE_END(label);
    }
}

static char other[300];

/* A, B, then A again: A is appended to, not replaced (a1 was lost, and
   nothing said so); then B again with no new event, and away: B is kept,
   not removed as a file that got no event. */
static void child_back(void)
{
    CHECK(prof_trace_open(path) == 0, "open A");
    named_zones("a1", 3);
    CHECK(prof_trace_flush() == 0, "flush");
    CHECK(prof_trace_open(other) == 0, "open B");
    named_zones("b1", 2);
    CHECK(prof_trace_flush() == 0, "flush");
    CHECK(prof_trace_open(path) == 0, "open A again");
    named_zones("a2", 4);
    CHECK(prof_trace_flush() == 0, "flush");
    CHECK(prof_trace_open(other) == 0, "open B again");
    CHECK(prof_trace_open(path) == 0, "open A a third time");
    named_zones("a3", 1);
    CHECK(prof_trace_lost() == 0, "lost %llu", prof_trace_lost());
}

static void test_back_to_earlier(void)
{
    pt_trace t;
    const char * w;
    set_path("back-b.ptrace");
    snprintf(other, sizeof other, "%s", path);
    set_path("back-a.ptrace");
    CHECK(run_child(child_back) == 0, "child failed");
    CHECK(load_trace(path, &t, &w) == 0 && t.lost == 0 && t.has_end,
          "A: not read, or lost %llu", (unsigned long long) t.lost);
    CHECK(count_zones(&t, "a1", -1, 0) == 3 && count_zones(&t, "a2", -1, 0) == 4
          && count_zones(&t, "a3", -1, 0) == 1 && count_zones(&t, "b1", -1, 0) == 0,
          "A holds %zu a1 (3), %zu a2 (4), %zu a3 (1), %zu b1 (0)",
          count_zones(&t, "a1", -1, 0), count_zones(&t, "a2", -1, 0),
          count_zones(&t, "a3", -1, 0), count_zones(&t, "b1", -1, 0));
    CHECK(w[0] == '\0', "A: warnings: %s", w);
    pt_free(&t);
    CHECK(load_trace(other, &t, &w) == 0 && count_zones(&t, "b1", -1, 0) == 2
          && t.nzones == 2 && t.has_end && w[0] == '\0',
          "B: %zu b1 zones (2) of %zu, warnings: %s", count_zones(&t, "b1", -1, 0),
          t.nzones, w);
    pt_free(&t);
}

/* ---- item 6: paths that do not fit ------------------------------------------ */

static char long_path[4200];

/* dir, then slashes, then name, so that the whole is len bytes (a path with
   repeated slashes names the same file as dir/name). */
static void make_long(const char * name, size_t len)
{
    size_t d = strlen(dir), k = strlen(name);
    memcpy(long_path, dir, d);
    memset(long_path + d, '/', len - d - k);
    memcpy(long_path + len - k, name, k + 1);
}

static void child_long_env(void)
{
    capture_t c;
    const char * err;
    setenv("PROF_TRACE_FILE", long_path, 1);
    capture_begin(&c, 2);
    zones(3);
    CHECK(prof_trace_flush() == -1, "flush to a refused path succeeded");
    CHECK(prof_trace_lost() == 6, "lost %llu", prof_trace_lost());
    err = capture_end(&c);
    CHECK(strstr(err, "profiler: trace: ") != NULL && strstr(err, "too long") != NULL,
          "stderr: %s", err);
}

static void child_fork_long(void)
{
    pid_t pid;
    int st;
    capture_t c;
    const char * err;
    CHECK(prof_trace_open(long_path) == 0, "open of a 4095-byte path");
    zones(10);
    CHECK(prof_trace_flush() == 0, "flush");
    capture_begin(&c, 2); /* the child's message comes at the fork */
    pid = fork();
    if (pid == 0)
    {
        check_failures = 0;
        zones(5);
        CHECK(prof_trace_flush() == -1, "child flush succeeded");
        CHECK(prof_trace_lost() == 10, "child lost %llu", prof_trace_lost());
        _exit(check_failures ? 10 : 0);
    }
    waitpid(pid, &st, 0);
    err = capture_end(&c);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "fork child: status %d: %s",
          st, err);
    CHECK(strstr(err, "too long") != NULL, "child stderr: %s", err);
    zones(2);
}

static void test_long_paths(void)
{
    pt_trace t;
    char victim[300];
    /* the first 4095 bytes of a 4098-byte path name an existing file */
    snprintf(victim, sizeof victim, "%s/victim", dir);
    check_write_file(victim, "precious");
    make_long("victim", 4095);
    strcat(long_path, "xyz");
    CHECK(run_child(child_long_env) == 0, "long PROF_TRACE_FILE");
    CHECK(has_text(victim, "precious"), "the cut path overwrote %s", victim);

    /* a 4095-byte path fits; the child's <path>.<pid> does not */
    make_long("fork-long.ptrace", 4095);
    set_path("fork-long.ptrace");
    CHECK(run_child(child_fork_long) == 0, "fork with a long path");
    CHECK(load_trace(path, &t, NULL) == 0 && count_zones(&t, "z", -1, 0) == 12
          && t.has_end, "parent's trace: %zu zones", count_zones(&t, "z", -1, 0));
    pt_free(&t);
}

/* ---- item 7: flushing from a signal handler --------------------------------- */

static volatile sig_atomic_t handled;
static int killer_done;

static void on_term(int sig)
{
    (void) sig;
    PROF_ZONE_BEGIN("handler");
    PROF_ZONE_END("handler");
    handled++;
}

/* A thread that sends sig to target count times, gap_ns apart, then sets
   killer_done. */
typedef struct
{
    pthread_t target;
    int sig, count;
    long gap_ns;
} sender_t;

static void * killer(void * arg)
{
    const sender_t * s = (const sender_t *) arg;
    int i;
    for (i = 0; i < s->count; i++)
    {
        struct timespec ts = { 0, s->gap_ns };
        pthread_kill(s->target, s->sig);
        nanosleep(&ts, NULL);
    }
    __atomic_store_n(&killer_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* Zones "z" recorded in a loop, with a flush after every 50 (which holds
   the recorder's lock when a signal comes), while a thread sends sig to
   this one count times, gap_ns apart; for at most limit_s. Returns how
   many zones were recorded. */
static long zones_while_signalled(int sig, int count, long gap_ns, double limit_s)
{
    sender_t send;
    pthread_t th;
    long i, n = 0;
    double t0 = mono_ns() * 1e-9;
    send.target = pthread_self();
    send.sig = sig;
    send.count = count;
    send.gap_ns = gap_ns;
    __atomic_store_n(&killer_done, 0, __ATOMIC_RELEASE);
    pthread_create(&th, NULL, killer, &send);
    while (!__atomic_load_n(&killer_done, __ATOMIC_ACQUIRE) && mono_ns() * 1e-9 - t0 < limit_s)
    {
        for (i = 0; i < 50; i++, n++)
        {
            PROF_ZONE_BEGIN("z");
            PROF_ZONE_END("z");
        }
        (void) prof_trace_flush();
    }
    pthread_join(th, NULL);
    return n;
}

static void child_signal_storm(void)
{
    long n;
    double t0;
    char counts[300];
    FILE * f;
    setenv("PROF_TRACE_BUFFER_KB", "4", 1);
    signal(SIGTERM, on_term); /* the program's own handler, before tracing */
    CHECK(prof_trace_open(path) == 0, "open");
    t0 = mono_ns() * 1e-9;
    n = zones_while_signalled(SIGTERM, 400, 1000000, 60);
    /* generous: 400 signals take 0.5 s; they took minutes when each spun
       on a lock that its own thread held */
    CHECK(mono_ns() * 1e-9 - t0 < 20, "%d signals took %.1f s", (int) handled, mono_ns() * 1e-9 - t0);
    CHECK(prof_trace_flush() == 0, "flush");
    snprintf(counts, sizeof counts, "%s.counts", path);
    f = fopen(counts, "w");
    if (f != NULL)
    {
        fprintf(f, "%ld %d %llu\n", n, (int) handled, prof_trace_lost());
        fclose(f);
    }
}

static void test_signal_storm(void)
{
    pt_trace t;
    const char * w;
    char counts[300];
    long n = -1;
    int h = -1;
    unsigned long long lost = 0;
    FILE * f;
    set_path("storm.ptrace");
    CHECK(run_child(child_signal_storm) == 0, "child failed");
    snprintf(counts, sizeof counts, "%s.counts", path);
    f = fopen(counts, "r");
    CHECK(f != NULL && fscanf(f, "%ld %d %llu", &n, &h, &lost) == 3, "no counts");
    if (f != NULL)
        fclose(f);
    /* every event once, or counted as lost: the handler's, which may have
       interrupted the fast path half-way */
    CHECK(load_trace(path, &t, &w) == 0, "read");
    CHECK(count_zones(&t, "z", -1, 0) == (size_t) n && t.events == (uint64_t) (2 * n)
          && lost == (unsigned long long) (2 * h) && t.lost == lost,
          "%zu z of %ld, %llu events, %llu lost, %d handled",
          count_zones(&t, "z", -1, 0), n, (unsigned long long) t.events, lost, h);
    CHECK(strstr(w, "time goes back") == NULL && strstr(w, "unreadable") == NULL
          && strstr(w, "label@") == NULL && strstr(w, "no string") == NULL
          && strstr(w, "without a begin") == NULL, "warnings: %.2000s", w);
    pt_free(&t);
}

/* ---- the API called from a handler that interrupted the recorder --------- */

/* A SIGUSR2 handler calls prof_trace_flush and prof_trace_thread_name
   while the main thread flushes in a loop, so that it often interrupts the
   thread while it holds the recorder's lock, which it cannot release
   before the handler returns: the calls must give up (-1, the name kept),
   not wait for it forever. The events all reach the file. */
static volatile sig_atomic_t api_calls, api_refused;

static void on_usr2(int sig)
{
    int e = errno;  /* the flush's write may set it */
    (void) sig;
    api_calls++;
    if (prof_trace_flush() != 0)
        api_refused++;
    prof_trace_thread_name("renamed");
    errno = e;
}

static void child_api_in_handler(void)
{
    long n;
    char counts[300];
    FILE * f;
    signal(SIGUSR2, on_usr2);
    alarm(60);      /* a hang is a failure, not a stuck test */
    CHECK(prof_trace_open(path) == 0, "open");
    PROF_ZONE_BEGIN("z");   /* the thread's buffer, made outside a handler */
    PROF_ZONE_END("z");
    n = 1 + zones_while_signalled(SIGUSR2, 300, 500000, 50);
    alarm(0);
    CHECK(prof_trace_flush() == 0, "flush");
    snprintf(counts, sizeof counts, "%s.counts", path);
    f = fopen(counts, "w");
    if (f != NULL)
    {
        fprintf(f, "%ld %d %d\n", n, (int) api_calls, (int) api_refused);
        fclose(f);
    }
}

static void test_api_in_handler(void)
{
    pt_trace t;
    char counts[300];
    long n = -1;
    int calls = -1, refused = -1;
    FILE * f;
    set_path("api-handler.ptrace");
    CHECK(run_child(child_api_in_handler) == 0, "child failed (a hang ends "
          "by SIGALRM)");
    snprintf(counts, sizeof counts, "%s.counts", path);
    f = fopen(counts, "r");
    CHECK(f != NULL && fscanf(f, "%ld %d %d", &n, &calls, &refused) == 3,
          "no counts");
    if (f != NULL)
        fclose(f);
    CHECK(calls > 0 && refused <= calls, "%d calls, %d refused", calls, refused);
    CHECK(load_trace(path, &t, NULL) == 0 && count_zones(&t, "z", -1, 0) == (size_t) n
          && t.lost == 0, "%zu z of %ld, %llu lost", count_zones(&t, "z", -1, 0),
          n, (unsigned long long) t.lost);
    pt_free(&t);
}

/* ---- a handler that records, outside the recorder's chain ------------------ */

/* A SIGALRM handler, installed before tracing (the recorder chains only the
   fatal signals), records a zone every 20 us while the program records in a
   loop. It interrupts the markers' fast path anywhere, also when its own
   event takes the slow path and moves the thread to another buffer (a
   hand-off) or back to the start of its one buffer (4 KiB buffers): the
   interrupted marker's late store must not send the thread past a buffer's
   end (it crashed) nor write events twice (it did, 4 KiB buffers). What a
   handler costs the code it interrupts is at most that code's event, so
   the program's zones are all there but one per signal, and none twice. */

static volatile sig_atomic_t ticks_handled;
/* zones the handler records per signal; above 1, the program's loop also
   goes round ALARM_LABELS labels, more than the fast path's cache holds, so
   that most of its events take the slow path, and a burst (more events
   than a 4 KiB buffer holds) lands between the slow path's making room and
   its writing the event (it wrote past the buffer's end) */
static int alarm_burst = 1;
enum { ALARM_LABELS = 300 };
static const char * alarm_labels[ALARM_LABELS];

static void on_alarm(int sig)
{
    int i;
    (void) sig;
    for (i = 0; i < alarm_burst; i++)
    {
        PROF_ZONE_BEGIN("tick");
        PROF_ZONE_END("tick");
    }
    ticks_handled++;
}

static const char * alarm_buffer_kb;

/* The program's label for its i-th zone: "z", or one of ALARM_LABELS
   (all counted as "z" when read back). */
static const char * alarm_label(long i)
{
    static char names[ALARM_LABELS][8];
    if (alarm_burst == 1)
        return "z";
    if (alarm_labels[0] == NULL)
    {
        int k;
        for (k = 0; k < ALARM_LABELS; k++)
        {
            snprintf(names[k], sizeof names[k], "z%d", k);
            alarm_labels[k] = names[k];
        }
    }
    return alarm_labels[i % ALARM_LABELS];
}

/* Under ThreadSanitizer no writer thread: a buffer handed off by the
   handler may still get the interrupted marker's one late word while the
   writer thread writes it (memory-safe, documented in
   src/trace/trace_impl.h), which TSan rightly reports as a race. Every
   buffer is then written and started again by its thread. */
#if defined(__SANITIZE_THREAD__)
# define ALARM_NO_WRITER 1
#elif defined(__has_feature)
# if __has_feature(thread_sanitizer)
#  define ALARM_NO_WRITER 1
# endif
#endif

static void child_alarm(void)
{
    struct sigaction sa;
    struct itimerval it = { { 0, 20 }, { 0, 20 } }, off = { { 0, 0 }, { 0, 0 } };
    sigset_t alrm;
    long n = 0, i;
    double t0;
    char counts[300];
    FILE * f;
    if (alarm_buffer_kb != NULL)
        setenv("PROF_TRACE_BUFFER_KB", alarm_buffer_kb, 1);
#if defined(ALARM_NO_WRITER)
    setenv("PROF_TRACE_WRITER", "0", 1);
#endif
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    CHECK(prof_trace_open(path) == 0, "open");
    /* The thread's buffer, its second one (a hand-off), the writer thread
       and both labels are made on first use, with malloc, which a handler
       must not call: all made here, before the first signal. */
    for (i = 0; i < 70000; i++, n++)
    {
        PROF_ZONE_BEGIN(alarm_label(i));
        PROF_ZONE_END(alarm_label(i));
    }
    t0 = mono_ns();
    on_alarm(SIGALRM);
    if (alarm_burst > 1)
    {
        /* a burst takes a while (more under a sanitizer or qemu): signals
           ten of them apart, so that the program goes on between them */
        long us = (long) ((mono_ns() - t0) * 1e-3 * 10) + 20;
        it.it_interval.tv_sec = it.it_value.tv_sec = us / 1000000;
        it.it_interval.tv_usec = it.it_value.tv_usec = us % 1000000;
    }
    setitimer(ITIMER_REAL, &it, NULL);
    t0 = mono_ns() * 1e-9;
    while (mono_ns() * 1e-9 - t0 < 1.0)
        for (i = 0; i < 4096; i++, n++)
        {
            PROF_ZONE_BEGIN(alarm_label(i));
            PROF_ZONE_END(alarm_label(i));
        }
    setitimer(ITIMER_REAL, &off, NULL);
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    sigprocmask(SIG_BLOCK, &alrm, NULL);
    CHECK(prof_trace_flush() == 0, "flush");
    snprintf(counts, sizeof counts, "%s.counts", path);
    f = fopen(counts, "w");
    if (f != NULL)
    {
        fprintf(f, "%ld %d %llu\n", n, (int) ticks_handled, prof_trace_lost());
        fclose(f);
    }
}

/* Zones by name and whether matched, as the reader streams them. */
typedef struct { unsigned long long z, z_bad, tick, tick_bad; } alarm_zones;

static void count_alarm_zone(void * ctx, const pt_trace * t, const pt_zone * z)
{
    alarm_zones * c = (alarm_zones *) ctx;
    int tick = strcmp(z->name, "tick") == 0;
    (void) t;
    if (z->flags == 0)
        tick ? c->tick++ : c->z++;
    else
        tick ? c->tick_bad++ : c->z_bad++;
}

static void test_alarm_handler(const char * buffer_kb, int burst)
{
    pt_trace t;
    pt_options o;
    pt_handler h;
    alarm_zones c;
    char counts[300];
    long n = -1;
    int handled = -1, st;
    unsigned long long lost = 0;
    FILE * f, * w = tmpfile();
    static char warnings[4096];
    size_t k = 0;
    alarm_buffer_kb = buffer_kb;
    alarm_burst = burst;
    set_path("alarm.ptrace");
    st = run_child(child_alarm);
    CHECK(st == 0, "PROF_TRACE_BUFFER_KB=%s: child status %d (signal %d)",
          buffer_kb ? buffer_kb : "(default)", st, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    snprintf(counts, sizeof counts, "%s.counts", path);
    f = fopen(counts, "r");
    CHECK(f != NULL && fscanf(f, "%ld %d %llu", &n, &handled, &lost) == 3, "no counts");
    if (f != NULL)
        fclose(f);
    memset(&c, 0, sizeof c);
    memset(&o, 0, sizeof o);
    o.warn = w;
    pt_handler_init(&h, &c);
    h.begin = NULL;
    h.zone = count_alarm_zone;
    CHECK(pt_stream(path, &o, &h, &t) == 0, "read");
    if (w != NULL)
    {
        rewind(w);
        k = fread(warnings, 1, sizeof warnings - 1, w);
        fclose(w);
    }
    warnings[k] = '\0';
    /* none twice; the program's zones all there but one per signal */
    CHECK(st == 0 && c.z <= (unsigned long long) n
          && c.tick <= (unsigned long long) handled * burst
          && t.events <= 2 * (unsigned long long) (n + handled * burst)
          && c.z + (unsigned long long) handled + lost >= (unsigned long long) n
          && t.lost == lost,
          "PROF_TRACE_BUFFER_KB=%s, %d a signal: %llu z (+%llu unmatched) of "
          "%ld, %llu tick (+%llu) of %d, %llu events, %llu lost (%llu in the file)",
          buffer_kb ? buffer_kb : "(default)", burst, c.z, c.z_bad, n, c.tick,
          c.tick_bad, handled * burst, (unsigned long long) t.events, lost,
          (unsigned long long) t.lost);
    CHECK(strstr(warnings, "time goes back") == NULL
          && strstr(warnings, "unreadable") == NULL && strstr(warnings, "damaged") == NULL
          && strstr(warnings, "label@") == NULL, "PROF_TRACE_BUFFER_KB=%s: warnings: %.2000s",
          buffer_kb ? buffer_kb : "(default)", warnings);
    pt_free(&t);
    if (check_failures == 0)
        unlink(path);
}

/* ---- the recorder's handler keeps the program's flags and mask -------------- */

/* A SIGTERM handler installed before tracing with SA_ONSTACK, SA_RESTART
   and SIGUSR1 in its mask: the recorder's handler, installed in front of
   it, keeps all three (it dropped them), and the program's handler runs
   on the alternate stack with SIGUSR1 blocked. */

static volatile sig_atomic_t term_on_stack, term_usr1_blocked, term_calls;
static char * alt_stack_lo, * alt_stack_hi;

static void on_term_flags(int sig)
{
    sigset_t now;
    char here;
    (void) sig;
    term_calls++;
    term_on_stack = &here >= alt_stack_lo && &here < alt_stack_hi;
    sigprocmask(SIG_BLOCK, NULL, &now);
    term_usr1_blocked = sigismember(&now, SIGUSR1) == 1;
}

static void child_keeps_flags(void)
{
    static char stack_mem[1 << 16];
    struct sigaction sa, now;
    stack_t ss;
    ss.ss_sp = stack_mem;
    ss.ss_size = sizeof stack_mem;
    ss.ss_flags = 0;
    alt_stack_lo = stack_mem;
    alt_stack_hi = stack_mem + sizeof stack_mem;
    CHECK(sigaltstack(&ss, NULL) == 0, "sigaltstack");
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term_flags;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR1);
    sa.sa_flags = SA_ONSTACK | SA_RESTART;
    sigaction(SIGTERM, &sa, NULL);
    CHECK(prof_trace_open(path) == 0, "open");
    zones(3);
    CHECK(sigaction(SIGTERM, NULL, &now) == 0
          && (now.sa_flags & SA_ONSTACK) && (now.sa_flags & SA_RESTART)
          && sigismember(&now.sa_mask, SIGUSR1) == 1,
          "the recorder's SIGTERM action: flags %#x, SIGUSR1 %s the mask",
          (unsigned) now.sa_flags,
          sigismember(&now.sa_mask, SIGUSR1) == 1 ? "in" : "not in");
    raise(SIGTERM);
    CHECK(term_calls == 1 && term_on_stack && term_usr1_blocked,
          "the program's handler: %d calls, on the alternate stack %d, "
          "SIGUSR1 blocked %d", (int) term_calls, (int) term_on_stack,
          (int) term_usr1_blocked);
}

static void test_keeps_flags(void)
{
    set_path("flags.ptrace");
    CHECK(run_child(child_keeps_flags) == 0, "child failed");
}

/* ---- losses not yet told stay with the thread that had them ---------------- */

/* With no file (an open that failed), a thread's events are lost and not
   yet told in a LOST chunk when it exits. A new thread that reuses its
   record, and a child forked while they are untold, got them as their
   own (the count was never reset). */

static char no_file[300];

static void * ten_zones(void * arg)
{
    (void) arg;
    zones(10);
    return NULL;
}

static void child_lost_reuse(void)
{
    pthread_t th;
    CHECK(prof_trace_open(no_file) == -1, "open of %s", no_file);
    pthread_create(&th, NULL, ten_zones, NULL);
    pthread_join(th, NULL);
    CHECK(prof_trace_lost() == 20, "lost %llu", prof_trace_lost());
    CHECK(prof_trace_open(path) == 0, "open");
    pthread_create(&th, NULL, ten_zones, NULL); /* reuses the first's record */
    pthread_join(th, NULL);
}

static void child_lost_fork(void)
{
    char child_path[300];
    pid_t pid;
    pt_trace t;
    const char * w;
    CHECK(prof_trace_open(no_file) == -1, "open of %s", no_file);
    zones(10);
    CHECK(prof_trace_flush() != 0 && prof_trace_lost() == 20, "lost %llu",
          prof_trace_lost());
    CHECK(prof_trace_open(path) == 0, "open");
    pid = child_zones(3);
    snprintf(child_path, sizeof child_path, "%s.%ld", path, (long) pid);
    CHECK(load_trace(child_path, &t, &w) == 0 && t.nthreads == 1
          && t.threads[0].lost == 0 && t.lost == 0 && count_zones(&t, "z", -1, 0) == 3,
          "fork: the child's trace says %llu lost (%llu for its thread)",
          (unsigned long long) t.lost,
          (unsigned long long) (t.nthreads > 0 ? t.threads[0].lost : 0));
    pt_free(&t);
}

static void test_lost_not_inherited(void)
{
    pt_trace t;
    const char * w;
    size_t i;
    snprintf(no_file, sizeof no_file, "%s/no-such-dir/x.ptrace", dir);
    set_path("lost-reuse.ptrace");
    CHECK(run_child(child_lost_reuse) == 0, "child failed");
    CHECK(load_trace(path, &t, &w) == 0, "read");
    for (i = 0; i < t.nthreads; i++)
        CHECK(t.threads[i].lost == 0, "reuse: thread %u says %llu lost",
              t.threads[i].tid, (unsigned long long) t.threads[i].lost);
    CHECK(t.lost == 20 && count_zones(&t, "z", -1, 0) == 10,
          "reuse: %llu lost in all (20), %zu zones (10)",
          (unsigned long long) t.lost, count_zones(&t, "z", -1, 0));
    pt_free(&t);
    set_path("lost-fork.ptrace");
    CHECK(run_child(child_lost_fork) == 0, "child failed");
}

/* ---- no thread-exit key left: tracing off, said so ------------------------- */

/* Every pthread key taken before tracing starts: the recorder cannot flush
   at thread exit, so it turns tracing off with a message; events count as
   lost, nothing crashes. (Its result was not checked.) */

static void child_no_key(void)
{
    pthread_key_t k;
    char out[300], text[2048];
    int n = 0, fd, saved;
    size_t got = 0;
    FILE * f;
    while (n < 100000 && pthread_key_create(&k, NULL) == 0)
        n++;
    snprintf(out, sizeof out, "%s.stderr", path);
    fflush(stderr);
    saved = dup(2);
    fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0)
        dup2(fd, 2);
    n = prof_trace_open(path);
    zones(5);
    fflush(stderr);
    dup2(saved, 2);
    if (fd >= 0)
        close(fd);
    CHECK(n == -1, "open with no pthread key left: %d", n);
    CHECK(prof_trace_lost() == 10 && prof_trace_flush() == 0,
          "lost %llu of 10 events", prof_trace_lost());
    f = fopen(out, "r");
    if (f != NULL)
    {
        got = fread(text, 1, sizeof text - 1, f);
        fclose(f);
    }
    text[got] = '\0';
    CHECK(strstr(text, "profiler: trace: pthread_key_create failed: tracing is off") != NULL,
          "message: %s", text);
    unlink(out);
}

static void test_no_key(void)
{
    set_path("no-key.ptrace");
    CHECK(run_child(child_no_key) == 0, "child failed");
}

/* ---- item 9: PROF_TRACE_FILE and a fork before the first event ------------- */

static void child_fork_first(void)
{
    pid_t pid;
    char p2[300];
    pt_trace t;
    setenv("PROF_TRACE_FILE", path, 1);
    pid = child_zones(5);
    zones(3);
    snprintf(p2, sizeof p2, "%s.%ld", path, (long) pid);
    CHECK(load_trace(p2, &t, NULL) == 0 && count_zones(&t, "z", -1, 0) == 5
          && t.has_end, "the child's trace %s: %zu zones", p2,
          count_zones(&t, "z", -1, 0));
    pt_free(&t);
}

static void test_fork_before_start(void)
{
    pt_trace t;
    set_path("fork-first.ptrace");
    CHECK(run_child(child_fork_first) == 0, "child failed");
    CHECK(load_trace(path, &t, NULL) == 0 && count_zones(&t, "z", -1, 0) == 3
          && t.has_end, "the parent's trace: %zu zones", count_zones(&t, "z", -1, 0));
    pt_free(&t);
}

/* ---- item 15: PROF_TRACE_BUFFER_KB ------------------------------------------ */

static const char * buffer_kb, * memory_kb;
static const char * expect_msg;

static void child_buffer_env(void)
{
    capture_t c;
    const char * err;
    pt_trace t;
    setenv("PROF_TRACE_BUFFER_KB", buffer_kb, 1);
    if (memory_kb != NULL)
        setenv("PROF_TRACE_MEMORY_KB", memory_kb, 1);
    capture_begin(&c, 2);
    CHECK(prof_trace_open(path) == 0, "open");
    zones(1000);
    err = capture_end(&c);
    CHECK(strstr(err, expect_msg) != NULL, "PROF_TRACE_BUFFER_KB=%s: stderr: %s",
          buffer_kb, err);
    /* the smallest buffer is 256 events of 8 bytes, as the message says */
    CHECK(strstr(expect_msg, "buffers of") == NULL
          || strstr(err, " KiB (later threads get 2 KiB ones)") != NULL,
          "PROF_TRACE_BUFFER_KB=%s: stderr: %s", buffer_kb, err);
    /* a big buffer (the default's 1 MiB, or the one asked for): nothing has
       been written yet; the smallest one (2 KiB) would have been written 7 times */
    CHECK(load_trace(path, &t, NULL) == 0 && t.events == 0,
          "PROF_TRACE_BUFFER_KB=%s: %llu events written early", buffer_kb,
          (unsigned long long) t.events);
    pt_free(&t);
}

static void test_buffer_env(void)
{
    /* buffer, memory cap, message (the default cap of 256 MiB behaves as
       the small one here: 300000 KiB gave the smallest buffers, silently) */
    static const char * const cases[][3] = {
        { "64abc", NULL, "PROF_TRACE_BUFFER_KB=64abc is not a whole number of "
                         "KiB in 4..2097152; using 1024" },
        { "", NULL, NULL },
        { "-8", NULL, "PROF_TRACE_BUFFER_KB=-8 is not a whole number of KiB in "
                      "4..2097152; using 1024" },
        { "16384", "8192", "PROF_TRACE_BUFFER_KB=16384 is more than the memory "
                           "cap of all buffers, PROF_TRACE_MEMORY_KB=8192: "
                           "buffers of " },
        { "1024", "64k", "PROF_TRACE_MEMORY_KB=64k is not a whole number of KiB "
                         "in 4..1073741824; using 262144" },
    };
    size_t i;
    set_path("buffer-env.ptrace");
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
        buffer_kb = cases[i][0];
        memory_kb = cases[i][1];
        expect_msg = cases[i][2] != NULL ? cases[i][2] : "";
        CHECK(run_child(child_buffer_env) == 0, "PROF_TRACE_BUFFER_KB=%s", buffer_kb);
    }
}

/* ---- item 21: buffers are touched when made -------------------------------- */

/* A sanitizer's shadow memory faults on first use too: not counted there. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
# define SANITIZED 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#  define SANITIZED 1
# endif
#endif

#if !defined(SANITIZED)
static long minor_faults(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

static void child_faults(void)
{
    long before, after;
    setenv("PROF_TRACE_BUFFER_KB", "8192", 1); /* 2048 pages */
    CHECK(prof_trace_open(path) == 0, "open");
    PROF_ZONE_BEGIN("first"); /* takes the buffer */
    before = minor_faults();
    zones(200000); /* 3.1 MiB of events: 781 pages if not touched before */
    after = minor_faults();
    PROF_ZONE_END("first");
    CHECK(after - before < 300, "%ld page faults while recording", after - before);
}
#endif

static void test_faults(void)
{
#if !defined(SANITIZED)
    set_path("faults.ptrace");
    CHECK(run_child(child_faults) == 0, "child failed");
#endif
}

int main(void)
{
    if (mkdtemp(dir) == NULL)
        return 1;
    test_reopen();
    test_back_to_earlier();
    test_long_paths();
    test_signal_storm();
    test_api_in_handler();
    test_alarm_handler(NULL, 1);   /* default buffers: a hand-off now and then */
    test_alarm_handler("32", 1);   /* the smallest handed off: one every 4096 events */
    test_alarm_handler("4", 1);    /* too small to hand off: written and started again */
    test_alarm_handler("4", 300);  /* bursts that fill it inside the slow path */
    test_keeps_flags();
    test_lost_not_inherited();
    test_no_key();
    test_fork_before_start();
    test_buffer_env();
    test_faults();
    return finish_in(dir, "test_trace_safety");
}
