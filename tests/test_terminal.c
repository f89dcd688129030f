/* The runner at a terminal: the sparkline of a row's epochs, the progress
   line on stderr ([i/n], and an ETA in a size sweep), and silence when the
   streams are not terminals. A fake clock makes every epoch exact. */
#include "check.h"
#include "internal.h"
#include "bench.h"
#include "bench_check.h"

/* Each run costs 100 ns, and every third epoch-sized call 300 ns. */
static void target(void * arg, ulong count)
{
    int * calls = (int *) arg;
    fake_now += ((*calls)++ % 3 == 2 ? 300.0 : 100.0) * (double) count;
}

/* A sweep's target: a ns per unit of its size. */
static void sized(void * arg, ulong count)
{
    fake_now += (double) *(const ulong *) arg * (double) count;
}

#define BAR(k) "\xE2\x96" k   /* U+2581 + k */

/* A size sweep at a terminal: [i/n] and, from the second size, an ETA. */
static void check_sweep(void)
{
    static const ulong sizes[] = { 100, 200, 400 };
    prof_bench * b = prof_bench_new();
    capture_t cap;
    const char * out;
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    prof_bench_set_epochs(b, 6);
    prof_bench_set_terminal(b, 1);
    capture_begin(&cap, 2);
    prof_bench_run_sizes(b, "sum", sized, sizes, 3);
    out = capture_end(&cap);
    CHECK(strstr(out, "\rprofiler: [1/3] sum/100 (") != NULL
          && check_matches(out, "\rprofiler: \\[2/3\\] sum/200 \\([0-9.]+ s, "
                           "ETA [0-9.]+ s\\)")
          && check_matches(out, "\rprofiler: \\[3/3\\] sum/400 \\([0-9.]+ s, "
                           "ETA [0-9.]+ s\\)")
          && strstr(out, "benchmark 2:") == NULL, "sweep: stderr [%s]", out);
    prof_bench_free(b);
}

int main(void)
{
    char line[64];
    double ramp[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, flat[3] = { 5, 5, 5 };
    double odd[2] = { 1.0 / 0.0 - 1.0 / 0.0, 2.0 };
    capture_t cap;
    const char * out;
    int calls = 0;

    /* Sparklines: scaled from min to max, 3 bytes a bar. */
    prof_impl_sparkline(line, sizeof line, ramp, 8);
    CHECK(strcmp(line, BAR("\x81") BAR("\x82") BAR("\x83") BAR("\x84")
                       BAR("\x85") BAR("\x86") BAR("\x87") BAR("\x88")) == 0,
          "ramp [%s]", line);
    prof_impl_sparkline(line, sizeof line, flat, 3);
    CHECK(strcmp(line, BAR("\x84") BAR("\x84") BAR("\x84")) == 0, "flat [%s]", line);
    prof_impl_sparkline(line, sizeof line, odd, 2);
    CHECK(strcmp(line, BAR("\x81") BAR("\x84")) == 0, "NaN sample [%s]", line);
    prof_impl_sparkline(line, 8, ramp, 8);
    CHECK(strlen(line) == 6, "cut to whole bars: %lu bytes", (unsigned long) strlen(line));

    prof_impl_set_fake_clock(fake_read, 1e9);
    prof_impl_progress_after_s = 0.0;

    /* terminal 1: the row ends with the epochs' sparkline; the progress line
       goes to stderr and is erased before the row. */
    {
        prof_bench * b = prof_bench_new();
        FILE * f = tmpfile();
        prof_bench_set_output(b, f);
        prof_bench_set_epochs(b, 6);
        CHECK(prof_bench_set_terminal(b, 1) == 0, "mode 1");
        capture_begin(&cap, 2);
        prof_bench_run(b, "first", target, &calls);
        prof_bench_add(b, "a", target, &calls);
        prof_bench_add(b, "b", target, &calls);
        prof_bench_run_all(b);
        prof_bench_set_epochs(b, 3);    /* flagged: few epochs */
        prof_bench_run(b, "few", target, &calls);
        prof_bench_finish(b);
        out = capture_end(&cap);
        CHECK(strstr(out, "\rprofiler: benchmark 1: first (") != NULL,
              "stderr [%s]", out);
        CHECK(strstr(out, "\rprofiler: [1/2] a (") != NULL, "stderr [%s]", out);
        CHECK(strstr(out, "\rprofiler: [2/2] b (") != NULL, "stderr [%s]", out);
        CHECK(strstr(out, "\r\033[K") != NULL, "progress erased: [%s]", out);
        /* a warning never runs into the progress line: erased first */
        CHECK(strstr(out, ")profiler: ") == NULL && strstr(out, "s)\033[Kprofiler: ")
              == NULL, "a message ran into the progress line [%s]", out);
        out = check_slurp(f);
        CHECK(strstr(out, "`first` \xE2\x96") != NULL, "sparkline after the name [%s]", out);
        /* at a terminal, flags are marks, not emoji shortcodes */
        CHECK(strstr(out, ":wavy_dash:") == NULL && strstr(out, ":warning:")
              == NULL && strstr(out, "`few` ") && strstr(out, " \xE2\x9A\xA0 few "
              "epochs\n"), "marks, not shortcodes, at a terminal [%s]", out);
        CHECK(strstr(out, BAR("\x88")) != NULL && strstr(out, BAR("\x81")) != NULL,
              "slow and fast epochs drawn [%s]", out);
        prof_bench_free(b);
        fclose(f);
    }

    check_sweep();

    /* terminal 0, and auto with a file and a captured stderr: silence. */
    {
        int mode;
        for (mode = -1; mode <= 0; mode++)
        {
            prof_bench * b = prof_bench_new();
            FILE * f = tmpfile();
            prof_bench_set_output(b, f);
            prof_bench_set_epochs(b, 6);
            prof_bench_set_terminal(b, mode);
            capture_begin(&cap, 2);
            prof_bench_run(b, "quiet", target, &calls);
            prof_bench_finish(b);
            out = capture_end(&cap);
            CHECK(strstr(out, "\r") == NULL, "mode %d: stderr [%s]", mode, out);
            out = check_slurp(f);
            CHECK(strstr(out, "`quiet`\n") != NULL, "mode %d: row [%s]", mode, out);
            CHECK(strstr(out, "\xE2\x96") == NULL, "mode %d: no sparkline [%s]", mode, out);
            prof_bench_free(b);
            fclose(f);
        }
    }

    /* A message erases the status line before it is printed. */
    capture_begin(&cap, 2);
    prof_impl_status("[1/2] x (3.0 s)");
    prof_impl_warn("a message");
    prof_impl_status_clear();       /* nothing left to erase: no output */
    out = capture_end(&cap);
    CHECK(strcmp(out, "\rprofiler: [1/2] x (3.0 s)\033[K\r\033[Kprofiler: a "
                      "message\n") == 0, "status then message [%s]", out);

    /* Before 2 s have passed nothing is drawn, even at a terminal. */
    prof_impl_progress_after_s = 2.0;
    {
        prof_bench * b = prof_bench_new();
        prof_bench_set_format(b, PROF_FORMAT_NONE);
        prof_bench_set_terminal(b, 1);
        prof_bench_set_epochs(b, 6);
        capture_begin(&cap, 2);
        prof_bench_run(b, "short", target, &calls);
        out = capture_end(&cap);
        CHECK(strstr(out, "\rprofiler:") == NULL, "short suite: [%s]", out);
        /* bad modes */
        capture_begin(&cap, 2);
        CHECK(prof_bench_set_terminal(b, 2) == -1, "mode 2 accepted");
        CHECK(prof_bench_set_terminal(NULL, 1) == -1, "NULL suite accepted");
        out = capture_end(&cap);
        CHECK(strstr(out, "profiler: prof_bench_set_terminal: mode must be -1, 0 or 1") != NULL,
              "stderr [%s]", out);
        prof_bench_free(b);
    }
    prof_impl_set_fake_clock(NULL, 0);
    return check_report("test_terminal");
}
