/*
    Size sweeps: one call runs a target over a list or a geometric range of
    sizes, each size a benchmark of its own named "family/N" with its N
    set, and prints the family's complexity fits at the end. A program
    that opts in lets --sizes replace the sizes of its sweeps.
    SPDX-License-Identifier: MIT
*/
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* 0 if sizes[0 .. n) is a list to sweep, else -1 after a message. */
static int check_sizes(const ulong * sizes, int n, const char * what)
{
    int i;
    if (sizes == NULL || n < 1 || n > PROF_SIZES_MAX)
    {
        prof_impl_warn("%s: %s; 1 to %d sizes are expected", what,
                       sizes == NULL ? "the sizes are NULL" : "no sizes",
                       PROF_SIZES_MAX);
        return -1;
    }
    for (i = 0; i < n; i++)
        if (sizes[i] == 0 || (i > 0 && sizes[i] <= sizes[i - 1]))
        {
            prof_impl_warn("%s: size %d is %lu: sizes are above 0 and in "
                           "increasing order", what, i + 1,
                           (unsigned long) sizes[i]);
            return -1;
        }
    return 0;
}

/* lo, lo * m, ... up to hi into *out (malloc'd): their number, or -1
   after a message. */
static int range_sizes(ulong lo, ulong hi, ulong m, ulong ** out,
        const char * what)
{
    ulong v;
    int n = 0;
    *out = NULL;
    if (lo == 0 || hi < lo || m < 2)
    {
        prof_impl_warn("%s: the range %lu..%lu x%lu: lo > 0, hi >= lo and a "
                       "multiplier of 2 or more are expected", what,
                       (unsigned long) lo, (unsigned long) hi,
                       (unsigned long) m);
        return -1;
    }
    /* m >= 2 at least doubles each: at most one size per bit of a ulong */
    *out = (ulong *) malloc(8 * sizeof (ulong) * sizeof **out);
    if (*out == NULL)
    {
        prof_impl_warn("%s: out of memory", what);
        return -1;
    }
    for (v = lo; ; v *= m)
    {
        (*out)[n++] = v;
        if (v > hi / m)
            break;
    }
    return n;
}

/* A whole number at *p (advanced past it): 0, or -1. */
static int number(const char ** p, ulong * v)
{
    char * end;
    unsigned long long x;
    if (**p < '0' || **p > '9')
        return -1;
    errno = 0;
    x = strtoull(*p, &end, 10);
    if (errno != 0 || x > (unsigned long long) (ulong) -1)
        return -1;
    *v = (ulong) x;
    *p = end;
    return 0;
}

int prof_impl_sizes_parse(const char * text, ulong ** out, const char * what)
{
    const char * p = text;
    ulong lo, hi, m = 2, * list;
    int n = 0;
    *out = NULL;
    if (strstr(text, "..") != NULL)
    {
        int ok = number(&p, &lo) == 0 && strncmp(p, "..", 2) == 0;
        p += ok ? 2 : 0;
        ok = ok && number(&p, &hi) == 0;
        if (ok && *p == 'x')
        {
            p++;
            ok = number(&p, &m) == 0;
        }
        if (!ok || *p != '\0')
            goto bad;
        return range_sizes(lo, hi, m, out, what);
    }
    list = (ulong *) malloc((strlen(text) / 2 + 1) * sizeof *list);
    if (list == NULL)
    {
        prof_impl_warn("%s: out of memory", what);
        return -1;
    }
    while (number(&p, &list[n]) == 0)
    {
        n++;
        if (*p != ',')
            break;
        p++;
    }
    if (*p != '\0' || n == 0)
    {
        free(list);
        goto bad;
    }
    if (check_sizes(list, n, what) != 0)
    {
        free(list);
        return -1;
    }
    *out = list;
    return n;
bad:
    prof_impl_warn("%s: \"%s\": sizes as 8,64,512 or a range LO..HI or "
                   "LO..HIxM are expected", what, text);
    return -1;
}

int prof_bench_set_sizes_flag(prof_bench * b, int on)
{
    if (b == NULL)
    {
        prof_impl_warn("prof_bench_set_sizes_flag: the suite is NULL");
        return -1;
    }
    b->sizes_flag = on != 0;
    return 0;
}

/* The family's fits on the console, after its rows (markdown only: CSV
   and JSON stay parseable; the JSON has them as BigO and RMS). */
static void print_fits(prof_bench * b, const char * family, int ran)
{
    if (ran >= 2 && b->console.format == PROF_FORMAT_MD
        && b->console.f != NULL && !prof_impl_worker_mode())
    {
        prof_bench_print_complexity(b->console.f, b, family);
    }
}

/* The sweep once its input is checked. */
static int sweep(prof_bench * b, const char * family, profile_target_t target,
        const ulong * sizes, int n)
{
    double saved = b->s.complexity_n;
    char name[300];
    int i, ran = 0;
    if (b->cli_sizes != NULL)
    {
        sizes = b->cli_sizes;
        n = b->ncli_sizes;
    }
    for (i = 0; i < n; i++)
    {
        ulong size = sizes[i];
        snprintf(name, sizeof name, "%s/%lu", family, (unsigned long) size);
        b->s.complexity_n = (double) size;
        b->sweep_done = i;          /* the progress line's [i/n] */
        b->sweep_total = n;
        ran += prof_bench_run(b, name, target, &size) != NULL;
    }
    b->sweep_total = 0;
    b->s.complexity_n = saved;
    /* the rows' family: on several threads, a family of its own */
    if (b->s.threads > 1)
        snprintf(name, sizeof name, "%s/threads:%d", family, b->s.threads);
    else
        snprintf(name, sizeof name, "%s", family);
    print_fits(b, name, ran);
    return ran;
}

/* The suite, family and target are usable: 0, or -1 after a message. */
static int check_call(const prof_bench * b, const char * family,
        profile_target_t target, const char * what)
{
    const char * why = b == NULL ? "the suite is NULL"
                     : target == NULL ? "the target is NULL"
                     : family == NULL || *family == '\0' ? "a family name is needed"
                     : strchr(family, '/') != NULL ? "a family name holds no '/'"
                     : strlen(family) > 200 ? "the family name is too long"
                     : NULL;
    if (why == NULL)
        return 0;
    prof_impl_warn("%s(\"%s\"): %s; nothing run", what,
                   family ? family : "(null)", why);
    return -1;
}

int prof_bench_run_sizes(prof_bench * b, const char * family,
        profile_target_t target, const ulong * sizes, int n)
{
    if (check_call(b, family, target, "prof_bench_run_sizes") != 0
        || check_sizes(sizes, n, "prof_bench_run_sizes") != 0)
        return -1;
    return sweep(b, family, target, sizes, n);
}

int prof_bench_run_range(prof_bench * b, const char * family,
        profile_target_t target, ulong lo, ulong hi, ulong multiplier)
{
    ulong * sizes;
    int n, ran;
    if (check_call(b, family, target, "prof_bench_run_range") != 0)
        return -1;
    n = range_sizes(lo, hi, multiplier, &sizes, "prof_bench_run_range");
    if (n < 0)
        return -1;
    ran = sweep(b, family, target, sizes, n);
    free(sizes);
    return ran;
}
