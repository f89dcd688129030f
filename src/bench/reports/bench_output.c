/*
    The suite's outputs: which reporter writes what, where and when. The
    console (stdout unless set) gets the markdown rows as each benchmark
    ends, or CSV / JSON at prof_bench_finish; the file of --out gets every
    result at prof_bench_finish, written beside its target and renamed over
    it only once complete (outfile.c), so that bad arguments, a failed run
    or a full disk never truncate or destroy it. prof_bench_write writes
    all results anywhere. Interrupted (bench_signal.c), each suite's file
    gets the benchmarks that finished, marked partial, the same way.
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
    c->optimized = b->optimized;
    c->sanitized = b->sanitized;
    c->compiler = b->compiler;
    c->flags = b->flags;
    c->overhead_ns = b->overhead_ticks >= 0.0
                   ? b->overhead_ticks * 1e9 / prof_impl_read_rate() : NAN;
    c->counters_line = prof_impl_bench_counters_context(line, size) ? line
                                                                    : "";
    c->terminal = b->terminal;
    c->wide = b->wide;
    c->table_percentiles = b->table_percentiles;
    c->processes = prof_impl_workers_ready_count(b);
    c->fit_name = b->fit_name;
    c->fit_f = b->fit_f;
    c->partial = NULL;
    c->percentiles = b->percentiles;
    c->npercentiles = b->npercentiles;
    c->aggregates_only = 0;
    c->json_epochs = b->json_epochs;
    c->context = b->context;
    c->ncontext = b->ncontext;
    c->no_rate = 0;
}

/* The suites with a file: what an interruption writes (write_partial). */
static prof_bench * live;
static void write_partial(int sig);

static void live_add(prof_bench * b)
{
    prof_bench * p;
    for (p = live; p != NULL; p = p->live_next)
        if (p == b)
            return;
    b->live_next = live;
    live = b;
    prof_impl_interrupt_arm(write_partial);
}

void prof_impl_output_forget(prof_bench * b)
{
    prof_bench ** p;
    for (p = &live; *p != NULL; p = &(*p)->live_next)
        if (*p == b)
        {
            *p = b->live_next;
            break;
        }
    if (live == NULL)
        prof_impl_interrupt_arm(NULL);
}

void prof_impl_output_set(prof_bench * b, FILE * out)
{
    b->console.f = out;
    prof_impl_md_init(&b->console.md, out);
}

prof_format prof_impl_format_of(const char * path)
{
    const char * dot = strrchr(path, '.');
    if (dot != NULL && strcmp(dot, ".csv") == 0)
        return PROF_FORMAT_CSV;
    if (dot != NULL && (strcmp(dot, ".md") == 0
                        || strcmp(dot, ".markdown") == 0))
        return PROF_FORMAT_MD;
    return PROF_FORMAT_JSON;
}

int prof_impl_output_file(prof_bench * b, const char * path)
{
    char * copy = NULL;
    /* can it be written? checked now, written (once) at the end */
    if (path != NULL)
    {
        if (prof_impl_outfile_check(path) != 0)
            return -1;
        if ((copy = prof_impl_strdup(path)) == NULL)
        {
            prof_impl_warn("\"%s\": out of memory", path);
            return -1;
        }
    }
    free(b->file.path);
    b->file.path = copy;
    b->file.nwritten = 0;
    b->file.failed = 0;
    if (copy != NULL && !b->file.format_set)
        b->file.format = prof_impl_format_of(copy);
    if (copy != NULL && !prof_impl_worker_mode())
        live_add(b);
    else
        prof_impl_output_forget(b);
    return 0;
}

void prof_impl_output_row(prof_bench * b, int i)
{
    prof_impl_report_ctx c;
    char line[1024];
    prof_impl_status_clear();
    if (b->console.format != PROF_FORMAT_MD || b->console.f == NULL)
        return;
    report_ctx(b, &c, line, sizeof line);
    prof_impl_md_row(&b->console.md, &c, b->results[i], PROF_IMPL_RELATIVE(b));
}

/* results[from ..) in format to out (no flush, no check of the stream),
   partial: why they stop short, or NULL; aggregates: the
   PROF_IMPL_AGGREGATES_* bits that make this output the aggregates only.
   0, or -1 if a figure is missing (out of memory, said). */
static int write_results(const prof_bench * b, FILE * out,
        prof_format format, int from, const char * partial, int aggregates)
{
    prof_impl_report_ctx c;
    char line[1024];
    int i;
    report_ctx(b, &c, line, sizeof line);
    c.partial = partial;
    c.aggregates_only = (b->aggregates_only & aggregates) != 0;
    if (format == PROF_FORMAT_CSV)
        return prof_impl_csv_write(out, &c, b->results, from, b->nresults);
    else if (format == PROF_FORMAT_JSON)
        return prof_impl_json_write(out, &c, b->results, from, b->nresults);
    else if (format == PROF_FORMAT_MD)
    {
        prof_impl_md_writer w;
        prof_impl_md_init(&w, out);
        for (i = from; i < b->nresults; i++)
            prof_impl_md_row(&w, &c, b->results[i], PROF_IMPL_RELATIVE(b));
        prof_impl_md_partial(&w, &c, b->nresults - from);
    }
    return 0;
}

/* Flush out; 0, or -1 after a message (once per output). */
static int flushed(prof_impl_output * o, FILE * out)
{
    if (fflush(out) == 0 && !ferror(out))
        return 0;
    if (!o->failed)
        prof_impl_warn("writing the benchmark results failed");
    o->failed = 1;
    return -1;
}

int prof_bench_write(FILE * out, const prof_bench * b, prof_format format)
{
    prof_impl_output o;
    int missing;
    if (b == NULL || out == NULL)
    {
        prof_impl_warn("prof_bench_write: the %s is NULL; nothing written",
                       b == NULL ? "suite" : "stream");
        return -1;
    }
    if (!PROF_IMPL_FORMAT_KNOWN(format))
    {
        prof_impl_warn("prof_bench_write: unknown format %d; nothing "
                       "written", (int) format);
        return -1;
    }
    memset(&o, 0, sizeof o);
    missing = write_results(b, out, format, 0, NULL,
                            PROF_IMPL_AGGREGATES_REPORT) != 0;
    return flushed(&o, out) != 0 || missing ? -1 : 0;
}

/* The console's results not yet written (CSV, JSON). */
static int finish_console(prof_bench * b)
{
    prof_impl_output * o = &b->console;
    int rc = 0;
    if (o->f == NULL)
        return 0;
    if (o->nwritten < b->nresults
        && (o->format == PROF_FORMAT_CSV || o->format == PROF_FORMAT_JSON)
        && write_results(b, o->f, o->format, o->nwritten, NULL,
                         PROF_IMPL_AGGREGATES_REPORT
                         | PROF_IMPL_AGGREGATES_DISPLAY) != 0)
        rc = -1;
    if (!o->failed && flushed(o, o->f) != 0)
        rc = -1;
    o->nwritten = b->nresults;
    return o->failed ? -1 : rc;
}

int prof_bench_set_json_epochs(prof_bench * b, int on)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_json_epochs");
    b->json_epochs = on != 0;
    return 0;
}

/* Tests: called in a partial write once the data is written, before the
   rename (a second signal there must leave the old file whole). */
void (*prof_impl_partial_hook)(void);

/* The file, written whole when it lacks results: a new document with all
   of them (partial: why they stop short, or NULL) replaces the old one
   only once complete. A second signal meanwhile removes the new one. */
static int finish_file(prof_bench * b, const char * partial)
{
    prof_impl_output * o = &b->file;
    prof_impl_outfile f;
    int rc;
    if (o->path == NULL || o->nwritten == b->nresults)
        return o->failed ? -1 : 0;
    if (o->failed && o->nfailed == b->nresults)
        return -1;      /* these results failed already (said once) */
    o->nfailed = b->nresults;   /* until it succeeds */
    if (prof_impl_outfile_open(&f, o->path) != 0)
    {
        o->failed = 1;
        return -1;
    }
    if (write_results(b, f.f, o->format, 0, partial,
                      PROF_IMPL_AGGREGATES_REPORT) != 0)
    {
        prof_impl_outfile_abort(&f);    /* the old file stays as it was */
        o->failed = 1;
        return -1;
    }
    if (partial != NULL && prof_impl_partial_hook != NULL)
        prof_impl_partial_hook();
    rc = prof_impl_outfile_commit(&f);
    if (rc != 0)
    {
        o->failed = 1;
        return -1;
    }
    o->nwritten = b->nresults;
    o->failed = 0;
    return 0;
}

/* What a signal name says in a file. */
static const char * interrupted_by(int sig)
{
    return sig == SIGINT ? "interrupted by SIGINT (Ctrl-C)"
         : sig == SIGTERM ? "interrupted by SIGTERM" : "interrupted";
}

/* Each suite's file with the benchmarks that finished, marked partial
   (bench_signal.c calls it, then ends the process by sig). */
static void write_partial(int sig)
{
    prof_bench * b;
    prof_impl_status_clear();
    for (b = live; b != NULL; b = b->live_next)
    {
        if (b->file.path == NULL || b->file.nwritten == b->nresults)
        {
            if (b->nresults == 0 && b->file.path != NULL)
                prof_impl_warn("%s: no benchmark finished; \"%s\" is left "
                               "as it was", interrupted_by(sig), b->file.path);
            continue;
        }
        if (finish_file(b, interrupted_by(sig)) == 0)
            prof_impl_warn("%s: the %d benchmark%s that finished written to "
                           "\"%s\", marked partial", interrupted_by(sig),
                           b->nresults, b->nresults == 1 ? "" : "s",
                           b->file.path);
    }
}

/* The results since the last call whose epochs are too few for the
   percentiles that CSV or JSON carry: said once for them all. */
static void percentiles_check(prof_bench * b)
{
    prof_impl_report_ctx c;
    char name[32] = "";
    int i, few = 0, need, first = -1;
    memset(&c, 0, sizeof c);
    c.percentiles = b->percentiles;
    c.npercentiles = b->npercentiles;
    need = prof_impl_percentiles_epochs(&c);
    for (i = b->percentiles_checked; i < b->nresults; i++)
        if (b->results[i]->pub.epochs < need && few++ == 0)
            first = i;
    b->percentiles_checked = b->nresults;
    if (few == 0 || !(b->console.format == PROF_FORMAT_CSV
                      || b->console.format == PROF_FORMAT_JSON
                      || b->file.path != NULL))
        return;
    for (i = 0; name[0] == '\0' && i < b->npercentiles; i++)
        if (prof_impl_percentile_epochs(b->percentiles[i]) == need)
            prof_impl_percentile_name(name, sizeof name, b->percentiles[i]);
    prof_impl_warn("%s needs %d epochs to be more than a blend of the two "
                   "fastest (or slowest); %s has %d (%d benchmark%s fewer): "
                   "--epochs=%d, or --percentiles", name, need,
                   b->results[first]->pub.name, b->results[first]->pub.epochs,
                   few, few == 1 ? " has" : "s have", need);
}

int prof_impl_output_finish(prof_bench * b)
{
    int rc;
    percentiles_check(b);
    rc = finish_console(b);
    rc |= finish_file(b, NULL);
    if (b->has_filter && b->matched == 0 && b->filtered > 0 && !b->no_match_said)
    {
        prof_impl_warn("the filter matched none of the %d benchmarks: nothing "
                       "ran", b->filtered);
        b->no_match_said = 1;
    }
    if (b->has_filter && b->matched == 0 && b->filtered > 0)
        rc = -1;
    /* a signal meanwhile ends the run now, its files whole */
    PROF_IMPL_INTERRUPT_POLL();
    /* a worker process that failed: its results are missing (said when
       it failed) */
    return rc != 0 || prof_impl_workers_failed() ? -1 : 0;
}
