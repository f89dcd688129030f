/* p-bench-load: the runner on a busy machine. Each run is a separate
   process (fork) that measures, with the default settings:
     - a 6 ms single-threaded operation (a chain of multiply-adds sized to
       6 ms here), timed over its whole call, and the same between
       prof_start and prof_stop (FLINT's style);
     - size sweeps of qsort over 2^10..2^16 uint32_t keys (x2), timed by
       the whole call and between prof_start and prof_stop (the copy of
       the keys outside), and of an LSD radix sort (8-bit digits) over
       16..65536, and their complexity fits.
   RUNS runs on the quiet machine alternate with RUNS beside two busy
   processes that this program starts for each (each ends after 60 s, or
   with it) and ends when the run is done, so that both see the same
   phases of a shared machine. Prints per run the operations' figures
   (against the quiet median: within 10%, or flagged) and each sweep's best
   fit
   (right: O(n log n) for qsort, O(n) for radix; flagged when the console
   says it cannot tell: another fit within the noise, a flagged size, or
   under 4 sizes), then the counts, and the runnable tasks seen
   (/proc/loadavg: other work on the machine counts too).

   Usage: p-bench-load [RUNS (5)] [--sizes]: --sizes also prints each
   run's per-size medians and intervals. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kernels.h"

enum { MAX_RUNS = 20, NOPS = 2, NSWEEPS = 3, BUSY = 2, MAXN = 65536,
       NSIZES = 13 };

static const char * const op_names[NOPS] = { "6 ms, whole call",
                                             "6 ms, prof_start" };
static const char * const sweep_names[NSWEEPS] = { "qsort", "qstart",
                                                   "radix" };
static const char * const sweep_right[NSWEEPS] = { "O(n log n)",
                                                   "O(n log n)", "O(n)" };
/* each sweep's least size (x2 up to MAXN) and number of sizes */
static const ulong sweep_lo[NSWEEPS] = { 1024, 1024, 16 };
static const int sweep_sizes[NSWEEPS] = { 7, 7, 13 };
static long chain_n;            /* multiply-adds in 6 ms */
static int show_sizes;

/* ---- the operations -------------------------------------------------- */

static void six_ms(void * arg, ulong count)
{
    uint64_t x = 1;
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
        x = kernel_chain(x, chain_n);
    PROF_DO_NOT_OPTIMIZE(x);
}

static void six_ms_timed(void * arg, ulong count)
{
    prof_start();
    six_ms(arg, count);
    prof_stop();
}

/* ---- the sorts ------------------------------------------------------- */

static uint32_t keys[MAXN], work[MAXN], spare[MAXN];

static int cmp_u32(const void * a, const void * b)
{
    uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
    return (x > y) - (x < y);
}

static void sort_q(void * arg, ulong count)
{
    size_t n = (size_t) *(const ulong *) arg;
    ulong i;
    for (i = 0; i < count; i++)
    {
        memcpy(work, keys, n * sizeof *work);
        qsort(work, n, sizeof *work, cmp_u32);
        PROF_DO_NOT_OPTIMIZE(work[n / 2]);
    }
}

/* The same, the sort alone timed (FLINT's style) */
static void sort_q_timed(void * arg, ulong count)
{
    size_t n = (size_t) *(const ulong *) arg;
    ulong i;
    for (i = 0; i < count; i++)
    {
        memcpy(work, keys, n * sizeof *work);
        prof_start();
        qsort(work, n, sizeof *work, cmp_u32);
        prof_stop();
        PROF_DO_NOT_OPTIMIZE(work[n / 2]);
    }
}

/* LSD radix sort of a[0..n) by bytes, t of n elements its spare: four
   counting passes; the sorted keys end in a. */
static void radix(uint32_t * a, uint32_t * t, size_t n)
{
    int shift;
    for (shift = 0; shift < 32; shift += 8)
    {
        size_t count[257] = { 0 }, i;
        uint32_t * swap;
        for (i = 0; i < n; i++)
            count[((a[i] >> shift) & 255) + 1]++;
        for (i = 1; i < 256; i++)
            count[i] += count[i - 1];
        for (i = 0; i < n; i++)
            t[count[(a[i] >> shift) & 255]++] = a[i];
        swap = a;
        a = t;
        t = swap;
    }
}

static void sort_radix(void * arg, ulong count)
{
    size_t n = (size_t) *(const ulong *) arg;
    ulong i;
    for (i = 0; i < count; i++)
    {
        memcpy(work, keys, n * sizeof *work);
        radix(work, spare, n);
        PROF_DO_NOT_OPTIMIZE(work[n / 2]);
    }
}

/* ---- one run (a child process) --------------------------------------- */

typedef struct
{
    double median;
    int flags, preempted, cpu_timed;
} op_fig;

typedef struct
{
    char best[16], second[16];
    double rms1, rms2;
    int clear, unstable;
    char before[16];            /* the best fit unweighted (main's) */
} fit_fig;

typedef struct
{
    op_fig op[NOPS];
    fit_fig fit[NSWEEPS];
    double n[NSWEEPS][NSIZES], med[NSWEEPS][NSIZES], lo[NSWEEPS][NSIZES],
           hi[NSWEEPS][NSIZES];
    int size_flags[NSWEEPS][NSIZES];
    int runnable;
} run_fig;

static void copy_name(char * dst, const char * src)
{
    snprintf(dst, 16, "%s", src);
}

/* The fit main made before this change, for comparison: least squares
   through the origin over the medians, unweighted (every size's residual
   in ns alike), ranked by RMS: the best growth function's name. */
static double growth(int k, double n)
{
    return k == 0 ? 1.0 : k == 1 ? log2(n) : k == 2 ? n
         : k == 3 ? n * log2(n) : pow(n, k - 2);
}

static const char * unweighted_best(const double * n, const double * t,
        int count)
{
    static const char * const names[6] = { "O(1)", "O(log n)", "O(n)",
        "O(n log n)", "O(n^2)", "O(n^3)" };
    double least = INFINITY;
    int k, i, best = 0;
    for (k = 0; k < 6; k++)
    {
        double sgg = 0.0, stg = 0.0, ss = 0.0, c;
        for (i = 0; i < count; i++)
        {
            sgg += growth(k, n[i]) * growth(k, n[i]);
            stg += t[i] * growth(k, n[i]);
        }
        c = stg / sgg;
        for (i = 0; i < count; i++)
            ss += pow(t[i] - c * growth(k, n[i]), 2);
        if (ss < least)
        {
            least = ss;
            best = k;
        }
    }
    return names[best];
}

/* The sweep's rows (the last NSIZES results) and fits into f. */
static void take_sweep(const prof_bench * b, int s, run_fig * f)
{
    prof_fit fits[8];
    int i, n = prof_bench_complexity(b, sweep_names[s], fits, 8);
    int first = prof_bench_count(b) - sweep_sizes[s];
    fit_fig * x = &f->fit[s];
    memset(x, 0, sizeof *x);
    for (i = 0; i < sweep_sizes[s]; i++)
    {
        const prof_result * r = prof_bench_result(b, first + i);
        f->n[s][i] = r->complexity_n;
        f->med[s][i] = r->median_ns;
        f->lo[s][i] = r->ci_low_ns;
        f->hi[s][i] = r->ci_high_ns;
        f->size_flags[s][i] = r->flags;
        x->unstable += r->flags != 0;
    }
    copy_name(x->before, unweighted_best(f->n[s], f->med[s],
                                         sweep_sizes[s]));
    if (n < 2)
        return;
    copy_name(x->best, fits[0].name);
    copy_name(x->second, fits[1].name);
    x->rms1 = fits[0].rms_pct;
    x->rms2 = fits[1].rms_pct;
    x->clear = x->unstable == 0 && sweep_sizes[s] >= 4;   /* the console's */
    for (i = 1; i < n; i++)
        if (fits[i].within_noise)
        {
            x->clear = 0;
            copy_name(x->second, fits[i].name);     /* the one said */
        }
}

static void measure(run_fig * f)
{
    prof_bench * b = prof_bench_new();
    int k;
    memset(f, 0, sizeof *f);
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    for (k = 0; k < NOPS; k++)
    {
        const prof_result * r = prof_bench_run(b, op_names[k],
                                               k ? six_ms_timed : six_ms, NULL);
        f->op[k].median = r->median_ns;
        f->op[k].flags = r->flags;
        f->op[k].preempted = r->preempted_epochs;
        f->op[k].cpu_timed = r->cpu_timed_epochs;
    }
    {
        static void (*const target[NSWEEPS])(void *, ulong) = {
            sort_q, sort_q_timed, sort_radix };
        int s;
        for (s = 0; s < NSWEEPS; s++)
        {
            prof_bench_run_range(b, sweep_names[s], target[s], sweep_lo[s],
                                 MAXN, 2);
            take_sweep(b, s, f);
        }
    }
    f->runnable = kernels_runnable();
    prof_bench_free(b);
}

static int measure_in_child(run_fig * f)
{
    int fd[2], status;
    pid_t pid;
    ssize_t got;
    fflush(stdout);
    if (pipe(fd) != 0 || (pid = fork()) < 0)
        return -1;
    if (pid == 0)
    {
        run_fig mine;
        int null = open("/dev/null", O_WRONLY);
        close(fd[0]);
        if (null >= 0)      /* the rows' advice: the flags say it here */
            dup2(null, 2);
        measure(&mine);
        _exit(write(fd[1], &mine, sizeof mine) == (ssize_t) sizeof mine ? 0 : 1);
    }
    close(fd[1]);
    got = read(fd[0], f, sizeof *f);
    close(fd[0]);
    waitpid(pid, &status, 0);
    return got == (ssize_t) sizeof *f && status == 0 ? 0 : -1;
}

/* ---- the report -------------------------------------------------------- */

static void print_sizes(const run_fig * f)
{
    int s, i;
    for (s = 0; s < NSWEEPS; s++)
    {
        printf("      %s:", sweep_names[s]);
        for (i = 0; i < sweep_sizes[s]; i++)
            printf(" %g:%.4g[%+.1f%%,%+.1f%%]%s", f->n[s][i], f->med[s][i],
                   100.0 * (f->lo[s][i] / f->med[s][i] - 1.0),
                   100.0 * (f->hi[s][i] / f->med[s][i] - 1.0),
                   f->size_flags[s][i] ? "!" : "");
        printf("\n");
    }
}

typedef struct { int within, flagged, right, fit_flagged, wrong_clear,
                 before_right; } tally;

/* One run's line, against the quiet medians q; its counts into t. */
static void print_run(const char * phase, int i, const run_fig * f,
        const double * q, tally t[NOPS + NSWEEPS])
{
    int k, s;
    printf("%-6s %2d (runnable %d):", phase, i + 1, f->runnable);
    for (k = 0; k < NOPS; k++)
    {
        double ratio = f->op[k].median / q[k];
        int within = fabs(ratio - 1.0) <= 0.10, flagged = f->op[k].flags != 0;
        t[k].within += within;
        t[k].flagged += flagged;
        t[k].wrong_clear += !within && !flagged;
        printf("  %s %.3f ms (%.3fx%s; %d preempted, %d cpu-timed)",
               k ? "prof_start" : "whole", f->op[k].median * 1e-6, ratio,
               flagged ? ", flagged" : "", f->op[k].preempted,
               f->op[k].cpu_timed);
    }
    for (s = 0; s < NSWEEPS; s++)
    {
        const fit_fig * x = &f->fit[s];
        int right = strcmp(x->best, sweep_right[s]) == 0;
        t[NOPS + s].right += right;
        t[NOPS + s].fit_flagged += !x->clear;
        t[NOPS + s].wrong_clear += !right && x->clear;
        t[NOPS + s].before_right += strcmp(x->before, sweep_right[s]) == 0;
        printf("  %s %s %.1f%% (then %s %.1f%%)%s%s, unweighted %s",
               sweep_names[s], x->best, x->rms1, x->second, x->rms2,
               x->clear ? "" : " flagged",
               x->unstable ? " [unstable sizes]" : "", x->before);
    }
    printf("\n");
    if (show_sizes)
        print_sizes(f);
    fflush(stdout);
}

static void print_phase(const char * phase, const run_fig * f, int runs,
        const double * q)
{
    tally t[NOPS + NSWEEPS];
    int i, k;
    memset(t, 0, sizeof t);
    for (i = 0; i < runs; i++)
        print_run(phase, i, &f[i], q, t);
    for (k = 0; k < NOPS; k++)
        printf("%-6s %s: %d/%d within 10%% of quiet, %d flagged, %d off "
               "and not flagged\n", phase, op_names[k], t[k].within, runs,
               t[k].flagged, t[k].wrong_clear);
    for (k = 0; k < NSWEEPS; k++)
        printf("%-6s %s fit: %d/%d %s, %d cannot tell, %d wrong and not "
               "flagged; unweighted (before): %d/%d %s\n", phase,
               sweep_names[k], t[NOPS + k].right, runs, sweep_right[k],
               t[NOPS + k].fit_flagged, t[NOPS + k].wrong_clear,
               t[NOPS + k].before_right, runs, sweep_right[k]);
}

/* The 6 ms chain: multiply-adds per ms, from the fastest of a few
   quiet 1 ms chains. */
static long size_chain(void)
{
    double best = 1e30, rate = prof_tick_rate();
    int k;
    for (k = 0; k < 20; k++)
    {
        double t0 = (double) get_cycle_counter(), t;
        PROF_DO_NOT_OPTIMIZE(kernel_chain(1, 1000000));
        t = ((double) get_cycle_counter() - t0) / rate;
        if (t < best)
            best = t;
    }
    return (long) (6e-3 / best * 1e6);
}

int main(int argc, char ** argv)
{
    static run_fig quiet[MAX_RUNS], loaded[MAX_RUNS];
    double q[NOPS], v[MAX_RUNS];
    int runs = 5, i, k;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--sizes") == 0)
            show_sizes = 1;
        else
            runs = atoi(argv[i]);
    if (runs < 1 || runs > MAX_RUNS || kernels_init() != 0)
    {
        fprintf(stderr, "usage: p-bench-load [RUNS (1..%d, default 5)] "
                "[--sizes]\n", MAX_RUNS);
        return 2;
    }
    srand(1);
    for (i = 0; i < MAXN; i++)
        keys[i] = (uint32_t) rand() * 2654435761u;
    chain_n = size_chain();
    printf("the runner on a busy machine: %d runs quiet alternating with %d "
           "beside %d busy processes; a 6 ms operation (%ld multiply-adds), "
           "qsort over 1024..%d keys (whole call; qstart: prof_start "
           "inside) and radix over 16..%d\n", runs, runs, BUSY, chain_n,
           MAXN, MAXN);
    for (i = 0; i < runs; i++)
    {
        int failed = measure_in_child(&quiet[i]) != 0;
        kernels_load_start(BUSY, 60);
        failed |= measure_in_child(&loaded[i]) != 0;
        kernels_load_stop();
        if (failed)
            return 1;
    }
    for (k = 0; k < NOPS; k++)
    {
        for (i = 0; i < runs; i++)
            v[i] = quiet[i].op[k].median;
        q[k] = kernels_median(v, runs);
    }
    print_phase("quiet", quiet, runs, q);
    print_phase("loaded", loaded, runs, q);
    return 0;
}
