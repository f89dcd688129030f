/*
    The markdown table, row by row as each benchmark ends. By default it
    fits in 100 columns, the most useful columns first: the median, its
    interval, err%, up to three event counts, the name (and, at a terminal,
    a sparkline of the epochs, at most 16 bars). --wide adds op/s, min,
    every event count and the time spent; --table-percentiles the
    percentiles. Every number has 4 significant digits (counts with k, M,
    G); a row's times are in one unit, chosen from its median unless
    --time-unit fixed one. Events that are n/a get no column (the context
    line says why, once). A new header comes whenever the columns change
    (the relative column, the interval's title, the units, the events) and
    after anything else printed under the table.
    SPDX-License-Identifier: MIT
*/
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void prof_impl_md_init(prof_impl_md_writer * w, FILE * out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
}

/* The columns of the console's lines: the table's, and the text around
   it wrapped to the same. */
#define TABLE_WIDTH 100

void prof_impl_md_wrap(FILE * out, const char * text)
{
    while (prof_impl_md_width(text) > TABLE_WIDTH)
    {
        /* the last space after a ',', ';' or ':' that leaves the line
           within the width, else the last space that does, else the first
           space (a word longer than the line stays whole) */
        const char * cut = NULL, * after_mark = NULL, * s;
        int width = 0;
        for (s = text; *s != '\0' && *s != '\n'; s++)
        {
            if (*s == ' ' && (width <= TABLE_WIDTH || cut == NULL))
            {
                cut = s;
                if (width <= TABLE_WIDTH && s > text
                    && strchr(",;:", s[-1]) != NULL)
                    after_mark = s;
            }
            width += (((unsigned char) *s & 0xC0) != 0x80) + (*s == '|');
            if (width > TABLE_WIDTH && cut != NULL)
                break;
        }
        if (*s == '\n' || cut == NULL)
            break;
        if (after_mark != NULL)
            cut = after_mark;
        fprintf(out, "%.*s\n", (int) (cut - text), text);
        text = cut + 1;
    }
    fprintf(out, "%s\n", text);
}

static void md_context(FILE * out, const prof_impl_report_ctx * c)
{
    prof_impl_sysinfo si;
    prof_impl_machine m;
    char line[600];
    const char * w[2];
    int i, n = prof_impl_build_warnings(c, w);
    prof_impl_sysinfo_read(&si);
    prof_impl_machine_read(&m);
    snprintf(line, sizeof line, "%s, %d cores, counter %.4g GHz (read: %.3g "
             "ns), %s%s%s, %s", si.cpu, si.cores, prof_impl_read_rate() * 1e-9,
             c->overhead_ns, c->compiler, c->flags[0] ? " " : "", c->flags,
             si.date);
    prof_impl_md_wrap(out, line);
    prof_impl_machine_line(&m, line, sizeof line);
    prof_impl_md_wrap(out, line);
    fputc('\n', out);
    for (i = 0; i < n; i++)
    {
        snprintf(line, sizeof line, "**warning**: %s", w[i]);
        prof_impl_md_wrap(out, line);
        fputc('\n', out);
        prof_impl_warn("%s", w[i]);
    }
}

/* ---- the columns ------------------------------------------------------- */

typedef enum
{
    COL_RELATIVE, COL_TIME, COL_THREAD, COL_RATE, COL_ERR, COL_INTERVAL,
    COL_MIN, COL_PERCENTILE, COL_USER, COL_EVENT, COL_IPC, COL_MISS,
    COL_TOTAL
} column_kind;

typedef struct
{
    column_kind kind;
    int ev;                 /* COL_EVENT: the result's event index */
    double pct;             /* COL_PERCENTILE: which, 0..100 */
    int width;
    char head[48];
} column;

typedef struct
{
    column c[PROF_IMPL_USER_COLS + PROF_COUNTERS_MAX + 20];
    int n;
} columns;

static void add(columns * cs, column_kind kind, int ev, int width,
        const char * head)
{
    column * c = &cs->c[cs->n++];
    c->kind = kind;
    c->ev = ev;
    prof_impl_copy(c->head, sizeof c->head, head);
    c->width = prof_impl_md_width(c->head) > width
             ? prof_impl_md_width(c->head) : width;
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

/* The user measures' and counters' columns ("allocs/op", "heap B/op",
   "bytes/s"), none for one without a value; at most limit of them.
   Returns how many. */
static int user_columns(columns * cs, const prof_result * r, int limit)
{
    char head[80];
    int k, n = 0;
    for (k = 0; k < r->nuser && n < limit; k++)
    {
        if (isnan(r->user[k]))
            continue;
        if (r->user_flags[k] & PROF_USER_RATE)
            snprintf(head, sizeof head, "%s/s", r->user_names[k]);
        else
            snprintf(head, sizeof head, "%s%s%s/%s", r->user_names[k],
                     r->user_units[k][0] ? " " : "", r->user_units[k],
                     r->unit);
        add(cs, COL_USER, k, 7, head);
        n++;
    }
    return n;
}

/* The counter columns: the user's first, then nanobench's ins, cyc, IPC,
   bra, miss%, then the other events in the order asked for; none for an
   event that is n/a (unavailable here); at most limit of them. */
static void counter_columns(columns * cs, const prof_result * r, int limit)
{
    int ins = prof_impl_result_event_index(r, "instructions");
    int cyc = prof_impl_result_event_index(r, "cycles");
    int bra = prof_impl_result_event_index(r, "branches");
    int miss = prof_impl_result_event_index(r, "branch-misses");
    int order[PROF_COUNTERS_MAX + 2], kinds[PROF_COUNTERS_MAX + 2], n = 0, k;
    char head[48];
#define WANT(kind_, ev_) (kinds[n] = (kind_), order[n++] = (ev_))
    if (ins >= 0) WANT(COL_EVENT, ins);
    if (cyc >= 0) WANT(COL_EVENT, cyc);
    if (ins >= 0 && cyc >= 0) WANT(COL_IPC, -1);
    if (bra >= 0) WANT(COL_EVENT, bra);
    if (bra >= 0 && miss >= 0) WANT(COL_MISS, miss);
    for (k = 0; k < r->ncounters; k++)
        if (k != ins && k != cyc && k != bra && (k != miss || bra < 0))
            WANT(COL_EVENT, k);
#undef WANT
    limit -= user_columns(cs, r, limit);
    for (k = 0; k < n && limit > 0; k++)
    {
        double v = kinds[k] == COL_IPC ? r->ipc : kinds[k] == COL_MISS
                 ? r->branch_miss_pct : r->counters[order[k]];
        if (isnan(v))
            continue;
        if (kinds[k] == COL_IPC)
            strcpy(head, "IPC");
        else if (kinds[k] == COL_MISS)
            strcpy(head, "miss%");
        else
            snprintf(head, sizeof head, "%s/%s",
                     short_name(r->counter_names[order[k]]), r->unit);
        add(cs, (column_kind) kinds[k], order[k], 7, head);
        limit--;
    }
}

/* What the interval column covers: the next run (learned from the
   history, or from the processes' spread), or this process only. */
enum { INTERVAL_PROCESS = 1, INTERVAL_PROCESSES, INTERVAL_HISTORY };
static int interval_kind(const prof_result * r)
{
    return r->next_runs > 0 && !isnan(r->next_low_ns) ? INTERVAL_HISTORY
         : r->processes > 1 ? INTERVAL_PROCESSES : INTERVAL_PROCESS;
}

/* The level of the interval the column shows, in whole percent. */
static int interval_pct(const prof_result * r)
{
    double level = isnan(r->next_low_ns) ? r->ci_level : r->next_level;
    return !(level < PROF_CI_LEVEL && level > 0.0)
         ? (int) (100 * PROF_CI_LEVEL + 0.5) : (int) floor(100.0 * level);
}

/* The interval column's title: what the interval covers. A row without
   an interval (one epoch) says so in its cell, under the usual title. */
static void interval_head(char * out, size_t size, const prof_result * r)
{
    if (interval_kind(r) == INTERVAL_PROCESS)
        snprintf(out, size, "%d%% this process", interval_pct(r));
    else
        snprintf(out, size, "%d%% next run", interval_pct(r));
}

/* Above a header whose interval covers something new: what, in a line. */
static void interval_note(prof_impl_md_writer * w, const prof_result * r)
{
    int kind = interval_kind(r);
    if (kind == w->interval_said)
        return;
    w->interval_said = kind;
    if (kind == INTERVAL_HISTORY)
        fprintf(w->out, "interval: where the next run's median lands, from "
                "%d changes between earlier runs here\n\n", r->next_runs);
    else if (kind == INTERVAL_PROCESSES)
        fprintf(w->out, "interval: where the next run's median lands, from "
                "the spread of %d processes\n\n", r->processes);
    else
        fprintf(w->out, "interval: this process's epochs only; no earlier "
                "runs to learn where the next run lands\n\n");
}

/* The default table's width, and the name it leaves room for (a longer
   one, or flags after it, run past): past that width the last counter
   columns go (--wide shows them). */
#define NAME_ROOM 10

/* Drop the last counter columns of cs while its line, with a name of
   NAME_ROOM and (at a terminal) a sparkline, is wider than TABLE_WIDTH. */
static void fit_width(columns * cs, int terminal)
{
    int k, width = 2 + NAME_ROOM + 2 + (terminal ? 1 + PROF_IMPL_SPARK_BARS
                                                 : 0);
    for (k = 0; k < cs->n; k++)
        width += cs->c[k].width + 3;
    while (width > TABLE_WIDTH && cs->n > 0
           && cs->c[cs->n - 1].kind >= COL_USER
           && cs->c[cs->n - 1].kind != COL_TOTAL)
        width -= cs->c[--cs->n].width + 3;
}

/* The columns of a row of r (the name's is not among them). */
static void row_columns(columns * cs, const prof_impl_report_ctx * c,
        const prof_impl_result * ir, int relative, int terminal)
{
    const prof_result * r = &ir->pub;
    /* a fixed unit in the header, or one a row in the time cells */
    const char * unit = ir->time_unit_fixed ? ir->time_unit : "time";
    const double * pct;
    char head[64];
    int k, npct = prof_impl_report_percentiles(c, &pct);
    cs->n = 0;
    if (relative)
        add(cs, COL_RELATIVE, -1, 13, "relative");
    snprintf(head, sizeof head, "%s/%s", unit, r->unit);
    add(cs, COL_TIME, -1, 8, head);
    if (c->wide && r->threads > 1)
    {
        /* the time over all threads is the first; one thread's here */
        snprintf(head, sizeof head, "%s/%s/thread", unit, r->unit);
        add(cs, COL_THREAD, -1, 8, head);
    }
    if (c->wide)
    {
        snprintf(head, sizeof head, "%s/s", r->unit);
        add(cs, COL_RATE, -1, 7, head);
    }
    interval_head(head, sizeof head, r);
    add(cs, COL_INTERVAL, -1, 16, head);
    add(cs, COL_ERR, -1, 6, "err%");
    for (k = 0; c->table_percentiles && k < npct; k++)
    {
        prof_impl_percentile_name(head, sizeof head, pct[k]);
        add(cs, COL_PERCENTILE, k, 6, head);
        cs->c[cs->n - 1].pct = pct[k];
    }
    if (c->wide)
        add(cs, COL_MIN, -1, 6, "min");
    counter_columns(cs, r, c->wide ? PROF_COUNTERS_MAX + 2 : 3);
    if (c->wide)
        add(cs, COL_TOTAL, -1, 7, "total s");
    else
        fit_width(cs, terminal);
}

/* ---- the cells ----------------------------------------------------------- */

/* Past this ratio either way the relative column reads "12.30x faster"
   or "4.100x slower" instead of a percentage. */
#define FAR_RATIO 2.0

/* The relative figure with the half-width of its interval; far from
   100%, the ratio in words. */
static void relative_cell(char * cell, size_t size, const prof_result * r)
{
    double lo = r->relative_pct * r->median_ns / r->ci_high_ns;
    double hi = r->relative_pct * r->median_ns / r->ci_low_ns;
    double x = r->relative_pct >= 100.0 ? r->relative_pct / 100.0
             : 100.0 / r->relative_pct;
    char a[32], b[32];
    if (isnan(r->relative_pct))
        snprintf(cell, size, "n/a");
    else if (x >= FAR_RATIO)
        snprintf(cell, size, "%sx %s", prof_impl_four_digits(a, 32, x),
                 r->relative_pct >= 100.0 ? "faster" : "slower");
    else if (!(hi - lo < INFINITY))
        prof_impl_percent(cell, size, r->relative_pct);
    else
        snprintf(cell, size, "%s \xC2\xB1%s",
                 prof_impl_percent(a, 32, r->relative_pct),
                 prof_impl_fixed(b, 32, (hi - lo) / 2.0, 1, 0));
}

/* A count, a rate, IPC or miss%: 4 significant digits, k/M/G past 1000. */
static void counter_cell(char * cell, size_t size, const column * col,
        const prof_result * r)
{
    double v = col->kind == COL_IPC ? r->ipc : col->kind == COL_MISS
             ? r->branch_miss_pct : col->kind == COL_USER ? r->user[col->ev]
             : r->counters[col->ev];
    if (col->kind == COL_MISS && !isnan(v))
        prof_impl_percent(cell, size, v);
    else
        prof_impl_four_digits_si(cell, size, v);
}

/* A time in the row's unit: with the unit after it where the table
   chooses one a row (unit_named), bare under a header that names it. */
static void time_cell(char * out, size_t size, double ns, const char * unit,
        double unit_ns, int unit_named)
{
    char a[32];
    prof_impl_four_digits(a, sizeof a, ns / unit_ns);
    if (unit_named && !isnan(ns))
        snprintf(out, size, "%s %s", a, unit);
    else
        snprintf(out, size, "%s", a);
}

/* The interval in the row's unit (the time cell names it); a row of one
   epoch has none. */
static void interval_cell(char * out, size_t size, const prof_result * r,
        double unit_ns)
{
    char a[32], b[32];
    int next = !isnan(r->next_low_ns);
    if (!next && (isnan(r->ci_low_ns) || !(r->ci_level > 0.0)))
        snprintf(out, size, "%s", r->epochs == 1 ? "none (1 epoch)"
                                                 : "no interval");
    else
        snprintf(out, size, "[%s, %s]", prof_impl_four_digits(a, 32,
                     (next ? r->next_low_ns : r->ci_low_ns) / unit_ns),
                 prof_impl_four_digits(b, 32,
                     (next ? r->next_high_ns : r->ci_high_ns) / unit_ns));
}

static void cell(char * out, size_t size, const column * col,
        const prof_impl_result * ir)
{
    const prof_result * r = &ir->pub;
    const char * unit;
    double unit_ns;
    int named = !ir->time_unit_fixed;
    prof_impl_table_unit(r->median_ns, named ? NULL : ir->time_unit, &unit,
                         &unit_ns);
    switch (col->kind)
    {
    case COL_RELATIVE: relative_cell(out, size, r); break;
    case COL_TIME: time_cell(out, size, r->median_ns, unit, unit_ns, named);
        break;
    case COL_THREAD: time_cell(out, size, r->median_ns * r->threads, unit,
                               unit_ns, named); break;
    case COL_RATE: prof_impl_four_digits_si(out, size, r->median_ns > 0.0
                                     ? 1e9 / r->median_ns : INFINITY); break;
    case COL_ERR: /* one epoch's MdAPE is 0 by construction: no spread seen */
        prof_impl_percent(out, size, r->epochs > 1 ? r->err_pct : NAN); break;
    case COL_INTERVAL: interval_cell(out, size, r, unit_ns); break;
    case COL_PERCENTILE:
        time_cell(out, size, prof_result_percentile(r, col->pct), unit,
                  unit_ns, 0);
        break;
    case COL_MIN: time_cell(out, size, r->min_ns, unit, unit_ns, 0); break;
    case COL_TOTAL: prof_impl_four_digits(out, size, r->total_s); break;
    default: counter_cell(out, size, col, r); break;
    }
}

/* ---- the table ----------------------------------------------------------- */

/* "| text " with text right-aligned in width columns (characters, not
   bytes: a UTF-8 "±" takes one column), kept in its cell (a unit such as
   "a|b" or one with a line break is the header's too). */
static void put_cell(FILE * out, const char * text, int width)
{
    int n = prof_impl_md_width(text);
    fprintf(out, "| %*s", width > n ? width - n : 0, "");
    prof_impl_md_text(out, text);
    fputc(' ', out);
}

void prof_impl_md_break(prof_impl_md_writer * w)
{
    w->cols[0] = '\0';
}

/* The context once, the counters' line once, and a header whenever the
   columns change. */
static void md_header(prof_impl_md_writer * w, const prof_impl_report_ctx * c,
        const columns * cs, const prof_result * r)
{
    char key[sizeof w->cols];
    int k, i;
    if (!w->header_done)
        md_context(w->out, c);
    if (r->ncounters > 0 && !w->counters_done)
    {
        /* once, even when no event counts here: it says why */
        if (c->counters_line[0] != '\0')
            fprintf(w->out, "%s\n\n", c->counters_line);
        w->counters_done = 1;
    }
    key[0] = '\0';
    for (k = 0; k < cs->n; k++)
    {
        size_t len = strlen(key);
        snprintf(key + len, sizeof key - len, "%s|", cs->c[k].head);
    }
    if (w->header_done && strcmp(key, w->cols) == 0)
        return;
    if (w->header_done)
        fputc('\n', w->out);
    interval_note(w, r);
    for (k = 0; k < cs->n; k++)
        put_cell(w->out, cs->c[k].head, cs->c[k].width);
    fputs("| benchmark\n", w->out);
    for (k = 0; k < cs->n; k++)
    {
        fputc('|', w->out);
        for (i = 0; i < cs->c[k].width + 1; i++)
            fputc('-', w->out);
        fputc(':', w->out);
    }
    fputs("|:----------\n", w->out);
    w->header_done = 1;
    prof_impl_copy(w->cols, sizeof w->cols, key);
}

/* The flags after the name: words in a file (GitHub shows the shortcode),
   a single mark at a terminal. The warnings share one mark, their words
   joined by commas (":warning: bimodal, loaded"), so that a short name's
   row keeps to TABLE_WIDTH with two of them. */
static void flags_cell(FILE * out, const prof_result * r, int terminal)
{
    static const struct { int flag; const char * word; } warnings[] = {
        { PROF_RESULT_BIMODAL, "bimodal" },
        { PROF_RESULT_BUDGET | PROF_RESULT_FEW_EPOCHS, "few epochs" },
        { PROF_RESULT_RESOLUTION, "no work?" },
        { PROF_RESULT_PARTIAL, "partial" },
        { PROF_RESULT_LOADED, "loaded" },
        { PROF_RESULT_PREEMPTED, "preempted" } };
    const char * sep = terminal ? " \xE2\x9A\xA0 " : " :warning: ";
    size_t i;
    if (r->flags & PROF_RESULT_UNSTABLE)
        fputs(terminal ? " \xE2\x89\x88 unstable" : " :wavy_dash: unstable", out);
    for (i = 0; i < sizeof warnings / sizeof warnings[0]; i++)
        if (r->flags & warnings[i].flag)
        {
            fprintf(out, "%s%s", sep, warnings[i].word);
            sep = ", ";
        }
}

void prof_impl_md_row(prof_impl_md_writer * w, const prof_impl_report_ctx * c,
        const prof_impl_result * ir, int relative)
{
    const prof_result * r = &ir->pub;
    char spark[3 * PROF_IMPL_SPARK_BARS + 1] = "", text[64];
    int terminal, k;
    columns cs;

    if (w->out == NULL)
        return;
    terminal = prof_impl_is_terminal(c->terminal, w->out);
    row_columns(&cs, c, ir, relative, terminal);
    md_header(w, c, &cs, r);
    for (k = 0; k < cs.n; k++)
    {
        cell(text, sizeof text, &cs.c[k], ir);
        put_cell(w->out, text, cs.c[k].width);
    }
    fputs("| ", w->out);
    prof_impl_md_code(w->out, r->name);
    if (terminal)
        prof_impl_sparkline(spark, sizeof spark, r->samples_ns, r->epochs);
    if (spark[0] != '\0')
        fprintf(w->out, " %s", spark);
    flags_cell(w->out, r, terminal);
    fputc('\n', w->out);
    fflush(w->out);
}

void prof_impl_md_partial(prof_impl_md_writer * w,
        const prof_impl_report_ctx * c, int rows)
{
    if (w->out != NULL && c->partial != NULL)
        fprintf(w->out, "\n**partial**: %s: the %d benchmark%s that "
                "finished\n", c->partial, rows, rows == 1 ? "" : "s");
}
