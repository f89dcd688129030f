/*
    The runner's numbers, each written once: its default and its bounds
    (prof_impl_range). The setters (bench_settings.c) check against them
    and say them in their messages, the command-line parser (bench_args.c)
    checks the flags against them and prints them in --help; the header's
    comments say the same defaults, which test_bench_args checks.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_BENCH_SETTINGS_H
#define PROF_BENCH_SETTINGS_H

#include "internal.h"

extern const prof_impl_range prof_impl_epochs_range,
    prof_impl_min_epoch_range, prof_impl_max_epoch_range,
    prof_impl_resolution_range, prof_impl_min_iters_range,
    prof_impl_exact_iters_range, prof_impl_warmup_range,
    prof_impl_retries_range, prof_impl_budget_range, prof_impl_jitter_range,
    prof_impl_batch_range, prof_impl_complexity_range,
    prof_impl_processes_range, prof_impl_threads_range,
    prof_impl_adaptive_epochs_range, prof_impl_precision_range;

/* Google Benchmark's outputs (bench_args.c, report_percentiles.c): each
   percentile the outputs carry is in prof_impl_percentile_range, the
   default list is prof_impl_percentiles_default[0 ..
   prof_impl_npercentiles_default) (--benchmark_context's limit,
   PROF_IMPL_CONTEXT_MAX, is in bench.h, with the suite). */
extern const prof_impl_range prof_impl_percentile_range;
extern const double prof_impl_percentiles_default[];
extern const int prof_impl_npercentiles_default;

/* A worker process that sends nothing for PROF_IMPL_HANG_BUDGETS x the
   budget + PROF_IMPL_HANG_EXTRA_S seconds is taken as hung and killed
   (bench_procs.c): a benchmark ends within its budget, a worker's set-up
   and its other benchmarks' ends are far shorter. */
#define PROF_IMPL_HANG_BUDGETS 10
#define PROF_IMPL_HANG_EXTRA_S 10

#endif
