/*
    Complexity: least-squares fits of a family's times against its N
    (O(1) .. O(n^3) and the user's function), each size weighted by the
    inverse of its interval's width, ranked by their weighted RMS; which
    other fits could rank first with the times anywhere in their
    intervals, and which sizes' rows are flagged.
    Why these weights: unweighted, the largest sizes decide (a qsort sweep
    whose largest sizes time slices inflated 2-3x chose O(n^2)); weighted
    by the inverse square of the width, the fixed costs of small sizes
    would.
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

/* The growth functions and the user's (slot 6, NULL when none). */
enum { NMODELS = 7 };
static const char * const model_names[NMODELS - 1] = { "O(1)", "O(log n)",
    "O(n)", "O(n log n)", "O(n^2)", "O(n^3)" };

/* The narrowest interval a size counts with, as a share of its median: no
   size outweighs the others by the luck of one run alone, and exact times
   (the fake clock) keep finite weights. */
#define MIN_WIDTH 0.01

/* A size whose row says its time is not the operation's alone (epochs
   preempted past the retries, scattered, in two groups) is left out of
   the fits while 4 other sizes or more remain: under two busy loops, a
   qsort sweep timed with prof_start/prof_stop had its largest sizes 3-5x
   slow, and they decided the fit (O(n^2) first). Either way the fit is
   not called confident (flagged sizes). A row flagged only loaded stays:
   under load, every row is. */
#define SUSPECT (PROF_RESULT_PREEMPTED | PROF_RESULT_UNSTABLE \
                 | PROF_RESULT_BIMODAL)

/* A size of a family as the fits see it: N, the time fitted, and the ends
   of its interval (the epochs' range where there is none, widened to
   MIN_WIDTH), whose width weighs it; suspect: its row is flagged SUSPECT. */
typedef struct { double n, t, lo, hi; int suspect; } fit_point;

static int in_family(const prof_result * r, const char * family)
{
    return r->complexity_n > 0.0
        && (family == NULL || prof_impl_same_family(family, r->name));
}

/* The family's sizes in increasing N into p (room for n): their number. */
static int family_points(prof_impl_result * const * results, int n,
        const char * family, prof_impl_fit_time time, fit_point * p)
{
    int i, j, count = 0;
    for (i = 0; i < n; i++)
    {
        const prof_result * r = &results[i]->pub;
        fit_point x;
        int interval = !isnan(r->ci_low_ns) && !isnan(r->ci_high_ns);
        if (!in_family(r, family))
            continue;
        x.n = r->complexity_n;
        x.t = time == PROF_IMPL_FIT_CPU ? r->cpu_ns : r->median_ns;
        x.lo = interval ? r->ci_low_ns : r->min_ns;
        x.hi = interval ? r->ci_high_ns : r->max_ns;
        if (!(x.hi - x.lo >= MIN_WIDTH * r->median_ns))
        {
            x.lo = r->median_ns * (1.0 - MIN_WIDTH / 2.0);
            x.hi = r->median_ns * (1.0 + MIN_WIDTH / 2.0);
        }
        x.suspect = (r->flags & SUSPECT) != 0;
        for (j = count++; j > 0 && p[j - 1].n > x.n; j--)
            p[j] = p[j - 1];
        p[j] = x;
    }
    for (i = j = 0; i < count; i++)
        j += !p[i].suspect;
    if (j < 4 || j == count)
        return count;
    for (i = j = 0; i < count; i++)     /* the suspect sizes left out */
        if (!p[i].suspect)
            p[j++] = p[i];
    return j;
}

/* Which model fits t (the points' N and weights in ns, w) best: its
   index, or -1 if none fits. */
static int best_model(const double * ns, const double * t, const double * w,
        int count, double (*const * fs)(double))
{
    double c, rms, least = INFINITY;
    int k, best = -1;
    for (k = 0; k < NMODELS; k++)
        if (fs[k] != NULL && prof_impl_fit(ns, t, w, count, fs[k], &c, &rms) == 0
            && rms < least)
        {
            least = rms;
            best = k;
        }
    return best;
}

/* noise[k] = 1 for each model that fits best when the times tilt within
   their intervals: the sizes under a split at one end of their interval,
   the others at the other end, for every split and both ways (a tilt is
   what turns one growth rate into the next). */
static void within_noise(const fit_point * p, int count, const double * ns,
        const double * w, double (*const * fs)(double), double * t, int * noise)
{
    int split, way, i, k;
    for (split = 0; split <= count; split++)
        for (way = 0; way < 2; way++)
        {
            for (i = 0; i < count; i++)
                t[i] = (i < split) == (way == 0) ? p[i].lo : p[i].hi;
            k = best_model(ns, t, w, count, fs);
            if (k >= 0)
                noise[k] = 1;
        }
}

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

/* The fits of the points p (their arrays in ns, t, w; work: room for the
   tilted times) into all, ranked: their number. */
static int fit_points(const fit_point * p, int count, double * ns, double * t,
        double * w, double * work, prof_impl_fit_time time,
        double (*const * fs)(double), const char * fit_name, prof_fit * all)
{
    int noise[NMODELS] = { 0 }, i, k, nf = 0;
    for (i = 0; i < count; i++)
    {
        ns[i] = p[i].n;
        t[i] = p[i].t;
        w[i] = p[i].hi > p[i].lo ? 1.0 / (p[i].hi - p[i].lo) : 0.0;
    }
    if (time == PROF_IMPL_FIT_REAL)
        within_noise(p, count, ns, w, fs, work, noise);
    for (k = 0; k < NMODELS; k++)
        if (fs[k] != NULL && prof_impl_fit(ns, t, w, count, fs[k],
                &all[nf].coefficient, &all[nf].rms_pct) == 0)
        {
            all[nf].name = k < NMODELS - 1 ? model_names[k] : fit_name;
            all[nf].within_noise = noise[k];
            nf++;
        }
    rank(all, nf);
    if (nf > 0)
        all[0].within_noise = 1;
    return nf;
}

int prof_impl_fits(prof_impl_result * const * results, int n,
        const char * family, prof_impl_fit_time time, const char * fit_name,
        double (*fit_f)(double), prof_fit * fits, int max)
{
    double (*fs[NMODELS])(double) = { f_one, f_log, f_n, f_nlog, f_n2, f_n3,
                                      NULL };
    fit_point * p;
    double * v;
    int count, nf = 0;
    prof_fit all[NMODELS];

    if (fits == NULL || max <= 0)
        return 0;
    p = (fit_point *) malloc((size_t) (n + 1) * sizeof *p);
    v = (double *) malloc((size_t) (n + 1) * 4 * sizeof *v);
    if (p != NULL && v != NULL)
    {
        fs[NMODELS - 1] = fit_f;
        count = family_points(results, n, family, time, p);
        nf = fit_points(p, count, v, v + n + 1, v + 2 * (n + 1),
                        v + 3 * (n + 1), time, fs, fit_name, all);
    }
    free(p);
    free(v);
    if (nf > max)
        nf = max;
    memcpy(fits, all, (size_t) nf * sizeof *fits);
    return nf;
}

int prof_impl_family_flagged(prof_impl_result * const * results, int n,
        const char * family, double * ns, int max)
{
    int i, count = 0;
    for (i = 0; i < n; i++)
    {
        const prof_result * r = &results[i]->pub;
        if (in_family(r, family) && r->flags != 0)
        {
            if (count < max)
                ns[count] = r->complexity_n;
            count++;
        }
    }
    return count;
}

int prof_impl_fit_confident(prof_impl_result * const * results, int n,
        const char * family, const prof_fit * fits, int nf)
{
    double flagged[1];
    int i, sizes = 0;
    for (i = 1; i < nf; i++)
        if (fits[i].within_noise)
            return 0;
    for (i = 0; i < n; i++)
        sizes += in_family(&results[i]->pub, family);
    return sizes >= 4 && prof_impl_family_flagged(results, n, family,
                                                  flagged, 1) == 0;
}

/* How many of b's results have an N, in family (NULL: any). */
static int sizes_of(const prof_bench * b, const char * family)
{
    int i, count = 0;
    for (i = 0; i < b->nresults; i++)
        count += in_family(&b->results[i]->pub, family);
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

/* The warnings under a family's fits: another fit within the noise of the
   first, and sizes whose rows are flagged. */
static void print_doubts(FILE * out, const prof_bench * b, const char * family,
        const prof_fit * fits, int n, int sizes)
{
    double flagged[8];
    char line[600];
    size_t len;
    int i, k, nflagged = prof_impl_family_flagged(b->results, b->nresults,
                                                  family, flagged, 8);
    for (i = 1; i < n; i++)
        if (fits[i].within_noise)
        {
            snprintf(line, sizeof line, "**warning**: %s is not clearly "
                     "better than %s: with each size's time anywhere in its "
                     "interval, %s can fit best; more epochs or a quieter "
                     "machine can tell them apart", fits[0].name,
                     fits[i].name, fits[i].name);
            fputc('\n', out);
            prof_impl_md_wrap(out, line);
        }
    if (nflagged == 0)
        return;
    snprintf(line, sizeof line, "**warning**: %d of %d sizes have flagged "
             "rows (", nflagged, sizes);
    for (k = 0; k < nflagged && k < 8; k++)
    {
        len = strlen(line);
        snprintf(line + len, sizeof line - len, "%s%g", k ? ", " : "",
                 flagged[k]);
    }
    len = strlen(line);
    snprintf(line + len, sizeof line - len, "%s): their times may bend the "
             "fit", nflagged > 8 ? ", ..." : "");
    fputc('\n', out);
    prof_impl_md_wrap(out, line);
}

void prof_bench_print_complexity(FILE * out, const prof_bench * b,
        const char * family)
{
    prof_fit fits[8];
    char fam[300], coef[32], rms[32], line[400];
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
    snprintf(line, sizeof line, "complexity of `%s` (%d sizes; "
             "coefficient in ns per unit of f(N)):", fam, sizes);
    fputc('\n', out);
    prof_impl_md_wrap(out, line);
    if (!prof_impl_fit_confident(b->results, b->nresults, family, fits, n))
    {
        /* the ranking stays, as a guess: the first row is not the answer */
        if (sizes < 4)
            snprintf(line, sizeof line, "**cannot tell**: %s ranks first, "
                     "but %d sizes are too few to tell the functions apart",
                     fits[0].name, sizes);
        else
            snprintf(line, sizeof line, "**cannot tell**: %s ranks first, "
                     "but the noise or flagged sizes can reorder the fits "
                     "(below)", fits[0].name);
        fputc('\n', out);
        prof_impl_md_wrap(out, line);
    }
    fprintf(out, "\n| %15s | %7s | complexity\n"
            "|----------------:|--------:|:-----------\n", "coefficient",
            "rms%");
    for (i = 0; i < n; i++)
        fprintf(out, "| %15s | %7s | %s%s\n",
                prof_impl_four_digits(coef, sizeof coef, fits[i].coefficient),
                prof_impl_percent(rms, sizeof rms, fits[i].rms_pct), fits[i].name,
                i > 0 && fits[i].within_noise ? " (within the noise)" : "");
    print_doubts(out, b, family, fits, n, sizes);
    fflush(out);
    /* under the console's table: its next row starts under a header (b is
       the caller's, made by prof_bench_new, never a const object) */
    if (out == b->console.f)
        prof_impl_md_break(&((prof_bench *) b)->console.md);
}
