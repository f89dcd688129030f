/*
    A program that spends its time in libm (sin and cos), for
    check_libm_names.sh: named from Debian's libc6-dbg debug files when
    they are installed. argv[1]: seconds (default 0.5).
    SPDX-License-Identifier: MIT
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

volatile double libm_sink;

int main(int argc, char ** argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.5, end = now() + secs, x = 0.1;
    while (now() < end)
    {
        int i;
        for (i = 0; i < 100000; i++)
        {
            libm_sink += sin(x) + cos(x * 1.5);
            x += 1e-3;
        }
    }
    return 0;
}
