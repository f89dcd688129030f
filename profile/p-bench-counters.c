/* p-bench-counters: what the runner's event counters do to the time it
   measures. For each reference kernel, ROUNDS rounds; in each, the runner
   measures the kernel once with counters off and once with the default
   counters on (the order alternating between rounds), default settings
   otherwise. Printed: the median over the rounds of the per-op medians off
   and on and their ratio (on / off), the median wall time the runner spent
   per benchmark off and on, and the counts per op of the last counted run.
   The counters' ioctls sit outside each epoch's timed interval, so the
   ratio should stay within the run-to-run noise; counting itself (the
   kernel's work at each context switch and page fault) is all that remains.
   Usage: p-bench-counters [rounds] (default 9). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"

static int cmp(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median(double * d, int n)
{
    qsort(d, (size_t) n, sizeof d[0], cmp);
    return n % 2 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]);
}

static const prof_result * measure(const kernel_t * k, int counters,
        prof_bench ** keep)
{
    prof_bench * b = prof_bench_new();
    const prof_result * r;
    if (b == NULL)
        return NULL;
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    if (counters)
        prof_bench_set_counters(b, "default");
    r = prof_bench_run(b, k->name, kernel_target(k), (void *) k);
    if (*keep != NULL)
        prof_bench_free(*keep);
    *keep = b;  /* r stays valid until the suite is freed */
    return r;
}

int main(int argc, char ** argv)
{
    enum { MAXR = 101 };
    static const int picks[] = { 0, 2, 3, 5, 6 };
    int rounds = argc > 1 ? atoi(argv[1]) : 9, i, j, k;
    double off[MAXR], on[MAXR], toff[MAXR], ton[MAXR];
    prof_bench * keep_off = NULL, * keep_on = NULL;
    char line[1024];

    if (rounds < 1 || rounds > MAXR)
        rounds = 9;
    if (kernels_init() != 0)
        return 1;
    printf("the runner with counters off and on (\"%s\"), default settings,\n"
           "medians over %d rounds, ns/op; ratio = on / off\n\n",
           PROF_COUNTERS_DEFAULT, rounds);
    printf("| %-11s | %10s | %10s | %7s | %9s | %9s | counts per op (last run)\n",
           "kernel", "off", "on", "ratio", "run off", "run on");
    printf("|:------------|-----------:|-----------:|--------:|----------:|"
           "----------:|:-------------------------\n");
    for (j = 0; j < (int) (sizeof picks / sizeof picks[0]); j++)
    {
        const kernel_t * kn = &kernels[picks[j]];
        const prof_result * last = NULL;
        for (i = 0; i < rounds; i++)
        {
            const prof_result * a, * b;
            if (i % 2 == 0)
            {
                a = measure(kn, 0, &keep_off);
                b = measure(kn, 1, &keep_on);
            }
            else
            {
                b = measure(kn, 1, &keep_on);
                a = measure(kn, 0, &keep_off);
            }
            if (a == NULL || b == NULL)
                return 1;
            off[i] = a->median_ns;
            on[i] = b->median_ns;
            toff[i] = a->total_s * 1e3;
            ton[i] = b->total_s * 1e3;
            last = b;
        }
        {
            double mo = median(off, rounds), mn = median(on, rounds);
            printf("| %-11s | %10.2f | %10.2f | %7.3f | %6.1f ms | %6.1f ms |",
                   kn->name, mo, mn, mn / mo, median(toff, rounds),
                   median(ton, rounds));
            for (k = 0; k < last->ncounters; k++)
            {
                double v = last->counters[k];
                if (v == v)
                    printf(" %s %.4g", last->counter_names[k], v);
                else
                    printf(" %s n/a", last->counter_names[k]);
            }
            printf("\n");
        }
    }
    /* the context line of the process's one counter set */
    {
        prof_counters c;
        if (prof_counters_open(&c, NULL) >= 0)
        {
            prof_counters_context(&c, line, sizeof line);
            printf("\n%s\n", line);
            prof_counters_close(&c);
        }
    }
    prof_bench_free(keep_off);
    prof_bench_free(keep_on);
    return 0;
}
