/* The runner's event counters, driven by a fake clock: with counters off no
   perf call and no counter columns; with counters on, a target that touches
   N fresh pages per iteration shows about N page faults per operation (a
   software event: it counts even in a VM), hardware events are either
   counted or n/a (never 0), the outputs carry the right columns and fields,
   the JSON parses, the set is opened once per process, and bad input gets a
   message. */
#include "check.h"
#include "internal.h"
#include "bench.h"
#include "../src/tools/common/json.h"
#include "../src/tools/compare/compare.h"
#include "bench_check.h"

#include <math.h>
#include <pthread.h>

#define PAGES 16
#define ITERS 8
#define EVENTS "cycles,instructions,branches,branch-misses,page-faults," \
               "context-switches,task-clock"

/* Each iteration maps PAGES fresh pages, writes one byte in each (one page
   fault apiece) and unmaps them; the fake clock advances 1000 ns. */
static void touch_pages(void * arg, ulong count)
{
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
        check_fault_pages(PAGES);
    fake_now += 1000.0 * (double) count;
}

static prof_bench * suite(FILE * out, prof_format format, const char * events)
{
    prof_bench * b = check_suite(out, format);
    prof_bench_set_epochs(b, 7);
    prof_bench_set_epoch_iterations(b, ITERS);
    prof_bench_set_wide(b, 1);          /* every column that has a count */
    CHECK(prof_bench_set_counters(b, events) == 0, "set_counters(%s)",
          events ? events : "NULL");
    return b;
}

/* What this machine can count, from a set of our own. */
static prof_counters probe;
static int can(const char * name)
{
    return prof_counters_available(&probe, prof_counters_find(&probe, name));
}

/* Exact figures: fake counts per epoch (12 instructions, 4 cycles, 3
   branches, 0.03 branch misses per iteration, page faults unavailable);
   every third epoch counts 10^6 extra instructions, which the median over
   epochs must ignore. */
static int fake_epoch;
static double fake_counts(const char * event, ulong iters)
{
    double n = (double) iters;
    if (strcmp(event, "instructions") == 0)
        return 12.0 * n + (fake_epoch++ % 3 == 2 ? 1e6 : 0.0);
    if (strcmp(event, "cycles") == 0) return 4.0 * n;
    if (strcmp(event, "branches") == 0) return 3.0 * n;
    if (strcmp(event, "branch-misses") == 0) return 0.03 * n;
    if (strcmp(event, "context-switches") == 0) return 0.0;
    return NAN;
}

static void test_fake_counts(void)
{
    FILE * f = tmpfile(), * g = tmpfile();
    prof_bench * b;
    const prof_result * r;
    const char * s;

    prof_impl_fake_counts = fake_counts;
    b = suite(f, PROF_FORMAT_MD, "instructions,cycles,branches,branch-misses,"
              "page-faults,context-switches");
    prof_bench_set_epoch_iterations(b, 100);
    prof_bench_set_epochs(b, 9);
    r = prof_bench_run(b, "fake", cost5, NULL);
    CHECK(r != NULL && r->ncounters == 6, "fake: counters");
    if (r == NULL)
        return;
    CHECK(r->counters[0] == 12.0 && r->counters[1] == 4.0
          && r->counters[2] == 3.0 && fabs(r->counters[3] - 0.03) < 1e-15
          && isnan(r->counters[4]) && r->counters[5] == 0.0,
          "fake per op: %g %g %g %g %g %g", r->counters[0], r->counters[1],
          r->counters[2], r->counters[3], r->counters[4], r->counters[5]);
    CHECK(r->ipc == 3.0 && fabs(r->branch_miss_pct - 1.0) < 1e-12,
          "ipc %g miss %g", r->ipc, r->branch_miss_pct);
    /* per unit with a batch; the loop macro too */
    prof_bench_set_batch(b, 2.0, "item");
    PROF_BENCH_LOOP(b, "fake loop") { PROF_CLOBBER(); }
    r = prof_bench_result(b, 1);
    CHECK(r != NULL && r->counters[1] == 2.0 && r->ipc == 3.0,
          "loop per item: %g", r ? r->counters[1] : NAN);
    CHECK(prof_impl_perf_open_calls == 0, "fake counts opened perf events");
    s = check_slurp(f);
    /* wide: every event but page-faults, which is n/a (no column) */
    CHECK(strstr(s, "|  ins/op |  cyc/op |     IPC |  bra/op |"
                    "   miss% |  ctx/op | total s |"),
          "fake header: %s", s);
    CHECK(strstr(s, "|   12.00 |   4.000 |   3.000 |   3.000 |"
                    "   1.00% |       0 |"), "fake row: %s", s);
    CHECK(strstr(s, "| ins/item | cyc/item |     IPC | bra/item |"
                    "   miss% | ctx/item |"),
          "header for the new unit: %s", s);
    CHECK(strstr(s, "|    6.000 |    2.000 |   3.000 |    1.500 |"
                    "   1.00% |        0 |"), "loop row: %s", s);
    CHECK(!strstr(s, "n/a |"), "an n/a column: %s", s);

    CHECK(prof_bench_write(g, b, PROF_FORMAT_CSV) == 0, "csv");
    s = check_slurp(g);
    CHECK(strstr(s, ",samples,instructions,cycles,branches,branch-misses,"
                    "page-faults,context-switches,ipc,branch_miss_pct\n"),
          "csv header: %s", s);
    CHECK(strstr(s, "\",12,4,3,0.03,,0,3,1\n"), "csv row: %s", s);
    rewind(g);
    prof_bench_set_json_epochs(b, 1);    /* an entry per epoch */
    CHECK(prof_bench_write(g, b, PROF_FORMAT_JSON) == 0, "json");
    s = check_slurp(g);
    /* an epoch entry: its own counts, the outlier epoch included */
    CHECK(strstr(s, "\"time_unit\": \"ns\",\n      \"instructions\": 12,\n"
                    "      \"cycles\": 4,\n      \"branches\": 3,\n"
                    "      \"branch-misses\": 0.03,\n"
                    "      \"context-switches\": 0,\n      \"ipc\": 3,\n"
                    "      \"branch_miss_pct\": 1\n    }"), "epoch entry: %s", s);
    CHECK(strstr(s, "\"instructions\": 10012,"), "outlier epoch: %s", s);
    CHECK(!strstr(s, "page-faults"), "unavailable event written");
    CHECK(strstr(s, "\"aggregate_name\": \"median\",") && check_count(s,
          "\"cycles\": 4,") >= 9, "median entry: %s", s);
    prof_bench_free(b);
    prof_impl_fake_counts = NULL;
    fclose(f);
    fclose(g);
}

/* One epoch's count from two readings of the running totals. */
static void test_delta(void)
{
    prof_counter_value a = { 1000.0, 1000.0, 5000.0, 5000.0 }, b = a;
    b.raw = 1100.0; b.enabled_ns = 5200.0; b.running_ns = 5100.0;
    /* 100 counted while running 100 of 200 ns: 200 */
    CHECK(prof_impl_bench_counters_delta(&a, &b, 0.0) == 200.0, "multiplexed");
    CHECK(prof_impl_bench_counters_delta(&a, &b, 7.0) == 193.0, "overhead");
    CHECK(prof_impl_bench_counters_delta(&a, &b, 250.0) == 0.0, "below overhead");
    b.running_ns = 5000.0;      /* enabled, never ran: unknown, not 0 */
    CHECK(isnan(prof_impl_bench_counters_delta(&a, &b, 0.0)), "never ran");
    b.enabled_ns = 5000.0;      /* software event, no time fields moved */
    CHECK(prof_impl_bench_counters_delta(&a, &b, 0.0) == 100.0, "unscaled");
    b.raw = NAN;
    CHECK(isnan(prof_impl_bench_counters_delta(&a, &b, 0.0)), "unavailable");
}

static void test_off(void)
{
    FILE * f = tmpfile(), * g = tmpfile();
    prof_bench * b = suite(f, PROF_FORMAT_MD, NULL);
    const prof_result * r;
    const char * s;

    r = prof_bench_run(b, "off", touch_pages, NULL);
    CHECK(r != NULL && r->ncounters == 0 && r->counters == NULL
          && r->counter_names == NULL, "counters off: no counters");
    CHECK(r != NULL && isnan(r->ipc) && isnan(r->branch_miss_pct), "off: NaN");
    PROF_BENCH_LOOP(b, "off loop") { PROF_CLOBBER(); }
    CHECK(prof_impl_perf_open_calls == 0, "counters off made %lu perf calls",
          prof_impl_perf_open_calls);
    s = check_slurp(f);
    CHECK(!strstr(s, "ins/op") && !strstr(s, "faults/op") && !strstr(s, "counters:"),
          "off: counter columns: %s", s);
    CHECK(prof_bench_write(g, b, PROF_FORMAT_CSV) == 0, "csv");
    s = check_slurp(g);
    CHECK(strstr(s, ",warning,samples\n") && !strstr(s, "page-faults"),
          "off: csv header: %s", s);
    rewind(g);
    prof_bench_set_json_epochs(b, 1);    /* an entry per epoch */
    CHECK(prof_bench_write(g, b, PROF_FORMAT_JSON) == 0, "json");
    s = check_slurp(g);
    CHECK(!strstr(s, "page-faults") && !strstr(s, "profiler_counters"),
          "off: json has counters");
    prof_bench_free(b);
    fclose(f);
    fclose(g);
}

static void test_page_faults(void)
{
    FILE * f = tmpfile();
    prof_bench * b = suite(f, PROF_FORMAT_MD, EVENTS);
    const prof_result * r, * r2;
    unsigned long calls;
    const char * s;
    int k, hw_missing = 0;
    const char * hw[] = { "cycles", "instructions", "branches", "branch-misses" };

    r = prof_bench_run(b, "pages", touch_pages, NULL);
    calls = prof_impl_perf_open_calls;
    CHECK(calls > 0, "counters on: no perf call");
    CHECK(r != NULL && r->ncounters == 7, "ncounters %d", r ? r->ncounters : -1);
    if (r == NULL)
        return;
    CHECK(strcmp(r->counter_names[0], "cycles") == 0
          && strcmp(r->counter_names[4], "page-faults") == 0
          && strcmp(r->counter_names[6], "task-clock") == 0, "names");
    /* the time is the fake clock's, whatever the counters did */
    CHECK(r->median_ns == 1000.0 && r->epochs == 7, "median %g", r->median_ns);
    if (can("page-faults"))
    {
        double pf = prof_result_counter(r, "page-faults");
        printf("page faults per op: %g (touching %d fresh pages)\n", pf, PAGES);
        /* ASan's shadow memory adds a fault per 8 pages or so */
        CHECK(pf >= PAGES - 0.5 && pf <= 1.5 * PAGES + 1.0,
              "page faults per op %g, expected about %d", pf, PAGES);
        CHECK(prof_result_counter(r, "faults") == pf, "alias");
        CHECK(r->counters[4] == pf, "field and accessor differ");
    }
    else
    {
        CHECK(isnan(prof_result_counter(r, "page-faults")), "unavailable: not NaN");
        printf("page-faults unavailable here: count not checked\n");
    }
    if (can("task-clock"))
        CHECK(prof_result_counter(r, "task-clock") > 0.0, "task-clock");
    if (can("context-switches"))
        CHECK(prof_result_counter(r, "context-switches") >= 0.0, "ctx");
    for (k = 0; k < 4; k++)
    {
        double v = prof_result_counter(r, hw[k]);
        if (can(hw[k]))
            CHECK(v >= 0.0, "%s counted but %g", hw[k], v);
        else
        {
            CHECK(isnan(v), "%s unavailable but %g (never 0)", hw[k], v);
            hw_missing = 1;
        }
    }
    CHECK(can("cycles") && can("instructions") ? r->ipc > 0.0 : isnan(r->ipc),
          "ipc %g", r->ipc);
    CHECK(can("branches") && can("branch-misses") ? r->branch_miss_pct >= 0.0
          : isnan(r->branch_miss_pct), "miss%% %g", r->branch_miss_pct);

    /* the same set serves a second benchmark and a second suite: no open */
    prof_bench_set_batch(b, 4.0, "quarter");
    r2 = prof_bench_run(b, "pages/4", touch_pages, NULL);
    CHECK(prof_impl_perf_open_calls == calls, "reopened: %lu -> %lu calls",
          calls, prof_impl_perf_open_calls);
    if (r2 != NULL && can("page-faults"))
        CHECK(fabs(prof_result_counter(r2, "page-faults") * 4.0
                   - prof_result_counter(r, "page-faults")) <= 2.0,
              "per unit: %g vs %g / 4", prof_result_counter(r2, "page-faults"),
              prof_result_counter(r, "page-faults"));
    prof_bench_free(b);

    s = check_slurp(f);
    printf("%s", s);
    /* the events that count have columns, in nanobench's order; those that
       are n/a have none, and the context line says why */
    {
        static const char * ev[6] = { "instructions", "cycles", "branches",
            "page-faults", "context-switches", "task-clock" };
        static const char * head[6] = { " ins/op |", " cyc/op |", " bra/op |",
            " faults/op |", " ctx/op |", " task-ns/op |" };
        for (k = 0; k < 6; k++)
            CHECK(!strstr(s, head[k]) == !can(ev[k]), "%s: a column iff it "
                  "counts (%d): %s", ev[k], can(ev[k]), s);
        CHECK(!strstr(s, " IPC |") == !(can("cycles") && can("instructions")),
              "IPC column: %s", s);
        CHECK(strstr(s, "| time/quarter |"), "second header for the new unit: %s",
              s);
    }
    CHECK(check_count(s, "counters: ") == 1, "context line once: %s", s);
    CHECK(!strstr(s, "n/a |"), "an n/a column: %s", s);
    if (hw_missing)
        CHECK(strstr(s, " n/a ("), "n/a and its reason: %s", s);
    else
        CHECK(!strstr(s, "n/a"), "n/a with all events counting: %s", s);
    fclose(f);
}

static void test_loop_and_outputs(void)
{
    FILE * f = tmpfile(), * g = tmpfile();
    prof_bench * b = suite(f, PROF_FORMAT_JSON, EVENTS);
    const prof_result * r;
    const char * s;
    char err[200];
    prof_json * j;
    prof_result_file rf;

    prof_bench_set_json_epochs(b, 1);    /* an entry per epoch */
    PROF_BENCH_LOOP(b, "loop pages")
    {
        touch_pages(NULL, 1);
    }
    r = prof_bench_result(b, prof_bench_count(b) - 1);
    CHECK(r != NULL && r->ncounters == 7, "loop counters");
    if (r != NULL && can("page-faults"))
        CHECK(r->counters[4] >= PAGES - 0.5 && r->counters[4] <= 1.5 * PAGES + 1.0,
              "loop: %g page faults per op", r->counters[4]);
    prof_bench_run(b, "five", cost5, NULL);
    CHECK(prof_bench_finish(b) == 0, "finish");
    s = check_slurp(f);
    j = prof_impl_json_parse(s, strlen(s), err, sizeof err);
    CHECK(j != NULL, "json does not parse: %s", err);
    if (j != NULL)
    {
        const prof_json * ctx = prof_impl_json_get(j, "context");
        const prof_json * list = prof_impl_json_get(j, "benchmarks");
        const prof_json * e, * med = NULL;
        size_t i;
        CHECK(ctx && prof_impl_json_get(ctx, "profiler_counters")
              && prof_impl_json_get(ctx, "profiler_counters")->kind == PROF_JSON_STRING,
              "context: profiler_counters");
        for (i = 0; list != NULL && i < list->count; i++)
        {
            const prof_json * an = prof_impl_json_get(list->items[i], "aggregate_name");
            if (an && an->kind == PROF_JSON_STRING && strcmp(an->string, "median") == 0)
            {
                med = list->items[i];
                break;
            }
        }
        CHECK(med != NULL, "no median entry");
        e = list != NULL && list->count > 0 ? list->items[0] : NULL;
        if (e != NULL && med != NULL && can("page-faults"))
        {
            const prof_json * pf = prof_impl_json_get(e, "page-faults");
            const prof_json * pm = prof_impl_json_get(med, "page-faults");
            CHECK(pf && pf->kind == PROF_JSON_NUMBER && pf->number >= PAGES - 1,
                  "iteration entry: page-faults");
            CHECK(pm && pm->kind == PROF_JSON_NUMBER && r != NULL
                  && pm->number == r->counters[4], "median entry: page-faults");
        }
        if (e != NULL && !can("cycles"))
            CHECK(prof_impl_json_get(e, "cycles") == NULL
                  && prof_impl_json_get(e, "ipc") == NULL,
                  "unavailable cycles written");
        if (e != NULL && can("cycles"))
            CHECK(prof_impl_json_get(e, "cycles") != NULL, "cycles missing");
        prof_impl_json_free(j);
    }
    /* prof-compare's loader reads it back */
    memset(&rf, 0, sizeof rf);
    CHECK(prof_impl_results_parse(s, strlen(s), &rf, err, sizeof err) == 0
          && rf.count == 2, "loader: %s", err);
    prof_impl_results_free(&rf);

    CHECK(prof_bench_write(g, b, PROF_FORMAT_CSV) == 0, "csv");
    s = check_slurp(g);
    CHECK(strstr(s, ",samples,cycles,instructions,branches,branch-misses,"
                    "page-faults,context-switches,task-clock,ipc,branch_miss_pct\n"),
          "csv header: %s", s);
    if (!can("cycles") && !can("instructions") && !can("branches")
        && !can("branch-misses") && can("page-faults"))
        /* hardware fields empty, software ones numbers, derived empty */
        CHECK(strstr(s, "\",,,,,") && check_count(s, ",,\n") == 2,
              "csv empty fields: %s", s);
    prof_bench_free(b);
    fclose(f);
    fclose(g);
}

static void test_bad_input(void)
{
    prof_bench * b = prof_bench_new();
    capture_t cap;
    const char * err;
    char a0[] = "prog", a1[] = "--counters", a2[] = "--counters=off",
         a3[] = "--counters=cycles,nope";
    char * on[] = { a0, a1 }, * off[] = { a0, a2 }, * bad[] = { a0, a3 };
    FILE * f = tmpfile();
    const prof_result * r;

    capture_begin(&cap, 2);
    CHECK(prof_bench_set_counters(NULL, "cycles") == -1, "NULL suite");
    CHECK(prof_bench_set_counters(b, "bogus") == -1, "unknown event");
    CHECK(prof_bench_set_counters(b, "cycles,cycles") == -1, "repeated");
    CHECK(prof_bench_set_counters(b, "cycles,,branches") == -1, "empty name");
    CHECK(prof_bench_args(b, 2, bad) == -1, "bad --counters");
    CHECK(isnan(prof_result_counter(NULL, "cycles")), "NULL result");
    err = capture_end(&cap);
    CHECK(strstr(err, "profiler: prof_bench_set_counters: the suite is NULL")
          || strstr(err, "profiler: prof_bench_set_counters"), "msg: %s", err);
    CHECK(strstr(err, "unknown event \"bogus\"") && strstr(err, "unknown event \"nope\"")
          && strstr(err, "listed twice") && strstr(err, "empty event name"),
          "messages: %s", err);
    CHECK(strstr(err, "prof_result_counter: the result is NULL"), "msg: %s", err);

    /* the settings were left unchanged (off), then --counters turns on the
       default events, --counters=off turns them off again */
    prof_bench_set_output(b, f);
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_epoch_iterations(b, 10);
    prof_bench_set_epochs(b, 6);
    r = prof_bench_run(b, "still off", cost5, NULL);
    CHECK(r && r->ncounters == 0, "bad lists changed the setting");
    CHECK(prof_bench_args(b, 2, on) == 0, "--counters");
    r = prof_bench_run(b, "default", cost5, NULL);
    CHECK(r && r->ncounters == 7 && strcmp(r->counter_names[6], "context-switches") == 0,
          "--counters: default events (%d)", r ? r->ncounters : -1);
    capture_begin(&cap, 2);
    CHECK(r && isnan(prof_result_counter(r, "wrong")), "unknown name");
    CHECK(r && isnan(prof_result_counter(r, "cache-misses")), "not counted");
    err = capture_end(&cap);
    CHECK(check_count(err, "profiler: prof_result_counter: unknown event name") == 1,
          "msg: %s", err);
    CHECK(prof_bench_args(b, 2, off) == 0, "--counters=off");
    r = prof_bench_run(b, "off again", cost5, NULL);
    CHECK(r && r->ncounters == 0, "--counters=off");
    setenv("PROFILER_COUNTERS", "page-faults,cpu-migrations", 1);
    CHECK(prof_bench_args(b, 0, NULL) == 0, "env");
    unsetenv("PROFILER_COUNTERS");
    capture_begin(&cap, 2);
    r = prof_bench_run(b, "env", cost5, NULL);
    err = capture_end(&cap);
    /* cpu-migrations is not in the process's set: n/a with a message */
    CHECK(r && r->ncounters == 2 && isnan(r->counters[1]), "env: %d events",
          r ? r->ncounters : -1);
    CHECK(strstr(err, "\"cpu-migrations\" is not in it: n/a"), "msg: %s", err);
    prof_bench_free(b);
    fclose(f);
}

/* A suite on another thread than the one that opened the process's set:
   its events are n/a (the set counts the opening thread), with a message. */
static void * other_thread(void * arg)
{
    prof_bench * b = prof_bench_new();
    const prof_result * r;
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_epoch_iterations(b, 4);
    prof_bench_set_epochs(b, 6);
    prof_bench_set_counters(b, "page-faults");
    r = prof_bench_run(b, "other thread", touch_pages, NULL);
    *(double *) arg = r != NULL && r->ncounters == 1 ? r->counters[0] : -1.0;
    prof_bench_free(b);
    return NULL;
}

static void test_other_thread(void)
{
    pthread_t t;
    double pf = 0.0;
    capture_t cap;
    const char * err;
    capture_begin(&cap, 2);
    if (pthread_create(&t, NULL, other_thread, &pf) == 0)
        pthread_join(t, NULL);
    err = capture_end(&cap);
    CHECK(isnan(pf), "another thread's count: %g (expected n/a)", pf);
    CHECK(strstr(err, "counts the thread that opened it"), "msg: %s", err);
}

int main(void)
{
    prof_impl_set_fake_clock(fake_read, 1e9);
    test_delta();
    test_fake_counts();
    test_off();
    /* our own probe opens after the off test, which must see no perf call */
    prof_counters_open(&probe, EVENTS);
    test_page_faults();
    test_loop_and_outputs();
    test_bad_input();
    test_other_thread();
    prof_counters_close(&probe);
    prof_impl_set_fake_clock(NULL, 0);
    return check_report("test_bench_counters");
}
