/* Worker processes (prof_bench_set_processes): real workers, which are
   this program run again, pooled exactly under the fake clock (worker k's
   iterations cost 10 + k ns), and the JSON's median the result's; a
   worker that crashes, hangs, exits, sends
   garbage or runs other benchmarks, or starts processes that outlive it
   (leak); Ctrl-C in the parent; bad numbers of processes; stale or wrong
   worker markers (marker); the wire format's round trip and its refusals,
   and pooling past INT_MAX epochs refused.
       test_workers MODE     MODE: pool, compare, crash, exit, garbage,
                             mismatch, hang, leak, signal, args, marker,
                             wire
   Every mode but signal and wire runs the same suite: this process is the
   parent; its workers run the same main and fail where MODE says. */
#include "check.h"
#include "bench.h"
#include "bench_check.h"
#include "fail_alloc.h"

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

static const char * mode = "pool";

/* This process's worker number (-1 in the parent), from the marker. */
static int worker_number(void)
{
    const char * v = getenv("PROFILER_WORKER");
    const char * comma = v ? strchr(v, ',') : NULL;
    return comma ? atoi(comma + 1) : -1;
}

/* "leak": where worker 2 writes the pids of the processes it leaves
   behind, for the parent to end them (the parent's pid in the name). */
static const char * leak_file(long parent)
{
    static char path[64];
    snprintf(path, sizeof path, "test_workers_leak.%ld.pids", parent);
    return path;
}

/* "leak": worker 2 starts two processes that outlive it by 30 s, longer
   than the parent's 10.5 s limit: a shell's background sleep (exec: the
   pipe must be close-on-exec by then; it holds the worker's stderr, a
   pipe to the parent too) and a fork without exec (it holds the pipe
   open: the parent must stop at the worker's exit). */
static void leak(void)
{
    static int done;
    char cmd[200];
    FILE * f;
    pid_t pid;
    int fd = atoi(getenv("PROFILER_WORKER"));
    if (done++)
        return;
    if ((fcntl(fd, F_GETFD) & FD_CLOEXEC) == 0)
        fputs("the worker's pipe is not close-on-exec\n", stderr);
    snprintf(cmd, sizeof cmd, "sleep 30 & echo $! >> %s",
             leak_file((long) getppid()));
    (void) !system(cmd);
    fflush(NULL);
    pid = fork();
    if (pid == 0)
    {
        sleep_ms(30000);
        _exit(0);
    }
    f = fopen(leak_file((long) getppid()), "a");
    if (f != NULL)
    {
        fprintf(f, "%ld\n", (long) pid);
        fclose(f);
    }
}

/* A measure: the iterations run so far. */
static double iterations_run;
static double read_iterations(void * arg)
{
    (void) arg;
    return iterations_run;
}

/* Iterations cost 10 + k ns in worker k, and count 2 in "twice" (5 in
   "only3" in worker 3); in "b", worker 1 misbehaves as the mode says. */
static void target(void * arg, ulong count)
{
    const char * name = (const char *) arg;
    int k = worker_number();
    if (k == 1 && strcmp(name, "b") == 0)
    {
        if (strcmp(mode, "crash") == 0)
            raise(SIGABRT);     /* a failed assert(); sanitizers leave it be */
        if (strcmp(mode, "exit") == 0)
            exit(3);
        if (strcmp(mode, "hang") == 0)
            for (;;)
                sleep_ms(1000);
        if (strcmp(mode, "leak") == 0)
            leak();
        if (strcmp(mode, "garbage") == 0)
        {
            int fd = atoi(getenv("PROFILER_WORKER"));
            (void) !write(fd, "this is not a record, not at all", 32);
        }
    }
    if (strcmp(mode, "echo") == 0 && k >= 0 && strcmp(name, "a") == 0)
    {
        static int said;
        if (!said++)
        {
            prof_impl_warn("the same warning in every worker");
            if (k == 1)
                fputs("only worker 2 says this\n", stderr);
        }
    }
    fake_now += (10.0 + (k > 0 ? k : 0)) * (double) count;
    iterations_run += (double) count;
    prof_user_count(prof_user_counter("twice", 0), 2.0 * (double) count);
    if (k == 2)     /* a column only worker 3 has */
        prof_user_count(prof_user_counter("only3", 0), 5.0 * (double) count);
}

/* "d" (pool mode): call j of worker k costs (10 + k) x 1 or 3 ns per
   iteration, by the call's place in a fixed cycle, so that the median of
   the pooled epochs is not the median of the process medians. */
static void uneven(void * arg, ulong count)
{
    static const double f[5] = { 1, 3, 1, 3, 1 };
    static int j;
    int k = worker_number();
    (void) arg;
    fake_now += (10.0 + (k > 0 ? k : 0)) * f[j++ % 5] * (double) count;
}

/* The median of the samples of x, all processes pooled. */
static double pooled_median(const prof_result * x)
{
    double v[256];
    int i, j, n = x->epochs < 256 ? x->epochs : 256;
    for (i = 0; i < n; i++)     /* insertion sort: a few dozen epochs */
    {
        double t = x->samples_ns[i];
        for (j = i; j > 0 && v[j - 1] > t; j--)
            v[j] = v[j - 1];
        v[j] = t;
    }
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The real_time of the JSON entry named name in json, or NaN. */
static double json_real_time(const char * json, const char * name)
{
    char key[64];
    const char * at;
    snprintf(key, sizeof key, "\"name\": \"%s\"", name);
    at = strstr(json, key);
    at = at ? strstr(at, "\"real_time\": ") : NULL;
    return at ? strtod(at + 13, NULL) : NAN;
}

/* The suite's settings: a short budget, the processes, a measure; in
   "echo", the progress line drawn at once, as at a terminal. */
static void set_up(prof_bench * b, int processes)
{
    prof_bench_set_budget_s(b, 0.05);
    CHECK(prof_bench_set_processes(b, processes) == 0, "processes");
    prof_bench_add_measure(b, "iters", NULL, read_iterations,
                           read_iterations, NULL);
    if (strcmp(mode, "echo") != 0)
        return;
    prof_bench_set_terminal(b, PROF_TERMINAL_ALWAYS);
    prof_impl_progress_after_s = 0.0;
}

/* a, b and c in 3 workers; the checks are the parent's. */
static int suite(int processes, const char ** err)
{
    static char na[] = "a", nb[] = "b", nc[] = "c";
    prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
    const prof_result * r[3], * d;
    capture_t cap;
    int rc, parent = worker_number() < 0;
    set_up(b, processes);
    if (parent)
        capture_begin(&cap, 2);
    r[0] = prof_bench_run(b, "a", target, na);
    r[1] = prof_bench_run(b, strcmp(mode, "mismatch") == 0
                             && worker_number() == 1 ? "bx" : "b", target, nb);
    r[2] = prof_bench_run(b, "c", target, nc);
    d = strcmp(mode, "pool") == 0 ? prof_bench_run(b, "d", uneven, NULL)
      : NULL;
    rc = prof_bench_finish(b);
    if (parent)
        *err = capture_end(&cap);
    if (parent && strcmp(mode, "pool") == 0)
    {
        const prof_result * x = r[0];
        int k, ok = 1;
        CHECK(rc == 0, "finish: %d; stderr: %s", rc, *err);
        CHECK(x && x->processes == 3 && x->epochs == 33, "a: %d processes, "
              "%d epochs", x ? x->processes : -1, x ? x->epochs : -1);
        for (k = 0; x && k < 33; k++)
            ok &= x->epoch_process[k] == k / 11
               && x->samples_ns[k] == 10.0 + k / 11;
        CHECK(ok, "epochs in worker order, 10 + k ns each");
        CHECK(x && x->process_median_ns[0] == 10.0
              && x->process_median_ns[1] == 11.0
              && x->process_median_ns[2] == 12.0, "process medians");
        CHECK(x && x->median_ns == 11.0, "median of the medians %g",
              x ? x->median_ns : -1);
        CHECK(x && near(x->between_pct, 100.0 / 11.0) && x->within_pct == 0.0,
              "between %g within %g", x ? x->between_pct : -1,
              x ? x->within_pct : -1);
        /* 3 processes: [min, max] of the medians at 75%, widened by
           sqrt(2) about the median */
        CHECK(x && near(x->ci_level, 0.75) && near(x->ci_low_ns, 11.0 - sqrt(2.0))
              && near(x->ci_high_ns, 11.0 + sqrt(2.0)), "interval [%.17g, "
              "%.17g] at %g", x ? x->ci_low_ns : 0, x ? x->ci_high_ns : 0,
              x ? x->ci_level : 0);
        CHECK(x && strstr(x->warning, "3 processes: the interval's level is "
                          "75.0% (6 give 95%)"), "warning: %s",
              x ? x->warning : "");
        /* the user columns pooled: a column of one worker only has its
           epochs */
        CHECK(x && x->nuser == 3 && prof_result_user(x, "iters") == 1.0
              && prof_result_user(x, "twice") == 2.0
              && prof_result_user(x, "only3") == 5.0
              && strcmp(x->user_names[2], "only3") == 0, "user: %d columns",
              x ? x->nuser : -1);
        /* the JSON's median is the result's (the median of the process
           medians), not the pooled epochs' */
        {
            FILE * f = tmpfile();
            char * json;
            double pooled = d ? pooled_median(d) : NAN;
            prof_bench_set_json_epochs(b, 1);    /* d_median */
            prof_bench_write(f, b, PROF_FORMAT_JSON);
            json = check_slurp(f);
            CHECK(d && d->processes == 3 && pooled != d->median_ns,
                  "d: the pooled median %g, the result's %g", pooled,
                  d ? d->median_ns : -1);
            CHECK(d && near(json_real_time(json, "d_median"), d->median_ns),
                  "d: JSON median %g, the result's %g",
                  json_real_time(json, "d_median"), d ? d->median_ns : -1);
            CHECK(d && near(json_real_time(json, "d_mean"), d->mean_ns),
                  "d: JSON mean %g, the result's %g",
                  json_real_time(json, "d_mean"), d ? d->mean_ns : -1);
            fclose(f);
        }
    }
    prof_bench_free(b);
    return rc;
}

/* The parent's view of a failing worker 1 in benchmark b. */
static void check_failure(const char * err, int rc, const char * why)
{
    CHECK(rc == -1, "finish returned %d with a failed worker", rc);
    CHECK(strstr(err, "profiler: worker 2 of 3 (pid ") && strstr(err, why),
          "message [%s] wanted [%s]", err, why);
}

/* What the workers print: each line once, with the number of processes
   that printed it; never on the progress line, which shows [i/n] and an
   ETA once the first worker has said how many benchmarks there are. */
static void check_echo(const char * err, int rc)
{
    const char * all = "profiler: the same warning in every worker (in 3 of "
                       "3 processes)\n";
    const char * at = strstr(err, all);
    CHECK(rc == 0, "echo: finish %d", rc);
    CHECK(at != NULL && check_count(err, "the same warning") == 1
          && check_count(err, "only worker 2 says this (in 1 of 3 "
                         "processes)\n") == 1, "echo: stderr [%s]", err);
    /* after a newline or the progress line's erasure, never after it */
    CHECK(at != NULL && (at == err || at[-1] == '\n'
          || (at - err >= 4 && memcmp(at - 4, "\r\033[K", 4) == 0)),
          "echo: a worker's line on the progress line [%s]", err);
    CHECK(strstr(err, "\rprofiler: worker 1 of 3: a (")
          && check_matches(err, "\rprofiler: \\[[0-9]+/[0-9]+\\] worker 3 of 3: "
                           "c \\([0-9.]+ s, ETA [0-9.]+ s\\)"),
          "echo: the progress line [%s]", err);
}

/* "leak": the run ends when its workers end, not when the processes
   they started do (30 s) nor at the 10.5 s limit; those processes are
   ended here. */
static void check_leak(const char * err, int rc, double wall_s)
{
    FILE * f = fopen(leak_file((long) getpid()), "r");
    long pid;
    int ended = 0;
    while (f != NULL && fscanf(f, "%ld", &pid) == 1)
        ended += pid > 1 && kill((pid_t) pid, SIGKILL) == 0;
    if (f != NULL)
        fclose(f);
    remove(leak_file((long) getpid()));
    CHECK(ended == 2, "leak: %d of the 2 processes left behind found", ended);
    CHECK(rc == 0 && !strstr(err, "sent nothing")
          && !strstr(err, "close-on-exec"), "leak: finish %d [%s]", rc, err);
    CHECK(wall_s < 8.0, "leak: the run took %.1f s (the limit is 10.5 s)",
          wall_s);
}

static void test_modes(void)
{
    const char * err = "";
    double t0 = mono_ns();
    int rc = suite(3, &err);
    if (worker_number() >= 0 || strcmp(mode, "pool") == 0)
        return;
    if (strcmp(mode, "leak") == 0)
        check_leak(err, rc, (mono_ns() - t0) * 1e-9);
    if (strcmp(mode, "crash") == 0)
        check_failure(err, rc, "was killed by signal 6 (Aborted) "
                      "while running \"b\"; the other results are kept");
    else if (strcmp(mode, "exit") == 0)
        check_failure(err, rc, "exited with status 3 while running \"b\"");
    else if (strcmp(mode, "garbage") == 0)
        check_failure(err, rc, "sent a damaged record (not a worker record) "
                      "while running \"b\"");
    else if (strcmp(mode, "hang") == 0)
        check_failure(err, rc, "sent nothing for 10.5 s (10 x the budget + "
                      "10 s): stopped while running \"b\"");
    else if (strcmp(mode, "echo") == 0)
        check_echo(err, rc);
    else if (strcmp(mode, "mismatch") == 0)
        CHECK(rc == -1 && strstr(err, "profiler: worker 2 of 3 ran \"bx\" as "
              "its benchmark 2, not \"b\": the program's benchmarks differ "
              "between runs"), "mismatch: %d [%s]", rc, err);
}

/* How many processes but `except` carry tag in their environment (-1 when
   /proc cannot be searched). */
static int tagged_processes(const char * tag, pid_t except)
{
    char cmd[200];
    FILE * p;
    int n = -1;
    snprintf(cmd, sizeof cmd, "grep -l -a '%s' /proc/[0-9]*/environ "
             "2>/dev/null | grep -v -e self -e '^/proc/%ld/' | wc -l", tag,
             (long) except);
    p = popen(cmd, "r");
    if (p != NULL && fscanf(p, "%d", &n) != 1)
        n = -1;
    if (p != NULL)
        pclose(p);
    return n;
}

/* Ctrl-C in the parent while a worker runs: the parent dies of it, after
   ending the worker; no process of the run is left. */
static void test_signal(char * self)
{
    pid_t pid;
    int status, workers = 0, left = -1, tries;
    char tag[64];
    /* the tag is made before the fork: parent and child look for the same */
    snprintf(tag, sizeof tag, "WORKER_SIGNAL_TAG=%ld", (long) getpid());
    pid = fork();
    if (pid == 0)
    {
        char * argv[] = { self, (char *) "slow", NULL };
        putenv(tag);
        execv(self, argv);
        _exit(127);
    }
    /* the signal must reach a parent with a worker: wait for one (a
       process with the tag other than the parent), 10 s at most, however
       slowly a loaded machine starts them */
    for (tries = 0; tries < 100 && workers < 1; tries++)
    {
        sleep_ms(100);
        workers = tagged_processes(tag, pid);
    }
    CHECK(workers >= 1, "no worker started in 10 s (%d found)", workers);
    kill(pid, SIGINT);
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT,
          "the parent ended with status %d", status);
    /* no process still carries the tag (a worker would, in its environ) */
    for (tries = 0; tries < 50; tries++)
    {
        left = tagged_processes(tag, -1);
        if (left == 0)
            break;
        sleep_ms(100);
    }
    CHECK(left == 0, "%d processes of the run are left", left);
}

/* Marker case k, in this process (a fork of the test: the runner has not
   looked at the marker yet): a marker it cannot use is named, with why,
   and the suite runs as a program of its own (its table printed, finish
   0); a sound one (the last case) makes a worker whose pipe is
   close-on-exec. Returns the checks that failed. */
static int marker_case(int k)
{
    char value[64], name[] = "m";
    const char * why = NULL, * err;
    int p[2], file = open("/dev/null", O_WRONLY);
    long parent = (long) getppid(), closed = 99;
    FILE * out = tmpfile();
    prof_bench * b;
    capture_t cap;
    int rc;
    CHECK(pipe(p) == 0 && file >= 0 && fcntl((int) closed, F_GETFD) < 0,
          "marker: set-up");
    switch (k)
    {
    case 0:     /* an older marker naming a closed pipe */
        snprintf(value, sizeof value, "%ld,0,1", closed);
        why = "is not a worker marker";
        break;
    case 1:
        snprintf(value, sizeof value, "%ld,0,1,%ld", closed, parent);
        why = "is a stale worker marker (descriptor 99 is not open)";
        break;
    case 2:
    case 3:
        snprintf(value, sizeof value, "%d,0,1,%ld", k == 2 ? p[0] : file,
                 parent);
        why = "is a stale worker marker (descriptor ";
        break;
    case 4:
        snprintf(value, sizeof value, "%d,0,1,1", p[1]);
        why = "is a stale worker marker (it names process 1 as the parent";
        break;
    default:
        snprintf(value, sizeof value, "%d,1,2,%ld", p[1], parent);
        break;
    }
    setenv("PROFILER_WORKER", value, 1);
    if (why == NULL)
    {
        CHECK(prof_impl_worker_mode() == 1
              && (fcntl(p[1], F_GETFD) & FD_CLOEXEC) != 0,
              "marker %s: not a worker, or its pipe not close-on-exec", value);
        return check_failures;
    }
    capture_begin(&cap, 2);
    b = check_suite(out, PROF_FORMAT_MD);
    prof_bench_run(b, "m", cost5, name);
    rc = prof_bench_finish(b);
    err = capture_end(&cap);
    CHECK(rc == 0 && strstr(check_slurp(out), "| `m`"), "marker %s: "
          "finish %d, table [%s]", value, rc, check_slurp(out));
    CHECK(strstr(err, "profiler: PROFILER_WORKER=\"") && strstr(err, value)
          && strstr(err, why) && strstr(err, "running as a program of its "
          "own") && ((k != 2 && k != 3) || strstr(err, "is not a pipe open "
          "for writing")), "marker %s: stderr [%s]", value, err);
    prof_bench_free(b);
    fclose(out);
    return check_failures;
}

/* Each marker case in a process of its own. */
static void test_marker(void)
{
    int k;
    for (k = 0; k < 6; k++)
    {
        int status = -1;
        pid_t pid;
        fflush(NULL);
        if ((pid = fork()) == 0)
            _exit(marker_case(k) == 0 ? 0 : 1);
        waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "marker case %d: status %d", k, status);
    }
}

/* A suite whose workers take seconds, for test_signal. */
static void slow_target(void * arg, ulong count)
{
    (void) arg;
    (void) count;
    sleep_ms(100);
}

static int slow_suite(void)
{
    prof_bench * b = prof_bench_new();
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_processes(b, 5);
    prof_bench_set_epochs(b, 50);
    prof_bench_set_budget_s(b, 20);
    prof_bench_run(b, "slow", slow_target, NULL);
    prof_bench_free(b);
    return 0;
}

static void test_args(void)
{
    static const char * bad[] = { "--processes=0", "--processes=-1",
        "--processes=abc", "--processes=99999", "--processes=", "--processes=3x" };
    prof_bench * b = prof_bench_new();
    capture_t cap;
    const char * err;
    int i;
    for (i = 0; i < 6; i++)
    {
        char a0[] = "prog", a1[64];
        char * argv[] = { a0, a1, NULL };
        snprintf(a1, sizeof a1, "%s", bad[i]);
        capture_begin(&cap, 2);
        CHECK(prof_bench_args(b, 2, argv) == -1, "%s accepted", bad[i]);
        err = capture_end(&cap);
        CHECK(strstr(err, "--processes=") && strstr(err, "a whole number of "
              "processes, 1..1000 is expected"), "%s: [%s]", bad[i], err);
    }
    capture_begin(&cap, 2);
    CHECK(prof_bench_set_processes(b, 0) == -1
          && prof_bench_set_processes(b, 1001) == -1
          && prof_bench_set_processes(NULL, 2) == -1, "setter refuses");
    capture_end(&cap);
    {
        char a0[] = "prog", a1[] = "--processes=7";
        char * argv[] = { a0, a1, NULL };
        CHECK(prof_bench_args(b, 2, argv) == 0 && b->processes == 7, "--processes=7");
    }
    prof_bench_free(b);
}

/* Pooling more epochs than an int counts (two workers' 2^30 + 1 each,
   with 2 user columns) is refused before anything is allocated: no
   16 GB request that happens to succeed, no wrapped int index. */
static void test_pool_sizes(void)
{
    static double one[1];
    prof_impl_epochs dst, src;
    memset(&dst, 0, sizeof dst);
    memset(&src, 0, sizeof src);
    src.got = (1 << 30) + 1;
    src.samples = src.cpu = src.user = one;     /* never read */
    src.nuser = 2;
    strcpy(src.user_cols[0].name, "x");
    strcpy(src.user_cols[1].name, "y");
    dst.got = src.got;      /* 1 of them real: none is read */
    dst.samples = (double *) malloc(sizeof *dst.samples);
    dst.cpu = (double *) malloc(sizeof *dst.cpu);
    dst.user = one;
    dst.nuser = 2;
    dst.user_cols[0] = src.user_cols[0];
    dst.user_cols[1] = src.user_cols[1];
    fail_alloc_after(-1);     /* none fails; the sizes are recorded */
    CHECK(prof_impl_workers_append(&dst, &src, 1) == -1
          && dst.got == src.got && dst.user == one,
          "2^31 + 2 epochs pooled: got %d", dst.got);
    CHECK(fail_alloc_largest() < ((size_t) 1 << 30), "%.3g bytes asked for",
          (double) fail_alloc_largest());
    free(dst.samples);
    free(dst.cpu);
}

/* Encode and decode: every field back exactly; then every cut and every
   flipped byte is refused or reads as incomplete, never trusted. */
/* test_wire's user columns, read back. */
static void check_user_round_trip(const prof_impl_epochs * a)
{
    CHECK(a->nuser == 2 && strcmp(a->user_cols[1].name, "heap") == 0
          && strcmp(a->user_cols[1].unit, "B") == 0
          && a->user_cols[1].flags == PROF_USER_MEASURE
          && a->user_cols[0].flags == 0 && isnan(a->user[1])
          && a->user[2] == -3 && a->user[5] == 6
          && a->user_dropped == 1, "round trip: user columns");
}

/* A load no machine has is refused on the way in; an unknown one (NaN)
   is kept. r: a sound record, given back as it was. */
static void test_wire_load(prof_impl_wire_record * r)
{
    prof_impl_wire_record back;
    unsigned char * buf;
    size_t len;
    char msg[128];
    double kept = r->a.load;
    r->a.load = -1.0;
    prof_impl_wire_encode(r, &buf, &len);
    CHECK(prof_impl_wire_decode(buf, len, &back, msg, sizeof msg) < 0
          && strstr(msg, "a load average out of range"), "load -1: %s", msg);
    free(buf);
    r->a.load = NAN;
    prof_impl_wire_encode(r, &buf, &len);
    CHECK(prof_impl_wire_decode(buf, len, &back, msg, sizeof msg) == (long) len
          && isnan(back.a.load), "load NaN: %s", msg);
    prof_impl_wire_free(&back);
    free(buf);
    r->a.load = kept;
}

static void test_wire(void)
{
    double samples[3] = { 1.5, 2.25, 1e300 }, cpu[3] = { 1, NAN, 3 };
    double ev[6] = { 1, 2, 3, 4, NAN, 6 };
    double user[6] = { 1, NAN, -3, 4.5, 5, 6 };
    ulong iters[3] = { 7, 8, 9 };
    prof_impl_wire_record r, back;
    unsigned char * buf;
    size_t len, i;
    char msg[128];
    int refused = 0, partial = 0;
    memset(&r, 0, sizeof r);
    r.type = PROF_IMPL_WIRE_EPOCHS;
    r.suite = 2;
    r.index = 5;
    r.a.name = "bench/64";
    prof_impl_settings_default(&r.a.s);
    r.a.s.batch = 64;
    r.a.s.threads = 3;
    strcpy(r.a.s.unit, "byte");
    r.a.s.time_unit_fixed = 1;
    r.a.got = 3;
    r.a.samples = samples;
    r.a.cpu = cpu;
    r.a.iters = iters;
    r.a.nev = 2;
    r.a.ev_names[0] = "page-faults";
    r.a.ev_names[1] = "cycles";
    r.a.ev = ev;
    r.a.spent_ns = 12345.5;
    r.a.budget_hit = 3;     /* both bits */
    r.a.nuser = 2;
    strcpy(r.a.user_cols[0].name, "bytes");
    strcpy(r.a.user_cols[1].name, "heap");
    strcpy(r.a.user_cols[1].unit, "B");
    r.a.user_cols[1].flags = PROF_USER_MEASURE;
    r.a.user = user;
    r.a.user_dropped = 1;
    r.a.load = 6.5;
    CHECK(prof_impl_wire_encode(&r, &buf, &len) == 0, "encode");
    CHECK(prof_impl_wire_decode(buf, len, &back, msg, sizeof msg) == (long) len,
          "decode: %s", msg);
    CHECK(back.suite == 2 && back.index == 5 && strcmp(back.name, "bench/64") == 0
          && back.a.got == 3 && back.a.samples[2] == 1e300 && isnan(back.a.cpu[1])
          && back.a.iters[1] == 8 && back.a.s.batch == 64
          && back.a.s.time_unit_fixed == 1
          && strcmp(back.a.s.unit, "byte") == 0 && back.a.nev == 2
          && back.a.ev_names[1] == prof_impl_counters_canonical("cycles")
          && back.a.ev[5] == 6 && isnan(back.a.ev[4]) && back.a.spent_ns == 12345.5
          && back.a.budget_hit == 3, "round trip");
    check_user_round_trip(&back.a);
    CHECK(back.a.s.threads == 3, "round trip: threads %d", back.a.s.threads);
    CHECK(back.a.load == 6.5, "round trip: load %g", back.a.load);
    prof_impl_wire_free(&back);
    test_wire_load(&r);
    for (i = 0; i < len; i++)
    {
        long n = prof_impl_wire_decode(buf, i, &back, msg, sizeof msg);
        partial += n == 0;
        if (n > 0)
            prof_impl_wire_free(&back);
    }
    CHECK(partial == (int) len, "%d of %d cuts read as incomplete", partial,
          (int) len);
    for (i = 0; i < len; i++)
    {
        long n;
        buf[i] ^= 0x5A;
        n = prof_impl_wire_decode(buf, len, &back, msg, sizeof msg);
        refused += n < 0;
        if (n > 0)
            prof_impl_wire_free(&back);
        buf[i] ^= 0x5A;
    }
    /* a flip in the length word can make the record look incomplete (0):
       the reader then waits, and the worker's end says it was cut */
    CHECK(refused >= (int) len - 4, "%d of %d flipped bytes refused", refused,
          (int) len);
    free(buf);
}

int main(int argc, char ** argv)
{
    if (argc > 1)
        mode = argv[1];
    prof_impl_set_fake_clock(fake_read, 1e9);
    if (strcmp(mode, "wire") == 0)
    {
        test_wire();
        test_pool_sizes();
    }
    else if (strcmp(mode, "args") == 0)
        test_args();
    else if (strcmp(mode, "marker") == 0)
        test_marker();
    else if (strcmp(mode, "signal") == 0)
        test_signal(argv[0]);
    else if (strcmp(mode, "slow") == 0)
    {
        prof_impl_set_fake_clock(NULL, 0);
        return slow_suite();
    }
    else
        test_modes();
    if (worker_number() >= 0)
        return 0;       /* a worker: its checks are the parent's */
    return check_report("test_workers");
}
