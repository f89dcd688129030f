/* A program built with -finstrument-functions and linked with
   libprofiler.a: every function, static ones included, is traced with no
   marker in the source (tests/test_trace_instrument.c checks its trace);
   middle also has a PROF_FUNC zone of the same name, which must stay a row
   of its own (kind 'f', not the instrumented 'i').
   Usage: trace_instrumented TRACE-FILE */
#define PROF_TRACE 1
#include <stdio.h>
#include "profiler.h"

static volatile int sink;

static __attribute__((noinline)) void leaf(int i)
{
    sink += i;
}

static __attribute__((noinline)) void middle(int n)
{
    PROF_FUNC();
    int i;
    for (i = 0; i < n; i++)
        leaf(i);
}

int main(int argc, char ** argv)
{
    int i;
    if (argc > 1 && prof_trace_open(argv[1]) != 0)
        return 1;
    for (i = 0; i < 100; i++)
        middle(10);
    printf("trace_instrumented: 100 middle, 1000 leaf\n");
    return 0;
}
