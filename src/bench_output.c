/*
    The suite's output: which reporter writes what, and when. Markdown rows
    are printed as each benchmark ends; CSV and JSON are written by
    prof_bench_finish (every result not yet written) or prof_bench_write
    (all of them, anywhere).
    SPDX-License-Identifier: MIT
*/
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The context every reporter is given; line holds the counters' line. */
static void report_ctx(const prof_bench * b, prof_impl_report_ctx * c,
        char * line, size_t size)
{
    c->time_unit = b->time_unit;
    c->time_unit_ns = b->time_unit_ns;
    c->optimized = b->optimized;
    c->sanitized = b->sanitized;
    c->compiler = b->compiler;
    c->flags = b->flags;
    c->overhead_ns = b->overhead_ticks >= 0.0
                   ? b->overhead_ticks * 1e9 / prof_impl_read_rate() : NAN;
    c->counters_line = prof_impl_bench_counters_context(line, size) ? line
                                                                    : "";
    c->terminal = b->terminal;
    c->processes = prof_impl_workers_ready_count(b);
    c->fit_name = b->fit_name;
    c->fit_f = b->fit_f;
}

void prof_impl_output_set(prof_bench * b, FILE * out, int own)
{
    if (b->own_out && b->out != NULL)
        fclose(b->out);
    b->out = out;
    b->own_out = own;
    prof_impl_md_init(&b->md, out);
}

void prof_impl_output_row(prof_bench * b, int i)
{
    prof_impl_report_ctx c;
    char line[1024];
    prof_impl_progress_clear(b);
    if (b->format != PROF_FORMAT_MD || b->out == NULL)
        return;
    report_ctx(b, &c, line, sizeof line);
    prof_impl_md_row(&b->md, &c, b->results[i], b->baseline >= 0);
}

/* results[from ..) in format to out; 0, or -1 after a message. */
static int write_results(const prof_bench * b, FILE * out,
        prof_format format, int from)
{
    prof_impl_report_ctx c;
    char line[1024];
    int i;
    report_ctx(b, &c, line, sizeof line);
    if (format == PROF_FORMAT_CSV)
        prof_impl_csv_write(out, &c, b->results, from, b->nresults);
    else if (format == PROF_FORMAT_JSON)
        prof_impl_json_write(out, &c, b->results, from, b->nresults);
    else if (format == PROF_FORMAT_MD)
    {
        prof_impl_md_writer w;
        prof_impl_md_init(&w, out);
        for (i = from; i < b->nresults; i++)
            prof_impl_md_row(&w, &c, b->results[i], b->baseline >= 0);
    }
    if (fflush(out) != 0 || ferror(out))
    {
        prof_impl_warn("writing the benchmark results failed");
        return -1;
    }
    return 0;
}

int prof_bench_write(FILE * out, const prof_bench * b, prof_format format)
{
    if (b == NULL || out == NULL)
    {
        prof_impl_warn("prof_bench_write: the %s is NULL; nothing written",
                       b == NULL ? "suite" : "stream");
        return -1;
    }
    return write_results(b, out, format, 0);
}

int prof_bench_finish(prof_bench * b)
{
    int rc = 0;
    if (b == NULL)
        return -1;
    prof_impl_progress_clear(b);
    if (b->nqueue > 0)
    {
        prof_impl_warn("%d benchmark%s added but not run: call "
                       "prof_bench_run_all; running them now", b->nqueue,
                       b->nqueue == 1 ? "" : "s");
        prof_bench_run_all(b);
    }
    if (b->nwritten < b->nresults && b->out != NULL
        && (b->format == PROF_FORMAT_CSV || b->format == PROF_FORMAT_JSON))
        rc = write_results(b, b->out, b->format, b->nwritten);
    else if (b->out != NULL && !b->write_failed
             && (fflush(b->out) != 0 || ferror(b->out)))
    {
        prof_impl_warn("writing the benchmark results failed");
        rc = -1;
    }
    b->nwritten = b->nresults;
    if (rc != 0)
        b->write_failed = 1;
    /* a worker process that failed: its results are missing (said when
       it failed) */
    return prof_impl_workers_failed() ? -1 : rc;
}
