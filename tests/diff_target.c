/*
    A program whose mix of work is chosen on the command line, for
    prof-trace --diff (check_trace_diff.sh): ROUNDS rounds of hot(HOT)
    then cold(COLD) steps (tests/sample_work.h). Two runs with the mix
    swapped are two profiles in which cold() grew. Built with frame
    pointers.
        diff_target HOT COLD ROUNDS
    SPDX-License-Identifier: MIT
*/
#include <stdlib.h>

#include "sample_work.h"

int main(int argc, char ** argv)
{
    unsigned long h = argc > 1 ? strtoul(argv[1], NULL, 10) : 400000;
    unsigned long c = argc > 2 ? strtoul(argv[2], NULL, 10) : 100000;
    long r, rounds = argc > 3 ? atol(argv[3]) : 1000;
    for (r = 0; r < rounds; r++)
    {
        hot(h);
        cold(c);
    }
    return 0;
}
