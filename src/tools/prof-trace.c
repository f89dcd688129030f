/*
    prof-trace: turn a raw trace file written by the profiler's recorder into
    a per-zone summary (text or CSV, as Piyasa's piy2text and piy2csv) or
    Chrome Trace Event JSON for Perfetto (ui.perfetto.dev), speedscope and
    chrome://tracing.

        prof-trace [--text | --csv | --json | --json-be] [-o OUTPUT] TRACE-FILE

    Options take their value as --flag=value or --flag value. TRACE-FILE
    "-" reads stdin. Warnings (a cut or damaged file, unmatched begin/end)
    go to stderr and the rest of the trace is still used. The output is
    written beside its target and renamed over it when complete
    (src/outfile.c): a failed run leaves an earlier report whole. Exit
    status: 0 when the file was read (even with warnings), 1 when it is not
    a trace file or cannot be read or the output cannot be written, 2 for a
    usage error (an output that is the input included).
    SPDX-License-Identifier: MIT
*/
#include "trace_read.h"
#include "../internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifndef PROF_VERSION
# define PROF_VERSION "unknown"
#endif

typedef enum { OUT_TEXT, OUT_CSV, OUT_JSON, OUT_JSON_BE } output_format;

static const struct { const char * name; output_format format; } formats[] = {
    { "text", OUT_TEXT }, { "csv", OUT_CSV }, { "json", OUT_JSON },
    { "json-be", OUT_JSON_BE },
};

typedef struct
{
    const char * in;
    const char * out;        /* NULL: stdout */
    output_format format;
    pt_options o;
} args_t;

static int usage(FILE * f)
{
    fputs("usage: prof-trace [OPTIONS] TRACE-FILE   (TRACE-FILE - is stdin)\n"
          "  --text         per-zone summary: calls, total, avg, min, max, self\n"
          "                 time in ns, sorted by total (the default)\n"
          "  --csv          the same as CSV\n"
          "  --json         Chrome Trace Event JSON, one X event per zone\n"
          "                 (Perfetto, chrome://tracing)\n"
          "  --json-be      the same with B/E event pairs (speedscope)\n"
          "  --format=F     text, csv, json or json-be\n"
          "  -o F, --output=F  write to F (replaced only when complete)\n"
          "  --no-symbols   do not read executables to name function addresses\n"
          "  --help, --version\n"
          "Options take a value as --flag=value or --flag value.\n", f);
    return f == stdout ? 0 : 2;
}

static int bad_usage(const char * fmt, const char * what)
{
    fputs("prof-trace: ", stderr);
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    return usage(stderr);
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

static int set_format(args_t * a, const char * name)
{
    if (find_format(a, name) == 0)
        return 0;
    return bad_usage("unknown format '%s' (text, csv, json, json-be)", name);
}

/* One argument (argv[*i]): 0 to go on, or an exit status (-1: exit 0). */
static int parse_one(int argc, char ** argv, int * i, args_t * a)
{
    const char * arg = argv[*i], * v = NULL;
    int k;
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
        return usage(stdout) - 1;
    if (strcmp(arg, "--version") == 0)
        return printf("prof-trace %s\n", PROF_VERSION) < 0 ? 1 : -1;
    if (strcmp(arg, "--no-symbols") == 0)
        return a->o.resolve_symbols = 0;
    if (arg[0] == '-' && arg[1] == '-' && find_format(a, arg + 2) == 0)
        return 0; /* --text, --csv, --json, --json-be */
    if ((k = opt_value(argc, argv, i, "--format", NULL, &v)) != 0)
        return k < 0 ? bad_usage("%s needs a value", arg) : set_format(a, v);
    if ((k = opt_value(argc, argv, i, "--output", "-o", &v)) != 0)
    {
        a->out = v;
        return k < 0 || v[0] == '\0' ? bad_usage("%s needs a file name", arg) : 0;
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
    a->format = OUT_TEXT;
    a->o.warn = stderr;
    a->o.resolve_symbols = 1;
    for (i = 1; i < argc; i++)
        if ((rc = parse_one(argc, argv, &i, a)) != 0)
            return rc;
    if (a->in == NULL)
        return bad_usage("%s", "no trace file given");
    if (a->out != NULL && prof_impl_same_file(a->out, a->in))
    {
        fprintf(stderr, "prof-trace: the output %s is the input: refused\n", a->out);
        return 2;
    }
    return 0;
}

static void write_report(FILE * out, const pt_trace * t, output_format f)
{
    if (f == OUT_JSON || f == OUT_JSON_BE)
        pt_write_json(out, t, f == OUT_JSON ? PT_JSON_X : PT_JSON_BE);
    else
        pt_write_summary(out, t, f == OUT_CSV ? PT_SUMMARY_CSV : PT_SUMMARY_TEXT);
}

int main(int argc, char ** argv)
{
    args_t a;
    pt_trace t;
    prof_impl_outfile of;
    unsigned char * data;
    size_t n;
    int rc = parse_args(argc, argv, &a);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    data = pt_slurp(a.in, &n);
    if (data == NULL)
    {
        fprintf(stderr, "prof-trace: cannot read %s: %s\n", a.in, strerror(errno));
        return 1;
    }
    if (pt_read(data, n, &a.o, &t) != 0)
    {
        fprintf(stderr, "prof-trace: %s: not a trace file written by the "
                "profiler\n", a.in);
        rc = 1;
    }
    else if (prof_impl_outfile_open(&of, a.out != NULL ? a.out : "-") == 0)
    {
        write_report(of.f, &t, a.format);
        rc = prof_impl_outfile_commit(&of) == 0 ? 0 : 1;
    }
    else
        rc = 1;
    pt_free(&t);
    free(data);
    return rc;
}
