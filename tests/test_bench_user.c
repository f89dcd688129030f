/* User counters and user measures under the fake clock, with exact
   figures: per unit and per second, zeros, counters a benchmark does not
   use, batch units, the loop macro, the table's columns, CSV fields and
   parsed JSON fields; names added from another thread during runs; the
   limit of counters and every bad input. Run under ThreadSanitizer in
   CI. */
#include "check.h"
#include "bench.h"
#include "bench_check.h"
#include "../src/tools/common/json.h"

#include <math.h>
#include <pthread.h>

/* 5 ns per iteration; adds 4096 to "bytes", 1 to "items" (a rate), 0 to
   "zero" per iteration, looking them up once per call. */
static void counting(void * arg, ulong count)
{
    int bytes = prof_user_counter("bytes", 0);
    int items = prof_user_counter("items", PROF_USER_RATE);
    int zero = prof_user_counter("zero", 0);
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
    {
        prof_user_count(bytes, 4096);
        prof_user_count(items, 1);
        prof_user_count(zero, 0);
    }
    fake_now += 5.0 * (double) count;
}

/* A counting allocator's totals, read by two measures. */
static double allocs, heap;
static double read_allocs(void * arg) { (void) arg; return allocs; }
static double read_heap(void * arg) { (void) arg; return heap; }
static int resets;
static double reset_start(void * arg) { (void) arg; resets++; return 0.0; }
static double reset_stop(void * arg) { return *(const double *) arg; }

static void allocating(void * arg, ulong count)
{
    (void) arg;
    allocs += 3.0 * (double) count;
    heap += 48.0 * (double) count;
    fake_now += 5.0 * (double) count;
}

static void test_counters(void)
{
    prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
    const prof_result * r = prof_bench_run(b, "counting", counting, NULL);
    int k;
    CHECK(r != NULL && r->nuser == 3, "%d user columns", r ? r->nuser : -1);
    if (r == NULL)
        return;
    CHECK(strcmp(r->user_names[0], "bytes") == 0
          && strcmp(r->user_names[1], "items") == 0
          && strcmp(r->user_names[2], "zero") == 0, "order of first lookup");
    CHECK(r->user[0] == 4096.0 && prof_result_user(r, "bytes") == 4096.0,
          "bytes/op %g", r->user[0]);
    /* one item per 5 ns: 2e8 per second */
    CHECK(near(r->user[1], 2e8) && r->user_flags[1] == PROF_USER_RATE,
          "items/s %g", r->user[1]);
    CHECK(r->user[2] == 0.0 && !signbit(r->user[2]), "zero/op %g", r->user[2]);
    CHECK(r->user_units[0][0] == '\0' && r->user_flags[0] == 0, "no unit");
    CHECK(isnan(prof_result_user(r, "nothing")), "unknown name");

    /* a benchmark that adds to none shows none; batch units divide */
    r = prof_bench_run(b, "plain", cost5, NULL);
    CHECK(r != NULL && r->nuser == 0 && r->user == NULL, "plain: %d columns",
          r ? r->nuser : -1);
    prof_bench_set_batch(b, 64, "byte");
    r = prof_bench_run(b, "per byte", counting, NULL);
    CHECK(r && near(prof_result_user(r, "bytes"), 64.0), "bytes/byte %g",
          r ? prof_result_user(r, "bytes") : -1);
    /* a rate is per second whatever the batch */
    CHECK(r && near(prof_result_user(r, "items"), 2e8), "items/s %g",
          r ? prof_result_user(r, "items") : -1);
    prof_bench_set_batch(b, 1, NULL);

    /* the loop macro */
    k = prof_user_counter("loop items", 0);
    PROF_BENCH_LOOP(b, "loop")
    {
        prof_user_count(k, 2);
        fake_now += 1.0;
    }
    r = prof_bench_result(b, prof_bench_count(b) - 1);
    CHECK(r && r->nuser == 1 && r->user[0] == 2.0, "loop: %g",
          r && r->nuser ? r->user[0] : -1);
    prof_bench_free(b);
}

static void test_measures(void)
{
    static double per_call = 700.0;
    prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
    const prof_result * r;
    CHECK(prof_bench_add_measure(b, "allocs", NULL, read_allocs, read_allocs,
                                 NULL) == 0, "add allocs");
    CHECK(prof_bench_add_measure(b, "heap", "B", read_heap, read_heap,
                                 NULL) == 0, "add heap");
    r = prof_bench_run(b, "allocating", allocating, NULL);
    CHECK(r && r->nuser == 2 && r->user[0] == 3.0 && r->user[1] == 48.0,
          "allocs %g heap %g", r && r->nuser > 1 ? r->user[0] : -1,
          r && r->nuser > 1 ? r->user[1] : -1);
    CHECK(r && strcmp(r->user_units[1], "B") == 0
          && r->user_flags[1] == PROF_USER_MEASURE, "heap's unit");
    /* measures come before counters; a target that allocates nothing
       reads 0 */
    r = prof_bench_run(b, "counting", counting, NULL);
    CHECK(r && r->nuser == 5 && strcmp(r->user_names[0], "allocs") == 0
          && r->user[0] == 0.0 && strcmp(r->user_names[2], "bytes") == 0,
          "measures then counters");
    /* a start that resets: every epoch reads stop's value; iterations are
       1 per epoch here */
    prof_bench_set_epoch_iterations(b, 1);
    CHECK(prof_bench_add_measure(b, "reset", "ns", reset_start, reset_stop,
                                 &per_call) == 0, "add reset");
    resets = 0;
    r = prof_bench_run(b, "resetting", cost5, NULL);
    CHECK(r && prof_result_user(r, "reset") == 700.0 && resets == 11,
          "reset: %g, %d starts", r ? prof_result_user(r, "reset") : -1,
          resets);
    prof_bench_free(b);
}

/* The columns of the table, CSV fields, JSON fields. */
static void test_outputs(void)
{
    FILE * f = tmpfile(), * csv = tmpfile(), * g = tmpfile();
    prof_bench * b = check_suite(f, PROF_FORMAT_MD);
    const char * s;
    char err[200];
    prof_json * j;
    prof_bench_add_measure(b, "heap", "B", read_heap, read_heap, NULL);
    prof_bench_run(b, "counting", counting, NULL);
    s = check_slurp(f);
    /* at most three count columns in the narrow table: heap, bytes, items */
    CHECK(strstr(s, "| heap B/op | bytes/op | items/s | benchmark")
          && strstr(s, "|         0 |   4.096k |  200.0M | `counting`"),
          "table: %s", s);
    prof_bench_set_wide(b, 1);
    prof_bench_run(b, "counting", counting, NULL);
    s = check_slurp(f);
    CHECK(strstr(s, "| heap B/op | bytes/op | items/s | zero/op | total s"),
          "wide table: %s", s);
    CHECK(prof_bench_write(csv, b, PROF_FORMAT_CSV) == 0, "csv");
    s = check_slurp(csv);
    CHECK(strstr(s, ",samples,heap,bytes,items,zero\n")
          && strstr(s, ",0,4096,200000000,0\n"), "csv: %s", s);
    prof_bench_set_json_epochs(b, 1);    /* the median entry */
    CHECK(prof_bench_write(g, b, PROF_FORMAT_JSON) == 0, "json");
    s = check_slurp(g);
    j = prof_impl_json_parse(s, strlen(s), err, sizeof err);
    CHECK(j != NULL, "json: %s", err);
    if (j != NULL)
    {
        const prof_json * ctx = prof_impl_json_get(j, "context");
        const prof_json * list = prof_impl_json_get(j, "benchmarks");
        const prof_json * units = ctx ? prof_impl_json_get(ctx, "profiler_user_units") : NULL;
        const prof_json * e = list && list->count > 0 ? list->items[0] : NULL;
        const prof_json * med = list && list->count > 12 ? list->items[12] : NULL;
        const prof_json * x;
        CHECK(units && (x = prof_impl_json_get(units, "heap")) != NULL
              && x->kind == PROF_JSON_STRING && strcmp(x->string, "B") == 0,
              "context: profiler_user_units");
        CHECK(e && (x = prof_impl_json_get(e, "bytes")) && x->number == 4096.0
              && (x = prof_impl_json_get(e, "items")) && near(x->number, 2e8)
              && (x = prof_impl_json_get(e, "zero")) && x->number == 0.0
              && (x = prof_impl_json_get(e, "heap")) && x->number == 0.0,
              "iteration entry fields");
        CHECK(med && (x = prof_impl_json_get(med, "aggregate_name"))
              && strcmp(x->string, "median") == 0
              && (x = prof_impl_json_get(med, "bytes")) && x->number == 4096.0,
              "median entry");
        prof_impl_json_free(j);
    }
    prof_bench_free(b);
    fclose(f);
    fclose(csv);
    fclose(g);
}

static double nothing(void * arg) { (void) arg; return 0.0; }

/* Names registered from another thread while the runner takes its
   results' columns: the registry's count is read under its lock only
   (ThreadSanitizer sees the race otherwise), and a result's columns are
   its target's. The two threads coordinate with relaxed atomics only, so
   that nothing but the registry's lock orders their accesses. */
static int rounds_done;

static void * late_names(void * arg)
{
    int k;
    char name[32];
    (void) arg;
    for (k = 0; k < 4; k++)
    {
        while (__atomic_load_n(&rounds_done, __ATOMIC_RELAXED) <= k)
            sleep_ms(1);
        sprintf(name, "late%d", k);
        (void) prof_user_counter(name, 0);
    }
    return NULL;
}

static void test_concurrent_names(void)
{
    prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
    pthread_t t;
    int k, ok = 1;
    CHECK(pthread_create(&t, NULL, late_names, NULL) == 0, "thread");
    for (k = 0; k < 4; k++)
    {
        const prof_result * r = prof_bench_run(b, "counting", counting, NULL);
        ok &= r != NULL && r->nuser == 3
           && strcmp(r->user_names[2], "zero") == 0;
        __atomic_store_n(&rounds_done, k + 1, __ATOMIC_RELAXED);
        sleep_ms(20);   /* the lookup now, not during the next run */
    }
    pthread_join(t, NULL);
    CHECK(ok, "the columns of a run while names are added");
    prof_bench_free(b);
}

static void test_bad_input(void)
{
    static const char * bad[] = { "", "a,b", "quote\"", "back\\slash",
        "pi|pe", " lead", "tab\there", "cycles", "page-faults", "faults",
        "median", "real_time", "0123456789012345678901234567890123" };
    prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
    capture_t cap;
    const char * err;
    char name[32];
    int i, h;
    capture_begin(&cap, 2);
    for (i = 0; i < (int) (sizeof bad / sizeof bad[0]); i++)
    {
        CHECK(prof_user_counter(bad[i], 0) == -1, "counter \"%s\" taken", bad[i]);
        CHECK(prof_bench_add_measure(b, bad[i], NULL, nothing, nothing, NULL)
              == -1, "measure \"%s\" taken", bad[i]);
    }
    CHECK(prof_user_counter(NULL, 0) == -1, "NULL name");
    CHECK(prof_user_counter("flagged", 4) == -1, "bad flags");
    CHECK(prof_bench_add_measure(NULL, "m", NULL, nothing, nothing, NULL) == -1
          && prof_bench_add_measure(b, "m", NULL, NULL, nothing, NULL) == -1
          && prof_bench_add_measure(b, "m", NULL, nothing, NULL, NULL) == -1
          && prof_bench_add_measure(b, NULL, NULL, nothing, nothing, NULL) == -1,
          "NULL suite, callbacks, name");
    CHECK(prof_bench_add_measure(b, "m", "a,b", nothing, nothing, NULL) == -1
          && prof_bench_add_measure(b, "m", "0123456789abcdef", nothing,
                                    nothing, NULL) == -1, "bad units");
    /* a measure's name is no counter's, and the other way round */
    CHECK(prof_bench_add_measure(b, "bytes", NULL, nothing, nothing, NULL) == -1,
          "measure named as a counter");
    CHECK(prof_bench_add_measure(b, "m0", NULL, nothing, nothing, NULL) == 0
          && prof_bench_add_measure(b, "m0", NULL, nothing, nothing, NULL) == -1,
          "repeated measure");
    CHECK(prof_user_counter("m0", 0) == -1, "counter named as a measure");
    for (i = 1; i < PROF_MEASURES_MAX; i++)
    {
        sprintf(name, "m%d", i);
        CHECK(prof_bench_add_measure(b, name, NULL, nothing, nothing, NULL) == 0,
              "measure %d", i);
    }
    CHECK(prof_bench_add_measure(b, "m9", NULL, nothing, nothing, NULL) == -1,
          "more than PROF_MEASURES_MAX");
    CHECK(isnan(prof_result_user(NULL, "x")), "NULL result");
    err = capture_end(&cap);
    CHECK(strstr(err, "profiler: prof_user_counter(\"cycles\"): that is an "
                 "event counter's name")
          && strstr(err, "profiler: prof_user_counter(\"median\"): that is a "
                    "field of the outputs")
          && strstr(err, "profiler: prof_bench_add_measure(\"m\"): the start "
                    "callback is NULL")
          && strstr(err, "a user counter has that name")
          && strstr(err, "more than 8 measures"), "messages: %s", err);

    /* past the limit: a message per name, the adds dropped and said */
    capture_begin(&cap, 2);
    for (i = 0; i < PROF_USER_COUNTERS_MAX + 2; i++)
    {
        sprintf(name, "c%d", i);
        h = prof_user_counter(name, 0);
    }
    h = prof_user_counter("c33", 0);    /* said once */
    err = capture_end(&cap);
    CHECK(h == PROF_USER_COUNTERS_MAX, "handle %d", h);
    CHECK(check_count(err, "user counters (PROF_USER_COUNTERS_MAX): its counts "
                      "are dropped") >= 2
          && strstr(err, "\"c33\"") && check_count(err, "\"c33\"") == 1,
          "messages: %s", err);
    prof_bench_free(b);
}

/* Adds through refused handles: dropped, and the result says so. */
static int refused_handle = -1;
static void refused(void * arg, ulong count)
{
    (void) arg;
    prof_user_count(refused_handle, (double) count);
    prof_user_count(12345, 1.0);
    fake_now += 5.0 * (double) count;
}

/* A handle in range that no lookup gave (run before the slots fill). */
static void unregistered(void * arg, ulong count)
{
    (void) arg;
    prof_user_count(PROF_USER_COUNTERS_MAX - 1, (double) count);
    fake_now += 5.0 * (double) count;
}

/* target's adds are dropped: no column, and the result says so. */
static void check_dropped(const char * name, profile_target_t target)
{
    prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
    capture_t cap;
    const prof_result * r;
    capture_begin(&cap, 2);
    r = prof_bench_run(b, name, target, NULL);
    capture_end(&cap);
    CHECK(r && r->nuser == 0 && strstr(r->warning, "refused user-counter "
          "handles") != NULL, "%s: warning: %s", name, r ? r->warning : "");
    prof_bench_free(b);
}

int main(void)
{
    prof_impl_set_fake_clock(fake_read, 1e9);
    check_dropped("unregistered", unregistered);
    test_counters();
    test_measures();
    test_outputs();
    test_concurrent_names();
    test_bad_input();
    check_dropped("refused", refused);
    prof_impl_set_fake_clock(NULL, 0);
    return check_report("test_bench_user");
}
