/*
    Google Benchmark's JSON (--benchmark_format=json schema): the context,
    then by default one entry per benchmark under its own name, as Google
    Benchmark writes a run without repetitions, whose real_time and
    cpu_time are the medians the table prints: the dashboards that read
    the file (github-action-benchmark, Bencher) make a row of every entry
    and match rows by name, so one entry is one value per benchmark. The
    spread, the percentiles, the epochs (an array, which they skip) and a
    family's fit are fields of that entry. With --json-epochs, Google
    Benchmark's repetitions instead: one "iteration" entry per epoch (none
    with the aggregates only), the mean, median, stddev and cv aggregates
    (the profiler's own figures ride on the median), the percentiles as
    Google Benchmark writes user statistics (NAME_p90), and a family's
    BigO and RMS after its last member.
    SPDX-License-Identifier: MIT
*/
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The fields every entry starts with. */
static void json_head(FILE * out, const prof_result * r, const char * suffix,
        int family, int instance, const char * run_type)
{
    char name[600];
    prof_impl_copy(name, sizeof name - 32, r->name);
    if (suffix != NULL)
        strcat(name, suffix);
    fputs("    {\n      \"name\": ", out);
    prof_impl_json_string(out, name);
    fprintf(out, ",\n      \"family_index\": %d,\n"
            "      \"per_family_instance_index\": %d,\n      \"run_name\": ",
            family, instance);
    prof_impl_json_string(out, r->name);
    fprintf(out, ",\n      \"run_type\": \"%s\",\n      \"repetitions\": %d,\n",
            run_type, r->epochs);
}


static void json_aggregate(FILE * out, const prof_impl_result * ir,
        int family, int instance, const char * agg, double real, double cpu,
        int percentage)
{
    const prof_result * r = &ir->pub;
    char suffix[40];
    snprintf(suffix, sizeof suffix, "_%s", agg);
    json_head(out, r, suffix, family, instance, "aggregate");
    fprintf(out, "      \"threads\": %d,\n      \"aggregate_name\": \"%s\",\n"
            "      \"aggregate_unit\": \"%s\",\n      \"iterations\": %d,\n"
            "      \"real_time\": ", r->threads, agg,
            percentage ? "percentage" : "time", r->epochs);
    prof_impl_json_number(out, percentage ? real : real / ir->time_unit_ns);
    fputs(",\n      \"cpu_time\": ", out);
    prof_impl_json_number(out, percentage ? cpu : cpu / ir->time_unit_ns);
    fprintf(out, ",\n      \"time_unit\": \"%s\"", ir->time_unit);
}

/* The mean and sample standard deviation of x[0 .. n), n >= 1: no
   allocation, for the figures that need no median. */
static void mean_sd(const double * x, int n, double * mean, double * sd)
{
    int i;
    *mean = *sd = 0.0;
    for (i = 0; i < n; i++)
        *mean += x[i];
    *mean /= n;
    for (i = 0; i < n; i++)
        *sd += (x[i] - *mean) * (x[i] - *mean);
    *sd = n > 1 ? sqrt(*sd / (n - 1)) : 0.0;
}

int prof_impl_sample_moments(const double * x, int n, prof_impl_moments * m)
{
    double * sorted = (double *) malloc((size_t) n * sizeof *sorted);
    mean_sd(x, n, &m->mean, &m->sd);
    m->median = NAN;
    if (sorted == NULL)
        return -1;
    memcpy(sorted, x, (size_t) n * sizeof *sorted);
    prof_impl_sort(sorted, n);
    m->median = prof_impl_quantile(sorted, n, 0.5);
    free(sorted);
    return 0;
}

/* Column c of the table v[epochs][cols] as one figure: epoch k's (k >=
   0), else the aggregate agg ("mean", "median": the given median,
   "stddev", "cv", a percentile "p90") over the epochs that have one (NaN
   if none); x has room for the epochs (needed for all but the median). */
static double column_value(const double * v, int epochs, int cols, int c,
        int k, const char * agg, double median, double * x)
{
    double mean, sd;
    int i, m;
    if (k >= 0)
        return v[k * cols + c];
    if (strcmp(agg, "median") == 0)
        return median;
    for (i = m = 0; i < epochs; i++)
        if (!isnan(v[i * cols + c]))
            x[m++] = v[i * cols + c];
    if (m == 0)
        return NAN;
    if (agg[0] == 'p')
        return prof_impl_percentile_of(x, m, strtod(agg + 1, NULL), x);
    mean_sd(x, m, &mean, &sd);
    return strcmp(agg, "mean") == 0 ? mean
         : strcmp(agg, "stddev") == 0 ? sd
         : mean > 0.0 ? sd / mean : NAN;
}

static void json_field(FILE * out, const char * name, double v)
{
    fprintf(out, ",\n      \"%s\": ", name);
    prof_impl_json_number(out, v);
}

/* A result's counters as extra numeric fields of an entry (as Google
   Benchmark writes user counters), per unit: epoch k's values for k >= 0,
   else the aggregate agg ("mean", "median", "stddev", "cv", "p90") over the
   epochs. An unavailable event is left out (the context says why); then
   the user measures and counters, the same way (per second for a rate),
   one without a value left out. 0, or -1 out of memory (nothing
   written). */
static int json_counters(FILE * out, const prof_impl_result * ir, int k,
        const char * agg)
{
    const prof_result * r = &ir->pub;
    double v[PROF_COUNTERS_MAX], * x = NULL;
    int e;
    if (ir->nev == 0 && ir->nuser == 0)
        return 0;
    /* room for one column, where an aggregate is computed here */
    if (k < 0 && strcmp(agg, "median") != 0
        && (x = (double *) malloc((size_t) r->epochs * sizeof *x)) == NULL)
        return -1;
    for (e = 0; e < ir->nev; e++)
    {
        v[e] = column_value(ir->ev, r->epochs, ir->nev, e, k, agg,
                            ir->ev_median[e], x);
        if (!isnan(v[e]))
            json_field(out, ir->ev_names[e], v[e]);
    }
    if (ir->nev > 0 && (k >= 0 || strcmp(agg, "mean") == 0
                        || strcmp(agg, "median") == 0))
    {
        double ipc, miss_pct;
        prof_impl_derive(ir->ev_names, ir->nev, v, &ipc, &miss_pct);
        if (!isnan(ipc))
            json_field(out, "ipc", ipc);
        if (!isnan(miss_pct))
            json_field(out, "branch_miss_pct", miss_pct);
    }
    for (e = 0; e < ir->nuser; e++)
    {
        double u = column_value(ir->user, r->epochs, ir->nuser, e, k, agg,
                                ir->user_median[e], x);
        if (!isnan(u))
            json_field(out, ir->user_names[e], u);
    }
    free(x);
    return 0;
}

/* The opening of a family's aggregate entry (Google Benchmark's BigO and
   RMS), up to its first own field: ",\n    {\n ... \"aggregate_unit\": ...,\n". */
static void json_family_head(FILE * out, int fam, const char * fam_name,
        int threads, const char * aggregate, const char * unit)
{
    char nm[300];
    snprintf(nm, sizeof nm, "%s_%s", fam_name, aggregate);
    fputs(",\n    {\n      \"name\": ", out);
    prof_impl_json_string(out, nm);
    fprintf(out, ",\n      \"family_index\": %d,\n"
            "      \"per_family_instance_index\": 0,\n"
            "      \"run_name\": ", fam);
    prof_impl_json_string(out, fam_name);
    fprintf(out, ",\n      \"run_type\": \"aggregate\",\n"
            "      \"repetitions\": 1,\n      \"threads\": %d,\n"
            "      \"aggregate_name\": \"%s\",\n"
            "      \"aggregate_unit\": \"%s\",\n", threads, aggregate, unit);
}

static const char * big_o_name(const char * name)
{
    static const char * ours[] = { "O(1)", "O(log n)", "O(n)", "O(n log n)",
                                   "O(n^2)", "O(n^3)" };
    static const char * gb[] = { "(1)", "lgN", "N", "NlgN", "N^2", "N^3" };
    int i;
    for (i = 0; i < 6; i++)
        if (strcmp(name, ours[i]) == 0)
            return gb[i];
    return "f(N)";
}

/* Where a result stands among the results of its family: the family's
   index (families numbered in the order of their first member, as Google
   Benchmark numbers them), the result's index within it, and whether it
   is the family's last. */
typedef struct { int family, instance, last; } family_place;

/* The places of results[0 .. n), computed once: O(n x families). */
static family_place * places_of(prof_impl_result * const * results, int n)
{
    family_place * f = (family_place *) calloc((size_t) n + 1, sizeof *f);
    int * first = (int *) calloc((size_t) n + 1, sizeof *first);
    int * count = (int *) calloc((size_t) n + 1, sizeof *count);
    int i, k, nfam = 0;
    if (f != NULL && first != NULL && count != NULL)
    {
        for (i = 0; i < n; i++)
        {
            for (k = 0; k < nfam; k++)
                if (prof_impl_same_family(results[first[k]]->pub.name,
                                          results[i]->pub.name))
                    break;
            if (k == nfam)
                first[nfam++] = i;
            f[i].family = k;
            f[i].instance = count[k]++;
        }
        for (i = n - 1; i >= 0; i--)    /* count[] now marks families seen */
        {
            f[i].last = count[f[i].family] > 0;
            count[f[i].family] = 0;
        }
    }
    else
    {
        free(f);
        f = NULL;
    }
    free(first);
    free(count);
    return f;
}

/* One "iteration" entry per epoch; *first: no entry written yet. */
static void json_iterations(FILE * out, const prof_impl_report_ctx * c,
        const prof_impl_result * ir, family_place f, int * first)
{
    const prof_result * r = &ir->pub;
    double sc = ir->time_unit_ns;
    int k;
    for (k = 0; k < r->epochs; k++)
    {
        fputs(*first ? "" : ",\n", out);
        *first = 0;
        json_head(out, r, NULL, f.family, f.instance, "iteration");
        /* Google Benchmark's iterations: every thread's */
        fprintf(out, "      \"repetition_index\": %d,\n"
                "      \"threads\": %d,\n      \"iterations\": %lu,\n"
                "      \"real_time\": ", k, r->threads,
                (unsigned long) r->epoch_iters[k] * (unsigned long) r->threads);
        prof_impl_json_number(out, r->samples_ns[k] / sc);
        fputs(",\n      \"cpu_time\": ", out);
        prof_impl_json_number(out, ir->cpu[k] / sc);
        fprintf(out, ",\n      \"time_unit\": \"%s\"", ir->time_unit);
        if (r->processes > 1)
            fprintf(out, ",\n      \"process_index\": %d",
                    r->epoch_process[k]);
        json_counters(out, ir, k, NULL);   /* an epoch's own: no allocation */
        if (!c->no_rate && (r->batch != 1.0 || strcmp(r->unit, "op") != 0))
        {
            fprintf(out, ",\n      \"%s\": ", strcmp(r->unit, "byte") == 0
                    ? "bytes_per_second" : "items_per_second");
            prof_impl_json_number(out, r->samples_ns[k] > 0.0
                             ? 1e9 / r->samples_ns[k] : NAN);
        }
        fputs("\n    }", out);
    }
}

/* The profiler's own figures, on the median entry. */
static void json_profiler_fields(FILE * out, const prof_impl_result * ir)
{
    const prof_result * r = &ir->pub;
    double sc = ir->time_unit_ns;
    fputs(",\n      \"err_pct\": ", out); prof_impl_json_number(out, r->err_pct);
    fputs(",\n      \"ci_low\": ", out); prof_impl_json_number(out, r->ci_low_ns / sc);
    fputs(",\n      \"ci_high\": ", out); prof_impl_json_number(out, r->ci_high_ns / sc);
    fputs(",\n      \"ci_level\": ", out); prof_impl_json_number(out, r->ci_level);
    fputs(",\n      \"ci_covers\": ", out);
    prof_impl_json_string(out, r->processes > 1 ? "the processes' median"
                                                : "this process's epochs");
    fputs(",\n      \"next_low\": ", out); prof_impl_json_number(out, r->next_low_ns / sc);
    fputs(",\n      \"next_high\": ", out); prof_impl_json_number(out, r->next_high_ns / sc);
    fputs(",\n      \"next_level\": ", out); prof_impl_json_number(out, r->next_level);
    fprintf(out, ",\n      \"next_runs\": %d", r->next_runs);
    fputs(",\n      \"min\": ", out); prof_impl_json_number(out, r->min_ns / sc);
    fputs(",\n      \"max\": ", out); prof_impl_json_number(out, r->max_ns / sc);
    fputs(",\n      \"total_s\": ", out); prof_impl_json_number(out, r->total_s);
    fputs(",\n      \"overhead_ns\": ", out); prof_impl_json_number(out, r->overhead_ns);
    fputs(",\n      \"load_avg_1m\": ", out); prof_impl_json_number(out, r->load_avg);
    fputs(",\n      \"batch\": ", out); prof_impl_json_number(out, r->batch);
    fputs(",\n      \"unit\": ", out); prof_impl_json_string(out, r->unit);
    if (r->complexity_n > 0.0)
    {
        fputs(",\n      \"complexity_n\": ", out);
        prof_impl_json_number(out, r->complexity_n);
    }
    if (!isnan(r->relative_pct))
    {
        fputs(",\n      \"relative_pct\": ", out);
        prof_impl_json_number(out, r->relative_pct);
    }
    if (r->processes > 1)
    {
        int k;
        fprintf(out, ",\n      \"processes\": %d,\n      \"between_pct\": ",
                r->processes);
        prof_impl_json_number(out, r->between_pct);
        fputs(",\n      \"within_pct\": ", out);
        prof_impl_json_number(out, r->within_pct);
        fputs(",\n      \"process_medians\": [", out);
        for (k = 0; k < r->processes; k++)
        {
            fputs(k ? ", " : "", out);
            prof_impl_json_number(out, r->process_median_ns[k] / sc);
        }
        fputc(']', out);
    }
    if (r->preempted_epochs > 0)
        fprintf(out, ",\n      \"preempted_epochs\": %d,\n"
                "      \"cpu_timed_epochs\": %d", r->preempted_epochs,
                r->cpu_timed_epochs);
    fprintf(out, ",\n      \"flags\": %d,\n      \"warning\": ", r->flags);
    prof_impl_json_string(out, r->warning);
}

/* The percentile entries, as Google Benchmark writes user statistics
   (NAME_p90, "aggregate_name": "p90", over the pooled epochs); one whose
   epochs are too few to differ from the extreme epochs' blend says the
   epochs it needs. 0, or -1 out of memory (the entries left out). */
static int json_percentiles(FILE * out, const prof_impl_report_ctx * c,
        const prof_impl_result * ir, family_place f)
{
    const prof_result * r = &ir->pub;
    const double * p;
    double * work;
    int k, rc = 0, n = prof_impl_report_percentiles(c, &p);
    if (n == 0)
        return 0;
    if ((work = (double *) malloc((size_t) r->epochs * sizeof *work)) == NULL)
        return -1;
    for (k = 0; k < n; k++)
    {
        char agg[32];
        int need = prof_impl_percentile_epochs(p[k]);
        prof_impl_percentile_name(agg, sizeof agg, p[k]);
        fputs(",\n", out);
        json_aggregate(out, ir, f.family, f.instance, agg,
                       prof_impl_percentile_of(r->samples_ns, r->epochs, p[k],
                                               work),
                       prof_impl_percentile_of(ir->cpu, r->epochs, p[k], work),
                       0);
        rc |= json_counters(out, ir, -1, agg);
        if (r->epochs < need)
            fprintf(out, ",\n      \"profiler_epochs_needed\": %d", need);
        fputs("\n    }", out);
    }
    free(work);
    return rc;
}

/* The mean, median, stddev and cv entries: 0, or -1 out of memory (a
   figure missing). The real mean and median are the result's, as the
   table shows them: with several processes the median is the median of
   their medians, not of the pooled epochs (the processor time's too). */
static int json_aggregates(FILE * out, const prof_impl_report_ctx * c,
        const prof_impl_result * ir, family_place f, int * first)
{
    const prof_result * r = &ir->pub;
    prof_impl_moments real, cpu;
    int rc = prof_impl_sample_moments(r->samples_ns, r->epochs, &real);
    rc |= prof_impl_sample_moments(ir->cpu, r->epochs, &cpu);
    fputs(*first ? "" : ",\n", out);
    *first = 0;
    json_aggregate(out, ir, f.family, f.instance, "mean", r->mean_ns,
                   cpu.mean, 0);
    rc |= json_counters(out, ir, -1, "mean");
    fputs("\n    },\n", out);
    json_aggregate(out, ir, f.family, f.instance, "median", r->median_ns,
                   r->cpu_ns, 0);
    rc |= json_counters(out, ir, -1, "median");
    json_profiler_fields(out, ir);
    fputs("\n    },\n", out);
    json_aggregate(out, ir, f.family, f.instance, "stddev", real.sd,
                   cpu.sd, 0);
    rc |= json_counters(out, ir, -1, "stddev");
    fputs("\n    },\n", out);
    json_aggregate(out, ir, f.family, f.instance, "cv",
                   real.mean > 0.0 ? real.sd / real.mean : 0.0,
                   cpu.mean > 0.0 ? cpu.sd / cpu.mean : 0.0, 1);
    rc |= json_counters(out, ir, -1, "cv");
    fputs("\n    }", out);
    return rc | json_percentiles(out, c, ir, f);
}

/* What the fit cannot tell, on the BigO entry: the other fits within the
   noise of the first, the flagged sizes, and whether the fit is
   confident (the console's "cannot tell" when not). */
static void json_doubts(FILE * out, prof_impl_result * const * results,
        int n, const char * family, const prof_fit * fits, int nf)
{
    double flagged[PROF_SIZES_MAX];
    int k, nflagged = prof_impl_family_flagged(results, n, family, flagged,
                                               PROF_SIZES_MAX), others = 0;
    fputs(",\n      \"within_noise\": [", out);
    for (k = 1; k < nf; k++)
        if (fits[k].within_noise)
            fprintf(out, "%s\"%s\"", others++ ? ", " : "",
                    big_o_name(fits[k].name));
    fputs("],\n      \"unstable_sizes\": [", out);
    for (k = 0; k < nflagged && k < PROF_SIZES_MAX; k++)
    {
        fputs(k ? ", " : "", out);
        prof_impl_json_number(out, flagged[k]);
    }
    fprintf(out, "],\n      \"confident\": %s",
            prof_impl_fit_confident(results, n, family, fits, nf)
            ? "true" : "false");
}

/* The fits of the family whose last member is last (real[8]: by the
   real time), its name, and the processor time's coefficient of the
   function the real time ranks first: the number of fits. */
static int family_fits(const prof_impl_report_ctx * c,
        prof_impl_result * const * results, int n,
        const prof_impl_result * last, prof_fit * real, char * fam_name,
        size_t size, double * cc)
{
    prof_fit cpu[8];
    const char * name = last->pub.name;
    int j, nf, nc;
    nf = prof_impl_fits(results, n, name, PROF_IMPL_FIT_REAL, c->fit_name,
                        c->fit_f, real, 8);
    nc = prof_impl_fits(results, n, name, PROF_IMPL_FIT_CPU, c->fit_name,
                        c->fit_f, cpu, 8);
    if (nf == 0)
        return 0;
    prof_impl_family_name(name, fam_name, size);
    *cc = real[0].coefficient;
    for (j = 0; j < nc; j++)
        if (strcmp(cpu[j].name, real[0].name) == 0)
            *cc = cpu[j].coefficient;
    return nf;
}

/* Complexity of a family, after its last member (as Google Benchmark
   writes BigO and RMS). */
static void json_complexity(FILE * out, const prof_impl_report_ctx * c,
        prof_impl_result * const * results, int n,
        const prof_impl_result * last, int family)
{
    prof_fit real[8];
    char fam_name[256];
    const char * name = last->pub.name;
    double cc;
    int nf = family_fits(c, results, n, last, real, fam_name,
                         sizeof fam_name, &cc);
    if (nf == 0)
        return;
    json_family_head(out, family, fam_name, last->pub.threads, "BigO",
                     "time");
    fputs("      \"cpu_coefficient\": ", out);
    prof_impl_json_number(out, cc / last->time_unit_ns);
    fputs(",\n      \"real_coefficient\": ", out);
    prof_impl_json_number(out, real[0].coefficient / last->time_unit_ns);
    fprintf(out, ",\n      \"big_o\": \"%s\",\n"
            "      \"time_unit\": \"%s\"", big_o_name(real[0].name),
            last->time_unit);
    json_doubts(out, results, n, name, real, nf);
    fputs("\n    }", out);
    json_family_head(out, family, fam_name, last->pub.threads, "RMS",
                     "percentage");
    fputs("      \"rms\": ", out);
    prof_impl_json_number(out, real[0].rms_pct / 100.0);
    fputs("\n    }", out);
}

/* A number array field of an entry: ",\n      \"name\": [v0 / scale, ...]". */
static void json_array(FILE * out, const char * name, const double * v,
        int n, double scale)
{
    int k;
    fprintf(out, ",\n      \"%s\": [", name);
    for (k = 0; k < n; k++)
    {
        fputs(k ? ", " : "", out);
        prof_impl_json_number(out, v[k] / scale);
    }
    fputc(']', out);
}

/* The percentiles as one field of the entry: "percentiles": {"p10": ...,
   "p90": ...} in its time unit, and "epochs_needed" where the epochs are
   too few for one of them. 0, or -1 out of memory (left out). */
static int json_percentile_fields(FILE * out, const prof_impl_report_ctx * c,
        const prof_impl_result * ir)
{
    const prof_result * r = &ir->pub;
    const double * p;
    double * work;
    int k, need = 0, n = prof_impl_report_percentiles(c, &p);
    if (n == 0)
        return 0;
    if ((work = (double *) malloc((size_t) r->epochs * sizeof *work)) == NULL)
        return -1;
    fputs(",\n      \"percentiles\": {", out);
    for (k = 0; k < n; k++)
    {
        char agg[32];
        int needs = prof_impl_percentile_epochs(p[k]);
        need = needs > need ? needs : need;
        prof_impl_percentile_name(agg, sizeof agg, p[k]);
        fprintf(out, "%s\"%s\": ", k ? ", " : "", agg);
        prof_impl_json_number(out, prof_impl_percentile_of(r->samples_ns,
                                       r->epochs, p[k], work) / ir->time_unit_ns);
    }
    if (r->epochs < need)
        fprintf(out, ", \"epochs_needed\": %d", need);
    fputc('}', out);
    free(work);
    return 0;
}

/* A family's fit as one field of its last member's entry: "complexity":
   {"family": ..., "big_o": ..., "real_coefficient": ..., ...}, the fields
   of the BigO and RMS entries. */
static void json_complexity_field(FILE * out, const prof_impl_report_ctx * c,
        prof_impl_result * const * results, int n,
        const prof_impl_result * last)
{
    prof_fit real[8];
    char fam_name[256];
    double cc;
    int nf = family_fits(c, results, n, last, real, fam_name,
                         sizeof fam_name, &cc);
    if (nf == 0)
        return;
    fputs(",\n      \"complexity\": {\"family\": ", out);
    prof_impl_json_string(out, fam_name);
    fprintf(out, ", \"big_o\": \"%s\", \"real_coefficient\": ",
            big_o_name(real[0].name));
    prof_impl_json_number(out, real[0].coefficient / last->time_unit_ns);
    fputs(", \"cpu_coefficient\": ", out);
    prof_impl_json_number(out, cc / last->time_unit_ns);
    fputs(", \"rms\": ", out);
    prof_impl_json_number(out, real[0].rms_pct / 100.0);
    json_doubts(out, results, n, last->pub.name, real, nf);
    fputc('}', out);
}

/* The one entry of a benchmark (the default): its name, the medians as
   real_time and cpu_time, the profiler's figures, the spread, the
   percentiles, the family's fit on its last member, and the epochs as
   arrays. 0, or -1 out of memory (a figure missing). */
static int json_one(FILE * out, const prof_impl_report_ctx * c,
        prof_impl_result * const * results, int n, int i, family_place f,
        int * first)
{
    const prof_impl_result * ir = results[i];
    const prof_result * r = &ir->pub;
    double sc = ir->time_unit_ns, iters = 0.0, * v;
    prof_impl_moments real;
    int k, rc = prof_impl_sample_moments(r->samples_ns, r->epochs, &real);
    for (k = 0; k < r->epochs; k++)
        iters += (double) r->epoch_iters[k] * r->threads;
    fputs(*first ? "" : ",\n", out);
    *first = 0;
    json_head(out, r, NULL, f.family, f.instance, "iteration");
    fprintf(out, "      \"threads\": %d,\n      \"iterations\": %.0f,\n"
            "      \"real_time\": ", r->threads, iters);
    prof_impl_json_number(out, r->median_ns / sc);
    fputs(",\n      \"cpu_time\": ", out);
    prof_impl_json_number(out, r->cpu_ns / sc);
    fprintf(out, ",\n      \"time_unit\": \"%s\",\n"
            "      \"statistic\": \"median\"", ir->time_unit);
    rc |= json_counters(out, ir, -1, "median");
    if (!c->no_rate && (r->batch != 1.0 || strcmp(r->unit, "op") != 0))
    {
        fprintf(out, ",\n      \"%s\": ", strcmp(r->unit, "byte") == 0
                ? "bytes_per_second" : "items_per_second");
        prof_impl_json_number(out, r->median_ns > 0.0 ? 1e9 / r->median_ns
                                                      : NAN);
    }
    json_profiler_fields(out, ir);
    json_field(out, "mean", r->mean_ns / sc);
    json_field(out, "stddev", real.sd / sc);
    json_field(out, "cv", real.mean > 0.0 ? real.sd / real.mean : 0.0);
    rc |= json_percentile_fields(out, c, ir);
    if (f.last && r->complexity_n > 0.0)
        json_complexity_field(out, c, results, n, ir);
    json_array(out, "epochs_real_time", r->samples_ns, r->epochs, sc);
    json_array(out, "epochs_cpu_time", ir->cpu, r->epochs, sc);
    if ((v = (double *) malloc((size_t) r->epochs * sizeof *v + 1)) == NULL)
        rc = -1;
    else
    {
        for (k = 0; k < r->epochs; k++)
            v[k] = (double) r->epoch_iters[k] * r->threads;
        json_array(out, "epochs_iterations", v, r->epochs, 1.0);
        for (k = 0; r->processes > 1 && k < r->epochs; k++)
            v[k] = r->epoch_process[k];
        if (r->processes > 1)
            json_array(out, "epochs_process", v, r->epochs, 1.0);
        free(v);
    }
    fputs("\n    }", out);
    return rc;
}

int prof_impl_json_write(FILE * out, const prof_impl_report_ctx * c,
        prof_impl_result * const * results, int from, int n)
{
    family_place * places = places_of(results, n);
    int i, first = 1, rc = 0;
    if (places == NULL)
    {
        prof_impl_warn("writing JSON: out of memory");
        fputs("{}\n", out);   /* valid JSON; the missing results are said */
        return -1;
    }
    prof_impl_json_context(out, c, results, n);
    fputs("  \"benchmarks\": [\n", out);
    for (i = from; i < n; i++)
    {
        const prof_impl_result * ir = results[i];
        if (!c->json_epochs)
        {
            rc |= json_one(out, c, results, n, i, places[i], &first);
            continue;
        }
        if (!c->aggregates_only)
            json_iterations(out, c, ir, places[i], &first);
        rc |= json_aggregates(out, c, ir, places[i], &first);
        if (places[i].last && ir->pub.complexity_n > 0.0)
            json_complexity(out, c, results, n, ir, places[i].family);
    }
    fputs("\n  ]\n}\n", out);
    free(places);
    if (rc != 0)
        prof_impl_warn("writing JSON: out of memory; figures are missing");
    return rc;
}
