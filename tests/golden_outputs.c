/* The runner's outputs under the fake clock, compared byte for byte with a
   golden file (tests/data/golden_outputs.txt): markdown, CSV and JSON of
   one suite (JSON twice: the default, and with --json-epochs) with
   relative mode, a batch unit, a time unit (fixed, then a
   unit a row in the tables), complexity
   families, fake event counters, a loop macro, a comparison, a size
   sweep, user counters and a user measure, relative size sweeps. Lines that depend on the machine or the
   day (the context) are replaced by a marker.
       golden_outputs GOLDEN-FILE     compare (exit 1 on a difference)
       golden_outputs --print         write the outputs to stdout */
#include "check.h"
#include "bench.h"
#include "bench_check.h"

#include <math.h>

static void cost(void * arg, ulong count)
{
    fake_now += *(const double *) arg * (double) count;
}

/* Varying costs: call k of a target costs costs[k % 7] per iteration. */
static void varying(void * arg, ulong count)
{
    static const double costs[7] = { 10, 11, 10.5, 30, 10.2, 9.9, 10.1 };
    int * k = (int *) arg;
    fake_now += costs[(*k)++ % 7] * (double) count;
}

static double fake_counts(const char * event, ulong iterations)
{
    if (strcmp(event, "page-faults") == 0)
        return 3.0 * (double) iterations;
    if (strcmp(event, "instructions") == 0)
        return 40.0 * (double) iterations;
    if (strcmp(event, "cycles") == 0)
        return 20.0 * (double) iterations;
    return NAN;    /* unavailable */
}

static double f_sqrt(double n) { return sqrt(n); }

/* Half a ns per unit of size: a sweep's target; and one 40 times as
   fast, beside it in relative mode. */
static void sized(void * arg, ulong count)
{
    fake_now += 0.5 * (double) *(const ulong *) arg * (double) count;
}

static void sized_fast(void * arg, ulong count)
{
    fake_now += 0.0125 * (double) *(const ulong *) arg * (double) count;
}

/* User counters and a measure: 64 bytes, 2 items (a rate), 48 bytes of
   heap per iteration. */
static double heap;
static double read_heap(void * arg) { return *(const double *) arg; }

static void user_target(void * arg, ulong count)
{
    int bytes = prof_user_counter("bytes", 0);
    int items = prof_user_counter("items", PROF_USER_RATE);
    (void) arg;
    prof_user_count(bytes, 64.0 * (double) count);
    prof_user_count(items, 2.0 * (double) count);
    heap += 48.0 * (double) count;
    fake_now += 8.0 * (double) count;
}

/* Print s with the context masked: the markdown context lines (the
   machine's and its check), and the JSON "context" object. */
static FILE * out;

static void print_masked(const char * s)
{
    int in_context = 0, in_md = 0;
    while (*s)
    {
        const char * e = strchr(s, '\n');
        size_t n = e ? (size_t) (e - s) + 1 : strlen(s);
        if (strncmp(s, "  \"context\": {", 14) == 0)
        {
            in_context = 1;
            fputs("  \"context\": (masked)\n", out);
        }
        else if (in_context)
            in_context = strncmp(s, "  },", 4) != 0;
        else if (strstr(s, " cores, counter ") != NULL
                 && (size_t) (strstr(s, " cores, counter ") - s) < n)
        {
            fputs("(context masked)\n", out);
            in_md = 1;
        }
        else if (in_md && *s != '\n')
            ;       /* the context's paragraph: its lines as wrapped, the
                       machine check's */
        else
        {
            fwrite(s, 1, n, out);
            in_md = 0;
        }
        s += n;
    }
}

/* The suite written in format (JSON: with --json-epochs when epochs). */
static void suite(prof_format format, int epochs)
{
    static const double five = 5.0, seven = 7.0, big = 1e4;
    /* fixed build information: the same bytes in every build type */
    prof_bench * b = prof_impl_bench_new(1, 0, "cc 1.0", "-O2");
    FILE * f = tmpfile();
    int k = 0;
    double n;
    fake_now = 0.0;
    prof_bench_set_output(b, f);
    prof_bench_set_format(b, format);
    prof_bench_set_json_epochs(b, epochs);
    prof_bench_set_epoch_jitter(b, 0.0);
    /* 11 epochs of 1 ms under either schedule: a given floor, and a most
       that is the adaptive schedule's least (the "varying" row's spread
       would run it on) */
    prof_bench_set_min_epoch_time_ns(b, 1e6);
    prof_bench_set_epochs(b, 11);
    prof_bench_run(b, "five", cost, (void *) &five);
    prof_bench_set_relative(b, 1);
    prof_bench_run(b, "base seven", cost, (void *) &seven);
    prof_bench_run(b, "varying", varying, &k);
    prof_bench_set_relative(b, 0);
    prof_bench_set_time_unit(b, "us");
    prof_bench_set_batch(b, 64, "byte");
    prof_bench_run(b, "bytes", cost, (void *) &big);
    prof_bench_set_batch(b, 1, NULL);
    prof_bench_set_time_unit(b, "auto");    /* the tables': one a row */
    prof_bench_set_counters(b, "instructions,cycles,page-faults,branches");
    prof_bench_run(b, "counted", cost, (void *) &five);
    prof_bench_set_counters(b, "off");
    prof_bench_add_complexity(b, "sqrt(n)", f_sqrt);
    for (n = 16; n <= 1024; n *= 4)
    {
        char name[32];
        double c = n * 2.0;
        snprintf(name, sizeof name, "lin/%g", n);
        prof_bench_set_complexity_n(b, n);
        prof_bench_run(b, name, cost, &c);
    }
    prof_bench_set_complexity_n(b, -1);
    {
        int i = 0;
        PROF_BENCH_LOOP(b, "loop")
        {
            fake_now += 2.0;
            i++;
        }
        (void) i;
    }
    prof_bench_compare(b, "five", cost, (void *) &five, "seven", cost,
                       (void *) &seven);
    {
        static const ulong sizes[3] = { 100, 200, 400 };
        prof_bench_run_sizes(b, "sweep", sized, sizes, 3);
    }
    prof_bench_add_measure(b, "heap", "B", read_heap, read_heap, &heap);
    prof_bench_run(b, "user", user_target, NULL);
    {
        /* relative sweeps: each row against the baseline's of its N */
        static const ulong base_sizes[2] = { 1000, 2000 },
                           sizes[2] = { 1000, 4000 };
        prof_bench_set_relative(b, 1);
        prof_bench_run_sizes(b, "rbase", sized, base_sizes, 2);
        prof_bench_run_sizes(b, "rfast", sized_fast, sizes, 2);
        prof_bench_set_relative(b, 0);
    }
    prof_bench_finish(b);
    fprintf(out, "==== format %d%s\n", (int) format,
            epochs ? " --json-epochs" : "");
    print_masked(check_slurp(f));
    if (format == PROF_FORMAT_MD)
    {
        prof_fit fits[8];
        fprintf(out, "==== complexity (%d fits)\n",
                prof_bench_complexity(b, "lin", fits, 8));
        prof_bench_print_complexity(out, b, "lin");
        fprintf(out, "==== prof_bench_write csv\n");
        prof_bench_write(out, b, PROF_FORMAT_CSV);
    }
    prof_bench_free(b);
    fclose(f);
}

/* The first line where got and want differ, 0 if none. */
static int first_difference(const char * got, const char * want)
{
    int line = 1;
    for (; *got && *got == *want; got++, want++)
        line += *got == '\n';
    return *got == *want ? 0 : line;
}

int main(int argc, char ** argv)
{
    char * want = NULL;
    size_t want_cap = 0;
    const char * got;
    FILE * g;
    int line;
    if (argc != 2)
    {
        fprintf(stderr, "usage: golden_outputs GOLDEN-FILE | --print\n");
        return 2;
    }
    out = strcmp(argv[1], "--print") == 0 ? stdout : tmpfile();
    prof_impl_set_fake_clock(fake_read, 1e9);
    prof_impl_fake_counts = fake_counts;
    suite(PROF_FORMAT_MD, 0);
    suite(PROF_FORMAT_CSV, 0);
    suite(PROF_FORMAT_JSON, 1);     /* Google Benchmark's repetitions */
    suite(PROF_FORMAT_JSON, 0);     /* the default: one entry each */
    if (out == stdout)
        return 0;
    g = fopen(argv[1], "rb");
    CHECK(g != NULL, "cannot read %s", argv[1]);
    if (g == NULL)
        return check_report("golden_outputs");
    check_read_all(g, &want, &want_cap);
    fclose(g);
    got = check_slurp(out);
    line = first_difference(got, want);
    CHECK(line == 0, "the outputs differ from %s from line %d on (rerun "
          "with --print to see them)", argv[1], line);
    free(want);
    return check_report("golden_outputs");
}
