/*
    A program whose mix of work is chosen on the command line, for
    prof-trace --diff (check_trace_diff.sh): rounds of hot(HOT) then
    cold(COLD) steps (tests/sample_work.h) for SECONDS of wall time. Two
    runs with the mix swapped are two profiles in which cold() grew.
    Built with frame pointers.
        diff_target HOT COLD SECONDS
    SPDX-License-Identifier: MIT
*/
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "sample_work.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

int main(int argc, char ** argv)
{
    unsigned long h = argc > 1 ? strtoul(argv[1], NULL, 10) : 400000;
    unsigned long c = argc > 2 ? strtoul(argv[2], NULL, 10) : 100000;
    double end = now() + (argc > 3 ? atof(argv[3]) : 0.5);
    alarm(60);
    while (now() < end)
    {
        hot(h);
        cold(c);
    }
    return 0;
}
