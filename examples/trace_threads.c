/* trace_threads: nested zones in two threads, written to a trace file.

       cc -DPROF_TRACE trace_threads.c libprofiler.a -lpthread -lm
       ./a.out trace.ptrace          (or PROF_TRACE_FILE=trace.ptrace ./a.out)
       prof-trace trace.ptrace       summary: calls, total, avg, min, max, self
       prof-trace --json -o trace.json trace.ptrace    open in ui.perfetto.dev

   Each worker runs ROUNDS "round" zones; each round has one "work" zone
   made of STEPS "step" zones; main wraps everything in PROF_FUNC. */
#define PROF_TRACE 1
#include <pthread.h>
#include <stdio.h>
#include "profiler.h"

enum { ROUNDS = 100, STEPS = 10 };

static void step(volatile unsigned long * sum, unsigned long i)
{
    PROF_ZONE("step");                  /* ends at the closing brace */
    *sum += i * i;
}

static void * worker(void * arg)
{
    int r, s;
    volatile unsigned long sum = 0;     /* one per thread */
    prof_trace_thread_name((const char *) arg);
    for (r = 0; r < ROUNDS; r++)
    {
        PROF_ZONE_BEGIN("round");
        {
            PROF_ZONE("work");
            for (s = 0; s < STEPS; s++)
                step(&sum, (unsigned long) s);
        }
        PROF_ZONE_END("round");
    }
    return NULL;
}

int main(int argc, char ** argv)
{
    PROF_FUNC();                        /* a zone named "main" */
    pthread_t a, b;
    if (argc > 1 && prof_trace_open(argv[1]) != 0)
        return 1;
    pthread_create(&a, NULL, worker, (void *) "worker-1");
    pthread_create(&b, NULL, worker, (void *) "worker-2");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("trace_threads: 2 threads x %d round, %d work, %d step zones; "
           "main 1; lost %llu\n", ROUNDS, ROUNDS, ROUNDS * STEPS,
           prof_trace_lost());
    return 0;
}
