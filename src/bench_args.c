/*
    A benchmark program's command line and environment: prof_bench_args
    turns --format, --out, --filter, --counters and --processes (and the
    PROFILER_* variables) into the suite's settings.
    SPDX-License-Identifier: MIT
*/
#include "bench.h"

#include <stdlib.h>
#include <string.h>

static int parse_format(const char * s, prof_format * f)
{
    if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0) *f = PROF_FORMAT_MD;
    else if (strcmp(s, "csv") == 0) *f = PROF_FORMAT_CSV;
    else if (strcmp(s, "json") == 0) *f = PROF_FORMAT_JSON;
    else if (strcmp(s, "none") == 0) *f = PROF_FORMAT_NONE;
    else
    {
        prof_impl_warn("unknown format \"%s\": use md, csv, json or none", s);
        return -1;
    }
    return 0;
}

static int apply_option(prof_bench * b, const char * key, const char * value)
{
    if (strcmp(key, "format") == 0)
    {
        prof_format f;
        if (parse_format(value, &f) != 0)
            return -1;
        return prof_bench_set_format(b, f);
    }
    if (strcmp(key, "processes") == 0)
    {
        char * end;
        long n;
        errno = 0;
        n = strtol(value, &end, 10);
        if (end == value || *end != '\0' || errno != 0 || n < 1
            || n > PROF_PROCESSES_MAX)
        {
            prof_impl_warn("--processes=%s: give a whole number of processes, "
                           "1..%d", value, PROF_PROCESSES_MAX);
            return -1;
        }
        return prof_bench_set_processes(b, (int) n);
    }
    if (strcmp(key, "out") == 0)
        return prof_bench_set_output_path(b, value);
    if (strcmp(key, "counters") == 0)
        return prof_bench_set_counters(b, value);
    return prof_bench_set_filter(b, value);
}

int prof_bench_args(prof_bench * b, int argc, char ** argv)
{
    static const char * keys[] = { "format", "out", "filter", "counters",
                                   "processes" };
    static const char * envs[] = { "PROFILER_FORMAT", "PROFILER_OUT",
                                   "PROFILER_FILTER", "PROFILER_COUNTERS",
                                   "PROFILER_PROCESSES" };
    enum { NKEYS = (int) (sizeof keys / sizeof keys[0]) };
    int i, k, rc = 0;
    if (b == NULL)
    {
        prof_impl_warn("prof_bench_args: the suite is NULL");
        return -1;
    }
    prof_impl_workers_argv(argc, argv);     /* to run the program again */
    for (k = 0; k < NKEYS; k++)
    {
        const char * v = getenv(envs[k]);
        if (v != NULL && *v != '\0' && apply_option(b, keys[k], v) != 0)
            rc = -1;
    }
    for (i = 1; argv != NULL && i < argc; i++)
    {
        const char * a = argv[i];
        if (a == NULL || strncmp(a, "--", 2) != 0)
            continue;
        if (strcmp(a, "--counters") == 0)   /* the default events */
        {
            if (apply_option(b, "counters", "default") != 0)
                rc = -1;
            continue;
        }
        for (k = 0; k < NKEYS; k++)
        {
            size_t n = strlen(keys[k]);
            if (strncmp(a + 2, keys[k], n) == 0 && a[2 + n] == '=')
            {
                if (apply_option(b, keys[k], a + 3 + n) != 0)
                    rc = -1;
                break;
            }
        }
    }
    return rc;
}
