/*
    A program that spends its time in libm (sin and cos), for
    check_libm_names.sh: named from Debian's libc6-dbg debug files when
    they are installed. argv[1]: millions of sin-cos pairs (default 20,
    about half a second).
    SPDX-License-Identifier: MIT
*/
#include <math.h>
#include <stdlib.h>

volatile double libm_sink;

int main(int argc, char ** argv)
{
    long n = (argc > 1 ? atol(argv[1]) : 20) * 1000000L, i;
    double x = 0.1;
    for (i = 0; i < n; i++)
    {
        libm_sink += sin(x) + cos(x * 1.5);
        x += 1e-3;
    }
    return 0;
}
