/* Count what a piece of code does: instructions, cycles, branches and misses
   where the machine has a PMU, and page faults, context switches and CPU
   time everywhere Linux allows perf events. An event the machine cannot
   count prints n/a, and the context line says why. */
#include <stdio.h>
#include <stdlib.h>
#include "profiler.h"

int main(void)
{
    prof_counters counters;
    prof_counter_value v[PROF_COUNTERS_MAX];
    char context[1024];
    size_t n = 1 << 20, i;               /* 8 MB: about 2048 fresh pages */
    double * a, sum = 0.0;
    int e;

    /* Open once per process: NULL is PROF_COUNTERS_DEFAULT. */
    if (prof_counters_open(&counters, NULL) < 0)
        return 1;
    prof_counters_context(&counters, context, sizeof context);
    printf("%s\n", context);

    prof_counters_start(&counters);
    a = malloc(n * sizeof a[0]);         /* the code under test */
    for (i = 0; a != NULL && i < n; i++)
        a[i] = (double) i;
    for (i = 0; a != NULL && i < n; i++)
        sum += a[i];
    prof_counters_stop(&counters);

    if (prof_counters_read(&counters, v) == 0)
        for (e = 0; e < prof_counters_size(&counters); e++)
        {
            if (v[e].value == v[e].value)          /* NaN: unavailable */
                printf("%-17s %14.0f%s%s\n", prof_counters_name(&counters, e), v[e].value,
                       *prof_counters_unit(&counters, e) ? " " : "",
                       prof_counters_unit(&counters, e));
            else
                printf("%-17s %14s\n", prof_counters_name(&counters, e), "n/a");
        }
    prof_counters_close(&counters);
    printf("sum %.0f\n", sum);
    free(a);
    return 0;
}
