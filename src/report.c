/*
    The runner's outputs: the markdown table (nanobench's columns plus the
    interval), CSV, Google Benchmark's JSON (--benchmark_format=json schema,
    one "iteration" entry per epoch and the aggregates), and the complexity
    fits.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- context ------------------------------------------------------------- */

static double overhead_ns(prof_bench * b)
{
    return b->overhead_ticks >= 0.0
         ? b->overhead_ticks * 1e9 / prof_impl_read_rate() : NAN;
}

static int build_warnings(const prof_bench * b, const char ** w)
{
    int n = 0;
    if (!b->optimized)
        w[n++] = "the benchmark was compiled without optimisation: timings "
                 "do not reflect optimised code";
    if (b->sanitized)
        w[n++] = "the benchmark was compiled with a sanitizer: timings are "
                 "inflated";
    return n;
}

static void md_context(prof_bench * b)
{
    prof_impl_sysinfo si;
    const char * w[2];
    int i, n = build_warnings(b, w);
    prof_impl_sysinfo_read(&si);
    fprintf(b->out, "%s, %d cores, counter %.4g GHz (read: %.3g ns), %s%s%s, "
            "%s\n\n", si.cpu, si.cores, prof_impl_read_rate() * 1e-9,
            overhead_ns(b), b->compiler, b->flags[0] ? " " : "", b->flags,
            si.date);
    for (i = 0; i < n; i++)
    {
        fprintf(b->out, "**warning**: %s\n\n", w[i]);
        prof_impl_warn("%s", w[i]);
    }
}

/* ---- counter columns ----------------------------------------------------- */

/* The markdown columns of a result's counters: nanobench's ins, cyc, IPC,
   bra, miss% first, then the other events in the order asked for. */
enum { COL_EVENT, COL_IPC, COL_MISS };
typedef struct { int kind, ev; char head[40]; } counter_col;

static int event_index(const prof_result * r, const char * name)
{
    int k;
    for (k = 0; k < r->ncounters; k++)
        if (strcmp(r->counter_names[k], name) == 0)
            return k;
    return -1;
}

static const char * short_name(const char * event)
{
    static const char * names[][2] = {
        { "instructions", "ins" }, { "cycles", "cyc" }, { "branches", "bra" },
        { "branch-misses", "brmiss" }, { "page-faults", "faults" },
        { "context-switches", "ctx" }, { "cpu-migrations", "migr" },
        { "task-clock", "task-ns" }, { "ref-cycles", "refcyc" },
        { "cache-references", "cref" }, { "cache-misses", "cmiss" } };
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(event, names[i][0]) == 0)
            return names[i][1];
    return event;
}

static int counter_cols(const prof_result * r, counter_col * cols)
{
    int ins = event_index(r, "instructions"), cyc = event_index(r, "cycles");
    int bra = event_index(r, "branches"), miss = event_index(r, "branch-misses");
    int k, n = 0;
#define ADD(kind_, ev_, ...) \
    (cols[n].kind = (kind_), cols[n].ev = (ev_), \
     snprintf(cols[n].head, sizeof cols[n].head, __VA_ARGS__), n++)
    if (ins >= 0) ADD(COL_EVENT, ins, "ins/%s", r->unit);
    if (cyc >= 0) ADD(COL_EVENT, cyc, "cyc/%s", r->unit);
    if (ins >= 0 && cyc >= 0) ADD(COL_IPC, -1, "IPC");
    if (bra >= 0) ADD(COL_EVENT, bra, "bra/%s", r->unit);
    if (bra >= 0 && miss >= 0) ADD(COL_MISS, miss, "miss%%");
    for (k = 0; k < r->ncounters && n < PROF_COUNTERS_MAX + 2; k++)
        if (k != ins && k != cyc && k != bra && (k != miss || bra < 0))
            ADD(COL_EVENT, k, "%s/%s", short_name(r->counter_names[k]), r->unit);
#undef ADD
    return n;
}

/* ---- markdown ------------------------------------------------------------ */

/* 48780487.8 -> "48,780,487.80" */
static void grouped(char * out, double v)
{
    char digits[64];
    int n, i, j = 0, lead;
    if (!(v < 1e18) || v != v)
    {
        sprintf(out, "%.4g", v);
        return;
    }
    sprintf(digits, "%.2f", v);
    n = (int) (strchr(digits, '.') - digits);
    lead = n % 3 == 0 ? 3 : n % 3;
    for (i = 0; i < n; i++)
    {
        if (i > 0 && (i - lead) % 3 == 0)
            out[j++] = ',';
        out[j++] = digits[i];
    }
    strcpy(out + j, digits + n);
}

void prof_impl_print_row(prof_bench * b, int i)
{
    const prof_result * r = &b->results[i]->pub;
    int relative = b->baseline >= 0;
    char tu[48], ru[48], rate[64], ci[64], rel[32], heads[512];
    char spark[3 * 64 + 1] = "";     /* the first 64 epochs at most */
    double scale = b->time_unit_ns;
    counter_col cols[PROF_COUNTERS_MAX + 2];
    int c, ncols = counter_cols(r, cols);

    prof_impl_progress_clear(b);
    if (b->format != PROF_FORMAT_MD || b->out == NULL)
        return;
    if (!b->md_header_done)
        md_context(b);
    if (ncols > 0 && !b->md_counters_done)
    {
        char line[1024];
        if (prof_impl_bench_counters_context(line, sizeof line))
            fprintf(b->out, "%s\n\n", line);
        b->md_counters_done = 1;
    }
    heads[0] = '\0';
    for (c = 0; c < ncols; c++)
    {
        size_t len = strlen(heads);
        snprintf(heads + len, sizeof heads - len, " %10s |", cols[c].head);
    }
    if (b->md_header_done != 1 + relative || strcmp(heads, b->md_cols) != 0)
    {
        sprintf(tu, "%s/%s", b->time_unit, r->unit);
        sprintf(ru, "%s/s", r->unit);
        if (b->md_header_done)
            fputc('\n', b->out);
        fprintf(b->out, "%s| %12s | %20s | %7s | %25s | %12s |%s %9s | "
                "benchmark\n", relative ? "| relative " : "", tu, ru, "err%",
                "95% interval", "min", heads, "total");
        fprintf(b->out, "%s|-------------:|---------------------:|--------:|"
                "--------------------------:|-------------:|",
                relative ? "|---------:" : "");
        for (c = 0; c < ncols; c++)
            fputs("-----------:|", b->out);
        fputs("----------:|:----------\n", b->out);
        b->md_header_done = 1 + relative;
        prof_impl_copy(b->md_cols, sizeof b->md_cols, heads);
    }
    if (r->median_ns > 0.0)
        grouped(rate, 1e9 / r->median_ns);
    else
        strcpy(rate, "inf");
    if (r->ci_low_ns == r->ci_low_ns)
        sprintf(ci, "[%.2f, %.2f]", r->ci_low_ns / scale, r->ci_high_ns / scale);
    else
        strcpy(ci, "n/a");
    if (relative)
    {
        sprintf(rel, "| %7.1f%% ", r->relative_pct);
        fputs(rel, b->out);
    }
    fprintf(b->out, "| %12.2f | %20s | %6.1f%% | %25s | %12.2f |",
            r->median_ns / scale, rate, r->err_pct, ci, r->min_ns / scale);
    for (c = 0; c < ncols; c++)
    {
        double v = cols[c].kind == COL_IPC ? r->ipc
                 : cols[c].kind == COL_MISS ? r->branch_miss_pct
                 : r->counters[cols[c].ev];
        char cell[48];
        if (v != v)
            strcpy(cell, "n/a");
        else if (cols[c].kind == COL_IPC)
            snprintf(cell, sizeof cell, "%.3f", v);
        else if (cols[c].kind == COL_MISS)
            snprintf(cell, sizeof cell, "%.2f%%", v);
        else if (v >= 100.0 || v == 0.0)
            snprintf(cell, sizeof cell, "%.1f", v);
        else        /* 4 significant digits: 0.0002 faults/op is not 0 */
            snprintf(cell, sizeof cell, "%.4g", v);
        fprintf(b->out, " %10s |", cell);
    }
    if (prof_impl_is_terminal(b, b->out))
        prof_impl_sparkline(spark, sizeof spark, r->samples_ns, r->epochs);
    fprintf(b->out, " %9.3f | "
            "`%s`%s%s%s%s%s%s\n", r->total_s, r->name,
            spark[0] ? " " : "", spark,
            (r->flags & PROF_RESULT_UNSTABLE) ? " :wavy_dash: unstable" : "",
            (r->flags & PROF_RESULT_BIMODAL) ? " :warning: bimodal" : "",
            (r->flags & (PROF_RESULT_BUDGET | PROF_RESULT_FEW_EPOCHS))
                ? " :warning: few epochs" : "",
            (r->flags & PROF_RESULT_RESOLUTION) ? " :warning: no work?" : "");
    fflush(b->out);
}

/* ---- CSV ----------------------------------------------------------------- */

static void csv_string(FILE * out, const char * s)
{
    fputc('"', out);
    for (; *s; s++)
    {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* ",value", or "," alone for NaN (an empty field, not "nan") */
static void csv_number(FILE * out, double v, const char * fmt)
{
    fputc(',', out);
    if (v == v)
        fprintf(out, fmt, v);
}

/* The counter fields of the results written: every event name any of them
   counted, in order of first appearance, and whether IPC and branch-miss %
   can be derived. Returns the number of names. */
static int counter_fields(const prof_bench * b, int only_new,
        const char ** names, int * ipc, int * miss)
{
    int i, k, j, n = 0;
    *ipc = *miss = 0;
    for (i = 0; i < b->nresults; i++)
    {
        const prof_result * r = &b->results[i]->pub;
        if (only_new && b->results[i]->written)
            continue;
        for (k = 0; k < r->ncounters; k++)
        {
            for (j = 0; j < n; j++)
                if (strcmp(names[j], r->counter_names[k]) == 0)
                    break;
            if (j == n && n < 2 * PROF_COUNTERS_MAX)
                names[n++] = r->counter_names[k];
        }
        *ipc |= event_index(r, "instructions") >= 0 && event_index(r, "cycles") >= 0;
        *miss |= event_index(r, "branches") >= 0
              && event_index(r, "branch-misses") >= 0;
    }
    return n;
}

static double counter_of(const prof_result * r, const char * name)
{
    int k = event_index(r, name);
    return k >= 0 ? r->counters[k] : NAN;
}

static void write_csv(const prof_bench * b, FILE * out, int only_new)
{
    int i, k, nf, ipc, miss;
    const char * fields[2 * PROF_COUNTERS_MAX];
    double sc = b->time_unit_ns;
    nf = counter_fields(b, only_new, fields, &ipc, &miss);
    fprintf(out, "name,epochs,iterations,median,mean,min,max,err_pct,ci_low,"
            "ci_high,ci_level,cpu_time,time_unit,unit,batch,total_s,"
            "overhead_ns,complexity_n,relative_pct,flags,warning,samples");
    /* counters per unit: an empty field where unavailable */
    for (k = 0; k < nf; k++)
        fprintf(out, ",%s", fields[k]);
    fputs(ipc ? ",ipc" : "", out);
    fputs(miss ? ",branch_miss_pct" : "", out);
    fputc('\n', out);
    for (i = 0; i < b->nresults; i++)
    {
        const prof_impl_result * ir = b->results[i];
        const prof_result * r = &ir->pub;
        if (only_new && ir->written)
            continue;
        csv_string(out, r->name);
        fprintf(out, ",%d,%lu", r->epochs, (unsigned long) r->iterations);
        csv_number(out, r->median_ns / sc, "%.9g");
        csv_number(out, r->mean_ns / sc, "%.9g");
        csv_number(out, r->min_ns / sc, "%.9g");
        csv_number(out, r->max_ns / sc, "%.9g");
        csv_number(out, r->err_pct, "%.4f");
        csv_number(out, r->ci_low_ns / sc, "%.9g");
        csv_number(out, r->ci_high_ns / sc, "%.9g");
        csv_number(out, r->ci_level, "%.4f");
        csv_number(out, r->cpu_ns / sc, "%.9g");
        fprintf(out, ",%s,", b->time_unit);
        csv_string(out, r->unit);
        csv_number(out, r->batch, "%.9g");
        csv_number(out, r->total_s, "%.6f");
        csv_number(out, r->overhead_ns, "%.4g");
        csv_number(out, r->complexity_n, "%.9g");
        csv_number(out, r->relative_pct, "%.4f");
        fprintf(out, ",%d,", r->flags);
        csv_string(out, r->warning);
        fputs(",\"", out);
        for (k = 0; k < r->epochs; k++)
            fprintf(out, "%s%.9g", k ? ";" : "", r->samples_ns[k] / sc);
        fputc('"', out);
        for (k = 0; k < nf; k++)
            csv_number(out, counter_of(r, fields[k]), "%.9g");
        if (ipc)
            csv_number(out, r->ipc, "%.6g");
        if (miss)
            csv_number(out, r->branch_miss_pct, "%.6g");
        fputc('\n', out);
    }
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_string(FILE * out, const char * s)
{
    fputc('"', out);
    for (; *s; s++)
    {
        unsigned char c = (unsigned char) *s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* A number JSON accepts: NaN and infinities become null. */
static void json_number(FILE * out, double v)
{
    if (v == v && v - v == 0.0)
    {
        /* the shortest of %.15g and %.17g that reads back exactly */
        char buf[40];
        sprintf(buf, "%.15g", v);
        if (strtod(buf, NULL) != v)
            sprintf(buf, "%.17g", v);
        fputs(buf, out);
    }
    else
        fputs("null", out);
}

static size_t family_len(const char * name)
{
    const char * slash = strchr(name, '/');
    return slash ? (size_t) (slash - name) : strlen(name);
}

static int same_family(const char * a, const char * b)
{
    size_t n = family_len(a);
    return n == family_len(b) && strncmp(a, b, n) == 0;
}

static void json_context(const prof_bench * b, FILE * out)
{
    prof_impl_sysinfo si;
    const char * w[2];
    int i, n = build_warnings(b, w);
    prof_impl_sysinfo_read(&si);
    fputs("{\n  \"context\": {\n    \"date\": ", out);
    json_string(out, si.date);
    fputs(",\n    \"host_name\": ", out);
    json_string(out, si.host);
    fputs(",\n    \"executable\": ", out);
    json_string(out, si.exe);
    fprintf(out, ",\n    \"num_cpus\": %d,\n    \"mhz_per_cpu\": %d,\n"
            "    \"cpu_scaling_enabled\": %s,\n    \"caches\": [\n", si.cores,
            (int) (si.mhz > 0.0 ? si.mhz + 0.5 : prof_impl_read_rate() * 1e-6 + 0.5),
            si.scaling[0] && strcmp(si.scaling, "performance") != 0
                ? "true" : "false");
    for (i = 0; i < si.ncaches; i++)
    {
        fputs("      {\n        \"type\": ", out);
        json_string(out, si.caches[i].type);
        fprintf(out, ",\n        \"level\": %d,\n        \"size\": %ld,\n"
                "        \"num_sharing\": %d\n      }%s\n", si.caches[i].level,
                si.caches[i].size, si.caches[i].sharing,
                i + 1 < si.ncaches ? "," : "");
    }
    fprintf(out, "    ],\n    \"load_avg\": [%g,%g,%g],\n"
            "    \"library_build_type\": \"%s\",\n    \"cpu_model\": ",
            si.load[0], si.load[1], si.load[2],
            b->optimized ? "release" : "debug");
    json_string(out, si.cpu);
    fputs(",\n    \"profiler_tick_rate_hz\": ", out);
    json_number(out, prof_impl_read_rate());
    fputs(",\n    \"profiler_counter_overhead_ns\": ", out);
    json_number(out, b->overhead_ticks >= 0.0
                     ? b->overhead_ticks * 1e9 / prof_impl_read_rate() : NAN);
    fputs(",\n    \"profiler_compiler\": ", out);
    json_string(out, b->compiler);
    fputs(",\n    \"profiler_compile_flags\": ", out);
    json_string(out, b->flags);
    {
        char line[1024];
        int any = 0;
        for (i = 0; i < b->nresults; i++)
            any |= b->results[i]->nev > 0;
        if (any && prof_impl_bench_counters_context(line, sizeof line))
        {
            fputs(",\n    \"profiler_counters\": ", out);
            json_string(out, line);
        }
    }
    fputs(",\n    \"profiler_warnings\": [", out);
    for (i = 0; i < n; i++)
    {
        fputs(i ? ", " : "", out);
        json_string(out, w[i]);
    }
    fputs("]\n  },\n", out);
}

/* The fields every entry starts with. */
static void json_head(FILE * out, const prof_result * r, const char * suffix,
        int family, int instance, const char * run_type)
{
    char name[600];
    prof_impl_copy(name, sizeof name - 32, r->name);
    if (suffix != NULL)
        strcat(name, suffix);
    fputs("    {\n      \"name\": ", out);
    json_string(out, name);
    fprintf(out, ",\n      \"family_index\": %d,\n"
            "      \"per_family_instance_index\": %d,\n      \"run_name\": ",
            family, instance);
    json_string(out, r->name);
    fprintf(out, ",\n      \"run_type\": \"%s\",\n      \"repetitions\": %d,\n",
            run_type, r->epochs);
}


static void json_aggregate(FILE * out, const prof_bench * b,
        const prof_result * r, int family, int instance, const char * agg,
        double real, double cpu, int percentage)
{
    char suffix[32];
    sprintf(suffix, "_%s", agg);
    json_head(out, r, suffix, family, instance, "aggregate");
    fprintf(out, "      \"threads\": 1,\n      \"aggregate_name\": \"%s\",\n"
            "      \"aggregate_unit\": \"%s\",\n      \"iterations\": %d,\n"
            "      \"real_time\": ", agg, percentage ? "percentage" : "time",
            r->epochs);
    json_number(out, percentage ? real : real / b->time_unit_ns);
    fputs(",\n      \"cpu_time\": ", out);
    json_number(out, percentage ? cpu : cpu / b->time_unit_ns);
    fprintf(out, ",\n      \"time_unit\": \"%s\"", b->time_unit);
}

typedef struct { double mean, median, sd; } moments;

/* Mean, median and sample standard deviation of n values. */
static void sample_stats(const double * x, int n, moments * m)
{
    double * sorted = (double *) malloc((size_t) n * sizeof *sorted);
    int i;
    m->mean = m->sd = 0.0;
    m->median = NAN;
    for (i = 0; i < n; i++)
        m->mean += x[i];
    m->mean /= n;
    for (i = 0; i < n; i++)
        m->sd += (x[i] - m->mean) * (x[i] - m->mean);
    m->sd = n > 1 ? sqrt(m->sd / (n - 1)) : 0.0;
    if (sorted != NULL)
    {
        memcpy(sorted, x, (size_t) n * sizeof *sorted);
        prof_impl_sort(sorted, n);
        m->median = prof_impl_quantile(sorted, n, 0.5);
        free(sorted);
    }
}

/* A result's counters as extra numeric fields of an entry (as Google
   Benchmark writes user counters), per unit: epoch k's values for k >= 0,
   else the aggregate agg ("mean", "median", "stddev", "cv") over the
   epochs. An unavailable event is left out (the context says why). */
static void json_counters(FILE * out, const prof_impl_result * ir, int k,
        const char * agg)
{
    const prof_result * r = &ir->pub;
    double v[PROF_COUNTERS_MAX], * x;
    int e, i, m;
    if (ir->nev == 0)
        return;
    x = (double *) malloc((size_t) r->epochs * sizeof *x);
    for (e = 0; e < ir->nev; e++)
    {
        v[e] = NAN;
        if (k >= 0)
            v[e] = ir->ev[k * ir->nev + e];
        else if (strcmp(agg, "median") == 0)
            v[e] = ir->ev_median[e];
        else if (x != NULL)
        {
            moments mo;
            for (i = m = 0; i < r->epochs; i++)
                if (ir->ev[i * ir->nev + e] == ir->ev[i * ir->nev + e])
                    x[m++] = ir->ev[i * ir->nev + e];
            if (m > 0)
            {
                sample_stats(x, m, &mo);
                v[e] = strcmp(agg, "mean") == 0 ? mo.mean
                     : strcmp(agg, "stddev") == 0 ? mo.sd
                     : mo.mean > 0.0 ? mo.sd / mo.mean : NAN;
            }
        }
        if (v[e] == v[e])
        {
            fprintf(out, ",\n      \"%s\": ", ir->ev_names[e]);
            json_number(out, v[e]);
        }
    }
    free(x);
    if (k >= 0 || strcmp(agg, "mean") == 0 || strcmp(agg, "median") == 0)
    {
        int ins = event_index(r, "instructions"), cyc = event_index(r, "cycles");
        int bra = event_index(r, "branches"), mis = event_index(r, "branch-misses");
        if (ins >= 0 && cyc >= 0 && v[cyc] > 0.0 && v[ins] == v[ins])
        {
            fputs(",\n      \"ipc\": ", out);
            json_number(out, v[ins] / v[cyc]);
        }
        if (bra >= 0 && mis >= 0 && v[bra] > 0.0 && v[mis] == v[mis])
        {
            fputs(",\n      \"branch_miss_pct\": ", out);
            json_number(out, 100.0 * v[mis] / v[bra]);
        }
    }
}

/* The opening of a family's aggregate entry (Google Benchmark's BigO and
   RMS), up to its first own field: ",\n    {\n ... \"aggregate_unit\": ...,\n". */
static void json_family_head(FILE * out, int fam, const char * fam_name,
                             const char * aggregate, const char * unit)
{
    char nm[300];
    snprintf(nm, sizeof nm, "%s_%s", fam_name, aggregate);
    fputs(",\n    {\n      \"name\": ", out);
    json_string(out, nm);
    fprintf(out, ",\n      \"family_index\": %d,\n"
            "      \"per_family_instance_index\": 0,\n"
            "      \"run_name\": ", fam);
    json_string(out, fam_name);
    fprintf(out, ",\n      \"run_type\": \"aggregate\",\n"
            "      \"repetitions\": 1,\n      \"threads\": 1,\n"
            "      \"aggregate_name\": \"%s\",\n"
            "      \"aggregate_unit\": \"%s\",\n", aggregate, unit);
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

static int fits_of(const prof_bench * b, const char * family, int use_cpu,
        prof_fit * fits, int max);

static void write_json(prof_bench * b, FILE * out, int only_new)
{
    int i, k, first = 1;
    double sc = b->time_unit_ns;
    json_context(b, out);
    fputs("  \"benchmarks\": [\n", out);
    for (i = 0; i < b->nresults; i++)
    {
        const prof_impl_result * ir = b->results[i];
        const prof_result * r = &ir->pub;
        int j, m, instance = 0, fam = 0, last_of_family = 1;
        moments real, cpu;
        /* family index: distinct families among results 0..i */
        for (m = 0; m <= i; m++)
        {
            for (j = 0; j < m; j++)
                if (same_family(b->results[j]->pub.name,
                                b->results[m]->pub.name))
                    break;
            fam += j == m;
        }
        fam--;
        for (j = 0; j < i; j++)
            instance += same_family(b->results[j]->pub.name, r->name);
        for (j = i + 1; j < b->nresults; j++)
            if (same_family(b->results[j]->pub.name, r->name))
                last_of_family = 0;
        if (only_new && ir->written)
            continue;
        for (k = 0; k < r->epochs; k++)
        {
            fputs(first ? "" : ",\n", out);
            first = 0;
            json_head(out, r, NULL, fam, instance, "iteration");
            fprintf(out, "      \"repetition_index\": %d,\n"
                    "      \"threads\": 1,\n      \"iterations\": %lu,\n"
                    "      \"real_time\": ", k,
                    (unsigned long) r->epoch_iters[k]);
            json_number(out, r->samples_ns[k] / sc);
            fputs(",\n      \"cpu_time\": ", out);
            json_number(out, ir->cpu[k] / sc);
            fprintf(out, ",\n      \"time_unit\": \"%s\"", b->time_unit);
            json_counters(out, ir, k, NULL);
            if (r->batch != 1.0 || strcmp(r->unit, "op") != 0)
            {
                fprintf(out, ",\n      \"%s\": ", strcmp(r->unit, "byte") == 0
                        ? "bytes_per_second" : "items_per_second");
                json_number(out, r->samples_ns[k] > 0.0
                                 ? 1e9 / r->samples_ns[k] : NAN);
            }
            fputs("\n    }", out);
        }
        sample_stats(r->samples_ns, r->epochs, &real);
        sample_stats(ir->cpu, r->epochs, &cpu);
        fputs(",\n", out);
        json_aggregate(out, b, r, fam, instance, "mean", real.mean, cpu.mean, 0);
        json_counters(out, ir, -1, "mean");
        fputs("\n    },\n", out);
        json_aggregate(out, b, r, fam, instance, "median", real.median,
                       cpu.median, 0);
        json_counters(out, ir, -1, "median");
        /* the profiler's own figures ride on the median entry */
        fputs(",\n      \"err_pct\": ", out); json_number(out, r->err_pct);
        fputs(",\n      \"ci_low\": ", out); json_number(out, r->ci_low_ns / sc);
        fputs(",\n      \"ci_high\": ", out); json_number(out, r->ci_high_ns / sc);
        fputs(",\n      \"ci_level\": ", out); json_number(out, r->ci_level);
        fputs(",\n      \"min\": ", out); json_number(out, r->min_ns / sc);
        fputs(",\n      \"max\": ", out); json_number(out, r->max_ns / sc);
        fputs(",\n      \"total_s\": ", out); json_number(out, r->total_s);
        fputs(",\n      \"overhead_ns\": ", out); json_number(out, r->overhead_ns);
        fputs(",\n      \"batch\": ", out); json_number(out, r->batch);
        fputs(",\n      \"unit\": ", out); json_string(out, r->unit);
        if (r->complexity_n > 0.0)
        {
            fputs(",\n      \"complexity_n\": ", out);
            json_number(out, r->complexity_n);
        }
        if (r->relative_pct == r->relative_pct)
        {
            fputs(",\n      \"relative_pct\": ", out);
            json_number(out, r->relative_pct);
        }
        fprintf(out, ",\n      \"flags\": %d,\n      \"warning\": ", r->flags);
        json_string(out, r->warning);
        fputs("\n    },\n", out);
        json_aggregate(out, b, r, fam, instance, "stddev", real.sd, cpu.sd, 0);
        json_counters(out, ir, -1, "stddev");
        fputs("\n    },\n", out);
        json_aggregate(out, b, r, fam, instance, "cv",
                       real.mean > 0.0 ? real.sd / real.mean : 0.0,
                       cpu.mean > 0.0 ? cpu.sd / cpu.mean : 0.0, 1);
        json_counters(out, ir, -1, "cv");
        fputs("\n    }", out);

        /* Complexity of a family, after its last member (as Google
           Benchmark writes BigO and RMS). */
        if (last_of_family && r->complexity_n > 0.0)
        {
            prof_fit real[8], cpu[8];
            char fam_name[256];
            int nf = fits_of(b, r->name, 0, real, 8);
            int nc = fits_of(b, r->name, 1, cpu, 8);
            size_t fl = family_len(r->name);
            if (fl >= sizeof fam_name)
                fl = sizeof fam_name - 1;
            memcpy(fam_name, r->name, fl);
            fam_name[fl] = '\0';
            if (nf > 0)
            {
                double cc = real[0].coefficient;
                for (j = 0; j < nc; j++)
                    if (strcmp(cpu[j].name, real[0].name) == 0)
                        cc = cpu[j].coefficient;
                json_family_head(out, fam, fam_name, "BigO", "time");
                fputs("      \"cpu_coefficient\": ", out);
                json_number(out, cc / sc);
                fputs(",\n      \"real_coefficient\": ", out);
                json_number(out, real[0].coefficient / sc);
                fprintf(out, ",\n      \"big_o\": \"%s\",\n"
                        "      \"time_unit\": \"%s\"\n    }",
                        big_o_name(real[0].name), b->time_unit);
                json_family_head(out, fam, fam_name, "RMS", "percentage");
                fputs("      \"rms\": ", out);
                json_number(out, real[0].rms_pct / 100.0);
                fputs("\n    }", out);
            }
        }
    }
    fputs("\n  ]\n}\n", out);
}

/* ---- writing ------------------------------------------------------------- */

static int write_all(prof_bench * b, FILE * out, prof_format format,
        int only_new)
{
    if (format == PROF_FORMAT_CSV)
        write_csv(b, out, only_new);
    else if (format == PROF_FORMAT_JSON)
        write_json(b, out, only_new);
    else if (format == PROF_FORMAT_MD)
    {
        int i, saved = b->md_header_done, saved_ctr = b->md_counters_done;
        char saved_cols[sizeof b->md_cols];
        FILE * o = b->out;
        prof_format f = b->format;
        memcpy(saved_cols, b->md_cols, sizeof saved_cols);
        b->out = out;
        b->format = PROF_FORMAT_MD;
        b->md_header_done = 0;
        b->md_counters_done = 0;
        b->md_cols[0] = '\0';
        for (i = 0; i < b->nresults; i++)
            prof_impl_print_row(b, i);
        b->out = o;
        b->format = f;
        b->md_header_done = saved;
        b->md_counters_done = saved_ctr;
        memcpy(b->md_cols, saved_cols, sizeof saved_cols);
    }
    if (fflush(out) != 0 || ferror(out))
    {
        prof_impl_warn("writing the benchmark results failed");
        return -1;
    }
    return 0;
}

int prof_bench_write(const prof_bench * b, FILE * out, prof_format format)
{
    if (b == NULL || out == NULL)
    {
        prof_impl_warn("prof_bench_write: the %s is NULL; nothing written",
                       b == NULL ? "suite" : "stream");
        return -1;
    }
    /* The markdown writer borrows the suite's output state and restores it. */
    return write_all((prof_bench *) b, out, format, 0);
}

int prof_bench_finish(prof_bench * b)
{
    int i, pending = 0, rc = 0;
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
    for (i = 0; i < b->nresults; i++)
        pending += !b->results[i]->written;
    if (pending && b->out != NULL
        && (b->format == PROF_FORMAT_CSV || b->format == PROF_FORMAT_JSON))
        rc = write_all(b, b->out, b->format, 1);
    else if (b->out != NULL && !b->write_failed
             && (fflush(b->out) != 0 || ferror(b->out)))
    {
        prof_impl_warn("writing the benchmark results failed");
        rc = -1;
    }
    for (i = 0; i < b->nresults; i++)
        b->results[i]->written = 1;
    if (rc != 0)
        b->write_failed = 1;
    return rc;
}

/* ---- complexity ---------------------------------------------------------- */

static double f_one(double n) { (void) n; return 1.0; }
static double f_log(double n) { return log2(n); }
static double f_n(double n) { return n; }
static double f_nlog(double n) { return n * log2(n); }
static double f_n2(double n) { return n * n; }
static double f_n3(double n) { return n * n * n; }

static int fits_of(const prof_bench * b, const char * family, int use_cpu,
        prof_fit * fits, int max)
{
    static const char * names[] = { "O(1)", "O(log n)", "O(n)", "O(n log n)",
                                    "O(n^2)", "O(n^3)" };
    double (*fs[7])(double) = { f_one, f_log, f_n, f_nlog, f_n2, f_n3, NULL };
    double * n, * t;
    int i, count = 0, nf = 0, k;
    prof_fit all[7];

    if (b == NULL || fits == NULL || max <= 0)
        return 0;
    n = (double *) malloc((size_t) (b->nresults + 1) * sizeof *n);
    t = (double *) malloc((size_t) (b->nresults + 1) * sizeof *t);
    if (n == NULL || t == NULL)
    {
        free(n); free(t);
        return 0;
    }
    for (i = 0; i < b->nresults; i++)
    {
        const prof_result * r = &b->results[i]->pub;
        if (r->complexity_n > 0.0
            && (family == NULL || same_family(family, r->name)))
        {
            n[count] = r->complexity_n;
            t[count] = use_cpu ? r->cpu_ns : r->median_ns;
            count++;
        }
    }
    fs[6] = b->fit_f;
    for (k = 0; k < 7; k++)
    {
        if (fs[k] == NULL)
            continue;
        if (prof_impl_fit(n, t, count, fs[k], &all[nf].coefficient,
                          &all[nf].rms_pct) == 0)
        {
            all[nf].name = k < 6 ? names[k] : b->fit_name;
            nf++;
        }
    }
    free(n); free(t);
    /* rank by rms (insertion sort: 7 entries) */
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
    if (nf > max)
        nf = max;
    memcpy(fits, all, (size_t) nf * sizeof *fits);
    return nf;
}

int prof_bench_complexity(const prof_bench * b, const char * family,
        prof_fit * fits, int max)
{
    int i, count = 0, nf;
    if (b == NULL || fits == NULL || max <= 0)
    {
        prof_impl_warn("prof_bench_complexity: NULL suite or no room for fits");
        return 0;
    }
    for (i = 0; i < b->nresults; i++)
        count += b->results[i]->pub.complexity_n > 0.0
              && (family == NULL
                  || same_family(family, b->results[i]->pub.name));
    if (count < 2)
    {
        prof_impl_warn("prof_bench_complexity: %d result%s with an N "
                       "(prof_bench_set_complexity_n); 2 or more needed",
                       count, count == 1 ? "" : "s");
        return 0;
    }
    nf = fits_of(b, family, 0, fits, max);
    return nf;
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

void prof_bench_print_complexity(const prof_bench * b, const char * family,
        FILE * out)
{
    prof_fit fits[8];
    int i, n = prof_bench_complexity(b, family, fits, 8);
    if (out == NULL)
        out = stdout;
    if (n == 0)
        return;
    fprintf(out, "\n| %15s | %7s | complexity\n|----------------:|--------:|"
            ":-----------\n", "coefficient", "err%");
    for (i = 0; i < n; i++)
        fprintf(out, "| %15.6g | %6.1f%% | %s\n", fits[i].coefficient,
                fits[i].rms_pct, fits[i].name);
    fflush(out);
}
