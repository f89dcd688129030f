/*
    prof-trace: turn a raw trace file written by the profiler's recorder into
    a per-zone summary (text or CSV, as Piyasa's piy2text and piy2csv), raw
    event lines (Piyasa's raw log), Chrome Trace Event JSON (Perfetto,
    speedscope, chrome://tracing) or Perfetto's own protobuf format.

        prof-trace [FORMAT] [FILTERS] [-o OUTPUT] TRACE-FILE

    The trace streams through: memory stays bounded by the nesting depth and
    the number of labels and threads, whatever the file's size. The command
    line goes through the tools' parser (src/core/options.c): --flag=value or
    --flag value, -o F and -h too, "--" ends the options. TRACE-FILE "-"
    reads stdin.
    Warnings (a cut or damaged file, unmatched begin/end) go to stderr and
    the rest of the trace is still used. The output is written beside its
    target and renamed over it when complete (src/core/outfile.c): a failed run
    leaves an earlier report whole. Exit status: 0 when the file was read
    (even with warnings), 1 when it is not a trace file or cannot be read or
    the output cannot be written, 2 for a usage error (a bad filter value,
    a thread the trace does not have, an output that is the input).
    SPDX-License-Identifier: MIT
*/
#include "trace_debug.h"
#include "trace_read.h"
#include "trace_diff.h"
#include "trace_record.h"
#include "trace_report.h"
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROGRAM "prof-trace"

static const struct { const char * name; pt_output format; } formats[] = {
    { "text", PT_OUT_TEXT }, { "csv", PT_OUT_CSV }, { "json", PT_OUT_JSON },
    { "json-be", PT_OUT_JSON_BE }, { "raw", PT_OUT_RAW },
    { "perfetto", PT_OUT_PERFETTO }, { "folded", PT_OUT_FOLDED },
    { "speedscope", PT_OUT_SPEEDSCOPE }, { "alloc", PT_OUT_ALLOC },
    { "pprof", PT_OUT_PPROF },
};

enum { MAX_BINARIES = 64 };

typedef struct
{
    const char * in;
    const char * out;        /* NULL: stdout */
    const char * thread;     /* --thread's value, for messages */
    const char * diff;       /* --diff's OLD trace, NULL: no diff */
    pt_output format;
    int by_thread;
    int by_value;            /* --by-value: rows split by zone value */
    int zones;               /* --zones: CSV and --folded of the zones */
    pt_options o;
    pt_filter f;
    regex_t re;
    const char * binaries[MAX_BINARIES + 1];
    int nbinaries;
} args_t;

/* ---- the options -------------------------------------------------------------- */

/* A time into whole ns: a decimal number and a unit, ns by default. */
static int parse_time(const char * name, const char * v, int64_t * ns)
{
    double x;
    if (prof_impl_option_time(PROGRAM, name, v, 1.0, 9.2e18, &x) != 0)
        return -1;
    *ns = (int64_t) (x + 0.5);
    return 0;
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

/* --text, --csv, ...: the format of that name. */
static int set_format_flag(void * ctx, const char * name, const char * v)
{
    (void) v;
    return find_format((args_t *) ctx, name + 2);
}

static int set_format(void * ctx, const char * name, const char * v)
{
    if (find_format((args_t *) ctx, v) == 0)
        return 0;
    prof_impl_warn(PROGRAM ": %s=%s: one of text, csv, json, json-be, raw, "
                   "perfetto, folded, speedscope, alloc, pprof is expected",
                   name, v);
    return -1;
}

static int set_min(void * ctx, const char * name, const char * v)
{
    return parse_time(name, v, &((args_t *) ctx)->f.min_duration_ns);
}

static int set_from(void * ctx, const char * name, const char * v)
{
    return parse_time(name, v, &((args_t *) ctx)->f.from_ns);
}

static int set_to(void * ctx, const char * name, const char * v)
{
    return parse_time(name, v, &((args_t *) ctx)->f.to_ns);
}

static int set_name_filter(void * ctx, const char * name, const char * v)
{
    args_t * a = (args_t *) ctx;
    int e;
    if (a->f.name_re != NULL)
        regfree(&a->re);
    a->f.name_re = NULL;
    e = regcomp(&a->re, v, REG_EXTENDED | REG_NOSUB);
    if (e != 0)
    {
        char msg[256];
        regerror(e, &a->re, msg, sizeof msg);
        prof_impl_warn(PROGRAM ": %s=%s: not a regular expression: %s", name,
                       v, msg);
        return -1;
    }
    a->f.name_re = &a->re;
    return 0;
}

/* A tid (all digits, at most 2^32 - 1) or a thread name. */
static int set_thread(void * ctx, const char * name, const char * v)
{
    args_t * a = (args_t *) ctx;
    size_t n = strspn(v, "0123456789");
    if (v[0] == '\0')
    {
        prof_impl_warn(PROGRAM ": %s=: a tid or a thread name is expected", name);
        return -1;
    }
    a->thread = v;
    a->f.thread_is_tid = n > 0 && v[n] == '\0' && n <= 10
                         && strtoull(v, NULL, 10) <= UINT32_MAX;
    a->f.thread_tid = a->f.thread_is_tid ? (uint32_t) strtoul(v, NULL, 10) : 0;
    a->f.thread_name = a->f.thread_is_tid ? NULL : v;
    return 0;
}

/* --depth: its bounds (the default 0 is "all") */
static const prof_impl_range depth_range = { 0, 1, 65536, 0, 0, 1,
    PROF_IMPL_PLAIN, "a whole number in {lo}..{hi}" };

static int set_depth(void * ctx, const char * name, const char * v)
{
    size_t n = strspn(v, "0123456789");    /* digits only */
    double d = n > 0 && v[n] == '\0' && n <= 6 ? strtod(v, NULL) : NAN;
    if (!prof_impl_option_in(PROGRAM, name, v, &depth_range, d))
        return -1;
    ((args_t *) ctx)->f.max_depth = (int) d;
    return 0;
}

static int add_binary(void * ctx, const char * name, const char * v)
{
    args_t * a = (args_t *) ctx;
    struct stat sb;
    if (stat(v, &sb) != 0 || !S_ISREG(sb.st_mode))
        prof_impl_warn(PROGRAM ": %s=%s: no such file", name, v);
    else if (a->nbinaries == MAX_BINARIES)
        prof_impl_warn(PROGRAM ": %s=%s: more than %d %s options", name, v,
                       MAX_BINARIES, name);
    else
    {
        a->binaries[a->nbinaries++] = v;
        return 0;
    }
    return -1;
}

static int set_no_symbols(void * ctx, const char * name, const char * v)
{
    (void) name;
    (void) v;
    ((args_t *) ctx)->o.resolve_symbols = 0;
    return 0;
}

static int set_debug_root(void * ctx, const char * name, const char * v)
{
    (void) ctx;
    if (v[0] == '\0')
    {
        prof_impl_warn(PROGRAM ": %s=: a directory is expected", name);
        return -1;
    }
    pt_debug_set_root(v);
    return 0;
}

/* A file name into *to: -1 after a message if it is empty. */
static int set_file(const char ** to, const char * name, const char * v)
{
    if (v[0] == '\0')
    {
        prof_impl_warn(PROGRAM ": %s=: a file name is expected", name);
        return -1;
    }
    *to = v;
    return 0;
}

static int set_output(void * ctx, const char * name, const char * v)
{
    return set_file(&((args_t *) ctx)->out, name, v);
}

static int set_diff(void * ctx, const char * name, const char * v)
{
    return set_file(&((args_t *) ctx)->diff, name, v);
}

/* --pprof F: pprof's format, written to F (as --format=pprof -o F). */
static int set_pprof(void * ctx, const char * name, const char * v)
{
    ((args_t *) ctx)->format = PT_OUT_PPROF;
    return set_output(ctx, name, v);
}

static const char usage_head[] =
"usage: prof-trace [OPTIONS] TRACE-FILE   (TRACE-FILE - is stdin)\n"
"Turns a raw trace written by the profiler's recorder into a per-zone\n"
"summary, CSV, raw event lines, Chrome Trace Event JSON or Perfetto's\n"
"protobuf trace; of a sampled trace, the top functions (text and CSV),\n"
"collapsed stacks, speedscope's sampled profiles and pprof's profile.\n"
"Options (--flag=VALUE or --flag VALUE; -- ends the options):\n";

static const char usage_tail[] =
"-o F is --output=F, -h is --help. A time T is a decimal number with a\n"
"unit: ns (if none), us, ms or s (1.5ms). The filters apply to every\n"
"output; the zones around a kept zone are kept too (but not by --name,\n"
"--thread or --depth).\n"
"Exit status: 0 the trace was read (warnings or not); 1 not a trace\n"
"file, unreadable, out of memory, or the output could not be written\n"
"(then nothing is written); 2 a usage error.\n";

#define SET(f) PROF_IMPL_OPTION_SET(f)

static const prof_impl_option option_table[] = {
    { "--text", NULL, "the per-zone summary: calls, total, avg, min, max, "
      "self time in ns, unmatched; sorted by total (the default output)",
      SET(set_format_flag) },
    { "--csv", NULL, "the same as CSV (default: --text)", SET(set_format_flag) },
    { "--json", NULL, "Chrome Trace Event JSON, an X event per zone, for "
      "Perfetto and chrome://tracing (default: --text)", SET(set_format_flag) },
    { "--json-be", NULL, "the same with B/E event pairs, for speedscope "
      "(default: --text)", SET(set_format_flag) },
    { "--raw", NULL, "every event as a line: thread, tick, ns, begin/end, "
      "kind, name (default: --text)", SET(set_format_flag) },
    { "--perfetto", NULL, "Perfetto's protobuf trace, for ui.perfetto.dev "
      "(default: --text)", SET(set_format_flag) },
    { "--folded", NULL, "collapsed stacks, 'thread;outer;inner SELF_NS' a "
      "line, for flamegraph.pl (default: --text)", SET(set_format_flag) },
    { "--speedscope", NULL, "speedscope's own format, a profile per thread "
      "(default: --text)", SET(set_format_flag) },
    { "--alloc", NULL, "the allocations (PROF_ALLOC, libprofiler-alloc.a) by "
      "zone, and the leaks: what was live at the end (default: --text)",
      SET(set_format_flag) },
    { "--pprof", "F", "pprof's gzipped profile.proto of the samples, to F "
      "(= --format=pprof -o F), for go tool pprof, Pyroscope, Parca "
      "(default: --text)", SET(set_pprof) },
    { "--format", "F", "one of the above by name: text, csv, json, json-be, "
      "raw, perfetto, folded, speedscope, alloc, pprof (text)", SET(set_format) },
    { "--diff", "OLD", "what grew from the sampled trace OLD to TRACE-FILE: "
      "the functions by the change of their share of the samples, grown "
      "first (perf diff); with --folded, 'stack OLD NEW' lines for "
      "difffolded.pl (default: no diff)", SET(set_diff) },
    { "--min-duration", "T", "keep zones lasting at least T (default: all)", SET(set_min) },
    { "--from", "T", "keep zones that end at T or later, since the "
      "start (default: the start)",
      SET(set_from) },
    { "--to", "T", "keep zones that begin at T or before (default: "
      "the end)",
      SET(set_to) },
    { "--name", "REGEX", "keep zones whose name matches, POSIX extended "
      "(default: all)", SET(set_name_filter) },
    { "--thread", "T", "keep the thread with tid T (digits) or named T "
      "(default: all)", SET(set_thread) },
    { "--depth", "N", "keep zones less than N levels deep, {lo}..{hi} (1: "
      "the outermost only; default: all)",
      PROF_IMPL_OPTION_NUMBER(set_depth, &depth_range) },
    { "--by-thread", NULL, "the summary once per thread too, text and CSV "
      "(off)", PROF_IMPL_OPTION_FLAG(args_t, by_thread) },
    { "--by-value", NULL, "a summary row per zone name and PROF_ZONE_VALUE, "
      "text and CSV (off)", PROF_IMPL_OPTION_FLAG(args_t, by_value) },
    { "--zones", NULL, "--csv and --folded of a trace with samples: the "
      "zones' report (default: the samples')",
      PROF_IMPL_OPTION_FLAG(args_t, zones) },
    { "--binary", "PATH", "read function names from PATH for the executable "
      "of that file name (moved or rebuilt); repeatable (default: the "
      "paths in the trace)", SET(add_binary) },
    { "--no-symbols", NULL, "leave function addresses unnamed, do not read "
      "the executables (default: named)", SET(set_no_symbols) },
    { "--debug-root", "DIR", "look for separate debug files (by build-id, "
      "by .gnu_debuglink) under DIR instead of /usr/lib/debug (default: "
      "$PROFILER_DEBUG_ROOT, else /usr/lib/debug)", SET(set_debug_root) },
    { "--output", "F", "write to F, replaced only when complete (stdout)",
      PROF_IMPL_OPTION_SET_ALIAS(set_output, "-o") },
    { "--help", NULL, "print this help and exit", SET(NULL) },
    { "--version", NULL, "print the version and exit", SET(NULL) },
};

static const prof_impl_options command_line = {
    PROGRAM, option_table, (int) (sizeof option_table / sizeof option_table[0]),
    usage_head, usage_tail, PROF_IMPL_UNKNOWN_ERROR, 1, 1
};

/* ---- the command line ------------------------------------------------------- */

/* The words the parser left (argv[1..n)): the trace file. 0 to go on, or
   2 after a message. */
static int parse_words(args_t * a, char ** argv, int n)
{
    int k;
    for (k = 1; k < n; k++)
    {
        if (a->in != NULL)
            return prof_impl_warn(PROGRAM ": %s: one trace file is expected, "
                                  "%s was given first", argv[k], a->in), 2;
        a->in = argv[k];
    }
    return 0;
}

/* What the options together must be. 0, or 2 after a message. */
static int check_args(const args_t * a)
{
    if (a->in == NULL)
        prof_impl_warn(PROGRAM ": no trace file given (see --help)");
    else if (a->f.to_ns >= 0 && a->f.to_ns < a->f.from_ns)
        prof_impl_warn(PROGRAM ": --to is before --from");
    else if (a->out != NULL && (prof_impl_output_is_input(a->out, a->in)
             || (a->diff != NULL && prof_impl_output_is_input(a->out, a->diff))))
        prof_impl_warn(PROGRAM ": the output %s is the input: refused", a->out);
    else if (a->diff != NULL && a->format != PT_OUT_TEXT
             && a->format != PT_OUT_FOLDED)
        prof_impl_warn(PROGRAM ": --diff writes text or --folded only");
    else
        return 0;
    return 2;
}

/* 0 to go on, or an exit status (-1: exit 0). */
static int parse_args(int argc, char ** argv, args_t * a)
{
    int n, rc;
    memset(a, 0, sizeof *a);
    a->format = PT_OUT_TEXT;
    a->o.warn = stderr;
    a->o.resolve_symbols = 1;
    a->o.binaries = a->binaries;
    a->f.to_ns = -1;
    n = prof_impl_options_parse(&command_line, argc, argv, a);
    rc = n == PROF_IMPL_OPTIONS_EXIT ? -1 : n < 0 ? 2 : parse_words(a, argv, n);
    return rc != 0 ? rc : check_args(a);
}

/* pt_stream's result rc for path said: 0 if it read the trace. */
static int say_read(int rc, const char * path)
{
    if (rc == -2)
        prof_impl_warn(PROGRAM ": cannot read %s: %s", path, strerror(errno));
    else if (rc == -3)
        ;   /* out of memory: the reader said so; nothing written */
    else if (rc != 0)
        prof_impl_warn(PROGRAM ": %s: not a trace file written by the "
                       "profiler", path);
    return rc;
}

/* Read the trace into the report r. 0, or an exit status. */
static int run(args_t * a, pt_report * r)
{
    pt_handler h = pt_report_handler(r);
    pt_trace t;
    int rc = say_read(pt_stream(a->in, &a->o, &h, &t), a->in);
    if (rc == 0 && a->thread != NULL && pt_report_thread_matches(r) == 0)
    {
        prof_impl_warn(PROGRAM ": --thread=%s: no thread %s %s has zones in "
                       "%s (prof-trace --by-thread lists the threads)",
                       a->thread, a->f.thread_is_tid ? "with tid" : "named",
                       a->thread, a->in);
        rc = 2;
    }
    /* out of memory while reporting (sticky): the output misses zones */
    if (pt_report_finish(r, rc == 0 ? &t : NULL) != 0 && rc == 0)
        rc = 1;
    pt_free(&t);
    return rc == 0 ? 0 : rc == 2 ? 2 : 1;
}

/* --diff: a->diff against a->in, to out. 0, or an exit status. */
static int run_diff(args_t * a, FILE * out)
{
    pt_diff_side d[2];
    int rc = say_read(pt_diff_read(&d[0], a->diff, &a->o, a->binaries,
                                   a->o.resolve_symbols), a->diff);
    if (rc == 0)
        rc = say_read(pt_diff_read(&d[1], a->in, &a->o, a->binaries,
                                   a->o.resolve_symbols), a->in);
    else
        memset(&d[1], 0, sizeof d[1]);
    if (rc == 0 && pt_diff_write(out, &d[0], &d[1],
                                 a->format == PT_OUT_FOLDED) != 0)
    {
        prof_impl_warn(PROGRAM ": out of memory while writing the diff");
        rc = 1;
    }
    pt_diff_free(&d[0]);
    pt_diff_free(&d[1]);
    return rc == 0 ? 0 : 1;
}

int main(int argc, char ** argv)
{
    args_t a;
    prof_impl_outfile of;
    pt_report * r;
    int rc;
    if (argc > 1 && strcmp(argv[1], "record") == 0) /* sample-rec: recording */
        return pt_record_main(argc - 1, argv + 1);
    rc = parse_args(argc, argv, &a);
    if (rc != 0)
    {
        if (a.f.name_re != NULL)
            regfree(&a.re);
        return rc < 0 ? 0 : rc;
    }
    if (prof_impl_outfile_open(&of, a.out != NULL ? a.out : "-") != 0)
        rc = 1;
    else if (a.diff != NULL && (rc = run_diff(&a, of.f)) != 0)
        prof_impl_outfile_abort(&of);
    else if (a.diff != NULL)
        rc = prof_impl_outfile_commit(&of) == 0 ? 0 : 1;
    else if ((r = pt_report_new(of.f, a.format, &a.f, a.by_thread)) == NULL)
    {
        prof_impl_warn(PROGRAM ": out of memory");
        prof_impl_outfile_abort(&of);
        rc = 1;
    }
    else if (pt_report_by_value(r, a.by_value),
             pt_report_samples(r, a.binaries, a.o.resolve_symbols, a.zones),
             (rc = run(&a, r)) != 0)
        prof_impl_outfile_abort(&of);
    else
        rc = prof_impl_outfile_commit(&of) == 0 ? 0 : 1;
    if (a.f.name_re != NULL)
        regfree(&a.re);
    return rc;
}
