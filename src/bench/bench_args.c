/*
    A benchmark program's command line and environment: prof_bench_args
    and prof_bench_init turn the runner's flags (and the PROFILER_*
    variables) into the suite's settings, through the table-driven parser
    of options.c: --flag=VALUE and --flag VALUE alike, "--" ends them, an
    unknown flag is an error, --help lists every flag with its default and
    variable. Google Benchmark's spellings of the common flags
    (--benchmark_filter, ...) are taken too.
    SPDX-License-Identifier: MIT
*/
#include "bench.h"
#include "bench_settings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PROGRAM "benchmark options"

static const char usage_head[] =
"Benchmark options (the profiler's runner; --flag=VALUE or --flag VALUE;\n"
"-- ends them, and what follows is the program's own):\n";

static const char usage_tail[] =
"A TIME is a number with a unit: ns, us, ms or s (no unit: seconds).\n"
"Google Benchmark's --benchmark_filter, --benchmark_format\n"
"(console|json|csv), --benchmark_out, --benchmark_out_format,\n"
"--benchmark_time_unit and --benchmark_list_tests are taken too.\n";

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
      "--min-epoch-time) (fixed)", SET(set_schedule), ENV("SCHEDULE") }, \
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
      "ERE (default: all)", SET(set_filter), ENV("FILTER") },
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
    { "--counters", "LIST", "count events per operation: a perf list, "
      "default (alone) or off (off)", SET(set_counters),
      OPTIONAL("PROFILER_COUNTERS") },
    { "--processes", "N", "run the program N times, one after another, and "
      "pool their epochs ({default})", SET(set_processes),
      ENV_RANGE("PROCESSES", prof_impl_processes_range) },
    { "--wide", NULL, "the table with every column (op/s, min, total) "
      "(default: fits in 100 columns)",
      PROF_IMPL_OPTION_FLAG(prof_bench, wide) },
    { "--table-percentiles", NULL, "the table shows p10, p50 and p90 too",
      PROF_IMPL_OPTION_FLAG(prof_bench, table_percentiles) },
    /* only where the program opts in (prof_bench_set_sizes_flag) */
    { "--sizes", "LIST", "the sizes of the program's sweeps: 8,64,512 or "
      "LO..HI[xM] (the program's)", SET(set_sizes), ENV("SIZES") },
    { "--check", NULL, "print the machine check (load, governor, turbo, "
      "ASLR, VM, PMU) and exit", SET(check), VALUE },
    { "--help", NULL, "print this help and exit", SET(help), VALUE },
    /* Google Benchmark's spellings */
    { "--benchmark_filter", "REGEX", NULL, SET(set_filter), VALUE },
    { "--benchmark_format", "F", NULL, SET(set_format), VALUE },
    { "--benchmark_out", "FILE", NULL, SET(set_out), VALUE },
    { "--benchmark_out_format", "F", NULL, SET(set_out_format), VALUE },
    { "--benchmark_time_unit", "U", NULL, SET(set_time_unit), VALUE },
    { "--benchmark_list_tests", "BOOL", NULL, SET(set_list), OPTIONAL(NULL) },
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
