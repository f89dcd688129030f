/*
    Result files and the comparison of two of them (internal: used by
    prof-compare and the profile programs, not installed).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_COMPARE_H
#define PROF_COMPARE_H

#include <stddef.h>

/* One benchmark of a result file: its samples (one per repetition or
   epoch) in nanoseconds per iteration, and their median. */
typedef struct
{
    char * name;
    double * samples_ns;
    int count, capacity;
    int entries;                 /* non-aggregate entries read */
    int from_array;              /* samples came from a "samples" array */
    double * repetitions;        /* repetition_index values seen */
    int repetition_count;
    double median_ns;            /* of the samples, else the median aggregate */
    double aggregate_median_ns;  /* the file's own median aggregate, or NaN */
    double complexity_n;         /* the N it ran with ("complexity_n"), or 0 */
} prof_series;

/* A family's complexity fit as the file states it (a "BigO" aggregate):
   time = coefficient_ns * g(N) with g named as Google Benchmark names it. */
typedef struct
{
    char * family;               /* the family's name (run_name) */
    char big_o[16];              /* "(1)", "lgN", "N", "NlgN", "N^2", "N^3", "f(N)" */
    double coefficient_ns;
} prof_fit_line;

typedef struct
{
    prof_series * series;
    int count, capacity;
    prof_fit_line * fits;
    int nfits;
} prof_result_file;

/* Load this library's JSON or Google Benchmark's. Samples come from a
   "samples" array (this library) or from per-repetition entries grouped by
   run_name (Google Benchmark's --benchmark_repetitions); aggregates other
   than the median are ignored; entries with error_occurred are skipped with
   a message. Returns 0, or -1 with the reason in err. */
int prof_impl_results_load(const char * path, prof_result_file * rf,
                           char * err, size_t errlen);
/* The same from len bytes of text in memory. */
int prof_impl_results_parse(const char * text, size_t len,
                            prof_result_file * rf, char * err, size_t errlen);
void prof_impl_results_free(prof_result_file * rf);

/* Two-sided Mann-Whitney U p-value (exact for small samples without ties,
   normal approximation otherwise); NaN when a side is empty. */
double prof_impl_mann_whitney_p(const double * x, int n, const double * y,
                                int m);

enum { PROF_VERDICT_SAME, PROF_VERDICT_FASTER, PROF_VERDICT_SLOWER,
       PROF_VERDICT_UNSURE };

typedef struct
{
    double change;   /* median new / median old - 1 */
    double p;        /* Mann-Whitney U, two-sided */
    int verdict;     /* PROF_VERDICT_* */
    double ci_low, ci_high;  /* 95% bootstrap interval of change, or NaN */
} prof_verdict;

/* Compare two benchmarks: slower or faster when the U test rejects at alpha
   AND the medians differ by at least noise (a fraction: 0.02 is 2%); same
   otherwise; unsure when the samples are too few for any p below alpha. */
void prof_impl_compare(const prof_series * old, const prof_series * new_,
                       double alpha, double noise, prof_verdict * out);
const char * prof_impl_verdict_name(int verdict);

/* A time in ns as "1.234 us" (4 significant digits, unit by size). */
void prof_impl_format_ns(char * buf, size_t len, double ns);

/* Bootstrap interval (level, e.g. 0.95) of median(new) / median(old) - 1,
   deterministic; NaN when a side has fewer than 2 samples. */
void prof_impl_change_interval(const prof_series * old,
                               const prof_series * new_, double level,
                               double * lo, double * hi);

/* Compare runs paired by position: old->samples_ns[i] and new_->samples_ns[i]
   are one figure each of two runs made one after the other (old, new, old,
   new, ...), so that the machine's slow and fast phases hit both alike.
   change is the median ratio new/old - 1 with its distribution-free 95%
   interval (order statistics; NaN under 6 pairs); p is the two-sided sign
   test's, which a few runs hit by bursts of other load cannot sway (on this
   project's machines it caught a 5% slowdown as often as the signed-rank
   test did at half the false alarms: README). The verdict rule is that of
   prof_impl_compare, and unsure while 2 / 2^n >= alpha (n < 6 at 0.05). */
void prof_impl_compare_paired(const prof_series * old,
                              const prof_series * new_, double alpha,
                              double noise, prof_verdict * out);

#endif
