/*
    prof-trace: turn a raw trace file written by the profiler's recorder into
    a per-zone summary (text or CSV, as Piyasa's piy2text and piy2csv) or
    Chrome Trace Event JSON for Perfetto (ui.perfetto.dev) and
    chrome://tracing.

        prof-trace [--text | --csv | --json] [-o OUTPUT] TRACE-FILE

    TRACE-FILE "-" reads stdin. Warnings (a cut or damaged file, unmatched
    begin/end) go to stderr and the rest of the trace is still used. Exit
    status: 0 when the file was read (even with warnings), 1 when it is not a
    trace file or cannot be read or the output cannot be written, 2 for a
    usage error.
    SPDX-License-Identifier: MIT
*/
#include "trace_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int usage(FILE * f)
{
    fputs("usage: prof-trace [--text | --csv | --json] [-o OUTPUT] TRACE-FILE\n"
          "  --text  per-zone summary: calls, total, avg, min, max, self time\n"
          "          in ns, sorted by total (the default)\n"
          "  --csv   the same as CSV\n"
          "  --json  Chrome Trace Event JSON (Perfetto, chrome://tracing)\n"
          "  -o F    write to F instead of stdout\n"
          "  --no-symbols  do not read executables to name function addresses\n",
          f);
    return f == stdout ? 0 : 2;
}

int main(int argc, char ** argv)
{
    const char * in = NULL, * outpath = NULL;
    int mode = 't', i, rc = 0;
    pt_options o;
    pt_trace t;
    unsigned char * data;
    size_t n;
    FILE * out = stdout;

    memset(&o, 0, sizeof o);
    o.warn = stderr;
    o.resolve_symbols = 1;
    for (i = 1; i < argc; i++)
    {
        const char * a = argv[i];
        if (strcmp(a, "--text") == 0)
            mode = 't';
        else if (strcmp(a, "--csv") == 0)
            mode = 'c';
        else if (strcmp(a, "--json") == 0)
            mode = 'j';
        else if (strcmp(a, "--no-symbols") == 0)
            o.resolve_symbols = 0;
        else if (strcmp(a, "-o") == 0 && i + 1 < argc)
            outpath = argv[++i];
        else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return usage(stdout);
        else if ((a[0] == '-' && a[1] != '\0') || in != NULL)
        {
            fprintf(stderr, "prof-trace: unexpected argument '%s'\n", a);
            return usage(stderr);
        }
        else
            in = a;
    }
    if (in == NULL)
        return usage(stderr);
    data = pt_slurp(in, &n);
    if (data == NULL)
    {
        fprintf(stderr, "prof-trace: cannot read %s: %s\n", in, strerror(errno));
        return 1;
    }
    if (pt_read(data, n, &o, &t) != 0)
    {
        fprintf(stderr, "prof-trace: %s: not a trace file written by the "
                "profiler\n", in);
        pt_free(&t);
        free(data);
        return 1;
    }
    if (outpath != NULL && (out = fopen(outpath, "w")) == NULL)
    {
        fprintf(stderr, "prof-trace: cannot write %s: %s\n", outpath,
                strerror(errno));
        rc = 1;
    }
    else
    {
        if (mode == 'j')
            pt_write_json(&t, out);
        else
            pt_write_summary(&t, out, mode == 'c');
        if (fflush(out) != 0 || ferror(out)
            || (out != stdout && fclose(out) != 0))
        {
            fprintf(stderr, "prof-trace: cannot write %s: %s\n",
                    outpath ? outpath : "the output", strerror(errno));
            rc = 1;
        }
    }
    pt_free(&t);
    free(data);
    return rc;
}
