/*
    prof-trace: turn a raw trace file written by the profiler's recorder into
    a per-zone summary (text or CSV, as Piyasa's piy2text and piy2csv), raw
    event lines (Piyasa's raw log), Chrome Trace Event JSON (Perfetto,
    speedscope, chrome://tracing) or Perfetto's own protobuf format.

        prof-trace [FORMAT] [FILTERS] [-o OUTPUT] TRACE-FILE

    The trace streams through: memory stays bounded by the nesting depth and
    the number of labels and threads, whatever the file's size. Options take
    their value as --flag=value or --flag value. TRACE-FILE "-" reads stdin.
    Warnings (a cut or damaged file, unmatched begin/end) go to stderr and
    the rest of the trace is still used. The output is written beside its
    target and renamed over it when complete (src/outfile.c): a failed run
    leaves an earlier report whole. Exit status: 0 when the file was read
    (even with warnings), 1 when it is not a trace file or cannot be read or
    the output cannot be written, 2 for a usage error (a bad filter value,
    a thread the trace does not have, an output that is the input).
    SPDX-License-Identifier: MIT
*/
#include "trace_read.h"
#include "trace_report.h"
#include "../internal.h"

#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef PROF_VERSION
# define PROF_VERSION "unknown"
#endif

static const struct { const char * name; pt_output format; } formats[] = {
    { "text", PT_OUT_TEXT }, { "csv", PT_OUT_CSV }, { "json", PT_OUT_JSON },
    { "json-be", PT_OUT_JSON_BE }, { "raw", PT_OUT_RAW },
    { "perfetto", PT_OUT_PERFETTO },
};

enum { MAX_BINARIES = 64 };

typedef struct
{
    const char * in;
    const char * out;        /* NULL: stdout */
    pt_output format;
    int by_thread;
    pt_options o;
    pt_filter f;
    regex_t re;
    const char * binaries[MAX_BINARIES + 1];
    int nbinaries;
} args_t;

static int usage(FILE * f)
{
    fputs("usage: prof-trace [OPTIONS] TRACE-FILE   (TRACE-FILE - is stdin)\n"
          "output (one of):\n"
          "  --text         per-zone summary: calls, total, avg, min, max, self\n"
          "                 time in ns, sorted by total (the default)\n"
          "  --csv          the same as CSV\n"
          "  --json         Chrome Trace Event JSON, one X event per zone\n"
          "                 (Perfetto, chrome://tracing)\n"
          "  --json-be      the same with B/E event pairs (speedscope)\n"
          "  --raw          every event as a line: thread, tick, ns, begin/end,\n"
          "                 kind, name\n"
          "  --perfetto     Perfetto's protobuf trace (ui.perfetto.dev)\n"
          "  --format=F     one of text, csv, json, json-be, raw, perfetto\n"
          "filters (all outputs; zones around a kept zone are kept too):\n"
          "  --min-duration=T  zones lasting at least T\n"
          "  --from=T, --to=T  zones overlapping this window since the start\n"
          "                 (T: a number with ns, us, ms or s; ns if none)\n"
          "  --name=REGEX   zones whose name matches (POSIX extended)\n"
          "  --thread=T     the thread with tid T, or named T\n"
          "  --depth=N      zones less than N levels deep (1: outermost only)\n"
          "other:\n"
          "  --by-thread    the summary once per thread too\n"
          "  --binary=PATH  read function names from PATH for the executable\n"
          "                 of that file name (moved or rebuilt); repeatable\n"
          "  --no-symbols   do not read executables to name function addresses\n"
          "  -o F, --output=F  write to F (replaced only when complete)\n"
          "  --help, --version\n"
          "Options take a value as --flag=value or --flag value; -- ends them.\n", f);
    return f == stdout ? 0 : 2;
}

static int bad_usage(const char * fmt, const char * what)
{
    fputs("prof-trace: ", stderr);
    fprintf(stderr, fmt, what);
    fputs("\nusage: prof-trace [OPTIONS] TRACE-FILE (options: prof-trace "
          "--help)\n", stderr);
    return 2;
}

/* Option name, given as "--name=value" or as "--name" "value" (or "-o"
   "value" for the short form short_name): 1 and *value set (*i moved past
   a separate value), 0 when argv[*i] is another option, -1 when the value
   is missing. */
static int opt_value(int argc, char ** argv, int * i, const char * name,
                     const char * short_name, const char ** value)
{
    const char * a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) == 0 && a[n] == '=')
    {
        *value = a + n + 1;
        return 1;
    }
    if (strcmp(a, name) != 0 && (short_name == NULL || strcmp(a, short_name) != 0))
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *value = argv[++*i];
    return 1;
}

/* 0 and a->format set if name is a format's, else -1. */
static int find_format(args_t * a, const char * name)
{
    size_t k;
    for (k = 0; k < sizeof formats / sizeof formats[0]; k++)
        if (strcmp(name, formats[k].name) == 0)
        {
            a->format = formats[k].format;
            return 0;
        }
    return -1;
}

/* A time: a number (decimals allowed) and a unit, ns by default. */
static int parse_time(const char * opt, const char * v, int64_t * ns)
{
    static const struct { const char * unit; double ns; } units[] = {
        { "", 1 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
    char * end;
    double x;
    size_t k;
    errno = 0;
    x = strtod(v, &end);
    if (end == v || errno != 0 || (v[0] != '.' && (v[0] < '0' || v[0] > '9')))
        return fprintf(stderr, "prof-trace: %s=%s: not a time (a number of "
                       "ns, or with us, ms, s; not negative)\n", opt, v), 2;
    for (k = 0; k < sizeof units / sizeof units[0]; k++)
        if (strcmp(end, units[k].unit) == 0 && x * units[k].ns < 9.2e18)
        {
            *ns = (int64_t) (x * units[k].ns + 0.5);
            return 0;
        }
    return fprintf(stderr, "prof-trace: %s=%s: not a time (units: ns, us, "
                   "ms, s)\n", opt, v), 2;
}

static int set_name_filter(args_t * a, const char * v)
{
    int e;
    if (a->f.name_re != NULL)
        regfree(&a->re);
    e = regcomp(&a->re, v, REG_EXTENDED | REG_NOSUB);
    if (e != 0)
    {
        char msg[256];
        regerror(e, &a->re, msg, sizeof msg);
        a->f.name_re = NULL;
        fprintf(stderr, "prof-trace: --name=%s: not a regular expression: %s\n",
                v, msg);
        return 2;
    }
    a->f.name_re = &a->re;
    return 0;
}

static int set_thread_filter(args_t * a, const char * v)
{
    size_t k;
    for (k = 0; v[k] >= '0' && v[k] <= '9'; k++)
        ;
    a->f.thread_is_tid = k > 0 && v[k] == '\0' && k < 11;
    a->f.thread_tid = (uint32_t) strtoul(v, NULL, 10);
    a->f.thread_name = a->f.thread_is_tid ? NULL : v;
    return v[0] == '\0' ? bad_usage("%s: --thread needs a tid or a name", v) : 0;
}

static int set_depth(args_t * a, const char * v)
{
    char * end;
    long d;
    errno = 0;
    d = strtol(v, &end, 10);
    if (v[0] < '0' || v[0] > '9' || *end != '\0' || errno != 0 || d < 1 || d > 65536)
        return bad_usage("--depth=%s: not a whole number in 1..65536", v);
    a->f.max_depth = (int) d;
    return 0;
}

static int add_binary(args_t * a, const char * v)
{
    struct stat sb;
    if (stat(v, &sb) != 0 || !S_ISREG(sb.st_mode))
        return bad_usage("--binary=%s: no such file", v);
    if (a->nbinaries == MAX_BINARIES)
        return bad_usage("--binary=%s: too many --binary options", v);
    a->binaries[a->nbinaries++] = v;
    return 0;
}

static int opt_format(args_t * a, const char * v)
{
    if (find_format(a, v) == 0)
        return 0;
    return bad_usage("unknown format '%s' (text, csv, json, json-be, raw, "
                     "perfetto)", v);
}

static int opt_output(args_t * a, const char * v)
{
    a->out = v;
    return v[0] == '\0' ? bad_usage("%s--output needs a file name", v) : 0;
}

static int opt_min(args_t * a, const char * v)
{
    return parse_time("--min-duration", v, &a->f.min_duration_ns);
}

static int opt_from(args_t * a, const char * v)
{
    return parse_time("--from", v, &a->f.from_ns);
}

static int opt_to(args_t * a, const char * v)
{
    return parse_time("--to", v, &a->f.to_ns);
}

/* The options that take a value. */
static const struct
{
    const char * name, * short_name;
    int (*set)(args_t * a, const char * value);
} value_opts[] = {
    { "--format", NULL, opt_format }, { "--output", "-o", opt_output },
    { "--min-duration", NULL, opt_min }, { "--from", NULL, opt_from },
    { "--to", NULL, opt_to }, { "--name", NULL, set_name_filter },
    { "--thread", NULL, set_thread_filter }, { "--depth", NULL, set_depth },
    { "--binary", NULL, add_binary },
};

/* One argument (argv[*i]): 0 to go on, or an exit status (-1: exit 0). */
static int parse_one(int argc, char ** argv, int * i, args_t * a)
{
    const char * arg = argv[*i], * v = NULL;
    size_t k;
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
        return usage(stdout) - 1;
    if (strcmp(arg, "--version") == 0)
        return printf("prof-trace %s\n", PROF_VERSION) < 0 ? 1 : -1;
    if (strcmp(arg, "--no-symbols") == 0)
        return a->o.resolve_symbols = 0;
    if (strcmp(arg, "--by-thread") == 0)
        return (a->by_thread = 1) - 1;
    if (arg[0] == '-' && arg[1] == '-' && find_format(a, arg + 2) == 0)
        return 0; /* --text, --csv, --json, ... */
    for (k = 0; k < sizeof value_opts / sizeof value_opts[0]; k++)
    {
        int got = opt_value(argc, argv, i, value_opts[k].name,
                            value_opts[k].short_name, &v);
        if (got < 0)
            return bad_usage("%s needs a value", arg);
        if (got > 0)
            return value_opts[k].set(a, v);
    }
    if ((arg[0] == '-' && arg[1] != '\0') || a->in != NULL)
        return bad_usage("unexpected argument '%s'", arg);
    a->in = arg;
    return 0;
}

/* 0 to go on, or an exit status (-1: exit 0). */
static int parse_args(int argc, char ** argv, args_t * a)
{
    int i, rc;
    memset(a, 0, sizeof *a);
    a->format = PT_OUT_TEXT;
    a->o.warn = stderr;
    a->o.resolve_symbols = 1;
    a->o.binaries = a->binaries;
    a->f.to_ns = -1;
    for (i = 1; i < argc; i++)
    {
        if (strcmp(argv[i], "--") == 0 && i + 1 < argc && a->in == NULL)
        {
            a->in = argv[++i]; /* a trace file whose name starts with - */
            continue;
        }
        if ((rc = parse_one(argc, argv, &i, a)) != 0)
            return rc;
    }
    if (a->in == NULL)
        return bad_usage("%s", "no trace file given");
    if (a->f.to_ns >= 0 && a->f.to_ns < a->f.from_ns)
        return bad_usage("%s: --to is before --from", a->in);
    if (a->out != NULL && prof_impl_same_file(a->out, a->in))
    {
        fprintf(stderr, "prof-trace: the output %s is the input: refused\n", a->out);
        return 2;
    }
    return 0;
}

/* Read the trace into the report r. 0, or an exit status. */
static int run(args_t * a, pt_report * r)
{
    pt_handler h = pt_report_handler(r);
    pt_trace t;
    int rc = pt_stream(a->in, &a->o, &h, &t);
    if (rc == -2)
        fprintf(stderr, "prof-trace: cannot read %s: %s\n", a->in, strerror(errno));
    else if (rc != 0)
        fprintf(stderr, "prof-trace: %s: not a trace file written by the "
                "profiler\n", a->in);
    else if ((a->f.thread_is_tid || a->f.thread_name != NULL)
             && pt_report_thread_matches(r) == 0)
    {
        fprintf(stderr, "prof-trace: --thread: the trace has no thread %s%s "
                "with zones (see the threads with --by-thread)\n",
                a->f.thread_is_tid ? "with tid " : "named ",
                a->f.thread_name ? a->f.thread_name : "");
        if (a->f.thread_is_tid)
            fprintf(stderr, "prof-trace: (tid %u)\n", a->f.thread_tid);
        rc = 2;
    }
    pt_report_finish(r, rc == 0 ? &t : NULL);
    pt_free(&t);
    return rc == 0 ? 0 : rc == 2 ? 2 : 1;
}

int main(int argc, char ** argv)
{
    args_t a;
    prof_impl_outfile of;
    pt_report * r;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0)
    {
        if (a.f.name_re != NULL)
            regfree(&a.re);
        return rc < 0 ? 0 : rc;
    }
    if (prof_impl_outfile_open(&of, a.out != NULL ? a.out : "-") != 0)
        rc = 1;
    else if ((r = pt_report_new(of.f, a.format, &a.f, a.by_thread)) == NULL)
    {
        fprintf(stderr, "prof-trace: out of memory\n");
        prof_impl_outfile_abort(&of);
        rc = 1;
    }
    else if ((rc = run(&a, r)) != 0)
        prof_impl_outfile_abort(&of);
    else
        rc = prof_impl_outfile_commit(&of) == 0 ? 0 : 1;
    if (a.f.name_re != NULL)
        regfree(&a.re);
    return rc;
}
