/* The runner on a busy machine, driven by the fake clock, a fake processor
   clock and the fake switch counters: an epoch under the minimum epoch
   time is run again longer, never kept; the processor time never exceeds
   the time on one thread, in the results, the JSON and the CSV; a
   preempted epoch that must be kept is timed by the time it ran where
   that can be known, and the row is flagged where it cannot. */
#include "check.h"
#include "bench.h"
#include "bench_check.h"
#include "../src/tools/common/json.h"

#include <math.h>

/* The fake processor clock: targets add the time they run; each read
   costs read_cost ns of processor time that the wall clock never sees
   (a real processor clock's read is a system call, outside the counter's
   two reads). */
static double fake_cpu, read_cost;
static double fake_cpu_read(void) { return fake_cpu += read_cost; }

/* The fake count of voluntary switches (the thread waited). */
static long fake_waits;
static long fake_wait_read(void) { return fake_waits; }

/* A target: each iteration runs cost ns; a call is preempted (the
   scheduler ran another process for wait ns per iteration: wall time, no
   processor time) when its number is in [pre_from, pre_to); inflate
   multiplies the cost of call inflate_call (a calibration epoch slowed by
   a preemption the counter missed). set_up: ns outside prof_start ..
   prof_stop per call (0: the whole call is timed); waits: the target
   sleeps in each preempted call. */
typedef struct
{
    double cost, wait, set_up;
    int pre_from, pre_to, inflate_call, waits;
    double inflate;
    int calls;
} load_t;

static void loaded(void * arg, ulong count)
{
    load_t * t = (load_t *) arg;
    double n = (double) count, run, wait = 0.0;
    int call = ++t->calls;
    run = t->cost * n * (call == t->inflate_call ? t->inflate : 1.0);
    if (call >= t->pre_from && call < t->pre_to)
    {
        fake_switches++;
        fake_waits += t->waits;
        wait = t->wait * n;
    }
    fake_now += t->set_up;
    fake_cpu += t->set_up;
    if (t->set_up > 0.0)
    {
        clock_last[0] = 0.0;        /* what prof_start/prof_stop leave */
        clock_accum[0] = run + wait;
    }
    fake_now += run + wait;
    fake_cpu += run;
}

static load_t load(double cost)
{
    load_t t;
    memset(&t, 0, sizeof t);
    t.cost = cost;
    return t;
}

/* Every epoch of r took at least ns of its time (iterations x ns/op). */
static int epochs_at_least(const prof_result * r, double ns)
{
    int i;
    for (i = 0; r != NULL && i < r->epochs; i++)
        if (r->samples_ns[i] * (double) r->epoch_iters[i] < ns * (1 - 1e-12))
            return 0;
    return r != NULL;
}

static void test_short_epochs(void)
{
    prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
    const prof_result * r;
    load_t t = load(5.0);
    int i, ok = 1;
    /* calls 1..6 calibrate (1 .. 10^5); the 6th ran 20x slow, so the first
       count aimed, 10^4, makes an epoch of 0.05 ms: run again with 2e5 */
    t.inflate_call = 6;
    t.inflate = 20.0;
    r = prof_bench_run(b, "short", loaded, &t);
    for (i = 0; r && i < r->epochs; i++)
        ok &= r->epoch_iters[i] == 200000;
    CHECK(r && r->epochs == 11 && ok && t.calls == 6 + 1 + 11
          && near(r->median_ns, 5.0) && near(r->min_ns, 5.0),
          "short epoch kept: %d calls, %lu iterations first",
          t.calls, r ? (unsigned long) r->epoch_iters[0] : 0);
    CHECK(epochs_at_least(r, 1e6), "an epoch under 1 ms kept");

    /* the same epoch preempted too, with no retries left: not kept either;
       the count aimed from it (6 ns an iteration, an upper bound) is still
       short, the next one (from 5 ns) is not */
    prof_impl_fake_switches = fake_switch_read;
    prof_bench_set_preempt_retries(b, 0);
    t = load(5.0);
    t.inflate_call = 6;
    t.inflate = 20.0;
    t.pre_from = 7;
    t.pre_to = 8;
    t.wait = 1.0;
    r = prof_bench_run(b, "short, preempted", loaded, &t);
    CHECK(r && t.calls == 6 + 2 + 11 && epochs_at_least(r, 1e6)
          && r->preempted_epochs == 0, "short preempted epoch: %d calls",
          t.calls);
    prof_impl_fake_switches = NULL;

    /* a count the user fixed, and a maximum under the minimum: kept as
       they come */
    t = load(5.0);
    prof_bench_set_epoch_iterations(b, 10);
    r = prof_bench_run(b, "fixed", loaded, &t);
    CHECK(r && r->epochs == 11 && t.calls == 11 && r->epoch_iters[0] == 10,
          "fixed count: %d calls", t.calls);
    prof_bench_set_epoch_iterations(b, 0);
    prof_bench_set_max_epoch_time_ns(b, 5e5);
    t = load(5.0);
    r = prof_bench_run(b, "capped", loaded, &t);
    CHECK(r && r->epochs == 11 && r->epoch_iters[0] == 100000
          && epochs_at_least(r, 5e5), "capped: %lu iterations",
          r ? (unsigned long) r->epoch_iters[0] : 0);
    prof_bench_free(b);
}

/* Every epoch's processor time within its time, and the median's. */
static int cpu_within(const prof_impl_result * ir)
{
    int k, ok = ir->pub.cpu_ns <= ir->pub.median_ns;
    for (k = 0; k < ir->pub.epochs; k++)
        ok &= ir->cpu[k] <= ir->samples[k];
    return ok;
}

/* The same in the JSON: every iteration entry, the mean and the median. */
static int json_cpu_within(const char * text, int * entries)
{
    char err[128];
    prof_json * j = prof_impl_json_parse(text, strlen(text), err, sizeof err);
    const prof_json * list = j ? prof_impl_json_get(j, "benchmarks") : NULL;
    size_t i;
    int ok = list != NULL;
    *entries = 0;
    for (i = 0; list && i < list->count; i++)
    {
        const prof_json * e = list->items[i];
        const prof_json * real = prof_impl_json_get(e, "real_time");
        const prof_json * cpu = prof_impl_json_get(e, "cpu_time");
        const prof_json * agg = prof_impl_json_get(e, "aggregate_name");
        if (real == NULL || cpu == NULL || (agg && strcmp(agg->string, "mean")
                                            && strcmp(agg->string, "median")))
            continue;
        ok &= cpu->number <= real->number;
        ++*entries;
    }
    prof_impl_json_free(j);
    return ok;
}

/* The CSV's cpu_time (column 12) against its median (column 4). */
static int csv_cpu_within(const char * text, int * rows)
{
    const char * line = strchr(text, '\n');
    int ok = 1;
    *rows = 0;
    for (; line != NULL && line[1] != '\0'; line = strchr(line + 1, '\n'))
    {
        const char * p = line + 1;
        double v[12];
        int col = 0;
        while (col < 12 && p != NULL)
        {
            v[col++] = strtod(p, NULL);
            p = strchr(p, ',');
            p = p ? p + 1 : NULL;
        }
        if (col < 12)
            return 0;
        ok &= v[11] <= v[3];
        ++*rows;
    }
    return ok;
}

static void test_cpu_within_time(void)
{
    prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
    load_t whole = load(5.0), flint = load(5.0), pre = load(50.0);
    FILE * f;
    int i, ok = 1, entries, rows;
    prof_impl_fake_cpu_ns = fake_cpu_read;
    prof_impl_fake_switches = fake_switch_read;
    read_cost = 300.0;      /* every epoch's processor time 300 ns long */
    flint.set_up = 1000.0;  /* the processor time covers the set-up too */
    pre.pre_from = 8;       /* preempted from the 2nd measured epoch on */
    pre.pre_to = 1000;
    pre.wait = 50.0;
    prof_bench_run(b, "whole call", loaded, &whole);
    prof_bench_run(b, "flint", loaded, &flint);
    prof_bench_run(b, "preempted", loaded, &pre);
    PROF_BENCH_LOOP(b, "loop")
    {
        fake_now += 7.0;
        fake_cpu += 7.0;
    }
    CHECK(prof_bench_count(b) == 4, "%d results", prof_bench_count(b));
    for (i = 0; i < b->nresults; i++)
    {
        CHECK(cpu_within(b->results[i]), "%s: cpu %g ns over real %g ns",
              b->results[i]->pub.name, b->results[i]->pub.cpu_ns,
              b->results[i]->pub.median_ns);
        ok &= b->results[i]->pub.cpu_ns > 0.0;
    }
    CHECK(ok, "a processor time of 0");
    f = tmpfile();
    prof_bench_set_json_epochs(b, 1);    /* an entry per epoch */
    prof_bench_write(f, b, PROF_FORMAT_JSON);
    CHECK(json_cpu_within(check_slurp(f), &entries) && entries == 4 * 13,
          "JSON: cpu_time over real_time (%d entries)", entries);
    fclose(f);
    f = tmpfile();
    prof_bench_write(f, b, PROF_FORMAT_CSV);
    CHECK(csv_cpu_within(check_slurp(f), &rows) && rows == 4,
          "CSV: cpu_time over the median (%d rows)", rows);
    fclose(f);
    read_cost = 0.0;
    prof_impl_fake_cpu_ns = NULL;
    prof_impl_fake_switches = NULL;
    prof_bench_free(b);
}

/* A 6 ms operation on a machine whose other processes take half of the
   processor: calls from..to-1 wait 6 ms beside their 6 ms of work. */
static load_t six_ms(int from, int to, double set_up, int waits)
{
    load_t t = load(6e6);
    t.pre_from = from;
    t.pre_to = to;
    t.wait = 6e6;
    t.set_up = set_up;
    t.waits = waits;
    return t;
}

static void test_long_operation(void)
{
    prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
    const prof_result * r;
    load_t t = six_ms(1, 1000, 0.0, 0);
    prof_impl_fake_cpu_ns = fake_cpu_read;
    prof_impl_fake_switches = fake_switch_read;
    prof_impl_fake_waits = fake_wait_read;
    /* the whole call timed: after the 11 retries, the time it ran */
    r = prof_bench_run(b, "6 ms", loaded, &t);
    CHECK(r && t.calls == 1 + 11 + 11 && near(r->median_ns, 6e6)
          && near(r->max_ns, 6e6) && r->preempted_epochs == 11
          && r->cpu_timed_epochs == 11 && !(r->flags & PROF_RESULT_PREEMPTED),
          "whole call: %d calls, median %g, %d preempted, %d cpu-timed, "
          "flags %d", t.calls, r ? r->median_ns : 0,
          r ? r->preempted_epochs : -1, r ? r->cpu_timed_epochs : -1,
          r ? r->flags : -1);
    /* timed between prof_start and prof_stop: the wait may be in the set-up
       or in the timed part, so the row says its figure is inflated */
    t = six_ms(1, 1000, 1000.0, 0);
    r = prof_bench_run(b, "6 ms, prof_start", loaded, &t);
    CHECK(r && near(r->median_ns, 1.2e7) && r->preempted_epochs == 11
          && r->cpu_timed_epochs == 0 && (r->flags & PROF_RESULT_PREEMPTED)
          && strstr(r->warning, "preempted: 11 of 11 epochs"),
          "prof_start: median %g, flags %d, \"%s\"", r ? r->median_ns : 0,
          r ? r->flags : -1, r ? r->warning : "");
    /* a target that waits itself (a sleep, a lock): its processor time is
       not the time it takes */
    t = six_ms(1, 1000, 0.0, 1);
    r = prof_bench_run(b, "6 ms, waiting", loaded, &t);
    CHECK(r && near(r->median_ns, 1.2e7) && r->cpu_timed_epochs == 0
          && (r->flags & PROF_RESULT_PREEMPTED), "waiting: median %g",
          r ? r->median_ns : 0);
    /* two of 11 preempted past the retries: under a quarter, no flag */
    prof_bench_set_preempt_retries(b, 0);
    t = six_ms(2, 4, 1000.0, 0);
    r = prof_bench_run(b, "two preempted", loaded, &t);
    CHECK(r && r->preempted_epochs == 2 && !(r->flags & PROF_RESULT_PREEMPTED)
          && near(r->median_ns, 6e6), "two preempted: flags %d, median %g",
          r ? r->flags : -1, r ? r->median_ns : 0);
    prof_impl_fake_cpu_ns = NULL;
    prof_impl_fake_switches = NULL;
    prof_impl_fake_waits = NULL;
    prof_bench_free(b);
}

/* The loop macro on a loaded machine, every epoch preempted: the time its
   body ran; the JSON says how many epochs were timed so. */
static void test_loop_under_load(void)
{
    FILE * f = tmpfile();
    prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
    const prof_result * r;
    const char * text;
    prof_impl_fake_cpu_ns = fake_cpu_read;
    prof_impl_fake_switches = fake_switch_read;
    prof_bench_set_preempt_retries(b, 0);
    PROF_BENCH_LOOP(b, "loop")
    {
        fake_now += 14.0;       /* 7 ns of work, 7 ns of another process */
        fake_cpu += 7.0;
        fake_switches++;
    }
    r = prof_bench_result(b, 0);
    CHECK(r && near(r->median_ns, 7.0) && r->cpu_timed_epochs == 11
          && r->flags == 0, "loop: median %g, %d cpu-timed",
          r ? r->median_ns : 0, r ? r->cpu_timed_epochs : -1);
    prof_bench_set_json_epochs(b, 1);    /* an entry per epoch */
    prof_bench_write(f, b, PROF_FORMAT_JSON);
    text = check_slurp(f);
    CHECK(strstr(text, "\"preempted_epochs\": 11,\n      \"cpu_timed_epochs\": 11"),
          "JSON fields");
    fclose(f);
    prof_impl_fake_cpu_ns = NULL;
    prof_impl_fake_switches = NULL;
    prof_bench_free(b);
}

/* A sort's sweep on a busy machine: each size costs 4 n log2 n ns a
   call between prof_start and prof_stop (FLINT's style, a set-up outside
   them), and from sweep_from up every call is preempted, the longer the
   larger (inflated 2x, 4x, 8x, ..., as the busy loops' time slices take a
   larger share of a longer call; flagged: the runner cannot tell the wait
   from the work). */
static load_t sweep_load;
static double sweep_from;       /* the first size preempted */

static void sweep_target(void * arg, ulong count)
{
    double n = (double) *(const ulong *) arg;
    sweep_load.cost = 4.0 * n * log2(n);
    sweep_load.wait = n >= sweep_from
                    ? sweep_load.cost * (2.0 * n / sweep_from - 1.0) : 0.0;
    sweep_load.pre_from = 0;
    sweep_load.pre_to = n >= sweep_from ? 1 << 30 : 0;
    loaded(&sweep_load, count);
}

/* With 4 clean sizes, the fit leaves the preempted ones out and finds
   O(n log n); with 1, it ranks what the inflated times say. Either way
   the console says it cannot tell, and the JSON that it is not
   confident; never O(n^2) or O(n^3) said plainly. */
static void test_sweep_under_load(void)
{
    static const double from[2] = { 16384, 2048 };
    static const char * const flagged[2] = { "(16384, 32768, 65536)",
        "(2048, 4096, 8192, 16384, 32768, 65536)" };
    int k;
    prof_impl_fake_cpu_ns = fake_cpu_read;
    prof_impl_fake_switches = fake_switch_read;
    for (k = 0; k < 2; k++)
    {
        FILE * f = tmpfile(), * g = tmpfile();
        prof_bench * b = check_suite(NULL, PROF_FORMAT_NONE);
        prof_fit fits[8];
        const char * s;
        int nf;
        sweep_load = load(1.0);
        sweep_load.set_up = 1000.0;
        sweep_from = from[k];
        prof_bench_run_range(b, "qsort", sweep_target, 1024, 65536, 2);
        nf = prof_bench_complexity(b, "qsort", fits, 8);
        prof_bench_print_complexity(f, b, "qsort");
        s = check_slurp(f);
        CHECK(nf == 6 && (k == 1 || strcmp(fits[0].name, "O(n log n)") == 0)
              && strstr(s, "**cannot tell**: "), "from %g: %s", from[k], s);
        CHECK(strstr(s, flagged[k]), "flagged: %s", s);
        prof_bench_write(g, b, PROF_FORMAT_JSON);
        s = check_slurp(g);
        CHECK(strstr(s, "\"confident\": false}"), "JSON: %s", s);
        prof_bench_free(b);
        fclose(f);
        fclose(g);
    }
    prof_impl_fake_cpu_ns = NULL;
    prof_impl_fake_switches = NULL;
}

int main(void)
{
    prof_impl_set_fake_clock(fake_read, 1e9);
    test_sweep_under_load();
    test_short_epochs();
    test_cpu_within_time();
    test_long_operation();
    test_loop_under_load();
    prof_impl_set_fake_clock(NULL, 0);
    return check_report("test_bench_load");
}
