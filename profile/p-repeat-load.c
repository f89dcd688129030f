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

   Part 2, FLINT programs: profile/flint_style.c (set-up heavy: operands
   built on every run, 33 prof_repeat calls) and profile/flint_nmod.c
   (FLINT's own nmod_vec and gcd functions, 12 calls), each built against
   this library and, where FLINT is installed, against FLINT's own
   profiler. 2 x ROUNDS + 1 alternated runs (A B B A) of each build,
   quiet and beside 2, 6 and 12 busy processes (--busy=N,N,... for
   others): the median wall time of each, their ratio (this library's
   bound: 1.5), and how far each line's min in each run is from that
   line's quiet median (median and worst over lines and runs).

   The busy children stop themselves after a while (alarm) or when this
   program ends, and are killed when a measurement ends. The runnable
   tasks seen (/proc/loadavg) say what load the figures were taken under:
   others' work counts too.

   Usage: p-repeat-load [--part1|--part2] [--busy=N,N,...] [ROUNDS
   [RETRY_SHARE...]]: --part1 runs part 1 only (CI's quick run), --part2
   part 2 only; ROUNDS default 3 (2 or more: part 2's medians of 5 or
   more); each RETRY_SHARE is prof_impl_repeat_retry_share for one setting
   of part 1 (0: off), default "0 D" with D the library's default. Prints
   each round and the medians over rounds. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"     /* profiler.h and prof_impl_repeat_retry_share */
#include "kernels.h"

enum { PROCS = 10, NK = 4, BUSY = 4, MAX_MODES = 4, MAX_ROUNDS = 20 };
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

/* ---- part 2: FLINT programs, this library against FLINT's ---- */

enum { MAX_LOADS = 8, MAX_LINES = 32, MAX_RUNS = 2 * MAX_ROUNDS + 1,
       NPROG = 2, BUSY_SECONDS = 1800 };
static int busy_list[MAX_LOADS] = { 0, 2, 6, 12 }, nbusy_list = 4;

/* A program built twice: [0] against this library, [1] against FLINT's
   profiler ("" where FLINT was not found). */
typedef struct { const char * name, * path[2]; } program_t;

/* One run: its wall time [s] and the "min X" of each line of its output. */
typedef struct { double wall, min[MAX_LINES]; int lines; } run_t;

/* Run path, its output read through a pipe: 0, or -1. */
static int run_program(const char * path, run_t * r)
{
    char buf[16384], * line;
    size_t len = 0;
    ssize_t got;
    double t0;
    int fd[2], status;
    pid_t pid;

    fflush(stdout);
    if (pipe(fd) != 0)
        return -1;
    t0 = mono_s();
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
    {
        close(fd[0]);
        if (dup2(fd[1], 1) < 0)
            _exit(127);
        execl(path, path, (char *) NULL);
        _exit(127);
    }
    close(fd[1]);
    while ((got = read(fd[0], buf + len, sizeof buf - 1 - len)) > 0)
        len += (size_t) got;
    close(fd[0]);
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)
        || WEXITSTATUS(status) != 0)
        return -1;
    r->wall = mono_s() - t0;
    buf[len] = '\0';
    r->lines = 0;
    for (line = strstr(buf, "min "); line != NULL && r->lines < MAX_LINES;
         line = strstr(line + 4, "min "))
        r->min[r->lines++] = strtod(line + 4, NULL);
    return 0;
}

/* runs alternated runs of each build of p (A B B A) beside nbusy busy
   processes into res[build][run]; *load: the runnable tasks seen. */
static int run_builds(const program_t * p, int runs, int nbusy,
                      run_t res[2][MAX_RUNS], double * load)
{
    double seen[2 * MAX_RUNS];
    int nb = p->path[1][0] != '\0' ? 2 : 1, i, k, failed = 0;
    if (nbusy > 0)
        kernels_load_start(nbusy, BUSY_SECONDS);
    for (i = 0; i < runs && !failed; i++)
        for (k = 0; k < nb && !failed; k++)
        {
            int b = i % 2 ? nb - 1 - k : k;
            failed = run_program(p->path[b], &res[b][i]) != 0;
            seen[i * nb + k] = kernels_runnable();
        }
    kernels_load_stop();
    *load = failed ? 0.0 : kernels_median(seen, runs * nb);
    return failed ? -1 : 0;
}

/* The median and largest |min / quiet - 1| over every line of every run,
   quiet: each line's median over the quiet runs [%]. */
static void minima_error(run_t quiet[MAX_RUNS], run_t loaded[MAX_RUNS],
                         int runs, double * median_pct, double * worst_pct)
{
    static double err[MAX_LINES * MAX_RUNS];
    double v[MAX_RUNS];
    int line, i, n = 0, lines = quiet[0].lines;
    *worst_pct = 0.0;
    for (line = 0; line < lines; line++)
    {
        double q;
        for (i = 0; i < runs; i++)
            v[i] = quiet[i].min[line];
        q = kernels_median(v, runs);
        for (i = 0; i < runs; i++)
            if (loaded[i].lines == lines && q > 0.0)
            {
                err[n] = 100.0 * fabs(loaded[i].min[line] / q - 1.0);
                if (err[n] > *worst_pct)
                    *worst_pct = err[n];
                n++;
            }
    }
    *median_pct = n > 0 ? kernels_median(err, n) : NAN;
}

static double median_wall(run_t r[MAX_RUNS], int runs)
{
    double v[MAX_RUNS];
    int i;
    for (i = 0; i < runs; i++)
        v[i] = r[i].wall;
    return kernels_median(v, runs);
}

static int flint_programs(int rounds)
{
#if defined(PROF_FLINT_STYLE)
    static const program_t prog[NPROG] = {
        { "set-up-heavy program (profile/flint_style.c, 33 calls)",
          { PROF_FLINT_STYLE, PROF_FLINT_STYLE_FLINT } },
        { "FLINT program (profile/flint_nmod.c, 12 calls)",
          { PROF_FLINT_NMOD, PROF_FLINT_NMOD_FLINT } } };
    static run_t quiet[NPROG][2][MAX_RUNS], loaded[2][MAX_RUNS];
    static const char * const build[2] = { "this library", "FLINT's" };
    int runs = 2 * rounds + 1, p, l, b;

    printf("\nFLINT programs, this library and FLINT's profiler, %d "
           "alternated runs at each load: median wall time, their ratio, "
           "and how far the minima (each line of each run) are from the "
           "quiet median\n", runs);
    for (p = 0; p < NPROG; p++)
    {
        int nb = prog[p].path[1][0] != '\0' ? 2 : 1;
        double load;
        if (prog[p].path[0][0] == '\0')
            continue;
        printf("%s%s\n", prog[p].name,
               nb == 1 ? " (FLINT not found: this library's only)" : "");
        if (run_builds(&prog[p], runs, 0, quiet[p], &load) != 0)
            goto failed;
        printf("  quiet (%.0f runnable tasks seen): this library %.2f s",
               load, median_wall(quiet[p][0], runs));
        if (nb == 2)
            printf(", FLINT's %.2f s: ratio %.2f", median_wall(quiet[p][1], runs),
                   median_wall(quiet[p][0], runs) / median_wall(quiet[p][1], runs));
        printf("\n");
        fflush(stdout);
        for (l = 0; l < nbusy_list; l++)
        {
            double w[2] = { 0, 0 };
            if (busy_list[l] == 0)
                continue;
            if (run_builds(&prog[p], runs, busy_list[l], loaded, &load) != 0)
                goto failed;
            for (b = 0; b < nb; b++)
                w[b] = median_wall(loaded[b], runs);
            printf("  %2d busy (%.0f runnable tasks seen): this library "
                   "%.2f s", busy_list[l], load, w[0]);
            if (nb == 2)
                printf(", FLINT's %.2f s: ratio %.2f (bound 1.5)", w[1],
                       w[0] / w[1]);
            printf("\n    minima vs quiet:");
            for (b = 0; b < nb; b++)
            {
                double med, worst;
                minima_error(quiet[p][b], loaded[b], runs, &med, &worst);
                printf(" %s median %.1f%%, worst %.0f%%%s", build[b], med,
                       worst, b + 1 < nb ? ";" : "");
            }
            printf("\n");
            fflush(stdout);
        }
    }
    return 0;
failed:
    fprintf(stderr, "p-repeat-load: a FLINT program's run failed\n");
    return -1;
#else
    (void) rounds;
    return 0;
#endif
}

/* "2,6,12" into busy_list (0, the quiet run, always comes first): 0, or
   -1. */
static int parse_busy(const char * s)
{
    char * end;
    nbusy_list = 1;
    busy_list[0] = 0;
    while (*s && nbusy_list < MAX_LOADS)
    {
        long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > 64)
            return -1;
        busy_list[nbusy_list++] = (int) v;
        s = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0')
            return -1;
    }
    return nbusy_list > 1 ? 0 : -1;
}

int main(int argc, char ** argv)
{
    static round_t rounds[MAX_ROUNDS];
    int part1 = 1, part2 = 1, bad = 0, n, i;

    for (; argc > 1 && strncmp(argv[1], "--", 2) == 0 && !bad; argc--, argv++)
    {
        if (strcmp(argv[1], "--part1") == 0)
            part2 = 0;
        else if (strcmp(argv[1], "--part2") == 0)
            part1 = 0;
        else
            bad = strncmp(argv[1], "--busy=", 7) != 0
                  || parse_busy(argv[1] + 7) != 0;
    }
    n = argc > 1 ? atoi(argv[1]) : 3;

    setting[0] = 0.0;
    setting[1] = prof_impl_repeat_retry_share;
    nmodes = argc > 2 ? argc - 2 : 2;
    for (i = 2; i < argc && i - 2 < MAX_MODES; i++)
        setting[i - 2] = atof(argv[i]);
    if (bad || n < 1 || n > MAX_ROUNDS || nmodes > MAX_MODES
        || kernels_init() != 0)
    {
        fprintf(stderr, "usage: p-repeat-load [--part1|--part2] "
                "[--busy=N,N,...] [ROUNDS (1..%d, default 3) "
                "[RETRY_SHARE (0: off)...(at most %d)]]\n",
                MAX_ROUNDS, MAX_MODES);
        return 2;
    }
    if (part1)
    {
        printf("prof_repeat mins under load (%d busy processes), %d processes "
               "x %d kernels per setting: how many of the %d loaded results "
               "are within 10%% of the quiet median\n", BUSY, PROCS, NK,
               PROCS * NK);
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
    }
    return !part2 || flint_programs(n) == 0 ? 0 : 1;
}
