/* Comparing result files: the Mann-Whitney U test against brute force,
   loading Google Benchmark's JSON and the runner's own (written by
   prof_bench_* with a fake clock and read back), verdicts, and bad files
   (wrong types, duplicates, unknown units) rejected with a reason. */
#include "check.h"
#include "internal.h"
#include "../src/tools/compare/compare.h"
#include "bench_check.h"

#include <math.h>

/* Two-sided exact p by enumerating every way to pick which n of the N
   pooled values are "x" (values distinct). */
static double brute_p(const double * x, int n, const double * y, int m)
{
    double pool[20], u_obs = 0, count = 0, extreme = 0, mu = n * m / 2.0;
    int N = n + m, i, j;
    unsigned mask;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            u_obs += x[i] > y[j];
    for (i = 0; i < n; i++) pool[i] = x[i];
    for (i = 0; i < m; i++) pool[n + i] = y[i];
    for (mask = 0; mask < (1u << N); mask++)
    {
        double u = 0;
        if (__builtin_popcount(mask) != n)
            continue;
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                if ((mask >> i & 1) && !(mask >> j & 1))
                    u += pool[i] > pool[j];
        count++;
        extreme += fabs(u - mu) >= fabs(u_obs - mu) - 1e-9;
    }
    return extreme / count;
}

static int load(const char * text, prof_result_file * rf, char * err)
{
    return prof_impl_results_parse(text, strlen(text), rf, err, 200);
}

static void bad(const char * text, const char * want)
{
    prof_result_file rf;
    char err[200];
    CHECK(load(text, &rf, err) != 0, "accepted [%s]", text);
    CHECK(strstr(err, want) != NULL, "error [%s], expected [%s]", err, want);
}

/* The runner's own JSON, read back by prof-compare's loader: every epoch
   a sample, in ns, in the order run, and the same median (fake clock:
   exact figures). */
static int calls;
static void cost(void * arg, ulong count)
{
    /* 100 ns an iteration, +1 ns for each call so far: samples differ */
    fake_now += (100.0 + calls++ + *(double *) arg) * (double) count;
}

/* epochs: --json-epochs (an entry per epoch), else the default (one
   entry a benchmark, its epochs an array). */
static void round_trip(int epochs)
{
    FILE * f = tmpfile();
    prof_bench * b = prof_bench_new();
    double extra[2] = { 0.0, 1000.0 };
    prof_result_file rf;
    char err[200], * text;
    long len;
    int i, k;

    calls = 0;
    prof_impl_set_fake_clock(fake_read, 1e9);
    prof_bench_set_output(b, f);
    prof_bench_set_format(b, PROF_FORMAT_JSON);
    prof_bench_set_json_epochs(b, epochs);
    prof_bench_set_epoch_jitter(b, 0.0);
    prof_bench_set_epochs(b, 7);
    prof_bench_set_epoch_iterations(b, 10);
    prof_bench_set_time_unit(b, "us");
    prof_bench_run(b, "fast", cost, &extra[0]);
    prof_bench_set_complexity_n(b, 2);
    prof_bench_run(b, "slow/2", cost, &extra[1]);
    prof_bench_set_complexity_n(b, 4);
    prof_bench_run(b, "slow/4", cost, &extra[1]);
    CHECK(prof_bench_finish(b) == 0, "finish");
    fflush(f);
    len = ftell(f);
    text = (char *) malloc((size_t) len + 1);
    rewind(f);
    CHECK(text != NULL && fread(text, 1, (size_t) len, f) == (size_t) len, "read back");
    CHECK(prof_impl_results_parse(text, (size_t) len, &rf, err, sizeof err) == 0,
          "the runner's JSON: %s", err);
    CHECK(rf.count == 3, "%d series", rf.count);
    CHECK(rf.nfits == 1 && strcmp(rf.fits[0].family, "slow") == 0,
          "the family's fit: %d", rf.nfits);
    for (i = 0; i < rf.count && i < 3; i++)
    {
        const prof_result * r = prof_bench_result(b, i);
        const prof_series * s = prof_impl_results_find(&rf, r->name);
        CHECK(s == &rf.series[i], "%s found", r->name);
        CHECK(s->count == r->epochs, "%s: %d samples, %d epochs", r->name,
              s->count, r->epochs);
        for (k = 0; k < s->count && k < r->epochs; k++)
            CHECK(fabs(s->samples_ns[k] - r->samples_ns[k]) <= 1e-9 * r->samples_ns[k],
                  "%s epoch %d: %.17g read, %.17g run", r->name, k,
                  s->samples_ns[k], r->samples_ns[k]);
        CHECK(fabs(s->median_ns - r->median_ns) <= 1e-9 * r->median_ns
              && fabs(s->aggregate_median_ns - r->median_ns) <= 1e-9 * r->median_ns,
              "%s median %g (file's %g), run %g", r->name, s->median_ns,
              s->aggregate_median_ns, r->median_ns);
    }
    CHECK(rf.count == 3 && rf.series[1].median_ns > 10.0 * rf.series[0].median_ns,
          "the slow one is slower");
    prof_impl_results_free(&rf);
    free(text);
    prof_bench_free(b);
    fclose(f);
    prof_impl_set_fake_clock(NULL, 0);
}

static prof_series series_of(double * v, int n, const char * name)
{
    prof_series s;
    double tmp[64];
    memset(&s, 0, sizeof s);
    s.name = (char *) name;
    s.samples_ns = v;
    s.count = n;
    memcpy(tmp, v, n * sizeof *v);
    s.median_ns = prof_impl_median(tmp, n);
    return s;
}

int main(void)
{
    static const double x1[] = { 1, 2, 3 }, y1[] = { 4, 5, 6 };
    static const double x2[] = { 1, 3, 5, 7, 9.5 }, y2[] = { 2, 4, 6, 8, 10, 11 };
    static const double x3[] = { 10, 11, 12, 13, 14, 15, 16 };
    static const double y3[] = { 3, 13.5, 17, 18, 19, 20, 21, 22 };
    double same[8] = { 5, 5, 5, 5, 5, 5, 5, 5 };
    prof_result_file rf;
    char err[200];
    double p;

    /* Exact p-values against brute force. */
    p = prof_impl_mann_whitney_p(x1, 3, y1, 3);
    CHECK(fabs(p - 0.1) < 1e-12, "p %g, expected 2/20", p);
    CHECK(fabs(p - brute_p(x1, 3, y1, 3)) < 1e-12, "brute %g", brute_p(x1, 3, y1, 3));
    p = prof_impl_mann_whitney_p(x2, 5, y2, 6);
    CHECK(fabs(p - brute_p(x2, 5, y2, 6)) < 1e-12, "p %g brute %g", p, brute_p(x2, 5, y2, 6));
    p = prof_impl_mann_whitney_p(x3, 7, y3, 8);
    CHECK(fabs(p - brute_p(x3, 7, y3, 8)) < 1e-12, "p %g brute %g", p, brute_p(x3, 7, y3, 8));
    CHECK(p < 0.05 && p > 0.001, "p %g", p);
    /* Ties: normal approximation; all equal means no evidence at all. */
    CHECK(prof_impl_mann_whitney_p(same, 4, same + 4, 4) == 1.0, "all equal");
    CHECK(isnan(prof_impl_mann_whitney_p(x1, 0, y1, 3)), "empty side");

    /* Verdicts. */
    {
        double a[11], b[11], c[11], one[1] = { 1.0 };
        prof_series sa, sb, sc, s1;
        prof_verdict v;
        int i;
        for (i = 0; i < 11; i++)
        {
            a[i] = 100 + i * 0.1;
            b[i] = 110 + i * 0.1;      /* +10% */
            c[i] = 100.5 + i * 0.1;    /* +0.5%: significant but below noise */
        }
        sa = series_of(a, 11, "a"); sb = series_of(b, 11, "b");
        sc = series_of(c, 11, "c"); s1 = series_of(one, 1, "one");
        prof_impl_compare(&sa, &sb, 0.01, 0.02, &v);
        CHECK(v.verdict == PROF_VERDICT_SLOWER && fabs(v.change - 0.0995) < 1e-3,
              "verdict %d change %g", v.verdict, v.change);
        CHECK(v.ci_low > 0.09 && v.ci_high < 0.11 && v.ci_low <= v.change && v.change <= v.ci_high,
              "interval %g..%g", v.ci_low, v.ci_high);
        prof_impl_compare(&sb, &sa, 0.01, 0.02, &v);
        CHECK(v.verdict == PROF_VERDICT_FASTER, "verdict %d", v.verdict);
        prof_impl_compare(&sa, &sc, 0.01, 0.02, &v);
        CHECK(v.p < 0.01 && v.verdict == PROF_VERDICT_SAME, "p %g verdict %d", v.p, v.verdict);
        prof_impl_compare(&sa, &s1, 0.01, 0.02, &v);
        CHECK(v.verdict == PROF_VERDICT_UNSURE && isnan(v.ci_low), "one sample: %d", v.verdict);
        prof_impl_compare(&sa, &sb, 1e-7, 0.02, &v);
        CHECK(v.verdict == PROF_VERDICT_UNSURE, "11 samples cannot reach 1e-7: %d", v.verdict);
    }

    /* Runs paired by position: sign test, median ratio, order-statistic
       interval, all exact. */
    {
        double o[7] = { 100, 100, 100, 100, 100, 100, 100 };
        double n7[7] = { 110, 104, 108, 101, 120, 106, 103 };
        double mixed[7] = { 110, 95, 108, 101, 120, 96, 103 };
        prof_series so, sn, sm;
        prof_verdict v;
        memset(&so, 0, sizeof so); memset(&sn, 0, sizeof sn); memset(&sm, 0, sizeof sm);
        so.samples_ns = o; so.count = 7;
        sn.samples_ns = n7; sn.count = 7;
        sm.samples_ns = mixed; sm.count = 7;
        prof_impl_compare_paired(&so, &sn, 0.05, 0.02, &v);
        CHECK(fabs(v.p - 2.0 / 128) < 1e-12, "7 of 7 up: p %g", v.p);
        CHECK(fabs(v.change - 0.06) < 1e-12, "median ratio: change %g", v.change);
        CHECK(fabs(v.ci_low - 0.01) < 1e-12 && fabs(v.ci_high - 0.20) < 1e-12,
              "interval of 7 is [min, max]: %g..%g", v.ci_low, v.ci_high);
        CHECK(v.verdict == PROF_VERDICT_SLOWER, "verdict %d", v.verdict);
        prof_impl_compare_paired(&sn, &so, 0.05, 0.02, &v);
        CHECK(v.verdict == PROF_VERDICT_FASTER, "reversed: verdict %d", v.verdict);
        prof_impl_compare_paired(&so, &sm, 0.05, 0.02, &v);
        /* 5 up, 2 down: p = 2 * P(B(7) <= 2) = 2 * 29/128 */
        CHECK(fabs(v.p - 58.0 / 128) < 1e-12 && v.verdict == PROF_VERDICT_SAME,
              "5 up 2 down: p %g verdict %d", v.p, v.verdict);
        prof_impl_compare_paired(&so, &sn, 0.01, 0.02, &v);
        CHECK(v.verdict == PROF_VERDICT_UNSURE, "7 pairs cannot reach 0.01: %d", v.verdict);
        prof_impl_compare_paired(&so, &so, 0.05, 0.02, &v);
        CHECK(v.p == 1.0 && v.change == 0.0 && v.verdict == PROF_VERDICT_SAME,
              "identical runs: p %g change %g", v.p, v.change);
    }

    /* Complexity: N from the median aggregates, the fit from BigO. */
    CHECK(load("{\"benchmarks\":["
               "{\"name\":\"s/8_median\",\"run_name\":\"s/8\",\"run_type\":\"aggregate\",\"aggregate_name\":\"median\",\"real_time\":8,\"time_unit\":\"us\",\"complexity_n\":8},"
               "{\"name\":\"s_BigO\",\"run_name\":\"s\",\"run_type\":\"aggregate\",\"aggregate_name\":\"BigO\",\"big_o\":\"N\",\"real_coefficient\":1.5,\"time_unit\":\"us\"},"
               "{\"name\":\"s_RMS\",\"run_name\":\"s\",\"run_type\":\"aggregate\",\"aggregate_name\":\"RMS\",\"rms\":0.1}]}",
               &rf, err) == 0, "load: %s", err);
    CHECK(rf.count == 1 && rf.series[0].complexity_n == 8 && rf.series[0].median_ns == 8000,
          "N %g median %g", rf.count ? rf.series[0].complexity_n : -1, rf.count ? rf.series[0].median_ns : -1);
    CHECK(rf.nfits == 1 && strcmp(rf.fits[0].family, "s") == 0 && strcmp(rf.fits[0].big_o, "N") == 0
          && rf.fits[0].coefficient_ns == 1500, "fit %d", rf.nfits);
    prof_impl_results_free(&rf);

    /* Google Benchmark: repetitions grouped by run_name, aggregates other
       than the median ignored, units converted, errors skipped. */
    CHECK(load("{\"context\":{},\"benchmarks\":["
               "{\"name\":\"f/8\",\"run_name\":\"f/8\",\"run_type\":\"iteration\",\"repetitions\":3,\"repetition_index\":0,\"real_time\":2.0,\"cpu_time\":2.0,\"time_unit\":\"us\"},"
               "{\"name\":\"f/8\",\"run_name\":\"f/8\",\"run_type\":\"iteration\",\"repetitions\":3,\"repetition_index\":1,\"real_time\":3.0,\"cpu_time\":2.0,\"time_unit\":\"us\"},"
               "{\"name\":\"f/8\",\"run_name\":\"f/8\",\"run_type\":\"iteration\",\"repetitions\":3,\"repetition_index\":2,\"real_time\":2.5,\"cpu_time\":2.0,\"time_unit\":\"us\"},"
               "{\"name\":\"f/8_mean\",\"run_name\":\"f/8\",\"run_type\":\"aggregate\",\"aggregate_name\":\"mean\",\"real_time\":99,\"time_unit\":\"us\"},"
               "{\"name\":\"f/8_median\",\"run_name\":\"f/8\",\"run_type\":\"aggregate\",\"aggregate_name\":\"median\",\"real_time\":2.5,\"time_unit\":\"us\"},"
               "{\"name\":\"g\",\"real_time\":7,\"time_unit\":\"ms\"},"
               "{\"name\":\"h\",\"error_occurred\":true,\"error_message\":\"x\"}]}", &rf, err) == 0,
          "load: %s", err);
    CHECK(rf.count == 2, "%d series", rf.count);
    if (rf.count == 2)
    {
        CHECK(strcmp(rf.series[0].name, "f/8") == 0 && rf.series[0].count == 3, "f/8: %d", rf.series[0].count);
        CHECK(rf.series[0].median_ns == 2500.0, "median %g", rf.series[0].median_ns);
        CHECK(rf.series[0].aggregate_median_ns == 2500.0, "aggregate %g", rf.series[0].aggregate_median_ns);
        CHECK(rf.series[1].median_ns == 7e6 && rf.series[1].count == 1, "g %g", rf.series[1].median_ns);
    }
    prof_impl_results_free(&rf);

    round_trip(0);
    round_trip(1);
    /* the runner's one entry: its epochs must be times, and only once */
    bad("{\"benchmarks\": [{\"name\": \"a\", \"run_type\": \"iteration\", "
        "\"real_time\": 1, \"time_unit\": \"ns\", \"epochs_real_time\": "
        "[1, \"x\"]}]}", "benchmarks[0].epochs_real_time[1] is not a time");
    bad("{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1, "
        "\"epochs_real_time\": [1, 2]}, {\"name\": \"a\", \"real_time\": 1, "
        "\"epochs_real_time\": [1, 2]}]}", "duplicate benchmark name \"a\"");

    /* Bad files: a reason, no crash. */
    bad("[1, 2]", "no \"benchmarks\" array");
    bad("{\"benchmarks\": {}}", "no \"benchmarks\" array");
    bad("{\"benchmarks\": [1]}", "benchmarks[0] is not an object");
    bad("{\"benchmarks\": [{\"real_time\": 1}]}", "has no \"name\" string");
    bad("{\"benchmarks\": [{\"name\": \"a\", \"real_time\": \"fast\"}]}", "benchmarks[0].real_time is not a number");
    bad("{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1, \"time_unit\": \"fortnights\"}]}", "unknown time_unit");
    bad("{\"benchmarks\": [{\"name\": \"a\"}]}", "benchmarks[0] (\"a\") has no \"real_time\"");
    bad("{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1, \"repetition_index\": 0},"
        " {\"name\": \"a\", \"real_time\": 2}]}", "benchmarks[1]: duplicate benchmark name");
    bad("{\"benchmarks\": [], \"benchmarks\": []}", "a second \"benchmarks\" member");
    bad("{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1}, {\"name\": \"a\", \"real_time\": 2}]}",
        "duplicate benchmark name \"a\"");
    bad("{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1, \"repetition_index\": 0},"
        " {\"name\": \"a\", \"real_time\": 2, \"repetition_index\": 0}]}", "duplicate benchmark name");
    /* names that differ only after a NUL were merged into one */
    bad("{\"benchmarks\": [{\"name\": \"a\\u0000x\", \"real_time\": 1},"
        " {\"name\": \"a\\u0000y\", \"real_time\": 2}]}",
        "benchmarks[0]: a name holds a NUL character (\\u0000)");
    bad("{\"benchmarks\": [", "line 1, column 17: unexpected end of input");
    bad("{\"benchmarks\": [{\"name\": \"a\", \"real_time\": 1e999}]}", "number out of range");

    {
        char missing[] = "/nonexistent/result.json";
        CHECK(prof_impl_results_load(missing, &rf, err, sizeof err) != 0
              && strstr(err, "cannot open") != NULL, "err [%s]", err);
    }
    return check_report("test_compare");
}
