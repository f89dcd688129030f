/*
    The sampling tests' and p-sample's workload: two functions of known
    cost per step, hot() and cold(), kept out of line so that samples land
    in them by name (the tests look the names up). Each step is one
    dependent multiply-add of a 64-bit LCG, the two with other constants.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_SAMPLE_WORK_H
#define PROF_SAMPLE_WORK_H

/* per thread: the two threads must not share it (a data race, TSan) */
static __thread volatile unsigned long sample_work_sink;

static __attribute__((noinline, unused)) void hot(unsigned long n)
{
    unsigned long i, x = sample_work_sink;
    for (i = 0; i < n; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    sample_work_sink = x;
}

static __attribute__((noinline, unused)) void cold(unsigned long n)
{
    unsigned long i, x = sample_work_sink;
    for (i = 0; i < n; i++)
        x = x * 2862933555777941757u + 3037000493u;
    sample_work_sink = x;
}

#endif
