/* The markdown table as a person reads it: a time unit a row (or the one
   fixed), 4 significant digits, one format a column, the default table in
   100 columns in every mode (a sweep, 55 processes, counters, user
   counters, relative) with its sparkline, a header after an interposed
   table, "none (1 epoch)" and no 0% level, the percentiles' columns.
   The rows are made by hand: no clock runs. */
#include "check.h"
#include "internal.h"
#include "report.h"
#include "history.h"

#include <math.h>

#define MAX_EPOCHS 605

static double samples[MAX_EPOCHS];
static const char * const counter_names[4] = { "instructions", "cycles",
    "branches", "branch-misses" };
static const double counters[4] = { 6.766e7, 3.383e7, 1006.0, 69.0 };
static const char * const user_names[3] = { "heap", "bytes", "items" };
static const char * const user_units[3] = { "B", "", "" };
static const int user_flags[3] = { PROF_USER_MEASURE, 0, PROF_USER_RATE };
static const double user[3] = { 48.0, 1.5e6, 2.5e8 };

/* A row of median ns over epochs epochs, scattered by 10% around it. */
static void make(prof_impl_result * ir, const char * name, double ns,
        int epochs, int processes)
{
    int i;
    memset(ir, 0, sizeof *ir);
    for (i = 0; i < epochs; i++)
        samples[i] = ns * (0.95 + 0.1 * (i % 7) / 6.0);
    ir->pub.name = name;
    ir->pub.median_ns = ir->pub.min_ns = ns;
    ir->pub.ci_low_ns = epochs > 1 ? 0.97 * ns : NAN;
    ir->pub.ci_high_ns = epochs > 1 ? 1.21 * ns : NAN;
    ir->pub.ci_level = epochs > 1 ? (processes > 1 ? 0.938 : 0.988) : 0.0;
    ir->pub.err_pct = 12.345;
    ir->pub.epochs = epochs;
    ir->pub.samples_ns = samples;
    ir->pub.processes = processes;
    ir->pub.threads = 1;
    ir->pub.unit = "op";
    ir->pub.relative_pct = NAN;
    ir->pub.total_s = 1.2345;
    prof_impl_next_interval(&ir->pub, NAN, 0);  /* as the suite does */
    strcpy(ir->time_unit, "ns");
    ir->time_unit_ns = 1.0;
}

static prof_impl_report_ctx context(void)
{
    prof_impl_report_ctx c;
    memset(&c, 0, sizeof c);
    c.optimized = 1;
    c.compiler = "cc 1.0";
    c.flags = "";
    c.overhead_ns = NAN;
    c.counters_line = "";
    c.terminal = 1;         /* with the sparklines */
    return c;
}

/* The widest line of the table (its lines start with '|'), in columns:
   characters, a UTF-8 sequence one. */
static int widest(const char * s)
{
    int most = 0, width = 0, in_table = 0;
    for (; *s; s++)
    {
        if (*s == '\n')
        {
            most = in_table && width > most ? width : most;
            width = in_table = 0;
            continue;
        }
        in_table |= width == 0 && *s == '|';
        width += ((unsigned char) *s & 0xC0) != 0x80;
    }
    return in_table && width > most ? width : most;
}

/* The rows of one mode, written to a file of their own: its text. */
static const char * table(const prof_impl_report_ctx * c,
        prof_impl_result * rows, int n, int relative)
{
    static FILE * f;
    prof_impl_md_writer w;
    int i;
    if (f != NULL)
        fclose(f);
    f = tmpfile();
    prof_impl_md_init(&w, f);
    for (i = 0; i < n; i++)
        prof_impl_md_row(&w, c, &rows[i], relative);
    return check_slurp(f);
}

/* Whether a cell of the table reads text (right-aligned in it). */
static int has(const char * t, const char * text)
{
    char want[96];
    snprintf(want, sizeof want, " %s |", text);
    return strstr(t, want) != NULL;
}

#define FITS(what, text) \
    CHECK(widest(text) <= 100, "%s: %d columns:\n%s", what, widest(text), text)

static void check_sweep(void)
{
    static const double ns[5] = { 331.85, 3330.22, 30212.96, 362255.8,
                                  1510051399.72 };
    static const char * const cells[5] = { "331.9 ns", "3.330 us",
        "30.21 us", "362.3 us", "1.510 s" };
    prof_impl_report_ctx c = context();
    prof_impl_result rows[5];
    const char * t;
    int i;
    for (i = 0; i < 5; i++)
        make(&rows[i], "sum/100000", ns[i], 11, 1);
    t = table(&c, rows, 5, 0);
    FITS("sweep", t);
    for (i = 0; i < 5; i++)
        CHECK(has(t, cells[i]), "sweep: %s in\n%s", cells[i], t);
    CHECK(has(t, "[1.465, 1.827]") && has(t, "12.35%")
          && has(t, "time/op")
          && check_count(t, "time/op") == 1, "sweep: one header, the "
          "interval in the row's unit, 4 digits:\n%s", t);

    /* a fixed unit: in the header, the cells bare */
    for (i = 0; i < 5; i++)
        rows[i].time_unit_fixed = 1;
    t = table(&c, rows, 2, 0);
    CHECK(has(t, "ns/op") && has(t, "331.9")
          && has(t, "3330"), "fixed ns:\n%s", t);
}

static void check_processes(void)
{
    prof_impl_report_ctx c = context();
    prof_impl_result rows[2];
    const char * t, * bar;
    make(&rows[0], "sum/100000", 362255.8, MAX_EPOCHS, 55);
    make(&rows[1], "sum/1000000", 3622558.0, MAX_EPOCHS, 55);
    c.processes = 55;
    t = table(&c, rows, 2, 0);
    FITS("55 processes", t);
    bar = strstr(t, "`sum/100000` ");
    CHECK(has(t, "93% next run") && strstr(t, "interval: where the next "
          "run's median lands, from the spread of 55 processes\n"),
          "the title:\n%s", t);
    /* 16 bars of 3 bytes, then the line's end */
    CHECK(bar != NULL && strlen(bar) > 13 + 48 && bar[13 + 48] == '\n'
          && (unsigned char) bar[13 + 45] == 0xE2, "16 bars:\n%s", t);
}

static void check_counters(void)
{
    prof_impl_report_ctx c = context();
    prof_impl_result rows[2];
    const char * t;
    int i;
    for (i = 0; i < 2; i++)
    {
        make(&rows[i], i ? "sum/100000" : "sum/1000", i ? 3.5e5 : 3.5e2,
             11, 1);
        rows[i].pub.ncounters = 4;
        rows[i].pub.counter_names = counter_names;
        rows[i].pub.counters = counters;
        rows[i].pub.ipc = 2.0;
        rows[i].pub.branch_miss_pct = 6.859;
    }
    t = table(&c, rows, 2, 0);
    FITS("counters", t);
    CHECK(has(t, "67.66M") && has(t, "33.83M") && has(t, "2.000"),
          "counts with k/M/G, 4 digits:\n%s", t);
    c.wide = 1;
    t = table(&c, rows, 1, 0);
    CHECK(has(t, "1.006k") && has(t, "6.86%")
          && has(t, "2.857M"), "wide: bra, miss%%, op/s:\n%s",
          t);
}

static void check_user(void)
{
    prof_impl_report_ctx c = context();
    prof_impl_result rows[2];
    const char * t;
    int i;
    for (i = 0; i < 2; i++)
    {
        make(&rows[i], "copy/10000", 8.0 * (i + 1), 11, 1);
        rows[i].pub.nuser = 3;
        rows[i].pub.user_names = user_names;
        rows[i].pub.user_units = user_units;
        rows[i].pub.user_flags = user_flags;
        rows[i].pub.user = user;
        rows[i].pub.relative_pct = i ? 50.0 : 100.0;
    }
    t = table(&c, rows, 2, 1);
    FITS("user counters, relative", t);
    CHECK(has(t, "48.00") && has(t, "2.000x slower"), "user counters:\n%s",
          t);
    /* the columns past 100 are --wide's */
    c.wide = 1;
    t = table(&c, rows, 2, 1);
    CHECK(has(t, "1.500M") && has(t, "250.0M"), "wide:\n%s", t);
}

static void check_rows(void)
{
    prof_impl_report_ctx c = context();
    prof_impl_result rows[2];
    const char * t;
    prof_impl_md_writer w;
    FILE * f = tmpfile();
    /* one epoch: no 0% anywhere, the cell says why */
    make(&rows[0], "once", 5e6, 1, 1);
    rows[0].pub.err_pct = 0.0;      /* as the runner computes it */
    make(&rows[1], "twice", 5e6, 11, 1);
    t = table(&c, rows, 2, 0);
    CHECK(has(t, "none (1 epoch)") && strstr(t, "n/a%") == NULL
          && strstr(t, "0%") == NULL && check_count(t, "95% this process") == 1,
          "one epoch:\n%s", t);
    /* the percentiles: p10, p50 (the median here), p90, the outputs' */
    static const double deciles[] = { 10.0, 50.0, 90.0 };
    c.percentiles = deciles;
    c.npercentiles = 3;
    c.table_percentiles = 1;
    t = table(&c, rows + 1, 1, 0);
    CHECK(has(t, "p10") && has(t, "p50") && has(t, "p90")
          && has(t, "4.750") && has(t, "4.917") && has(t, "5.167"),
          "percentiles:\n%s", t);
    /* something printed under the table: the next row gets a header */
    c.table_percentiles = 0;
    prof_impl_md_init(&w, f);
    prof_impl_md_row(&w, &c, &rows[1], 0);
    prof_impl_md_break(&w);
    prof_impl_md_row(&w, &c, &rows[1], 0);
    t = check_slurp(f);
    CHECK(check_count(t, "| benchmark\n") == 2, "header again:\n%s", t);
    fclose(f);
}

/* The flags after a name: unstable its own mark, the warnings one mark
   with their words joined, in a file and at a terminal; examples/bench's
   row with two warnings (as a loaded machine gives) within 100 columns. */
static void check_flags(void)
{
    prof_impl_report_ctx c = context();
    prof_impl_result row;
    const char * t;
    make(&row, "one multiply-add (inline)", 1.101, 9, 1);
    row.pub.flags = PROF_RESULT_UNSTABLE | PROF_RESULT_BIMODAL
                  | PROF_RESULT_LOADED | PROF_RESULT_PREEMPTED;
    c.terminal = 0;
    t = table(&c, &row, 1, 0);
    CHECK(strstr(t, "` :wavy_dash: unstable :warning: bimodal, loaded, "
                    "preempted\n") != NULL, "flags in a file:\n%s", t);
    row.pub.flags &= ~PROF_RESULT_UNSTABLE;
    t = table(&c, &row, 1, 0);
    CHECK(strstr(t, "(inline)` :warning: bimodal, loaded, preempted\n")
          != NULL, "flags without unstable:\n%s", t);
    row.pub.flags = PROF_RESULT_BIMODAL | PROF_RESULT_LOADED;
    t = table(&c, &row, 1, 0);
    FITS("two warnings", t);
    row.pub.flags = PROF_RESULT_FEW_EPOCHS;
    t = table(&c, &row, 1, 0);
    CHECK(strstr(t, "(inline)` :warning: few epochs\n") != NULL,
          "one warning:\n%s", t);
    c.terminal = 1;
    row.pub.flags = PROF_RESULT_UNSTABLE | PROF_RESULT_LOADED
                  | PROF_RESULT_PARTIAL;
    t = table(&c, &row, 1, 0);
    CHECK(strstr(t, " \xE2\x89\x88 unstable \xE2\x9A\xA0 partial, loaded\n")
          != NULL, "flags at a terminal:\n%s", t);
}

int main(void)
{
    char s[32];
    /* the numbers */
    CHECK(strcmp(prof_impl_four_digits(s, 32, 999.96), "1000") == 0
          && strcmp(prof_impl_four_digits(s, 32, 0.5), "0.5000") == 0
          && strcmp(prof_impl_four_digits(s, 32, 0.0), "0") == 0
          && strcmp(prof_impl_four_digits(s, 32, 1510051399.72), "1510051400") == 0
          && strcmp(prof_impl_four_digits_si(s, 32, 999960.0), "1.000M") == 0
          && strcmp(prof_impl_four_digits_si(s, 32, -1006.0), "-1.006k") == 0
          && strcmp(prof_impl_four_digits_si(s, 32, NAN), "n/a") == 0,
          "4 significant digits [%s]", s);
    check_sweep();
    check_processes();
    check_counters();
    check_user();
    check_rows();
    check_flags();
    return check_report("test_tables");
}
