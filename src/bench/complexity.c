/*
    Complexity: least-squares fits of a family's times against its N
    (O(1) .. O(n^3) and the user's function), ranked by normalised RMS.
    SPDX-License-Identifier: MIT
*/
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t prof_impl_family_len(const char * name)
{
    const char * slash = strchr(name, '/');
    return slash ? (size_t) (slash - name) : strlen(name);
}

/* N of a name's last "/threads:N" (prof_bench_set_threads), else 1. */
static long name_threads(const char * name)
{
    const char * t = strstr(name, "/threads:"), * last = NULL;
    char * end;
    long v;
    for (; t != NULL; t = strstr(t + 1, "/threads:"))
        last = t;
    if (last == NULL)
        return 1;
    v = strtol(last + 9, &end, 10);
    return *end == '\0' && v > 0 ? v : 1;
}

/* One family: the name up to the first '/', and the same threads (the
   sizes of a sweep on 2 threads are not those of one on 1). */
int prof_impl_same_family(const char * a, const char * b)
{
    size_t n = prof_impl_family_len(a);
    return n == prof_impl_family_len(b) && strncmp(a, b, n) == 0
        && name_threads(a) == name_threads(b);
}

void prof_impl_family_name(const char * name, char * buf, size_t size)
{
    long t = name_threads(name);
    int n = (int) prof_impl_family_len(name);
    if (t > 1)
        snprintf(buf, size, "%.*s/threads:%ld", n, name, t);
    else
        snprintf(buf, size, "%.*s", n, name);
}

static double f_one(double n) { (void) n; return 1.0; }
static double f_log(double n) { return log2(n); }
static double f_n(double n) { return n; }
static double f_nlog(double n) { return n * log2(n); }
static double f_n2(double n) { return n * n; }
static double f_n3(double n) { return n * n * n; }

/* Insertion sort by rms (at most 7 entries). */
static void rank(prof_fit * all, int nf)
{
    int i;
    for (i = 1; i < nf; i++)
    {
        prof_fit x = all[i];
        int j = i - 1;
        while (j >= 0 && all[j].rms_pct > x.rms_pct)
        {
            all[j + 1] = all[j];
            j--;
        }
        all[j + 1] = x;
    }
}

int prof_impl_fits(prof_impl_result * const * results, int n,
        const char * family, prof_impl_fit_time time, const char * fit_name,
        double (*fit_f)(double), prof_fit * fits, int max)
{
    static const char * names[] = { "O(1)", "O(log n)", "O(n)", "O(n log n)",
                                    "O(n^2)", "O(n^3)" };
    double (*fs[7])(double) = { f_one, f_log, f_n, f_nlog, f_n2, f_n3, NULL };
    double * ns, * t;
    int i, count = 0, nf = 0, k;
    prof_fit all[7];

    if (fits == NULL || max <= 0)
        return 0;
    ns = (double *) malloc((size_t) (n + 1) * sizeof *ns);
    t = (double *) malloc((size_t) (n + 1) * sizeof *t);
    if (ns == NULL || t == NULL)
    {
        free(ns); free(t);
        return 0;
    }
    for (i = 0; i < n; i++)
    {
        const prof_result * r = &results[i]->pub;
        if (r->complexity_n > 0.0
            && (family == NULL || prof_impl_same_family(family, r->name)))
        {
            ns[count] = r->complexity_n;
            t[count] = time == PROF_IMPL_FIT_CPU ? r->cpu_ns : r->median_ns;
            count++;
        }
    }
    fs[6] = fit_f;
    for (k = 0; k < 7; k++)
        if (fs[k] != NULL && prof_impl_fit(ns, t, count, fs[k],
                &all[nf].coefficient, &all[nf].rms_pct) == 0)
        {
            all[nf].name = k < 6 ? names[k] : fit_name;
            nf++;
        }
    free(ns); free(t);
    rank(all, nf);
    if (nf > max)
        nf = max;
    memcpy(fits, all, (size_t) nf * sizeof *fits);
    return nf;
}

/* How many of b's results have an N, in family (NULL: any). */
static int sizes_of(const prof_bench * b, const char * family)
{
    int i, count = 0;
    for (i = 0; i < b->nresults; i++)
        count += b->results[i]->pub.complexity_n > 0.0
              && (family == NULL
                  || prof_impl_same_family(family, b->results[i]->pub.name));
    return count;
}

int prof_bench_complexity(const prof_bench * b, const char * family,
        prof_fit * fits, int max)
{
    int count;
    if (b == NULL || fits == NULL || max <= 0)
    {
        prof_impl_warn("prof_bench_complexity: NULL suite or no room for fits");
        return 0;
    }
    count = sizes_of(b, family);
    if (count < 2)
    {
        prof_impl_warn("prof_bench_complexity: %d result%s with an N "
                       "(prof_bench_set_complexity_n); 2 or more needed",
                       count, count == 1 ? "" : "s");
        return 0;
    }
    return prof_impl_fits(b->results, b->nresults, family, PROF_IMPL_FIT_REAL,
                          b->fit_name, b->fit_f, fits, max);
}

int prof_bench_add_complexity(prof_bench * b, const char * name,
        double (*f)(double n))
{
    if (b == NULL || f == NULL)
    {
        prof_impl_warn("prof_bench_add_complexity: the %s is NULL",
                       b == NULL ? "suite" : "function");
        return -1;
    }
    prof_impl_copy(b->fit_name_buf, sizeof b->fit_name_buf,
                   name ? name : "f(n)");
    b->fit_name = b->fit_name_buf;
    b->fit_f = f;
    return 0;
}

void prof_bench_print_complexity(FILE * out, const prof_bench * b,
        const char * family)
{
    prof_fit fits[8];
    char fam[300];
    int i, sizes, n = prof_bench_complexity(b, family, fits, 8);
    if (out == NULL)
        out = stdout;
    if (n == 0)
        return;
    prof_impl_family_name(family ? family : "all", fam, sizeof fam);
    sizes = sizes_of(b, family);
    if (sizes < 4)
        prof_impl_warn("complexity of %s: %d sizes; 4 or more tell the "
                       "growth functions apart", fam, sizes);
    fprintf(out, "\ncomplexity of `%s` (%d sizes; coefficient in ns "
            "per unit of f(N)):\n\n| %15s | %7s | complexity\n"
            "|----------------:|--------:|:-----------\n",
            fam, sizes, "coefficient", "rms%");
    for (i = 0; i < n; i++)
        fprintf(out, "| %15.6g | %6.1f%% | %s\n", fits[i].coefficient,
                fits[i].rms_pct, fits[i].name);
    fflush(out);
}
