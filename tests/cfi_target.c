/*
    A program built -O2 -fomit-frame-pointer, as Debian builds: main ->
    drive -> trig_work -> sin/cos (libm) and drive -> int_work, for argv[1]
    seconds of CPU (default 0.5), or "rounds=N": N rounds of fixed work
    (profile/p-sample-unwind.sh). CFI_NEST=K in the environment puts K
    frames of 256 bytes each between drive and the work (a deep stack, for
    the reach of a stack copy's size). With "inproc FILE" it samples itself
    (prof_sample_start, the call graph from PROF_SAMPLE_CALL_GRAPH) into
    the trace FILE; "timer FILE" the same with perf events refused (the
    timer fallback). Its stacks reach main only when unwound by CFI
    (check_cfi_unwind.sh).
    SPDX-License-Identifier: MIT
*/
#define PROF_TRACE 1
#include "profiler.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the fake perf seam (src/sample/sample_impl.h): refuse the events */
extern int (*prof_impl_sample_open)(void * attr, long pid, int cpu);

static int refuse(void * attr, long pid, int cpu)
{
    (void) attr; (void) pid; (void) cpu;
    errno = EACCES;
    return -1;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

volatile double sink_d;
volatile unsigned long sink_u;

__attribute__((noinline)) static double trig_work(int n)
{
    double s = 0, x = sink_d;
    int i;
    for (i = 0; i < n; i++)
    {
        s += sin(x) * cos(x * 0.5);
        x += 0.001;
    }
    return s;
}

__attribute__((noinline)) static unsigned long int_work(int n)
{
    unsigned long h = sink_u;
    int i;
    for (i = 0; i < n; i++)
        h = (h ^ (unsigned long) i) * 0x100000001B3ul + (h >> 7);
    return h;
}

__attribute__((noinline)) static void round_of_work(void)
{
    sink_d += trig_work(20000);
    sink_u += int_work(40000);
}

/* k frames of 256 bytes above the work */
__attribute__((noinline)) static void nest(int k)
{
    volatile unsigned char pad[256];
    pad[k & 255] = (unsigned char) k;
    if (k > 0)
        nest(k - 1);
    else
        round_of_work();
    pad[0] = pad[k & 255];
}

__attribute__((noinline)) static void drive(double secs, long rounds, int k)
{
    double end = cpu_now() + secs;
    long r;
    for (r = 0; rounds > 0 ? r < rounds : cpu_now() < end; r++)
        nest(k);
}

int main(int argc, char ** argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.5;
    long rounds = argc > 1 && strncmp(argv[1], "rounds=", 7) == 0 ? atol(argv[1] + 7) : 0;
    const char * k = getenv("CFI_NEST");
    int self = argc > 3 && (strcmp(argv[2], "inproc") == 0 || strcmp(argv[2], "timer") == 0);
    if (self && strcmp(argv[2], "timer") == 0)
        prof_impl_sample_open = refuse;
    if (self && (prof_trace_open(argv[3]) != 0 || prof_sample_start(0) != 0))
        return 1;
    drive(secs > 0 ? secs : 0.5, rounds, k != NULL ? atoi(k) : 0);
    if (self)
    {
        prof_sample_stop();
        prof_trace_flush();
    }
    return 0;
}
