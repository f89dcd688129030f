/*
    Result files and the comparison of two of them (internal: used by
    prof-compare and the profile programs, not installed).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_COMPARE_H
#define PROF_COMPARE_H

#include "internal.h"   /* prof_impl_range, the option tables */

#include <stddef.h>
#include <stdio.h>

/* One benchmark of a result file: its samples (one per repetition or
   epoch: an "iteration" entry of the file) in nanoseconds per iteration,
   and their median. */
typedef struct
{
    char * name;
    double * samples_ns;
    int count;
    double median_ns;            /* of the samples, else the median aggregate */
    double aggregate_median_ns;  /* the file's own median aggregate, or NaN */
    double complexity_n;         /* the N it ran with ("complexity_n"), or 0 */
    int loaded;                  /* measured while the load average exceeded
                                    the cores (the runner's flags) */
    double load_avg;             /* the load average then, or NaN */
    double next_low_ns, next_high_ns;   /* the runner's next-run interval
                                           ("next_low", "next_high"), or NaN */
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
    prof_series * series;        /* in the order of the file */
    int count;
    prof_fit_line * fits;
    int nfits;
    int * index;                 /* hash table of series by name (1 + i) */
    size_t index_size;           /* a power of two, or 0 */
} prof_result_file;

/* Load a result file: Google Benchmark's JSON (--benchmark_format=json),
   which is also what this library's runner writes. A benchmark's samples
   are its "iteration" entries (one per repetition or epoch, grouped by
   run_name, each with a distinct repetition_index), or the array
   "epochs_real_time" of the runner's one entry of it (whose real_time is
   the median, and "complexity" its family's fit); its "median"
   aggregate is the figure when it has no iteration entry, a "BigO"
   aggregate its complexity fit, other aggregates are ignored; entries
   with error_occurred are skipped with a message. The file is read one
   entry at a time: memory is the text plus the samples. Returns 0, or -1
   with the reason in err. */
int prof_impl_results_load(const char * path, prof_result_file * rf,
                           char * err, size_t errlen);
/* The same from len bytes of text in memory. */
int prof_impl_results_parse(const char * text, size_t len,
                            prof_result_file * rf, char * err, size_t errlen);
void prof_impl_results_free(prof_result_file * rf);
/* The benchmark called name, or NULL (constant time). */
const prof_series * prof_impl_results_find(const prof_result_file * rf,
                                           const char * name);

/* Two-sided Mann-Whitney U p-value (exact for small samples without ties,
   normal approximation otherwise); NaN when a side is empty. */
double prof_impl_mann_whitney_p(const double * x, int n, const double * y,
                                int m);

enum { PROF_VERDICT_SAME, PROF_VERDICT_FASTER, PROF_VERDICT_SLOWER,
       PROF_VERDICT_UNSURE, PROF_VERDICT_DRIFT };

/* median new / median old - 1, and 0 when the medians are equal (0 and 0
   included: no change, not NaN). */
double prof_impl_change(double old_ns, double new_ns);

typedef struct
{
    double change;   /* prof_impl_change of the medians */
    double p;        /* Mann-Whitney U, two-sided */
    int verdict;     /* PROF_VERDICT_* */
    double ci_low, ci_high;  /* PROF_CI_LEVEL bootstrap interval of change,
                                or NaN */
} prof_verdict;

/* Compare two benchmarks: slower or faster when the U test rejects at alpha
   AND the medians differ by at least noise (a fraction: 0.02 is 2%); same
   otherwise; unsure when the samples are too few for any p below alpha. */
void prof_impl_compare(const prof_series * old, const prof_series * new_,
                       double alpha, double noise, prof_verdict * out);
const char * prof_impl_verdict_name(int verdict);

/* One run a side: its epochs show the noise inside the run, not the drift
   between runs (a shared machine's speed steps). The files' next-run
   intervals say how far the next run lands: h, the larger relative
   half-width of the two sides'. A faster or slower verdict stands when
   the change passes 2h; within h it is the same; between, or with no h
   (a file without next-run intervals), it becomes PROF_VERDICT_DRIFT:
   cannot tell. Returns h (NaN when unknown). */
double prof_impl_drift_verdict(const prof_series * old,
                               const prof_series * new_, prof_verdict * v);

/* A time in ns as "1.234 us" (4 significant digits, unit by size). */
void prof_impl_format_ns(char * buf, size_t len, double ns);

/* Bootstrap interval (level: PROF_CI_LEVEL) of median(new) / median(old) - 1,
   deterministic, in a time that does not grow with the number of samples
   (beyond sorting them); NaN when a side has fewer than 2 samples. */
void prof_impl_change_interval(const prof_series * old,
                               const prof_series * new_, double level,
                               double * lo, double * hi);

/* Compare runs paired by position: old->samples_ns[i] and new_->samples_ns[i]
   are one figure each of two runs made one after the other (old, new, old,
   new, ...), so that the machine's slow and fast phases hit both alike.
   change is the median ratio new/old - 1 with its distribution-free
   PROF_CI_LEVEL interval (order statistics; NaN under 6 pairs); p is the two-sided sign
   test's, which a few runs hit by bursts of other load cannot sway (on this
   project's machines it caught a 5% slowdown as often as the signed-rank
   test did at half the false alarms: README). The verdict rule is that of
   prof_impl_compare, and unsure while 2 / 2^n >= alpha (n < 6 at 0.05). */
void prof_impl_compare_paired(const prof_series * old,
                              const prof_series * new_, double alpha,
                              double noise, prof_verdict * out);

/* ---- the gate (prof-compare --threshold, prof-run --threshold) ---------- */

/* The exit statuses of the tools that gate. */
enum { PROF_EXIT_PASS = 0, PROF_EXIT_REGRESSION = 1, PROF_EXIT_BAD_INPUT = 2,
       PROF_EXIT_UNDECIDED = 3 };

/* The gate's settings: alpha, and noise and threshold as fractions (0.02
   is 2%); threshold < 0: report only. */
typedef struct
{
    double alpha, noise, threshold;
} prof_gate;

/* The numbers --alpha, --noise and --threshold take (percent for the
   last two), with their defaults: alpha 0.05, noise 2%, no threshold (-1). */
extern const prof_impl_range prof_impl_gate_alpha, prof_impl_gate_noise,
       prof_impl_gate_threshold;
/* The defaults of the gate, from those. */
void prof_impl_gate_default(prof_gate * g);
/* The option name (--alpha=P, --noise=PCT or --threshold=PCT) of program
   set to value in g: 0, or -1 after a message. */
int prof_impl_gate_option(prof_gate * g, const char * program,
                          const char * name, const char * value);
/* The three rows of a tool's option table (src/core/internal.h), each set by
   setter(ctx, name, value), which hands them to prof_impl_gate_option;
   threshold_help says what the gate does. */
#define PROF_GATE_OPTIONS(setter, threshold_help) \
    { "--alpha", "P", "significance level of the test ({default})", \
      PROF_IMPL_OPTION_NUMBER(setter, &prof_impl_gate_alpha) }, \
    { "--noise", "PCT", "smaller changes are never called significant " \
      "({default})", PROF_IMPL_OPTION_NUMBER(setter, &prof_impl_gate_noise) }, \
    { "--threshold", "PCT", threshold_help, \
      PROF_IMPL_OPTION_NUMBER(setter, &prof_impl_gate_threshold) }
/* Whether v fails the gate: significantly slower by more than the
   threshold (never without one). */
int prof_impl_gate_regression(const prof_gate * g, const prof_verdict * v);
/* The fewest pairs for which the sign test can reach alpha; the fewest
   samples a side for which the exact U test can. */
int prof_impl_gate_pairs_needed(double alpha);
int prof_impl_gate_samples_needed(double alpha);
/* The gate's conclusion on out, from the number of comparisons that
   regressed and that were unsure ("N <what> significantly slower ...",
   "the gate cannot decide: N <what> have too few <too_few>"): the exit
   status, PROF_EXIT_PASS without a threshold. */
int prof_impl_gate_conclude(FILE * out, const prof_gate * g, int regressions,
                            int unsure, const char * what,
                            const char * too_few);

/* What prof-compare's notes under its table are made from. */
typedef struct
{
    const prof_gate * gate;
    int common;         /* benchmarks compared */
    int unsure;         /* of them, with too few samples or pairs to tell */
    int drift;          /* of them, changed within the drift between runs
                           (one file a side: PROF_VERDICT_DRIFT) */
    int changed;        /* of them, called faster or slower */
    int paired;         /* several files a side, paired by position */
    int one_file;       /* one file a side, not --run */
    int loaded[2];      /* rows whose old / new side was measured under load */
    double max_load;    /* the highest load average of those */
} prof_compare_notes;
/* The notes on out: too few samples or pairs (how many are needed), rows
   measured under load, one file a side under a gate or where a report
   called a change. */
void prof_impl_compare_notes(FILE * out, const prof_compare_notes * n);

#endif
