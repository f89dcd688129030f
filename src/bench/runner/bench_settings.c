/*
    The runner's settings: their defaults, the setters (each checks its
    value and leaves the setting unchanged on bad input), and the name
    filter.
    SPDX-License-Identifier: MIT
*/
#include "bench.h"
#include "bench_settings.h"
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The name filter: a POSIX extended regular expression, or a plain
   substring where there is no <regex.h> (Windows). */
static int filter_compile(prof_impl_regex * re, const char * text,
        char * msg, size_t size)
{
#if defined(_WIN32)
    if ((re->text = prof_impl_strdup(text)) == NULL)
    {
        prof_impl_copy(msg, size, "out of memory");
        return -1;
    }
    return 0;
#else
    int rc = regcomp(re, text, REG_EXTENDED | REG_NOSUB);
    if (rc != 0)
        regerror(rc, re, msg, size);
    return rc;
#endif
}

static void filter_free(prof_impl_regex * re)
{
#if defined(_WIN32)
    free(re->text);
#else
    regfree(re);
#endif
}

int prof_impl_filter_match(const prof_bench * b, const char * name)
{
    int match;
    if (!b->has_filter)
        return 1;
#if defined(_WIN32)
    match = strstr(name, b->filter.text) != NULL;
#else
    match = regexec(&b->filter, name, 0, NULL, 0) == 0;
#endif
    return match != b->filter_negated;
}

void prof_impl_filter_free(prof_bench * b)
{
    if (b->has_filter)
        filter_free(&b->filter);
    b->has_filter = 0;
}

/* The table: default, lo, hi, lo open, hi open, whole, unit, what (the
   parser's words; the setters' messages say the bounds alone). */
#define ITERS ((double) PROF_IMPL_MAX_ITERS)
#define WHOLE(def, lo, hi, what) { def, lo, hi, 0, 0, 1, PROF_IMPL_PLAIN, what }
const prof_impl_range
    prof_impl_epochs_range = WHOLE(11, 1, 100000, "a whole number of epochs, "
                                   "{lo}..{hi}"),
    prof_impl_min_epoch_range = { 1e6, 0, 1e13, 0, 1, 0, PROF_IMPL_NS,
                                  "a time >= {lo} and < {hi}" },
    prof_impl_max_epoch_range = { 1e8, 0, 1e13, 1, 1, 0, PROF_IMPL_NS,
                                  "a time > {lo} and < {hi}" },
    prof_impl_resolution_range = { 1000, 0, 1e12, 0, 1, 0, PROF_IMPL_PLAIN,
                                   "a number >= {lo} and < {hi}" },
    prof_impl_min_iters_range = WHOLE(1, 1, ITERS, "a whole number of "
                                      "iterations, {lo}..{hi}"),
    prof_impl_exact_iters_range = WHOLE(0, 0, ITERS, "a whole number of "
                                        "iterations, {lo}..{hi}"),
    prof_impl_warmup_range = WHOLE(0, 0, ITERS, "a whole number of "
                                   "iterations, {lo}..{hi}"),
    prof_impl_retries_range = WHOLE(11, 0, 1e6, "a whole number of retries, "
                                    "{lo}..{hi}"),
    prof_impl_budget_range = { 5, 0, 1e7, 1, 1, 0, PROF_IMPL_SECONDS,
                               "a time > {lo} and < {hi}" },
    prof_impl_jitter_range = { 0.2, 0, 1, 0, 0, 0, PROF_IMPL_PLAIN,
                               "a fraction {lo}..{hi}" },
    prof_impl_batch_range = { 1, 0, HUGE_VAL, 1, 1, 0, PROF_IMPL_PLAIN,
                              "a number > {lo}" },
    /* the default 0 is "unset" (-1 clears it) */
    prof_impl_complexity_range = { 0, 0, HUGE_VAL, 1, 1, 0, PROF_IMPL_PLAIN,
                                   "a number > {lo}" },
    prof_impl_processes_range = WHOLE(1, 1, PROF_PROCESSES_MAX, "a whole "
                                      "number of processes, {lo}..{hi}"),
    prof_impl_threads_range = WHOLE(1, 1, PROF_THREADS_MAX, "a whole number "
                                    "of threads, {lo}..{hi}"),
    /* the adaptive schedule: its most epochs unless --epochs says, and
       its target, the interval's half-width in % of the median */
    prof_impl_adaptive_epochs_range = WHOLE(100, 1, 100000, "a whole number "
                                            "of epochs, {lo}..{hi}"),
    prof_impl_precision_range = { 1, 0, 100, 1, 0, 0, PROF_IMPL_PLAIN,
                                  "a percentage > {lo} and <= {hi}" };

/* Google Benchmark's outputs: the percentiles (the default 0 is unused:
   the default is the list) */
const prof_impl_range prof_impl_percentile_range = { 0, 0, 100, 0, 0, 0,
    PROF_IMPL_PLAIN, "a list of percentiles {lo}..{hi}, or none" };
const double prof_impl_percentiles_default[] = { 10, 50, 90 };
const int prof_impl_npercentiles_default = 3;

/* Whether v is in r; if not, a message: setter, what (a name and "must
   be", or NULL: "must be"), the bounds, the value. */
static int in(const char * setter, const char * what,
        const prof_impl_range * r, double v)
{
    char bounds[96];
    if (prof_impl_range_has(r, v))
        return 1;
    prof_impl_warn("%s: %s%smust be %s: bad value %g; setting unchanged",
                   setter, what ? what : "", what ? " " : "",
                   prof_impl_range_bounds(bounds, sizeof bounds, r), v);
    return 0;
}

static int bad(const char * what, double value)
{
    prof_impl_warn("%s: bad value %g; setting unchanged", what, value);
    return -1;
}

void prof_impl_settings_default(prof_impl_settings * s)
{
    memset(s, 0, sizeof *s);
    s->epochs = (int) prof_impl_epochs_range.def;
    s->min_epoch_ns = prof_impl_min_epoch_range.def;
    s->max_epoch_ns = prof_impl_max_epoch_range.def;
    s->resolution_multiple = prof_impl_resolution_range.def;
    s->schedule = PROF_SCHEDULE_ADAPTIVE;
    s->precision_pct = prof_impl_precision_range.def;
    s->min_iters = (ulong) prof_impl_min_iters_range.def;
    s->exact_iters = (ulong) prof_impl_exact_iters_range.def;
    s->warmup = (ulong) prof_impl_warmup_range.def;
    s->retries = (int) prof_impl_retries_range.def;
    s->budget_s = prof_impl_budget_range.def;
    s->jitter = prof_impl_jitter_range.def;
    s->batch = prof_impl_batch_range.def;
    strcpy(s->unit, "op");
    strcpy(s->time_unit, "ns");
    s->complexity_n = prof_impl_complexity_range.def;
    s->threads = (int) prof_impl_threads_range.def;
}

/* The epochs the suite's percentiles need, into its settings: the
   adaptive schedule keeps at least that many. */
static void percentiles_epochs(prof_bench * b)
{
    prof_impl_report_ctx c;
    memset(&c, 0, sizeof c);
    c.percentiles = b->percentiles;
    c.npercentiles = b->npercentiles;
    b->s.percentile_epochs = prof_impl_percentiles_epochs(&c);
}

void prof_impl_gbench_default(prof_bench * b)
{
    memcpy(b->percentiles, prof_impl_percentiles_default,
           (size_t) prof_impl_npercentiles_default * sizeof *b->percentiles);
    b->npercentiles = prof_impl_npercentiles_default;
    percentiles_epochs(b);
}

void prof_impl_gbench_free(prof_bench * b)
{
    while (b->ncontext > 0)
        free(b->context[--b->ncontext]);
}

/* The setters of one number: check it against its range (the message
   names setter, and what when not NULL), then store it (and do also). */
#define SETTER_AND(setter, type, arg, range, what, field, also) \
int setter(prof_bench * b, type arg) \
{ \
    PROF_IMPL_NEED_SUITE(b, #setter); \
    if (!in(#setter, what, &range, (double) arg)) \
        return -1; \
    b->s.field = arg; \
    also; \
    return 0; \
}
#define SETTER(setter, type, arg, range, what, field) \
    SETTER_AND(setter, type, arg, range, what, field, (void) 0)
/* The epochs and the least epoch time are marked as given: the adaptive
   schedule takes them as its maximum and its floor. */
SETTER_AND(prof_bench_set_epochs, int, epochs, prof_impl_epochs_range,
           "epochs", epochs, b->s.epochs_set = 1)
SETTER_AND(prof_bench_set_min_epoch_time_ns, double, ns,
           prof_impl_min_epoch_range, "the time", min_epoch_ns,
           b->s.min_epoch_set = 1)
SETTER(prof_bench_set_max_epoch_time_ns, double, ns,
       prof_impl_max_epoch_range, "the time", max_epoch_ns)
SETTER(prof_bench_set_resolution_multiple, double, multiple,
       prof_impl_resolution_range, "the multiple", resolution_multiple)
SETTER(prof_bench_set_min_epoch_iterations, ulong, iters,
       prof_impl_min_iters_range, NULL, min_iters)
SETTER(prof_bench_set_epoch_iterations, ulong, iters,
       prof_impl_exact_iters_range, NULL, exact_iters)
SETTER(prof_bench_set_warmup, ulong, iters, prof_impl_warmup_range, NULL,
       warmup)
SETTER(prof_bench_set_preempt_retries, int, retries, prof_impl_retries_range,
       NULL, retries)
SETTER(prof_bench_set_budget_s, double, seconds, prof_impl_budget_range,
       "the budget", budget_s)
SETTER(prof_bench_set_epoch_jitter, double, fraction, prof_impl_jitter_range,
       NULL, jitter)
SETTER(prof_bench_set_precision_pct, double, pct, prof_impl_precision_range,
       "the precision", precision_pct)

int prof_bench_set_schedule(prof_bench * b, prof_schedule schedule)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_schedule");
    if (schedule != PROF_SCHEDULE_ADAPTIVE && schedule != PROF_SCHEDULE_FIXED)
        return bad("prof_bench_set_schedule: unknown schedule",
                   (double) schedule);
    b->s.schedule = schedule;
    return 0;
}

int prof_bench_set_batch(prof_bench * b, double units, const char * unit)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_batch");
    if (!in("prof_bench_set_batch", "units", &prof_impl_batch_range, units))
        return -1;
    b->s.batch = units;
    prof_impl_copy(b->s.unit, sizeof b->s.unit,
                   unit != NULL && *unit ? unit : "op");
    return 0;
}

int prof_bench_set_time_unit(prof_bench * b, const char * unit)
{
    int automatic = unit != NULL && strcmp(unit, "auto") == 0;
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_time_unit");
    if (!automatic && prof_impl_time_unit_ns(unit) == 0.0)
    {
        prof_impl_warn("prof_bench_set_time_unit: unknown unit \"%s\" (ns, "
                       "us, ms, s or auto); setting unchanged",
                       unit ? unit : "(null)");
        return -1;
    }
    strcpy(b->s.time_unit, automatic ? "ns" : unit);
    b->s.time_unit_fixed = !automatic;
    return 0;
}

int prof_bench_set_relative(prof_bench * b, int on)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_relative");
    b->relative_next = on != 0;
    if (!on)
        b->baseline = -1;
    return 0;
}

int prof_bench_set_complexity_n(prof_bench * b, double n)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_complexity_n");
    if (n == -1.0)
    {
        b->s.complexity_n = 0.0;
        return 0;
    }
    if (!in("prof_bench_set_complexity_n", "N", &prof_impl_complexity_range,
            n))
        return -1;
    b->s.complexity_n = n;
    return 0;
}

int prof_bench_set_counters(prof_bench * b, const char * events)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_counters");
    if (events == NULL || *events == '\0' || strcmp(events, "off") == 0)
    {
        b->s.counters[0] = '\0';
        return 0;
    }
    if (strcmp(events, "default") == 0 || strcmp(events, "on") == 0)
        events = PROF_COUNTERS_DEFAULT;
    if (strlen(events) >= sizeof b->s.counters)
    {
        prof_impl_warn("prof_bench_set_counters: event list too long; "
                       "setting unchanged");
        return -1;
    }
    if (prof_impl_counters_check(events, "prof_bench_set_counters") < 0)
        return -1;  /* the message said which name */
    strcpy(b->s.counters, events);
    return 0;
}

int prof_bench_set_wide(prof_bench * b, int on)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_wide");
    b->wide = on != 0;
    return 0;
}

int prof_bench_set_interleave(prof_bench * b, int on)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_interleave");
    b->interleave = on != 0;
    return 0;
}

int prof_bench_set_processes(prof_bench * b, int n)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_processes");
    if (!in("prof_bench_set_processes", "processes",
            &prof_impl_processes_range, n))
        return -1;
    b->processes = n;
    return 0;
}

int prof_bench_set_history(prof_bench * b, const char * path)
{
    char * copy = NULL;
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_history");
    if (path != NULL && path[0] == '\0')
    {
        prof_impl_warn("prof_bench_set_history: an empty path (a file, "
                       "\"off\", or NULL for the default)");
        return -1;
    }
    if (path != NULL && (copy = prof_impl_strdup(path)) == NULL)
    {
        prof_impl_warn("prof_bench_set_history: out of memory");
        return -1;
    }
    free(b->history_path);
    b->history_path = copy;
    return 0;
}

int prof_bench_set_threads(prof_bench * b, int n)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_threads");
    if (!in("prof_bench_set_threads", "threads", &prof_impl_threads_range, n))
        return -1;
#if !defined(PROF_IMPL_HAVE_THREADS)
    if (n > 1)
    {
        prof_impl_warn("prof_bench_set_threads(%d): this build runs a target "
                       "on one thread only; setting unchanged", n);
        return -1;
    }
#endif
    b->s.threads = n;
    return 0;
}

int prof_bench_set_percentiles(prof_bench * b, const double * p, int n)
{
    double sorted[PROF_PERCENTILES_MAX];
    int k;
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_percentiles");
    if (n < 0 || n > PROF_PERCENTILES_MAX || (n > 0 && p == NULL))
    {
        prof_impl_warn("prof_bench_set_percentiles: %d percentiles%s (0.."
                       PROF_IMPL_STR(PROF_PERCENTILES_MAX) "); setting "
                       "unchanged", n, n > 0 && p == NULL ? " from NULL" : "");
        return -1;
    }
    for (k = 0; k < n; k++)
        if (!in("prof_bench_set_percentiles", "a percentile",
                &prof_impl_percentile_range, p[k]))
            return -1;
    for (k = 0; k < n; k++)
        sorted[k] = p[k];
    prof_impl_sort(sorted, n);
    for (k = 1; k < n; k++)
        if (sorted[k] == sorted[k - 1])
        {
            prof_impl_warn("prof_bench_set_percentiles: p%g twice; setting "
                           "unchanged", sorted[k]);
            return -1;
        }
    memcpy(b->percentiles, sorted, (size_t) n * sizeof *sorted);
    b->npercentiles = n;
    percentiles_epochs(b);
    return 0;
}

int prof_bench_set_format(prof_bench * b, prof_format format)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_format");
    if (!PROF_IMPL_FORMAT_KNOWN(format))
        return bad("prof_bench_set_format: unknown format", (double) format);
    if (!prof_impl_worker_mode())   /* a worker writes nothing */
        b->console.format = format;
    return 0;
}

int prof_bench_set_output(prof_bench * b, FILE * out)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_output");
    if (!prof_impl_worker_mode())
        prof_impl_output_set(b, out);
    return 0;
}

int prof_bench_set_output_path(prof_bench * b, const char * path)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_output_path");
    if (path == NULL || *path == '\0')
    {
        prof_impl_warn("prof_bench_set_output_path: no file name given");
        return -1;
    }
    if (prof_impl_worker_mode())
        return 0;       /* the parent writes the file */
    return prof_impl_output_file(b, path);
}

int prof_bench_set_output_format(prof_bench * b, prof_format format)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_output_format");
    if ((int) format < 0 || (int) format >= PROF_FORMAT_NONE)
        return bad("prof_bench_set_output_format: unknown format",
                   (double) format);
    b->file.format = format;
    b->file.format_set = 1;
    return 0;
}

int prof_bench_set_filter(prof_bench * b, const char * regex)
{
    prof_impl_regex re;
    char msg[128];
    int negated;
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_filter");
    if (regex == NULL || *regex == '\0')
    {
        prof_impl_filter_free(b);
        return 0;
    }
    /* Google Benchmark's negative filter: "-REGEX" runs the names that do
       not match REGEX. A lone "-" is the expression "-". */
    negated = regex[0] == '-' && regex[1] != '\0';
    if (filter_compile(&re, regex + negated, msg, sizeof msg) != 0)
    {
        prof_impl_warn("bad filter \"%s\": %s; filter unchanged", regex, msg);
        return -1;
    }
    prof_impl_filter_free(b);
    b->filter = re;
    b->filter_negated = negated;
    b->has_filter = 1;
    return 0;
}

