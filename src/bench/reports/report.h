/*
    Internal: the runner's reporters (markdown, CSV, JSON) and the
    complexity fits they show. A reporter owns its state and takes results
    and the context of the run; it never reaches into the suite. Not
    installed.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_REPORT_H
#define PROF_REPORT_H

#include "bench.h"

/* What every output says about the run besides its results. */
typedef struct
{
    int optimized, sanitized;   /* how the benchmark program was built */
    const char * compiler, * flags;
    double overhead_ns;         /* two clock reads; NaN if never measured */
    const char * counters_line; /* the event set's context line, or "" */
    int terminal;               /* prof_bench_set_terminal's mode */
    int wide;                   /* --wide: every column */
    int table_percentiles;      /* --table-percentiles: their columns */
    int processes;              /* processes whose epochs are pooled */
    const char * fit_name;      /* the user's complexity function, or NULL */
    double (*fit_f)(double);
    const char * partial;       /* why the results stop short ("interrupted
                                   by SIGINT"), or NULL: all of them */
    /* Google Benchmark's outputs: the percentiles (NULL: none), the
       aggregates alone (no epoch entries), the pairs of
       --benchmark_context ("key=value"), and whether a rate
       (items_per_second) is written where a batch or a unit was set */
    const double * percentiles;
    int npercentiles;
    int aggregates_only;
    int json_epochs;            /* --json-epochs: Google Benchmark's
                                   repetitions (else one entry each) */
    char * const * context;
    int ncontext;
    int no_rate;
} prof_impl_report_ctx;

/* The build warnings (unoptimised, sanitizer) into w[0..2); their number. */
int prof_impl_build_warnings(const prof_impl_report_ctx * ctx,
        const char * w[2]);
/* r's count of event name per unit, NaN if not counted (the index:
   prof_impl_result_event_index, bench.h). */
double prof_impl_result_event(const prof_result * r, const char * name);

/* The tables' numbers (report.c). v to 4 significant digits, fixed
   point ("0.5000", "69.00", "1006", "1510051400"; "0" for 0, "n/a" for
   NaN, %.3e below 1e-4 and past PROF_IMPL_FIXED_MAX); and with k, M, G,
   T, P from a thousand on ("1.006k", "67.66M"). Both return out. */
const char * prof_impl_four_digits(char * out, size_t size, double v);
const char * prof_impl_four_digits_si(char * out, size_t size, double v);
/* A percentage so, with at most 2 decimals and its "%" ("12.35%", "0.46%",
   "0%": under 0.005 too; "n/a%" for NaN). Returns out. */
const char * prof_impl_percent(char * out, size_t size, double pct);
/* The time unit of a table's row of median ns: fixed (the one set with
   --time-unit: ns, us, ms or s), or if NULL the one it reads best in (the
   largest it is 1 or more of, as hyperfine chooses). */
void prof_impl_table_unit(double ns, const char * fixed, const char ** unit,
        double * unit_ns);
/* ---- percentiles (report_percentiles.c) --------------------------------- */

/* The percentiles the outputs carry, sorted, into *p; their number (the
   runner's: prof_bench_set_percentiles; prof-run's: the default list).
   The tables read the same list. */
int prof_impl_report_percentiles(const prof_impl_report_ctx * c,
        const double ** p);
/* The epochs percentile p needs to be more than the extreme epochs' blend
   (1 + 100 / min(p, 100 - p), rounded up; 1 for p0 and p100, which are the
   extremes), and the most any of c's percentiles needs. */
int prof_impl_percentile_epochs(double p);
int prof_impl_percentiles_epochs(const prof_impl_report_ctx * c);
/* "p10", "p99.9" into buf. */
void prof_impl_percentile_name(char * buf, size_t size, double p);
/* Percentile p (0..100, type 7) of the values of x[0 .. n) that are not
   NaN (NaN if none); work has room for n. */
double prof_impl_percentile_of(const double * x, int n, double p,
        double * work);

/* ---- markdown (report_md.c) --------------------------------------------- */

/* (prof_impl_md_writer, the table's state, is in bench.h.) */
void prof_impl_md_init(prof_impl_md_writer * w, FILE * out);
/* One result's row (and whatever comes before it: context, header);
   relative: the suite has a baseline, so the row has a relative column. */
void prof_impl_md_row(prof_impl_md_writer * w, const prof_impl_report_ctx * c,
        const prof_impl_result * r, int relative);
/* After the rows of a partial table (c->partial): why it stops short. */
void prof_impl_md_partial(prof_impl_md_writer * w,
        const prof_impl_report_ctx * c, int rows);
/* text and a line break, its lines (at spaces) no wider than the table's
   100 columns; a word longer than that stays whole. */
void prof_impl_md_wrap(FILE * out, const char * text);
/* Something else was printed under the table (a complexity table): the
   next row starts under a header of its own. */
void prof_impl_md_break(prof_impl_md_writer * w);

/* ---- CSV and JSON (report_csv.c, report_json.c) ------------------------- */

/* The JSON's opening and its "context" object, up to "benchmarks"
   (report_json_context.c). */
void prof_impl_json_context(FILE * out, const prof_impl_report_ctx * c,
        prof_impl_result * const * results, int n);
/* v as a JSON number that reads back exactly (NaN and infinities: null;
   report.c). (Strings: prof_impl_json_string, internal.h.) */
void prof_impl_json_number(FILE * out, double v);
/* Mean, median and sample standard deviation (0 for one value) of x[0 ..
   n), n >= 1: 0, or -1 out of memory (the median then NaN). */
typedef struct { double mean, median, sd; } prof_impl_moments;
int prof_impl_sample_moments(const double * x, int n, prof_impl_moments * m);

/* Write results[from .. n) (the JSON's family indexes count them all):
   0, or -1 after a message when out of memory left figures out (the
   caller should not keep the file as if whole). */
int prof_impl_csv_write(FILE * out, const prof_impl_report_ctx * c,
        prof_impl_result * const * results, int from, int n);
int prof_impl_json_write(FILE * out, const prof_impl_report_ctx * c,
        prof_impl_result * const * results, int from, int n);

/* ---- complexity (complexity.c) ------------------------------------------ */

/* The time a fit is made of: each result's median, or its processor time. */
typedef enum { PROF_IMPL_FIT_REAL, PROF_IMPL_FIT_CPU } prof_impl_fit_time;

/* Fit the growth functions (and the user's f, if not NULL) to the results
   with an N in family (NULL: all), ranked by RMS, into fits[0 .. max);
   within_noise is found for the real time only (the processor time's fits
   use the real time's weights). Returns the number of fits (0 with fewer
   than 2 such results, or out of memory). */
int prof_impl_fits(prof_impl_result * const * results, int n,
        const char * family, prof_impl_fit_time time, const char * fit_name,
        double (*fit_f)(double), prof_fit * fits, int max);
/* How many results with an N in family (NULL: all) have flagged rows;
   the first max of their N into ns. */
int prof_impl_family_flagged(prof_impl_result * const * results, int n,
        const char * family, double * ns, int max);
/* Whether the fits[0 .. nf) of family name its complexity: 4 sizes or
   more, no later fit within the noise of the first, no size's row
   flagged. Else the console says it cannot tell; the JSON's "confident". */
int prof_impl_fit_confident(prof_impl_result * const * results, int n,
        const char * family, const prof_fit * fits, int nf);
/* Length of the family part of a name (up to the first '/'), and whether
   two names are of one family (that part, and the same "/threads:N"). */
size_t prof_impl_family_len(const char * name);
int prof_impl_same_family(const char * a, const char * b);
/* The family of a name as shown: "sum", or "sum/threads:2" (results on
   several threads form a family of their own). */
void prof_impl_family_name(const char * name, char * buf, size_t size);

#endif
