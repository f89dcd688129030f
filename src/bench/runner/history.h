/*
    Internal: where the next run lands (bench_history.c), the run-to-run
    history that the next-run interval is learned from. Used by the suite
    (bench_suite.c) and its tests; not installed.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_HISTORY_H
#define PROF_HISTORY_H

#include "bench.h"

/* The half-width, in ln(time), of the 95% prediction interval of the next
   run's median from the changes between consecutive runs, the benchmark's
   own (own, nown: this run's change last) and the program's pool (all
   its benchmarks', own too):
   with 19 or more own changes, the order statistic of their |change| that
   a new one passes with probability <= 5%; with fewer, Student's t over
   the own changes shrunk towards the pool's mean square (weight at most 4
   changes); NaN when there are none. work: room for nown. */
double prof_impl_next_halfwidth(const double * own, int nown,
        const double * pool, int npool, double * work);
/* p's next_* from a half-width h (NaN: none learned) resting on changes
   changes: this run's median times exp(+-h), never narrower than the
   processes' interval (several processes) or one process's own widened by
   sqrt(2) (the next run's median has its noise too); with one process and
   no h, NaN (unknown). */
void prof_impl_next_interval(prof_result * p, double h, int changes);
/* The history file: PROFILER_HISTORY, else $XDG_CACHE_HOME/profiler/history
   or ~/.cache/profiler/history, else "off" (buf: room for the path). */
const char * prof_impl_history_default(char * buf, size_t size);
typedef struct prof_impl_history prof_impl_history;
/* The history at path, read now ("off" or NULL: none, NULL returned; a
   damaged file or another machine's is said and ignored). */
prof_impl_history * prof_impl_history_open(const char * path);
void prof_impl_history_free(prof_impl_history * h);
/* p's next-run interval from h (NULL: none). */
void prof_impl_history_apply(prof_impl_history * h, prof_result * p);
/* The results' medians into h and its file, written whole: 0, or -1
   after a message. */
int prof_impl_history_save(prof_impl_history * h,
        prof_impl_result * const * results, int n);

#endif
