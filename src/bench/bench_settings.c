/*
    The runner's settings: their defaults, the setters (each checks its
    value and leaves the setting unchanged on bad input), and the name
    filter.
    SPDX-License-Identifier: MIT
*/
#include "bench.h"

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
    if (!b->has_filter)
        return 1;
#if defined(_WIN32)
    return strstr(name, b->filter.text) != NULL;
#else
    return regexec(&b->filter, name, 0, NULL, 0) == 0;
#endif
}

void prof_impl_filter_free(prof_bench * b)
{
    if (b->has_filter)
        filter_free(&b->filter);
    b->has_filter = 0;
}

static int bad(const char * what, double value)
{
    prof_impl_warn("%s: bad value %g; setting unchanged", what, value);
    return -1;
}

void prof_impl_settings_default(prof_impl_settings * s)
{
    memset(s, 0, sizeof *s);
    s->epochs = 11;
    s->min_epoch_ns = 1e6;
    s->max_epoch_ns = 1e8;
    s->resolution_multiple = 1000.0;
    s->min_iters = 1;
    s->exact_iters = 0;
    s->warmup = 0;
    s->retries = 11;
    s->budget_s = 5.0;
    s->jitter = 0.2;
    s->batch = 1.0;
    strcpy(s->unit, "op");
    strcpy(s->time_unit, "ns");
    s->complexity_n = 0.0;
    s->threads = 1;
}

int prof_bench_set_epochs(prof_bench * b, int epochs)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_epochs");
    if (epochs < 1 || epochs > 100000)
        return bad("prof_bench_set_epochs: epochs must be 1..100000", epochs);
    b->s.epochs = epochs;
    return 0;
}

int prof_bench_set_min_epoch_time_ns(prof_bench * b, double ns)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_min_epoch_time_ns");
    if (!(ns >= 0.0 && ns < 1e13))
        return bad("prof_bench_set_min_epoch_time_ns", ns);
    b->s.min_epoch_ns = ns;
    return 0;
}

int prof_bench_set_max_epoch_time_ns(prof_bench * b, double ns)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_max_epoch_time_ns");
    if (!(ns > 0.0 && ns < 1e13))
        return bad("prof_bench_set_max_epoch_time_ns", ns);
    b->s.max_epoch_ns = ns;
    return 0;
}

int prof_bench_set_resolution_multiple(prof_bench * b, double multiple)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_resolution_multiple");
    if (!(multiple >= 0.0 && multiple < 1e12))
        return bad("prof_bench_set_resolution_multiple", multiple);
    b->s.resolution_multiple = multiple;
    return 0;
}

int prof_bench_set_min_epoch_iterations(prof_bench * b, ulong iters)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_min_epoch_iterations");
    if (iters < 1 || iters > PROF_IMPL_MAX_ITERS)
        return bad("prof_bench_set_min_epoch_iterations: must be 1..2^40",
                   (double) iters);
    b->s.min_iters = iters;
    return 0;
}

int prof_bench_set_epoch_iterations(prof_bench * b, ulong iters)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_epoch_iterations");
    if (iters > PROF_IMPL_MAX_ITERS)
        return bad("prof_bench_set_epoch_iterations: must be 0..2^40",
                   (double) iters);
    b->s.exact_iters = iters;
    return 0;
}

int prof_bench_set_warmup(prof_bench * b, ulong iters)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_warmup");
    if (iters > PROF_IMPL_MAX_ITERS)
        return bad("prof_bench_set_warmup: must be 0..2^40", (double) iters);
    b->s.warmup = iters;
    return 0;
}

int prof_bench_set_preempt_retries(prof_bench * b, int retries)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_preempt_retries");
    if (retries < 0 || retries > 1000000)
        return bad("prof_bench_set_preempt_retries: must be 0..1e6", retries);
    b->s.retries = retries;
    return 0;
}

int prof_bench_set_budget_s(prof_bench * b, double seconds)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_budget_s");
    if (!(seconds > 0.0 && seconds < 1e7))
        return bad("prof_bench_set_budget_s", seconds);
    b->s.budget_s = seconds;
    return 0;
}

int prof_bench_set_epoch_jitter(prof_bench * b, double fraction)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_epoch_jitter");
    if (!(fraction >= 0.0 && fraction <= 1.0))
        return bad("prof_bench_set_epoch_jitter: must be 0..1", fraction);
    b->s.jitter = fraction;
    return 0;
}

int prof_bench_set_batch(prof_bench * b, double units, const char * unit)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_batch");
    if (!(units > 0.0 && units < 1e300))
        return bad("prof_bench_set_batch", units);
    b->s.batch = units;
    prof_impl_copy(b->s.unit, sizeof b->s.unit,
                   unit != NULL && *unit ? unit : "op");
    return 0;
}

int prof_bench_set_time_unit(prof_bench * b, const char * unit)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_time_unit");
    if (prof_impl_time_unit_ns(unit) == 0.0)
    {
        prof_impl_warn("prof_bench_set_time_unit: unknown unit \"%s\" (ns, "
                       "us, ms or s); setting unchanged",
                       unit ? unit : "(null)");
        return -1;
    }
    strcpy(b->s.time_unit, unit);
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
    if (!(n > 0.0 && n < 1e300))
        return bad("prof_bench_set_complexity_n: N must be > 0", n);
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
    if (n < 1 || n > PROF_PROCESSES_MAX)
        return bad("prof_bench_set_processes: must be 1..1000", n);
    b->processes = n;
    return 0;
}

int prof_bench_set_threads(prof_bench * b, int n)
{
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_threads");
    if (n < 1 || n > PROF_THREADS_MAX)
        return bad("prof_bench_set_threads: threads must be 1..256", n);
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
    PROF_IMPL_NEED_SUITE(b, "prof_bench_set_filter");
    if (regex == NULL || *regex == '\0')
    {
        prof_impl_filter_free(b);
        return 0;
    }
    if (filter_compile(&re, regex, msg, sizeof msg) != 0)
    {
        prof_impl_warn("bad filter \"%s\": %s; filter unchanged", regex, msg);
        return -1;
    }
    prof_impl_filter_free(b);
    b->filter = re;
    b->has_filter = 1;
    return 0;
}

