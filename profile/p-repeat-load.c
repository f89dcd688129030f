/* p-repeat-load: prof_repeat on a busy machine, with the re-runs of
   preempted timings off (FLINT's behaviour, the "before") and on (the
   default), or with the re-run budgets given; and FLINT-style programs'
   wall time with this library against FLINT's own profiler.

   Part 1, minima. Each measurement is a separate process (fork) that runs
   prof_repeat on 4 kernels and reports their min per run. Per round: 10
   processes per setting on the quiet machine give the quiet figure of
   each kernel (the median of the 10 mins); then BUSY busy-loop children
   (4: 5 runnable processes on the 2 cores) load the machine, 10 processes
   per setting run under that load, and the program counts how many of the
   40 loaded mins (4 kernels x 10 processes) are within 10% of the quiet
   figure. The settings alternate process by process, so that all see the
   same machine.

   Part 2, FLINT-style programs (profile/flint_style.c: operands built on
   every run, 33 prof_repeat calls), built against this library and, where
   FLINT is installed, against FLINT's profiler: their wall times,
   alternated, quiet and beside 2 busy processes, and the ratio of the
   medians.

   The busy children stop themselves after 120 s (alarm) or when this
   program ends, and are killed when a measurement ends. The runnable tasks
   seen (/proc/loadavg) say what load the figures were taken under: others'
   work counts too.

   Usage: p-repeat-load [--part1] [ROUNDS [RETRY_SHARE...]]: --part1 skips
   part 2 (CI's quick run); ROUNDS default 3 (part 2 runs each program
   2 x ROUNDS + 1 times per load); each RETRY_SHARE is
   prof_impl_repeat_retry_share for one setting of part 1 (0: off),
   default "0 D" with D the library's default. Prints each round and the
   medians over rounds. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"     /* profiler.h and prof_impl_repeat_retry_share */
#include "kernels.h"

enum { PROCS = 10, NK = 4, BUSY = 4, FLINT_BUSY = 2, MAX_MODES = 4,
       MAX_ROUNDS = 20 };
static const int kernel_index[NK] = { 2, 4, 5, 6 };
static double setting[MAX_MODES];
static int nmodes;

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One process: prof_repeat on the 4 kernels with retry time `retry`; mins
   in us per run, and the seconds the 4 calls took, in out[0..NK]. */
static int measure_in_child(double retry, double out[NK + 1])
{
    int fd[2], status;
    pid_t pid;
    ssize_t got;

    if (pipe(fd) != 0 || (pid = fork()) < 0)
        return -1;
    if (pid == 0)
    {
        double r[NK + 1], mx, t0 = mono_s();
        int k;
        close(fd[0]);
        prof_impl_repeat_retry_share = retry;
        /* with re-runs off every preempted call is kept: FLINT's way, not
           news worth a line per child */
        prof_impl_repeat_said_busy = retry == 0.0;
        for (k = 0; k < NK; k++)
            prof_repeat(&r[k], &mx, kernel_timed_target,
                        (void *) &kernels[kernel_index[k]]);
        r[NK] = mono_s() - t0;
        _exit(write(fd[1], r, sizeof r) == (ssize_t) sizeof r ? 0 : 1);
    }
    close(fd[1]);
    got = read(fd[0], out, sizeof(double) * (NK + 1));
    close(fd[0]);
    waitpid(pid, &status, 0);
    return got == (ssize_t) (sizeof(double) * (NK + 1)) && status == 0 ? 0 : -1;
}

/* 10 processes per setting, alternating: res[mode][proc][0..NK]; *load gets
   the median of the runnable tasks seen while they ran. */
static int measure_all(double res[MAX_MODES][PROCS][NK + 1], double * load)
{
    double seen[PROCS * MAX_MODES];
    int p, m;
    for (p = 0; p < PROCS; p++)
        for (m = 0; m < nmodes; m++)
        {
            if (measure_in_child(setting[m], res[m][p]) != 0)
                return -1;
            seen[p * nmodes + m] = kernels_runnable();
        }
    *load = kernels_median(seen, PROCS * nmodes);
    return 0;
}

typedef struct
{
    int within[MAX_MODES], kernel_within[MAX_MODES][NK];
    double worst[MAX_MODES], secs_quiet[MAX_MODES], secs_loaded[MAX_MODES];
    double load_quiet, load_loaded;     /* runnable tasks seen */
} round_t;

/* The figures of setting m from the quiet and loaded results. */
static void score(round_t * r, int m, double quiet[MAX_MODES][PROCS][NK + 1],
                  double loaded[MAX_MODES][PROCS][NK + 1])
{
    double v[PROCS];
    int p, k;

    r->within[m] = 0;
    r->worst[m] = 1.0;
    for (k = 0; k < NK; k++)
    {
        double q;
        for (p = 0; p < PROCS; p++)
            v[p] = quiet[m][p][k];
        q = kernels_median(v, PROCS);
        r->kernel_within[m][k] = 0;
        for (p = 0; p < PROCS; p++)
        {
            double ratio = loaded[m][p][k] / q;
            r->kernel_within[m][k] += fabs(ratio - 1.0) <= 0.10;
            if (ratio > r->worst[m])
                r->worst[m] = ratio;
        }
        r->within[m] += r->kernel_within[m][k];
    }
    for (p = 0; p < PROCS; p++)
        v[p] = quiet[m][p][NK];
    r->secs_quiet[m] = kernels_median(v, PROCS);
    for (p = 0; p < PROCS; p++)
        v[p] = loaded[m][p][NK];
    r->secs_loaded[m] = kernels_median(v, PROCS);
}

static int run_round(round_t * r)
{
    static double quiet[MAX_MODES][PROCS][NK + 1], loaded[MAX_MODES][PROCS][NK + 1];
    int m, failed;

    if (measure_all(quiet, &r->load_quiet) != 0)
        return -1;
    kernels_load_start(BUSY, 120);
    failed = measure_all(loaded, &r->load_loaded);
    kernels_load_stop();
    if (failed)
        return -1;
    for (m = 0; m < nmodes; m++)
        score(r, m, quiet, loaded);
    return 0;
}

static const char * name_of(int m)
{
    static char buf[MAX_MODES][48];
    if (setting[m] == 0)
        return "re-runs off (FLINT)";
    snprintf(buf[m], sizeof buf[m], "re-run share %g%s", setting[m],
             setting[m] == prof_impl_repeat_retry_share ? " (default)" : "");
    return buf[m];
}

static void print_round(int i, const round_t * r)
{
    int m, k;
    for (m = 0; m < nmodes; m++)
    {
        printf("round %d  %-26s %2d/%d within 10%%, worst %.2fx; 4 calls take "
               "%.2f s quiet, %.2f s loaded\n", i + 1, name_of(m), r->within[m],
               PROCS * NK, r->worst[m], r->secs_quiet[m], r->secs_loaded[m]);
        printf("         per kernel:");
        for (k = 0; k < NK; k++)
            printf(" %s %d/%d", kernels[kernel_index[k]].name,
                   r->kernel_within[m][k], PROCS);
        printf("\n");
    }
    printf("         runnable tasks seen: %.0f quiet, %.0f loaded\n",
           r->load_quiet, r->load_loaded);
    fflush(stdout);
}

static void print_medians(const round_t * rounds, int n)
{
    double w[MAX_ROUNDS], x[MAX_ROUNDS], q[MAX_ROUNDS], l[MAX_ROUNDS];
    int i, m;
    for (m = 0; m < nmodes; m++)
    {
        for (i = 0; i < n; i++)
        {
            w[i] = rounds[i].within[m];
            x[i] = rounds[i].worst[m];
            q[i] = rounds[i].secs_quiet[m];
            l[i] = rounds[i].secs_loaded[m];
        }
        printf("median of %d  %-26s %4.1f/%d within 10%%, worst %.2fx; 4 calls "
               "take %.2f s quiet, %.2f s loaded\n", n, name_of(m),
               kernels_median(w, n), PROCS * NK, kernels_median(x, n),
               kernels_median(q, n), kernels_median(l, n));
    }
}

/* ---- part 2: FLINT-style programs, this library against FLINT's ---- */

/* Run path (its output to /dev/null): its wall time in s, or -1. */
static double wall_of(const char * path)
{
    double t0;
    int status;
    pid_t pid;
    fflush(stdout);     /* the child's freopen would write it again */
    t0 = mono_s();
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
    {
        if (freopen("/dev/null", "w", stdout) == NULL)
            _exit(127);
        execl(path, path, (char *) NULL);
        _exit(127);
    }
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)
        || WEXITSTATUS(status) != 0)
        return -1;
    return mono_s() - t0;
}

/* runs alternated runs of each program in prog[0..nprog) beside nbusy
   busy processes: the median wall time of each in med[]. */
static int walls(const char * const * prog, int nprog, int runs, int nbusy,
                 double * med, double * load)
{
    double w[2][2 * MAX_ROUNDS + 1], seen[2 * (2 * MAX_ROUNDS + 1)];
    int i, k, failed = 0;
    if (nbusy > 0)
        kernels_load_start(nbusy, 120);
    for (i = 0; i < runs && !failed; i++)
        for (k = 0; k < nprog && !failed; k++)
        {
            /* A B B A: neither side always runs first */
            int j = i % 2 ? nprog - 1 - k : k;
            failed = (w[j][i] = wall_of(prog[j])) < 0;
            seen[i * nprog + k] = kernels_runnable();
        }
    kernels_load_stop();
    if (failed)
        return -1;
    for (k = 0; k < nprog; k++)
        med[k] = kernels_median(w[k], runs);
    *load = kernels_median(seen, runs * nprog);
    return 0;
}

static int flint_style(int rounds)
{
#if defined(PROF_FLINT_STYLE)
    static const char * const prog[2] = { PROF_FLINT_STYLE, PROF_FLINT_STYLE_FLINT };
    int nprog = prog[1][0] != '\0' ? 2 : 1, runs = 2 * rounds + 1, b;
    printf("\nFLINT-style program (profile/flint_style.c, 33 prof_repeat "
           "calls): median wall time of %d alternated runs\n", runs);
    if (nprog == 1)
        printf("  (FLINT not found at build time: this library's only)\n");
    for (b = 0; b <= FLINT_BUSY; b += FLINT_BUSY)
    {
        double med[2], load;
        if (walls(prog, nprog, runs, b, med, &load) != 0)
        {
            fprintf(stderr, "p-repeat-load: a flint_style run failed\n");
            return -1;
        }
        printf("  %d busy processes (%.0f runnable tasks seen): this library "
               "%.2f s", b, load, med[0]);
        if (nprog == 2)
            printf(", FLINT's profiler %.2f s: ratio %.2f (target <= %s)",
                   med[1], med[0] / med[1], b ? "1.5" : "1.1");
        printf("\n");
        fflush(stdout);
    }
#else
    (void) rounds;
#endif
    return 0;
}

int main(int argc, char ** argv)
{
    static round_t rounds[MAX_ROUNDS];
    int part1 = argc > 1 && strcmp(argv[1], "--part1") == 0, n, i;

    argc -= part1;
    argv += part1;
    n = argc > 1 ? atoi(argv[1]) : 3;

    setting[0] = 0.0;
    setting[1] = prof_impl_repeat_retry_share;
    nmodes = argc > 2 ? argc - 2 : 2;
    for (i = 2; i < argc && i - 2 < MAX_MODES; i++)
        setting[i - 2] = atof(argv[i]);
    if (n < 1 || n > MAX_ROUNDS || nmodes > MAX_MODES || kernels_init() != 0)
    {
        fprintf(stderr, "usage: p-repeat-load [--part1] [ROUNDS (1..%d, default 3) "
                "[RETRY_SHARE (0: off)...(at most %d)]]\n",
                MAX_ROUNDS, MAX_MODES);
        return 2;
    }
    printf("prof_repeat mins under load (%d busy processes), %d processes x %d "
           "kernels per setting: how many of the %d loaded results are within "
           "10%% of the quiet median\n", BUSY, PROCS, NK, PROCS * NK);
    for (i = 0; i < n; i++)
    {
        if (run_round(&rounds[i]) != 0)
        {
            fprintf(stderr, "p-repeat-load: a measuring process failed\n");
            return 1;
        }
        print_round(i, &rounds[i]);
    }
    print_medians(rounds, n);
    return part1 || flint_style(n) == 0 ? 0 : 1;
}
