/*
    What the runner shows people at a terminal: a sparkline of each
    benchmark's epochs in the markdown table when stdout is a terminal, and
    a progress line on stderr for suites that run longer than a couple of
    seconds when stderr is one. Silent otherwise: pipes and files get the
    same bytes as before.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "bench.h"

#include <math.h>
#include <string.h>
#if !defined(_WIN32)
# include <unistd.h>
#else
# include <io.h>
# define isatty _isatty
# define fileno _fileno
#endif

double prof_impl_progress_after_s = 2.0;

int prof_impl_is_terminal(int mode, FILE * f)
{
    if (mode >= 0)
        return mode;
    return f != NULL && isatty(fileno(f));
}

int prof_bench_set_terminal(prof_bench * b, prof_terminal mode)
{
    if (b == NULL || mode < -1 || mode > 1)
    {
        prof_impl_warn("prof_bench_set_terminal: %s", b == NULL
                       ? "the suite is NULL" : "mode must be -1, 0 or 1");
        return -1;
    }
    b->terminal = mode;
    return 0;
}

/* The mean of the finite samples of v[from .. to), NaN if none. */
static double finite_mean(const double * v, int from, int to)
{
    double sum = 0.0;
    int i, k = 0;
    for (i = from; i < to; i++)
        if (isfinite(v[i]))
        {
            sum += v[i];
            k++;
        }
    return k > 0 ? sum / k : NAN;
}

/* Eight heights of U+2581..U+2588, 3 bytes each in UTF-8. */
void prof_impl_sparkline(char * out, size_t size, const double * samples,
        int nsamples)
{
    static const char * const bars[8] = { "\xE2\x96\x81", "\xE2\x96\x82",
        "\xE2\x96\x83", "\xE2\x96\x84", "\xE2\x96\x85", "\xE2\x96\x86",
        "\xE2\x96\x87", "\xE2\x96\x88" };
    double lo = INFINITY, hi = -INFINITY, v[PROF_IMPL_SPARK_BARS];
    size_t used = 0;
    int i, n = nsamples < PROF_IMPL_SPARK_BARS ? nsamples
                                               : PROF_IMPL_SPARK_BARS;

    if (size == 0)
        return;
    out[0] = '\0';
    for (i = 0; i < n; i++)     /* bar i: samples [i N / n, (i + 1) N / n) */
        v[i] = finite_mean(samples, (int) ((long) i * nsamples / n),
                           (int) ((long) (i + 1) * nsamples / n));
    for (i = 0; i < n; i++)
        if (isfinite(v[i]))
        {
            lo = fmin(lo, v[i]);
            hi = fmax(hi, v[i]);
        }
    for (i = 0; i < n && used + 4 <= size; i++)
    {
        int k = !isfinite(v[i]) ? 0
              : hi > lo ? (int) floor((v[i] - lo) / (hi - lo) * 7.0 + 0.5) : 3;
        memcpy(out + used, bars[k], 3);
        used += 3;
    }
    out[used] = '\0';
}

/* ", ETA 12 s" for item done of total, from the items since the span of
   total began; "" before one has ended. */
static void eta(char * out, size_t size, const prof_bench * b, double now,
        int done, int total)
{
    double left_s;
    out[0] = '\0';
    if (total <= 0 || done <= b->progress_first)
        return;
    left_s = (now - b->progress_t0) * 1e-9 / (done - b->progress_first)
           * (total - done + 1);
    if (left_s < 10.0)
        snprintf(out, size, ", ETA %.1f s", left_s);
    else if (left_s < 600.0)
        snprintf(out, size, ", ETA %.0f s", left_s);
    else
        snprintf(out, size, ", ETA %.0f min", left_s / 60.0);
}

void prof_impl_progress(prof_bench * b, const char * what, int done, int total)
{
    double now = prof_impl_now_ns(), elapsed_s = (now - b->started_ns) * 1e-9;
    char line[300], left[40];
    /* a span of items: its start, for the ETA (kept when not drawn) */
    if (total != b->progress_total || done < b->progress_first)
    {
        b->progress_total = total;
        b->progress_first = done;
        b->progress_t0 = now;
    }
    if (b->worker || !prof_impl_is_terminal(b->terminal, stderr)
        || !(elapsed_s >= prof_impl_progress_after_s))
        return;
    eta(left, sizeof left, b, now, done, total);
    if (total > 0)
        snprintf(line, sizeof line, "[%d/%d] %s (%.1f s%s)", done, total, what,
                 elapsed_s, left);
    else if (done > 0)
        snprintf(line, sizeof line, "benchmark %d: %s (%.1f s)", done, what,
                 elapsed_s);
    else
        snprintf(line, sizeof line, "%s (%.1f s)", what, elapsed_s);
    prof_impl_status(line);
}
