/* What the runner's tests share: a suite writing format to out (NULL: no
   console output), with no epoch jitter (exact figures under the fake
   clock) and never treated as a terminal.
   SPDX-License-Identifier: MIT */
#ifndef PROF_TEST_BENCH_CHECK_H
#define PROF_TEST_BENCH_CHECK_H

#include "profiler.h"

static inline prof_bench * check_suite(FILE * out, prof_format format)
{
    prof_bench * b = prof_bench_new();
    prof_bench_set_output(b, out);
    prof_bench_set_format(b, out ? format : PROF_FORMAT_NONE);
    prof_bench_set_epoch_jitter(b, 0.0);
    prof_bench_set_terminal(b, PROF_TERMINAL_NEVER);
    return b;
}

#endif
