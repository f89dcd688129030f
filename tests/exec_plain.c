/* A program that uses the library without tracing, the runner, the
   counters and prof_repeat included, and calls execvp itself:
   tests/check_tracer_optin.sh finds nothing of the tracer in it (its
   execvp is the C library's). Run, it measures one benchmark, then
   becomes "true" through execvp: exit status 0. */
#include "profiler.h"

#include <stdio.h>
#include <unistd.h>

static void target(void * arg, ulong count)
{
    volatile ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
        ;
}

int main(int argc, char ** argv)
{
    char * args[] = { (char *) "true", NULL };
    prof_bench * b = prof_bench_new();
    prof_counters c;
    double mn, mx;
    if (b == NULL || prof_bench_args(b, argc, argv) != 0)
    {
        prof_bench_free(b);
        return 2;
    }
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_budget_s(b, 0.05);
    if (prof_bench_run(b, "loop", target, NULL) == NULL || prof_bench_finish(b) != 0)
        return 1;
    prof_bench_free(b);
    if (prof_counters_open(&c, "task-clock") >= 0)
        prof_counters_close(&c);
    prof_repeat(&mn, &mx, target, NULL);
    fflush(NULL);
    execvp("true", args);
    perror("exec_plain: execvp");
    return 1;
}
