/*
    A benchmark program's command line and environment: prof_bench_args
    and prof_bench_init turn the runner's flags (and the PROFILER_*
    variables) into the suite's settings, through the table-driven parser
    of options.c: --flag=VALUE and --flag VALUE alike, "--" ends them, an
    unknown flag is an error, --help lists every flag with its default and
    variable. Google Benchmark's flags (--benchmark_filter, ...) are taken
    with their meaning, and refused with the reason where the runner has
    none (gbench_table).
    SPDX-License-Identifier: MIT
*/
#include "bench.h"
#include "bench_settings.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PROGRAM "benchmark options"

static const char usage_head[] =
"Benchmark options (the profiler's runner; --flag=VALUE or --flag VALUE;\n"
"-- ends them, and what follows is the program's own):\n";

static const char usage_tail[] =
"A TIME is a number with a unit: ns, us, ms or s (no unit: seconds).\n"
"Google Benchmark's flags are taken too (doc/runner.md, \"From Google\n"
"Benchmark\"): --benchmark_filter, _list_tests, _min_time (TIME, or Nx:\n"
"iterations per epoch), _repetitions (epochs), _out, _out_format, _format,\n"
"_time_unit, _counters_tabular, _report_aggregates_only,\n"
"_display_aggregates_only, _context=KEY=VALUE, _perf_counters (--counters),\n"
"_enable_random_interleaving and --v=0; _min_warmup_time, _color and\n"
"_dry_run are refused, with why.\n";

static int parse_format(const char * name, const char * s, prof_format * f)
{
    if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0
        || strcmp(s, "console") == 0)
        *f = PROF_FORMAT_MD;
    else if (strcmp(s, "csv") == 0) *f = PROF_FORMAT_CSV;
    else if (strcmp(s, "json") == 0) *f = PROF_FORMAT_JSON;
    else if (strcmp(s, "none") == 0) *f = PROF_FORMAT_NONE;
    else
    {
        (void) name;
        prof_impl_warn("unknown format \"%s\": use md, csv, json or none", s);
        return -1;
    }
    return 0;
}

/* A TIME: a number with a unit (ns, us, ms, s; none: s), into ns, in r
   (in ns or seconds, as r's unit). */
static int parse_time_ns(const char * name, const char * v,
        const prof_impl_range * r, double * ns)
{
    double scale = r->unit == PROF_IMPL_SECONDS ? 1e-9 : 1.0;
    return prof_impl_option_time(PROGRAM, name, v, 1e9, HUGE_VAL, ns) != 0
        || !prof_impl_option_in(PROGRAM, name, v, r, *ns * scale) ? -1 : 0;
}

static int set_format(void * ctx, const char * name, const char * v)
{
    prof_format f;
    return parse_format(name, v, &f) != 0 ? -1
         : prof_bench_set_format((prof_bench *) ctx, f);
}

static int set_out(void * ctx, const char * name, const char * v)
{
    (void) name;
    return prof_bench_set_output_path((prof_bench *) ctx, v);
}

static int set_history(void * ctx, const char * name, const char * v)
{
    if (v[0] == '\0')
    {
        prof_impl_warn(PROGRAM ": %s: a file, or off", name);
        return -1;
    }
    return prof_bench_set_history((prof_bench *) ctx, v);
}

static int set_out_format(void * ctx, const char * name, const char * v)
{
    prof_format f;
    if (parse_format(name, v, &f) != 0)
        return -1;
    if (f == PROF_FORMAT_NONE)
    {
        prof_impl_warn(PROGRAM ": %s=none: a file has a format (json, csv or "
                       "md)", name);
        return -1;
    }
    return prof_bench_set_output_format((prof_bench *) ctx, f);
}

static int set_filter(void * ctx, const char * name, const char * v)
{
    (void) name;
    return prof_bench_set_filter((prof_bench *) ctx, v);
}

static int set_counters(void * ctx, const char * name, const char * v)
{
    (void) name;
    return prof_bench_set_counters((prof_bench *) ctx, v ? v : "default");
}

/* A whole number in r, the setter of int n. */
#define SET_WHOLE(name_, r, setter, type) \
static int name_(void * ctx, const char * name, const char * v) \
{ \
    double n; \
    return prof_impl_option_number(PROGRAM, name, v, &r, &n) != 0 ? -1 \
         : setter((prof_bench *) ctx, (type) n); \
}
SET_WHOLE(set_epochs, prof_impl_epochs_range, prof_bench_set_epochs, int)
SET_WHOLE(set_warmup, prof_impl_warmup_range, prof_bench_set_warmup, ulong)
SET_WHOLE(set_processes, prof_impl_processes_range, prof_bench_set_processes,
          int)

/* A TIME in r, the setter of ns (scale 1) or seconds (1e-9). */
#define SET_TIME(name_, r, setter, scale) \
static int name_(void * ctx, const char * name, const char * v) \
{ \
    double ns; \
    return parse_time_ns(name, v, &r, &ns) != 0 ? -1 \
         : setter((prof_bench *) ctx, ns * scale); \
}
SET_TIME(set_min_epoch, prof_impl_min_epoch_range,
         prof_bench_set_min_epoch_time_ns, 1.0)
SET_TIME(set_max_epoch, prof_impl_max_epoch_range,
         prof_bench_set_max_epoch_time_ns, 1.0)
SET_TIME(set_budget, prof_impl_budget_range, prof_bench_set_budget_s, 1e-9)

/* The schedule (--schedule=fixed|adaptive) and its target (--precision). */
static int set_schedule(void * ctx, const char * name, const char * v)
{
    prof_schedule sc = strcmp(v, "fixed") == 0 ? PROF_SCHEDULE_FIXED
                     : PROF_SCHEDULE_ADAPTIVE;
    if (strcmp(v, "fixed") != 0 && strcmp(v, "adaptive") != 0)
    {
        prof_impl_warn(PROGRAM ": %s=%s: fixed or adaptive is expected",
                       name, v);
        return -1;
    }
    return prof_bench_set_schedule((prof_bench *) ctx, sc);
}
static int set_precision(void * ctx, const char * name, const char * v)
{
    double pct;
    return prof_impl_option_number(PROGRAM, name, v,
                                   &prof_impl_precision_range, &pct) != 0 ? -1
         : prof_bench_set_precision_pct((prof_bench *) ctx, pct);
}
#define SCHEDULE_OPTIONS \
    { "--schedule", "S", "epochs: adaptive (as many as --precision needs, " \
      "at most --epochs) or fixed (--epochs of at least " \
      "--min-epoch-time) (adaptive)", SET(set_schedule), ENV("SCHEDULE") }, \
    { "--precision", "PCT", "adaptive: stop once the interval's half-width " \
      "is within PCT% of the median ({default})", SET(set_precision), \
      ENV_RANGE("PRECISION", prof_impl_precision_range) },

static int set_time_unit(void * ctx, const char * name, const char * v)
{
    (void) name;
    return prof_bench_set_time_unit((prof_bench *) ctx, v);
}

/* A switch: given alone, or as =true / =false (Google Benchmark's). */
static int switch_value(const char * name, const char * v, int * on)
{
    if (v == NULL || strcmp(v, "true") == 0 || strcmp(v, "1") == 0)
        *on = 1;
    else if (strcmp(v, "false") == 0 || strcmp(v, "0") == 0)
        *on = 0;
    else
    {
        prof_impl_warn(PROGRAM ": %s=%s: true or false is expected", name, v);
        return -1;
    }
    return 0;
}

static int set_list(void * ctx, const char * name, const char * v)
{
    return switch_value(name, v, &((prof_bench *) ctx)->list_only);
}

static int set_sizes(void * ctx, const char * name, const char * v)
{
    prof_bench * b = (prof_bench *) ctx;
    char what[64];
    ulong * sizes;
    int n;
    snprintf(what, sizeof what, PROGRAM ": %s", name);
    n = prof_impl_sizes_parse(v, &sizes, what);
    if (n < 0)
        return -1;
    free(b->cli_sizes);
    b->cli_sizes = sizes;
    b->ncli_sizes = n;
    return 0;
}

/* --percentiles=5,25,75,95, or none */
static int set_percentiles(void * ctx, const char * name, const char * v)
{
    double p[PROF_PERCENTILES_MAX];
    char word[64];
    int n = 0;
    while (strcmp(v, "none") != 0 && *v != '\0')
    {
        size_t len = strcspn(v, ",");
        if (n == PROF_PERCENTILES_MAX)
        {
            prof_impl_warn(PROGRAM ": %s: at most "
                           PROF_IMPL_STR(PROF_PERCENTILES_MAX)
                           " percentiles", name);
            return -1;
        }
        prof_impl_copy(word, len < sizeof word ? len + 1 : sizeof word, v);
        if (prof_impl_option_number(PROGRAM, name, word,
                                    &prof_impl_percentile_range, &p[n++]) != 0)
            return -1;
        v += len + (v[len] == ',');
    }
    return prof_bench_set_percentiles((prof_bench *) ctx, p, n);
}

/* ---- Google Benchmark's flags -------------------------------------------- */

/* --benchmark_min_time: Nx, N iterations in each epoch (a repetition
   there is an epoch here); or a TIME (0.5, 0.5s), each epoch's least
   time, the most time raised to it where it was below. */
static int gb_min_time(void * ctx, const char * name, const char * v)
{
    prof_bench * b = (prof_bench *) ctx;
    size_t len = strlen(v);
    double ns, n;
    if (len > 1 && v[len - 1] == 'x')
    {
        char word[32], what[96];
        prof_impl_copy(word, len < sizeof word ? len : sizeof word, v);
        if (prof_impl_option_number(NULL, name, word,
                                    &prof_impl_min_iters_range, &n) == 0)
            return prof_bench_set_epoch_iterations(b, (ulong) n);
        prof_impl_warn(PROGRAM ": %s=%s: Nx, N %s, is expected", name, v,
                       prof_impl_range_text(what, sizeof what,
                                            prof_impl_min_iters_range.what,
                                            &prof_impl_min_iters_range));
        return -1;
    }
    /* the two ranges' bounds are one: a least time is a most time too */
    if (parse_time_ns(name, v, &prof_impl_min_epoch_range, &ns) != 0
        || (ns > b->s.max_epoch_ns
            && prof_bench_set_max_epoch_time_ns(b, ns) != 0))
        return -1;
    return prof_bench_set_min_epoch_time_ns(b, ns);
}

/* --benchmark_counters_tabular: the table has a column per counter
   either way (there is no other layout to choose). */
static int gb_tabular(void * ctx, const char * name, const char * v)
{
    int on;
    (void) ctx;
    return switch_value(name, v, &on);
}

static int gb_aggregates(void * ctx, const char * name, const char * v)
{
    prof_bench * b = (prof_bench *) ctx;
    int on, bit = strstr(name, "report") != NULL ? PROF_IMPL_AGGREGATES_REPORT
                                                  : PROF_IMPL_AGGREGATES_DISPLAY;
    if (switch_value(name, v, &on) != 0)
        return -1;
    b->aggregates_only = on ? b->aggregates_only | bit
                            : b->aggregates_only & ~bit;
    return 0;
}

/* The JSON context's own keys, which a pair may not take. */
static int context_key_taken(const prof_bench * b, const char * key,
        size_t len)
{
    static const char * const own[] = { "date", "host_name", "executable",
        "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled", "caches",
        "load_avg", "library_build_type", "cpu_model" };
    size_t k;
    int i;
    if (strncmp(key, "profiler_", 9) == 0)
        return 1;
    for (k = 0; k < sizeof own / sizeof own[0]; k++)
        if (strlen(own[k]) == len && strncmp(own[k], key, len) == 0)
            return 1;
    for (i = 0; i < b->ncontext; i++)
        if (strncmp(b->context[i], key, len) == 0 && b->context[i][len] == '=')
            return 1;
    return 0;
}

/* --benchmark_context=KEY=VALUE: a string of the JSON's context */
static int gb_context(void * ctx, const char * name, const char * v)
{
    prof_bench * b = (prof_bench *) ctx;
    const char * eq = strchr(v, '=');
    size_t len = eq != NULL ? (size_t) (eq - v) : 0;
    if (len == 0 || len > 255)
        prof_impl_warn(PROGRAM ": %s=%s: KEY=VALUE is expected (a key of 1 "
                       "to 255 bytes)", name, v);
    else if (context_key_taken(b, v, len))
        prof_impl_warn(PROGRAM ": %s=%s: the context has a \"%.*s\" already",
                       name, v, (int) len, v);
    else if (b->ncontext == PROF_IMPL_CONTEXT_MAX)
        prof_impl_warn(PROGRAM ": %s: at most "
                       PROF_IMPL_STR(PROF_IMPL_CONTEXT_MAX) " pairs", name);
    else if ((b->context[b->ncontext] = prof_impl_strdup(v)) == NULL)
        prof_impl_warn(PROGRAM ": %s: out of memory", name);
    else
    {
        b->ncontext++;
        return 0;
    }
    return -1;
}

/* --benchmark_perf_counters=CYCLES,INSTRUCTIONS: perf's names (the
   kernel's generic events, which libpfm names in capitals), as --counters
   takes them */
static int gb_perf_counters(void * ctx, const char * name, const char * v)
{
    char list[256];
    size_t k;
    if (strlen(v) >= sizeof list)
    {
        prof_impl_warn(PROGRAM ": %s: the list is too long", name);
        return -1;
    }
    for (k = 0; v[k] != '\0'; k++)
        list[k] = (char) tolower((unsigned char) v[k]);
    list[k] = '\0';
    if (prof_bench_set_counters((prof_bench *) ctx, list) == 0)
        return 0;
    prof_impl_warn(PROGRAM ": %s=%s: this runner counts perf's events by "
                   "name (cycles, instructions, branch-misses, ...: "
                   "--counters), not libpfm's", name, v);
    return -1;
}

static int gb_interleave(void * ctx, const char * name, const char * v)
{
    int on;
    return switch_value(name, v, &on) != 0 ? -1
         : prof_bench_set_interleave((prof_bench *) ctx, on);
}

/* --v: Google Benchmark's log level. 0 is what the runner does (its
   profiler: messages); it has no debug log to raise. */
static int gb_verbosity(void * ctx, const char * name, const char * v)
{
    (void) ctx;
    if (strcmp(v, "0") == 0)
        return 0;
    prof_impl_warn(PROGRAM ": %s=%s: the runner has no log levels: its "
                   "profiler: messages are always on, and it writes no "
                   "debug log (0 only)", name, v);
    return -1;
}

/* Google Benchmark's flags whose meaning the runner has not: refused
   with the reason. */
static int gb_refused(void * ctx, const char * name, const char * v)
{
    static const char * const why[][2] = {
        { "--benchmark_min_warmup_time", "the warmup here is in iterations "
          "(--warmup=N)" },
        { "--benchmark_color", "the tables have no colour" },
        { "--benchmark_dry_run", "there is no dry run (--list names what "
          "would run)" },
    };
    size_t k;
    (void) ctx;
    (void) v;
    for (k = 0; k < sizeof why / sizeof why[0] - 1; k++)
        if (strcmp(name, why[k][0]) == 0)
            break;
    prof_impl_warn(PROGRAM ": %s: not taken: %s", name, why[k][1]);
    return -1;
}

static int help(void * ctx, const char * name, const char * v);

/* --check: the machine check alone, then exit 0 (as --help). */
static int check(void * ctx, const char * name, const char * v)
{
    prof_impl_machine m;
    (void) ctx;
    (void) name;
    (void) v;
    prof_impl_machine_read(&m);
    prof_impl_machine_print(stdout, &m);
    fflush(stdout);
    exit(0);
}

/* the rest of a row after the help: what it calls, whether its value may
   be left out (then only "=" gives one), its variable */
#define SET(f) f, PROF_IMPL_NO_TEXT
#define VALUE 0, NULL, 0, NULL, NULL, NULL
#define OPTIONAL(e) 1, e, 0, NULL, NULL, NULL
#define ENV(e) 0, "PROFILER_" e, 0, NULL, NULL, NULL
/* a number's variable and range, for --help's {default} */
#define ENV_RANGE(e, r) 0, "PROFILER_" e, 0, NULL, NULL, &r

static const prof_impl_option table[] = {
    { "--format", "F", "the console's format: md, csv, json or none (md)",
      SET(set_format), ENV("FORMAT") },
    { "--out", "FILE", "also write every result to FILE, whole, at the end "
      "(default: none)", SET(set_out), ENV("OUT") },
    { "--out-format", "F", "FILE's format: json, csv or md (from its name; "
      "json otherwise)", SET(set_out_format), ENV("OUT_FORMAT") },
    { "--filter", "REGEX", "run only the benchmarks whose name matches, POSIX "
      "ERE; -REGEX: those that do not match (default: all)", SET(set_filter), ENV("FILTER") },
    { "--list", NULL, "print the names that would run (after --filter) and "
      "run nothing", SET(set_list), VALUE },
    SCHEDULE_OPTIONS
    { "--epochs", "N", "samples per benchmark ({default}); adaptive: the most",
      SET(set_epochs), ENV_RANGE("EPOCHS", prof_impl_epochs_range) },
    { "--min-epoch-time", "TIME", "least time of an epoch ({default}); "
      "adaptive: none unless given",
      SET(set_min_epoch), ENV_RANGE("MIN_EPOCH_TIME",
                                    prof_impl_min_epoch_range) },
    { "--max-epoch-time", "TIME", "most time of an epoch ({default})",
      SET(set_max_epoch), ENV_RANGE("MAX_EPOCH_TIME",
                                    prof_impl_max_epoch_range) },
    { "--warmup", "N", "iterations run untimed before calibrating "
      "({default})", SET(set_warmup), ENV_RANGE("WARMUP",
                                                prof_impl_warmup_range) },
    { "--time-unit", "U", "the outputs' time unit: ns, us, ms, s, or auto: "
      "a unit a table row, ns in the files (auto)",
      SET(set_time_unit), ENV("TIME_UNIT") },
    { "--budget", "TIME", "wall time one benchmark may take ({default})",
      SET(set_budget), ENV_RANGE("BUDGET", prof_impl_budget_range) },
    { "--counters", "LIST", "count events per operation: a perf list, or "
      "default (also when alone) (default: off)", SET(set_counters),
      OPTIONAL("PROFILER_COUNTERS") },
    { "--processes", "N", "run the program N times, one after another, and "
      "pool their epochs ({default})", SET(set_processes),
      ENV_RANGE("PROCESSES", prof_impl_processes_range) },
    { "--history", "FILE", "where the next-run interval learns the changes "
      "between runs, or off ($XDG_CACHE_HOME or ~/.cache: profiler/history)",
      SET(set_history), ENV("HISTORY") },
    { "--wide", NULL, "the table with every column (op/s, min, total) "
      "(default: fits in 100 columns)",
      PROF_IMPL_OPTION_FLAG(prof_bench, wide) },
    { "--json-epochs", NULL, "JSON as Google Benchmark writes repetitions: "
      "an entry per epoch, then _mean, _median, _stddev, _cv (default: one "
      "entry per benchmark, its median)",
      PROF_IMPL_OPTION_FLAG(prof_bench, json_epochs) },
    { "--table-percentiles", NULL, "the table shows the --percentiles too",
      PROF_IMPL_OPTION_FLAG(prof_bench, table_percentiles) },
    { "--percentiles", "LIST", "the percentiles of the epochs' times that CSV "
      "and JSON carry, 0..100 each, or none (10,50,90)", SET(set_percentiles),
      ENV("PERCENTILES") },
    /* only where the program opts in (prof_bench_set_sizes_flag) */
    { "--sizes", "LIST", "the sizes of the program's sweeps: 8,64,512 or "
      "LO..HI[xM] (the program's)", SET(set_sizes), ENV("SIZES") },
    { "--check", NULL, "print the machine check (load, governor, turbo, "
      "ASLR, VM, PMU) and exit", SET(check), VALUE },
    { "--help", NULL, "print this help and exit", SET(help), VALUE },
    /* Google Benchmark's flags, with their meaning here */
    { "--benchmark_filter", "REGEX", NULL, SET(set_filter), VALUE },
    { "--benchmark_format", "F", NULL, SET(set_format), VALUE },
    { "--benchmark_out", "FILE", NULL, SET(set_out), VALUE },
    { "--benchmark_out_format", "F", NULL, SET(set_out_format), VALUE },
    { "--benchmark_time_unit", "U", NULL, SET(set_time_unit), VALUE },
    { "--benchmark_list_tests", "BOOL", NULL, SET(set_list), OPTIONAL(NULL) },
    { "--benchmark_repetitions", "N", NULL, SET(set_epochs), VALUE },
    { "--benchmark_min_time", "TIME", NULL, SET(gb_min_time), VALUE },
    { "--benchmark_counters_tabular", "BOOL", NULL, SET(gb_tabular),
      OPTIONAL(NULL) },
    { "--benchmark_report_aggregates_only", "BOOL", NULL, SET(gb_aggregates),
      OPTIONAL(NULL) },
    { "--benchmark_display_aggregates_only", "BOOL", NULL, SET(gb_aggregates),
      OPTIONAL(NULL) },
    { "--benchmark_context", "KEY=VALUE", NULL, SET(gb_context), VALUE },
    { "--benchmark_perf_counters", "LIST", NULL, SET(gb_perf_counters),
      VALUE },
    { "--benchmark_enable_random_interleaving", "BOOL", NULL,
      SET(gb_interleave), OPTIONAL(NULL) },
    { "--v", "N", NULL, SET(gb_verbosity), VALUE },
    { "--benchmark_min_warmup_time", "TIME", NULL, SET(gb_refused), VALUE },
    { "--benchmark_color", "WHEN", NULL, SET(gb_refused), OPTIONAL(NULL) },
    { "--benchmark_dry_run", "BOOL", NULL, SET(gb_refused), OPTIONAL(NULL) },
};

/* prof_bench_args refuses a flag it does not know; prof_bench_init leaves
   it to the program. */
static const prof_impl_options strict = {
    PROGRAM, table, (int) (sizeof table / sizeof table[0]), usage_head,
    usage_tail, PROF_IMPL_UNKNOWN_ERROR, 0, 0   /* -h: the program's */
};
static const prof_impl_options lenient = {
    PROGRAM, table, (int) (sizeof table / sizeof table[0]), usage_head,
    usage_tail, PROF_IMPL_UNKNOWN_KEEP, 0, 0
};

enum { NTABLE = (int) (sizeof table / sizeof table[0]) };

/* The options of b: base's, without --sizes unless the program opted in
   (t has room for the table). */
static prof_impl_options options_of(const prof_bench * b,
        const prof_impl_options * base, prof_impl_option * t)
{
    prof_impl_options o = *base;
    int k;
    o.n = 0;
    for (k = 0; k < NTABLE; k++)
        if (b->sizes_flag || table[k].set != set_sizes)
            t[o.n++] = table[k];
    o.table = t;
    return o;
}

/* --help: the options, then exit 0 (as Google Benchmark's --help). */
static int help(void * ctx, const char * name, const char * v)
{
    prof_impl_option t[NTABLE];
    prof_impl_options o = options_of((const prof_bench *) ctx, &strict, t);
    (void) name;
    (void) v;
    prof_impl_options_usage(&o, stdout);
    fflush(stdout);
    exit(0);
}

/* Apply the environment, then argv[0 .. *argc) with o; *argc gets the
   words left. */
static int parse(prof_bench * b, int * argc, char ** argv,
        const prof_impl_options * base)
{
    prof_impl_option t[NTABLE];
    prof_impl_options o;
    int n;
    if (b == NULL || argc == NULL)
    {
        prof_impl_warn("%s: the %s is NULL", base == &strict
                       ? "prof_bench_args" : "prof_bench_init",
                       b == NULL ? "suite" : "argument count");
        return -1;
    }
    o = options_of(b, base, t);
    prof_impl_workers_argv(*argc, argv);    /* before argv changes */
    if (prof_impl_options_env(&o, b) != 0)
        return -1;
    if (argv == NULL || *argc < 1)
        return 0;
    n = prof_impl_options_parse(&o, *argc, argv, b);
    if (n < 0)
        return -1;
    *argc = n;
    return 0;
}

int prof_bench_init(prof_bench * b, int * argc, char ** argv)
{
    return parse(b, argc, argv, &lenient);
}

int prof_bench_args(prof_bench * b, int argc, char ** argv)
{
    char ** copy;
    int rc, n = argc;
    if (argv == NULL || argc < 1)
        return parse(b, &n, NULL, &strict);
    /* the caller's argv stays as it was: parse a copy */
    copy = (char **) malloc(((size_t) argc + 1) * sizeof *copy);
    if (copy == NULL)
    {
        prof_impl_warn("prof_bench_args: out of memory");
        return -1;
    }
    memcpy(copy, argv, (size_t) argc * sizeof *copy);
    copy[argc] = NULL;
    rc = parse(b, &n, copy, &strict);
    free(copy);
    return rc;
}
