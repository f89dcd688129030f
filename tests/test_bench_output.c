/* The runner's outputs and its command line: the markdown table, CSV,
   Google Benchmark JSON, --format/--out/--filter and their bad values, an
   unwritable file; and a real slow target that the budget ends. */
#include "check.h"
#include "internal.h"
#include "bench_check.h"
#include "report.h"
#include "fail_alloc.h"

#include <math.h>

static void test_markdown(void)
{
    prof_bench * b = check_new();
    FILE * f = tmpfile();
    const char * s;
    prof_bench_set_output(b, f);
    prof_bench_set_epoch_jitter(b, 0.0);
    prof_bench_run(b, "five \"ns\"", cost5, NULL);
    prof_bench_set_relative(b, 1);
    prof_bench_run(b, "base", cost5, NULL);
    prof_bench_set_wide(b, 1);
    prof_bench_run(b, "wide", cost5, NULL);
    prof_bench_set_relative(b, 0);
    prof_bench_set_wide(b, 0);
    prof_bench_run(b, "a|b\nc", cost5, NULL);
    prof_bench_free(b);
    s = check_slurp(f);
    /* the narrow table: the median, its interval, err%, the name */
    CHECK(strstr(s, "|  time/op | 95% this process |   err% | benchmark\n"
                    "|---------:|-----------------:|-------:|:----------\n"
                    "| 5.000 ns |   [5.000, 5.000] |     0% | `five \"ns\"`\n"),
          "narrow table: %s", s);
    CHECK(strstr(s, "|      relative |  time/op |") && strstr(s, "|   100.0% "
                    "\xC2\xB1" "0.0 | 5.000 ns |"), "relative: %s", s);
    /* the wide table: op/s, min and the time spent too */
    CHECK(strstr(s, "|      relative |  time/op |    op/s | 95% this process "
                    "|   err% |    min | total s | benchmark\n")
          && check_matches(s, "\\|   100\\.0% \xC2\xB1" "0\\.0 \\| 5\\.000 ns "
                           "\\|  200\\.0M \\|   \\[5\\.000, 5\\.000\\] \\|     0% "
                           "\\|  5\\.000 \\| 0\\.0[0-9]{4} \\| `wide`\n"),
          "wide table: %s", s);
    /* a name that would break the table: '|' escaped, the line break a space */
    CHECK(strstr(s, "| `a\\|b c`\n"), "name cell: %s", s);
    CHECK(strstr(s, "counter 1 GHz (read: 0 ns)"), "context: %s", s);
    fclose(f);
}

/* Values near 1e300 in %.4g (fixed point ran to 63
   digits, cut); a unit holding '|' or a line break kept in the header's
   cell; prof_bench_write refuses an unknown format. */
static void test_markdown_edges(void)
{
    prof_bench * b = check_new();
    FILE * f = tmpfile();
    capture_t cap;
    const char * s, * err;
    prof_bench_set_output(b, f);
    prof_bench_set_epoch_jitter(b, 0.0);
    prof_bench_set_relative(b, 1);
    prof_bench_run(b, "base", cost5, NULL);
    prof_bench_set_batch(b, 1e-295, "a|b\nc");    /* 5e295 ns/a|b c */
    prof_bench_run(b, "huge", cost5, NULL);
    s = check_slurp(f);
    CHECK(strstr(s, "|      relative | time/a\\|b c | 95% this process "
                    "|   err% | benchmark\n|--------------:|------------:|")
          && strstr(s, "| 1.000e+295x slower | 5.000e+286 s | [5.000e+286, "
                    "5.000e+286] |     0% | `huge`\n"), "table: %s", s);
    CHECK(!check_matches(s, "[0-9]{20}"), "20 digits in a row: %s", s);
    capture_begin(&cap, 2);
    CHECK(prof_bench_write(f, b, (prof_format) 7) == -1
          && prof_bench_write(f, b, (prof_format) -1) == -1, "format 7");
    err = capture_end(&cap);
    CHECK(strstr(err, "profiler: prof_bench_write: unknown format 7; nothing "
                  "written\n"), "message: %s", err);
    CHECK(prof_bench_write(f, b, PROF_FORMAT_NONE) == 0, "none");
    prof_bench_free(b);
    fclose(f);
}

static void test_json_csv(void)
{
    prof_bench * b = check_new();
    FILE * f = tmpfile(), * g = tmpfile();
    const char * s;
    size_t len;
    prof_bench_set_format(b, PROF_FORMAT_JSON);
    prof_bench_set_json_epochs(b, 1);    /* Google Benchmark's layout */
    prof_bench_set_output(b, f);
    prof_bench_set_epoch_jitter(b, 0.0);
    prof_bench_set_time_unit(b, "us");
    prof_bench_set_complexity_n(b, 10);
    prof_bench_run(b, "fam/10", cost5, NULL);
    prof_bench_set_complexity_n(b, 20);
    prof_bench_run(b, "fam/20", cost5, NULL);
    CHECK(prof_bench_finish(b) == 0, "finish");
    s = check_slurp(f);
    CHECK(strncmp(s, "{\n  \"context\": {\n    \"date\": \"", 30) == 0, "start: %.80s", s);
    CHECK(strstr(s, "\"library_build_type\": \"debug\"")
          || strstr(s, "\"library_build_type\": \"release\""), "build type");
    CHECK(check_count(s, "\"run_type\": \"iteration\"") == 22, "22 epochs");
    CHECK(check_count(s, "\"aggregate_name\": \"median\"") == 2, "medians");
    CHECK(strstr(s, "\"name\": \"fam/10_median\""), "aggregate name");
    CHECK(strstr(s, "\"repetitions\": 11,\n      \"repetition_index\": 10,"),
          "repetitions");
    CHECK(strstr(s, "\"iterations\": 200000,\n      \"real_time\": 0.005,\n"
                    "      \"cpu_time\": 0.005,\n      \"time_unit\": \"us\""),
          "epoch entry: %.2000s", s);
    CHECK(strstr(s, "\"name\": \"fam_BigO\"") && strstr(s, "\"big_o\": \"(1)\"")
          && strstr(s, "\"name\": \"fam_RMS\""), "complexity entries");
    CHECK(strstr(s, "\"ci_low\": 0.005") && strstr(s, "\"err_pct\": 0"),
          "profiler fields");
    CHECK(strstr(s, "\"family_index\": 0,\n      \"per_family_instance_index\": 1"),
          "family instance");
    CHECK(strlen(s) > 7 && strcmp(s + strlen(s) - 7, "\n  ]\n}\n") == 0,
          "end: %s", s + strlen(s) - 20);
    /* finishing again writes nothing more */
    /* (the length first: check_slurp reuses its buffer, s is in it) */
    len = strlen(s);
    CHECK(prof_bench_finish(b) == 0 && strlen(check_slurp(f)) == len, "twice");

    CHECK(prof_bench_write(g, b, PROF_FORMAT_CSV) == 0, "csv");
    s = check_slurp(g);
    CHECK(strncmp(s, "name,epochs,iterations,median,mean,min,max,p10,p50,p90,"
                  "percentile_epochs_needed,err_pct,", 83) == 0,
          "csv header: %s", s);
    CHECK(strstr(s, "\n\"fam/10\",11,2200000,0.005,0.005,0.005,0.005,0.005,"
                 "0.005,0.005,,0.0000,"), "csv row: %s", s);
    CHECK(check_count(s, "\n") == 3, "csv lines");
    prof_bench_free(b);
    fclose(f);
    fclose(g);
}

/* A target whose k-th call costs spread[k % 11] ns an iteration: with a
   fixed count, one call an epoch, epochs of 1 .. 11 ns in a shuffled
   order. */
static const double spread[11] = { 7, 1, 11, 2, 10, 3, 9, 4, 8, 5, 6 };
static int spread_calls;
static void cost_spread(void * arg, ulong count)
{
    (void) arg;
    fake_now += spread[spread_calls++ % 11] * (double) count;
}

/* What prof_bench_write writes of b in format. */
static const char * written(const prof_bench * b, prof_format format)
{
    FILE * f = tmpfile();
    const char * s;
    prof_bench_write(f, b, format);
    s = check_slurp(f);
    fclose(f);
    return s;
}

/* The percentiles, exact under the fake clock: p10, p50, p90 by default
   in JSON (Google Benchmark's user statistics) and CSV (columns); a list
   set; too few epochs said; the aggregates alone with a context pair. */
static void test_percentiles(void)
{
    static const double quartiles[] = { 95, 5, 25, 75 };
    prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
    FILE * f = tmpfile();
    capture_t cap;
    const char * s, * err;
    prof_bench_set_epoch_iterations(b, 1000);
    /* 11 epochs: the adaptive schedule (the default) would run its most
       on a spread this wide */
    prof_bench_set_schedule(b, PROF_SCHEDULE_FIXED);
    spread_calls = 0;
    prof_bench_run(b, "spread", cost_spread, NULL);
    CHECK(spread_calls == 11, "one call an epoch: %d", spread_calls);
    s = written(b, PROF_FORMAT_JSON);
    /* the default: one entry, the percentiles a field of it */
    CHECK(strstr(s, "\"percentiles\": {\"p10\": 2, \"p50\": 6, \"p90\": 10}")
          && check_count(s, "\"name\": ") == 1, "JSON, one entry: %s", s);
    prof_bench_set_json_epochs(b, 1);    /* Google Benchmark's layout */
    s = written(b, PROF_FORMAT_JSON);
    CHECK(strstr(s, "      \"name\": \"spread_p10\",\n"
                    "      \"family_index\": 0,\n"
                    "      \"per_family_instance_index\": 0,\n"
                    "      \"run_name\": \"spread\",\n"
                    "      \"run_type\": \"aggregate\",\n"
                    "      \"repetitions\": 11,\n      \"threads\": 1,\n"
                    "      \"aggregate_name\": \"p10\",\n"
                    "      \"aggregate_unit\": \"time\",\n"
                    "      \"iterations\": 11,\n      \"real_time\": 2,\n")
          && strstr(s, "\"aggregate_name\": \"p50\",\n"
                    "      \"aggregate_unit\": \"time\",\n"
                    "      \"iterations\": 11,\n      \"real_time\": 6,\n")
          && strstr(s, "\"aggregate_name\": \"p90\",\n"
                    "      \"aggregate_unit\": \"time\",\n"
                    "      \"iterations\": 11,\n      \"real_time\": 10,\n")
          && !strstr(s, "profiler_epochs_needed"), "JSON: %s", s);
    s = written(b, PROF_FORMAT_CSV);
    CHECK(strstr(s, "min,max,p10,p50,p90,percentile_epochs_needed,err_pct,")
          && strstr(s, "\"spread\",11,11000,6,6,1,11,2,6,10,,"), "CSV: %s", s);

    CHECK(prof_bench_set_percentiles(b, quartiles, 4) == 0, "set");
    s = written(b, PROF_FORMAT_CSV);
    CHECK(strstr(s, "min,max,p5,p25,p75,p95,percentile_epochs_needed,err_pct,")
          && strstr(s, "\"spread\",11,11000,6,6,1,11,1.5,3.5,8.5,10.5,21,"),
          "CSV, p5..p95: %s", s);
    s = written(b, PROF_FORMAT_JSON);
    CHECK(strstr(s, "\"real_time\": 1.5,\n      \"cpu_time\": 1.5,\n"
                    "      \"time_unit\": \"ns\",\n"
                    "      \"profiler_epochs_needed\": 21\n")
          && check_count(s, "profiler_epochs_needed") == 2, "JSON, p5: %s", s);

    /* the note, once, where a file or the console carries them */
    prof_bench_set_format(b, PROF_FORMAT_CSV);
    prof_bench_set_output(b, f);
    capture_begin(&cap, 2);
    prof_bench_finish(b);
    err = capture_end(&cap);
    CHECK(strstr(err, "profiler: p5 needs 21 epochs to be more than a blend of "
                  "the two fastest (or slowest); spread has 11 (1 benchmark "
                  "has fewer): --epochs=21, or --percentiles\n"), "note: %s",
          err);
    prof_bench_free(b);

    /* the aggregates alone, with a pair in the context */
    {
        char a0[] = "bench", a1[] = "--benchmark_report_aggregates_only",
             a2[] = "--benchmark_context=compiler_tag=x1", a3[] = "--percentiles=none",
             a4[] = "--json-epochs";
        char * argv[] = { a0, a1, a2, a3, a4, NULL };
        b = check_suite(NULL, PROF_FORMAT_NONE);
        CHECK(prof_bench_args(b, 5, argv) == 0, "args");
        prof_bench_set_epoch_iterations(b, 1000);
        prof_bench_run(b, "spread", cost_spread, NULL);
        s = written(b, PROF_FORMAT_JSON);
        CHECK(check_count(s, "\"run_type\": \"aggregate\"") == 4
              && check_count(s, "\"run_type\"") == 4
              && strstr(s, "\n    \"compiler_tag\": \"x1\",\n")
              && strstr(s, "\"name\": \"spread_cv\""), "aggregates: %s", s);
        prof_bench_free(b);
    }
    fclose(f);
}

/* The index of an entry in s whose name is name: its family and instance
   indexes into *fam, *inst (-1 if not found). */
static void json_indexes(const char * s, const char * name, int * fam,
        int * inst)
{
    char key[160];
    const char * p;
    snprintf(key, sizeof key, "\"name\": \"%s\",\n      \"family_index\": ",
             name);
    p = strstr(s, key);
    *fam = *inst = -1;
    if (p != NULL)
        sscanf(p + strlen(key), "%d,\n      \"per_family_instance_index\": %d",
               fam, inst);
}

/* Families in the order of their first member, whatever comes between
   the members: Google Benchmark's family_index. */
static void test_json_families(void)
{
    static const char * names[] = { "qsort/64", "sort/64", "qsort/256",
                                    "other", "sort/256", "qsort/1024" };
    static const int fam[] = { 0, 1, 0, 2, 1, 0 }, inst[] = { 0, 0, 1, 0, 1, 2 };
    prof_bench * b = check_new();
    FILE * f = tmpfile();
    const char * s;
    capture_t cap;
    int i, fi, ii;
    prof_bench_set_format(b, PROF_FORMAT_JSON);
    prof_bench_set_json_epochs(b, 1);
    prof_bench_set_output(b, f);
    prof_bench_set_epochs(b, 1);
    capture_begin(&cap, 2);     /* "1 epoch: too few for an interval" */
    for (i = 0; i < 6; i++)
        prof_bench_run(b, names[i], cost5, NULL);
    capture_end(&cap);
    prof_bench_finish(b);
    s = check_slurp(f);
    for (i = 0; i < 6; i++)
    {
        char entry[64];
        snprintf(entry, sizeof entry, "%s_median", names[i]);
        json_indexes(s, entry, &fi, &ii);
        CHECK(fi == fam[i] && ii == inst[i], "%s: family_index %d (want %d), "
              "per_family_instance_index %d (want %d)", names[i], fi, fam[i],
              ii, inst[i]);
    }
    prof_bench_free(b);
    fclose(f);
}

/* Each row in its own time unit: a unit fixed mid-suite starts a new
   table header, and CSV rows say their unit (they took the last one in
   force). */
static void test_units_per_row(void)
{
    prof_bench * b = check_new();
    FILE * f = tmpfile(), * g = tmpfile();
    const char * s;
    prof_bench_set_output(b, f);
    prof_bench_set_epoch_jitter(b, 0.0);
    prof_bench_run(b, "in ns", cost5, NULL);
    prof_bench_set_time_unit(b, "us");
    prof_bench_run(b, "in us", cost5, NULL);
    prof_bench_finish(b);
    s = check_slurp(f);
    CHECK(strstr(s, "|  time/op |") && strstr(s, "|    us/op |")
          && check_count(s, "| benchmark\n") == 2, "two headers: %s", s);
    CHECK(prof_bench_write(g, b, PROF_FORMAT_CSV) == 0, "csv");
    s = check_slurp(g);
    CHECK(strstr(s, "\n\"in ns\",11,2200000,5,5,5,5,") && strstr(s, ",ns,\"op\",")
          && strstr(s, "\n\"in us\",11,2200000,0.005,0.005,")
          && strstr(s, ",us,\"op\","), "CSV units per row: %s", s);
    prof_bench_free(b);
    fclose(f);
    fclose(g);
}

/* A filter that matches nothing fails the run; a baseline that the filter
   drops leaves the relative figures n/a, not 100%. */
static void test_honest_edges(void)
{
    prof_bench * b = check_new();
    FILE * f = tmpfile();
    capture_t cap;
    const char * err, * s;
    const prof_result * r;
    prof_bench_set_output(b, f);
    prof_bench_set_epoch_jitter(b, 0.0);
    prof_bench_set_filter(b, "^x");
    capture_begin(&cap, 2);
    prof_bench_set_relative(b, 1);
    prof_bench_run(b, "base", cost5, NULL);
    r = prof_bench_run(b, "x1", cost5, NULL);
    err = capture_end(&cap);
    CHECK(strstr(err, "profiler: the baseline \"base\" is filtered out: the "
                      "relative figures are n/a"), "message: %s", err);
    CHECK(r && isnan(r->relative_pct), "relative %g", r ? r->relative_pct : 0);
    CHECK(prof_bench_finish(b) == 0, "finish with a match");
    s = check_slurp(f);
    CHECK(strstr(s, "|      relative |") && strstr(s, "|           n/a |"),
          "table: %s", s);
    prof_bench_free(b);
    fclose(f);

    b = check_new();
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_filter(b, "nomatch");
    prof_bench_run(b, "a", cost5, NULL);
    prof_bench_run(b, "b", cost5, NULL);
    capture_begin(&cap, 2);
    CHECK(prof_bench_finish(b) == -1, "a filter that matched nothing passed");
    err = capture_end(&cap);
    CHECK(strstr(err, "profiler: the filter matched none of the 2 benchmarks: "
                      "nothing ran"), "message: %s", err);
    prof_bench_free(b);
}

static void test_args(void)
{
    prof_bench * b = check_new();
    capture_t cap;
    const char * err;
    char a0[] = "prog", a1[] = "--format=xml", a2[] = "--out=/nonexistent/dir/x.json",
         a3[] = "--filter=(", a4[] = "--format=csv", a5[] = "--filter=^keep",
         a6[] = "other";
    char * bad[] = { a0, a1, a2, a3 };
    char * good[] = { a0, a6, a4, a5 };
    FILE * f = tmpfile();
    const char * s;

    capture_begin(&cap, 2);
    CHECK(prof_bench_args(b, 2, bad) == -1, "unknown format accepted");
    CHECK(prof_bench_args(b, 3, bad) == -1, "unwritable file accepted");
    CHECK(prof_bench_args(b, 4, bad) == -1, "bad regex accepted");
    CHECK(prof_bench_set_output_path(b, "/nonexistent/dir/x.json") == -1,
          "unwritable path");
    err = capture_end(&cap);
    CHECK(strstr(err, "profiler: unknown format \"xml\": use md, csv, json or "
                      "none"), "message: %s", err);
    CHECK(strstr(err, "profiler: cannot open \"/nonexistent/dir/x.json\" for "
                      "writing"), "message: %s", err);
    CHECK(strstr(err, "profiler: bad filter \"(\""), "message: %s", err);

    CHECK(prof_bench_args(b, 4, good) == 0, "good args");
    prof_bench_set_output(b, f);
    prof_bench_set_epoch_jitter(b, 0.0);
    CHECK(prof_bench_run(b, "skip me", cost5, NULL) == NULL, "filtered");
    CHECK(prof_bench_run(b, "keep me", cost5, NULL) != NULL, "kept");
    prof_bench_free(b);   /* writes the CSV */
    s = check_slurp(f);
    CHECK(strncmp(s, "name,epochs", 11) == 0 && strstr(s, "\"keep me\"")
          && !strstr(s, "skip me"), "csv via args: %s", s);
    fclose(f);

    /* the environment */
    b = check_new();
    setenv("PROFILER_FORMAT", "bogus", 1);
    capture_begin(&cap, 2);
    CHECK(prof_bench_args(b, 0, NULL) == -1, "bad env format accepted");
    err = capture_end(&cap);
    CHECK(strstr(err, "unknown format \"bogus\""), "env message: %s", err);
    unsetenv("PROFILER_FORMAT");
    prof_bench_free(b);
}

static void test_write_failure(void)
{
    prof_bench * b = check_new();
    FILE * full = fopen("/dev/full", "w");
    capture_t cap;
    const char * err;
    if (full == NULL)
    {
        prof_bench_free(b);
        return;
    }
    prof_bench_set_format(b, PROF_FORMAT_JSON);
    prof_bench_set_output(b, full);
    prof_bench_run(b, "x", cost5, NULL);
    capture_begin(&cap, 2);
    CHECK(prof_bench_finish(b) == -1, "write failure not reported");
    err = capture_end(&cap);
    CHECK(strstr(err, "profiler: writing the benchmark results failed"),
          "message: %s", err);
    prof_bench_free(b);
    fclose(full);
}

/* Out of memory while the results file is written (every allocation in
   turn fails, from the first on): either the new file is whole (exit 0)
   or the old one stays as it was and the finish says -1, for JSON and
   CSV; never a partial document committed as if whole. */
static void test_file_out_of_memory(void)
{
    static const char * paths[2] = { "/tmp/prof-oom-test.json",
                                     "/tmp/prof-oom-test.csv" };
    int k;
    for (k = 0; k < 2; k++)
    {
        long n;
        int whole = 0;
        for (n = 0; n < 1000 && !whole; n++)
        {
            prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
            capture_t cap;
            const char * text;
            int rc;
            long failed;
            check_write_file(paths[k], "old\n");
            prof_bench_set_output_path(b, paths[k]);
            prof_bench_run(b, "x", cost5, NULL);
            capture_begin(&cap, 2);
            fail_alloc_after(n);
            rc = prof_bench_finish(b);
            failed = fail_alloc_failed();
            fail_alloc_after(-1);
            (void) capture_end(&cap);
            text = check_file_text(paths[k]);
            if (rc == 0)
            {
                CHECK(text != NULL && strstr(text, k == 0 ? "\"run_name\": \"x\""
                                                        : "\n\"x\",") != NULL,
                      "%s, allocation %ld failed: exit 0, file [%s]",
                      paths[k], n, text ? text : "(none)");
                whole = failed == 0;
            }
            else
                CHECK(text != NULL && strcmp(text, "old\n") == 0,
                      "%s, allocation %ld failed: the old file became [%s]",
                      paths[k], n, text ? text : "(none)");
            prof_bench_free(b);
        }
        CHECK(whole, "%s: never written whole", paths[k]);
        remove(paths[k]);
    }
}

/* Out of memory anywhere in a run (each allocation in turn fails: from
   it on, or it alone): never a crash; the result is whole with its name,
   or lost with a message. */
static void test_run_out_of_memory(void)
{
    int only;
    for (only = 0; only < 2; only++)
    {
        long n;
        int whole = 0;
        for (n = 0; n < 2000 && !whole; n++)
        {
            prof_bench * b;
            const prof_result * r;
            capture_t cap;
            const char * err;
            long failed;
            capture_begin(&cap, 2);
            (only ? fail_alloc_only : fail_alloc_after)(n);
            b = check_suite(NULL, PROF_FORMAT_NONE);
            r = b != NULL ? prof_bench_run(b, "x", cost5, NULL) : NULL;
            failed = fail_alloc_failed();
            fail_alloc_after(-1);
            err = capture_end(&cap);
            if (r != NULL)
            {
                CHECK(r->name != NULL && strcmp(r->name, "x") == 0
                      && r->median_ns == 5.0, "allocation %ld failed%s: a "
                      "result named [%s], median %g", n, only ? " alone" : "",
                      r->name ? r->name : "(null)", r->median_ns);
                whole = failed == 0;
            }
            else
                CHECK(strstr(err, "profiler: ") != NULL, "allocation %ld "
                      "failed%s: no result and no message", n,
                      only ? " alone" : "");
            prof_bench_free(b);
        }
        CHECK(whole, "a run never came through whole");
    }
}

static void sleeper(void * arg, ulong count)
{
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
        sleep_ms(300);
}

static void nothing(void * arg, ulong count)
{
    (void) arg; (void) count;
}

/* FLINT style: 5 ms of untimed set-up per call around an empty timed
   section (the count is not looped over) */
static void flint_setup_only(void * arg, ulong count)
{
    (void) arg;
    (void) count;
    sleep_ms(5);
    prof_start();
    prof_stop();
}

static void test_real_targets(void)
{
    prof_bench * b = check_new();
    const prof_result * r;
    capture_t cap;
    const char * err;
    double t0 = mono_ns();
    prof_bench_set_format(b, PROF_FORMAT_NONE);

    capture_begin(&cap, 2);
    r = prof_bench_run(b, "nothing", nothing, NULL);
    err = capture_end(&cap);
    CHECK((mono_ns() - t0) * 1e-9 < 10.0, "nothing took %g s",
          (mono_ns() - t0) * 1e-9);
    CHECK(r && (r->flags & PROF_RESULT_RESOLUTION) && r->median_ns < 0.01,
          "nothing: %g ns, flags %d", r ? r->median_ns : -1, r ? r->flags : -1);
    CHECK(strstr(err, "profiler: nothing: ") && strstr(err, "optimised away"),
          "message: %s", err);

    /* Only prof_start..prof_stop counts. Asserted so that no load can
       break it (a 2x ratio against a whole-call figure failed under qemu
       on a busy machine): the timed section is empty, so an epoch's timed
       part is two counter reads, while each call sleeps 5 ms outside it.
       Counted, the set-up would make every epoch at least 5 ms; excluded,
       a load can only stretch an epoch past 1 ms by preempting the few
       nanoseconds between the two reads, in most epochs at once. */
    capture_begin(&cap, 2);     /* it warns: "optimised away?" */
    r = prof_bench_run(b, "flint", flint_setup_only, NULL);
    capture_end(&cap);
    CHECK(r && r->epochs >= 6, "epochs %d", r ? r->epochs : -1);
    if (r && r->epochs >= 6)
    {
        double epoch_ns[64];
        int k, n = r->epochs < 64 ? r->epochs : 64, below = 0;
        for (k = 0; k < n; k++)
        {
            epoch_ns[k] = r->samples_ns[k] * (double) r->epoch_iters[k];
            below += epoch_ns[k] < 1e6;
        }
        CHECK(2 * below > n, "set-up counted: %d of %d epochs under 1 ms "
              "(first %g ns)", below, n, epoch_ns[0]);
    }
    CHECK(r && r->total_s > 11 * 5e-3, "set-up not in total: %g s",
          r ? r->total_s : 0);
    prof_bench_free(b);
}

static void test_real_slow_target(void)
{
    /* real clock: 300 ms per call and a 1 s budget end in ~1.2-2 s */
    prof_bench * b = check_new();
    const prof_result * r;
    capture_t cap;
    double t0 = mono_ns();
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_budget_s(b, 1.0);
    capture_begin(&cap, 2);
    r = prof_bench_run(b, "sleeps", sleeper, NULL);
    capture_end(&cap);
    CHECK((mono_ns() - t0) * 1e-9 < 20.0, "took %g s", (mono_ns() - t0) * 1e-9);
    CHECK(r && (r->flags & PROF_RESULT_BUDGET) && r->epochs >= 1
          && r->epochs <= 4, "epochs %d flags %d", r ? r->epochs : -1,
          r ? r->flags : -1);
    CHECK(r && r->median_ns > 250e6 && r->median_ns < 5e9, "median %g",
          r ? r->median_ns : 0);
    prof_bench_free(b);
}

/* The lines around the table wrap within its 100 columns, at a space
   after a ',', ';' or ':' where one is in reach, keeping every word; a
   word longer than the line stays whole. */
static void test_wrap(void)
{
    static const char line[] = "machine: load 123.45 on 128 cores (over the "
        "cores), governor performance, turbo unknown, ASLR partial, virtual "
        "machine yes, PMU no, and some more words to pass two hundred "
        "columns: lorem ipsum dolor sit amet, consectetur adipiscing elit";
    FILE * f = tmpfile();
    const char * s, * p, * x;
    char joined[sizeof line + 8], longword[160];
    size_t n = 0;
    prof_impl_md_wrap(f, line);
    memset(longword, 'x', sizeof longword - 1);
    longword[sizeof longword - 1] = '\0';
    prof_impl_md_wrap(f, longword);
    s = check_slurp(f);
    x = strchr(s, 'x');
    CHECK(x != NULL && strlen(x) == sizeof longword, "a long word: %s", s);
    for (p = s; x != NULL && p < x; p = strchr(p, '\n') + 1)
    {
        size_t len = (size_t) (strchr(p, '\n') - p);
        CHECK(len <= 100, "a line of %lu columns: %.*s", (unsigned long) len,
              (int) len, p);
        CHECK(p + len + 1 == x || strchr(",;:", p[len - 1]) != NULL,
              "not cut after a mark: %.*s", (int) len, p);
        if (n + len + 1 < sizeof joined)
        {
            memcpy(joined + n, p, len);
            n += len;
            joined[n++] = ' ';
        }
    }
    joined[n > 0 ? n - 1 : 0] = '\0';
    CHECK(strcmp(joined, line) == 0, "the words changed: %s", joined);
    fclose(f);
}

int main(void)
{
    test_wrap();
    prof_impl_set_fake_clock(fake_read, 1e9);
    test_markdown();
    test_markdown_edges();
    test_json_csv();
    test_json_families();
    test_percentiles();
    test_honest_edges();
    test_units_per_row();
    test_args();
    test_write_failure();
    test_file_out_of_memory();
    test_run_out_of_memory();
    prof_impl_set_fake_clock(NULL, 0);
    test_real_targets();
    test_real_slow_target();
    return check_report("test_bench_output");
}
