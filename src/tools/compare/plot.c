/*
    Pictures of a comparison without dependencies: SVG written by hand, or
    the same SVG inside a self-contained HTML page.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "plot.h"
#include "plot_axis.h"
#include "report.h"      /* prof_impl_family_len: the runner's families */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* TITLE_H: the title's two lines, old and new, above the panels' heads. */
enum { WIDTH = 960, LABEL_W = 230, ROW_H = 36, TITLE_H = 36,
       TOP = TITLE_H + 70, BOTTOM = 50 };
/* The two panels: samples relative to the old median, change of median. */
static const double strip_x0 = 240, strip_x1 = 620;
static const double bar_x0 = 690, bar_x1 = 940;

/* The length of the character at s (n bytes left): 1 for a byte that is
   not UTF-8, so that it is shown as U+FFFD. */
static size_t char_len(const char * s, size_t n)
{
    size_t k = prof_impl_utf_len((const unsigned char *) s, n);
    return k > 0 ? k : 1;
}

/* s as SVG/HTML text: markup characters escaped, a byte that is not UTF-8
   or a control character (which XML cannot hold) as U+FFFD; with more
   than max characters (max > 1), only the last max - 1 after an ellipsis
   (a path's end names its file). */
static void put_text(FILE * f, const char * s, size_t max)
{
    size_t left = strlen(s), count = 0, i, k;
    for (i = 0; i < left; i += char_len(s + i, left - i))
        count++;
    if (count > max)
    {
        fputs("&#8230;", f);
        for (; count > max - 1; count--, left -= k, s += k)
            k = char_len(s, left);
    }
    for (; left > 0; s += k, left -= k)
    {
        k = char_len(s, left);
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else if (*s == '"') fputs("&quot;", f);
        else if (k == 1 && ((unsigned char) *s >= 0x80
                            || ((unsigned char) *s < 0x20 && *s != '\t')))
            fputs("&#xFFFD;", f);
        else
            fwrite(s, 1, k, f);
    }
}

static void put_escaped(FILE * f, const char * s)
{
    put_text(f, s, (size_t) -1);
}

/* A side as the title names it: its file (the ends of the first and last
   of several), or the command --run ran. */
static void put_side(FILE * f, const prof_plot_side * side)
{
    if (side->command != NULL)
    {
        put_text(f, side->command, 110);
        fprintf(f, " (%d runs)", side->count);
    }
    else if (side->count == 1)
        put_text(f, side->paths[0], 120);
    else
    {
        put_text(f, side->paths[0], 50);
        fputs(side->count == 2 ? ", " : ", ..., ", f);
        put_text(f, side->paths[side->count - 1], 50);
        if (side->count > 2)
            fprintf(f, " (%d files)", side->count);
    }
}

/* The document's title (a browser's tab shows it). */
static void put_caption(FILE * f, const prof_plot_side sides[2])
{
    fputs("<title>prof-compare: ", f);
    put_side(f, &sides[0]);
    fputs(" against ", f);
    put_side(f, &sides[1]);
    fputs("</title>", f);
}

/* The picture's title: the document's, and two lines naming the old and
   the new side. */
static void title(FILE * f, const prof_plot_side sides[2])
{
    static const char * what[2] = { "old", "new" };
    int i;
    put_caption(f, sides);
    fputc('\n', f);
    for (i = 0; i < 2; i++)
    {
        fprintf(f, "<text id=\"title-%s\" x=\"20\" y=\"%d\" "
                "class=\"title fitlabel%s\">%s: ", what[i], 20 + 18 * i,
                what[i], what[i]);
        put_side(f, &sides[i]);
        fputs("</text>\n", f);
    }
}

/* x of v on an axis drawn from x0 to x1; figures off the axis (an
   infinite change against an old median of 0) at its ends. */
static double map(double v, const prof_axis * a, double x0, double x1)
{
    double t = (v == v ? v - a->lo : -a->lo) / (a->hi - a->lo);
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    return x0 + t * (x1 - x0);
}

static void axis(FILE * f, const prof_axis * a, double x0, double x1,
                 int height, const char * title)
{
    char label[48];
    int k;
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"head\">", (x0 + x1) / 2, TOP - 30);
    put_escaped(f, title);
    fputs("</text>\n<g class=\"axis\">\n", f);
    for (k = 0; k < a->n; k++)
    {
        double x = map(a->v[k], a, x0, x1);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                "class=\"%s\"/>\n", x, TOP - 12, x, height - BOTTOM + 4,
                a->v[k] == 0.0 ? "zero" : "grid");
        prof_impl_axis_change_label(label, sizeof label, a->v[k]);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\">%s</text>\n",
                x, height - BOTTOM + 18, label);
    }
    fputs("</g>\n", f);
}

/* ---- complexity charts ---------------------------------------------------- */

enum { CHART_W = 440, CHART_H = 250, CHART_GAP = 20 };

/* g(N) of a Google Benchmark complexity name; NaN for an unknown one. */
static double big_o_value(const char * name, double n)
{
    if (strcmp(name, "(1)") == 0) return 1.0;
    if (strcmp(name, "lgN") == 0) return log2(n);
    if (strcmp(name, "N") == 0) return n;
    if (strcmp(name, "NlgN") == 0) return n * log2(n);
    if (strcmp(name, "N^2") == 0) return n * n;
    if (strcmp(name, "N^3") == 0) return n * n * n;
    return NAN;
}

static int in_family(const char * name, const char * family, size_t len)
{
    return prof_impl_family_len(name) == len
           && strncmp(name, family, len) == 0;
}

/* A member of a family run over several N, for sorting by family. */
typedef struct { const char * name; size_t len; int i; } member;

static int cmp_member(const void * a, const void * b)
{
    const member * x = (const member *) a, * y = (const member *) b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = strncmp(x->name, y->name, n);
    if (c == 0 && x->len != y->len)
        c = x->len < y->len ? -1 : 1;
    return c != 0 ? c : (x->i > y->i) - (x->i < y->i);
}

static int cmp_int(const void * a, const void * b)
{
    int x = *(const int *) a, y = *(const int *) b;
    return (x > y) - (x < y);
}

/* The families with at least two points of N in a file, as indexes of
   their first member, in the order of the file; returns how many (at most
   max). Sorting by family keeps this O(n log n) for huge files. */
static int families(const prof_result_file * rf, int * first, int max)
{
    member * m;
    int * firsts, i, j, n = 0, k = 0;
    if (rf == NULL || rf->count == 0)
        return 0;
    m = (member *) malloc((size_t) rf->count * sizeof *m);
    firsts = (int *) malloc((size_t) rf->count * sizeof *firsts);
    for (i = 0; m != NULL && firsts != NULL && i < rf->count; i++)
        if (rf->series[i].complexity_n > 0.0)
        {
            m[n].name = rf->series[i].name;
            m[n].len = prof_impl_family_len(m[n].name);
            m[n++].i = i;
        }
    if (m != NULL && firsts != NULL)
    {
        qsort(m, (size_t) n, sizeof *m, cmp_member);
        for (i = 0; i < n; i = j)
        {
            for (j = i + 1; j < n && m[j].len == m[i].len
                 && strncmp(m[i].name, m[j].name, m[i].len) == 0; j++)
                ;
            if (j - i >= 2)
                firsts[k++] = m[i].i;
        }
        qsort(firsts, (size_t) k, sizeof *firsts, cmp_int);
        memcpy(first, firsts, (size_t) (k < max ? k : max) * sizeof *first);
    }
    free(m);
    free(firsts);
    return k < max ? k : max;
}

/* A chart's plotting area and the ranges it shows, log-log. */
typedef struct
{
    double px0, px1, py0, py1;   /* left, right, bottom, top */
    double nlo, nhi, tlo, thi;
} frame;

static double px(const frame * fr, double n)
{
    return fr->px0 + (log(n) - log(fr->nlo)) / (log(fr->nhi) - log(fr->nlo))
                     * (fr->px1 - fr->px0);
}

static double py(const frame * fr, double t)
{
    return fr->py0 - (log(t) - log(fr->tlo)) / (log(fr->thi) - log(fr->tlo))
                     * (fr->py0 - fr->py1);
}

/* A point of the family's chart: a member with its N and a median. */
static int charted(const prof_series * s, const char * family, size_t len)
{
    return s->complexity_n > 0.0 && in_family(s->name, family, len)
        && s->median_ns > 0.0;
}

/* The ranges of N and time over both files: 0, or -1 if there is nothing
   to draw (a single N). */
static int chart_ranges(frame * fr, const char * family, size_t len,
                        const prof_result_file * files[2])
{
    int side, i;
    fr->nlo = fr->tlo = INFINITY;
    fr->nhi = fr->thi = 0.0;
    for (side = 0; side < 2; side++)
        for (i = 0; files[side] != NULL && i < files[side]->count; i++)
        {
            const prof_series * s = &files[side]->series[i];
            if (!charted(s, family, len))
                continue;
            fr->nlo = fmin(fr->nlo, s->complexity_n);
            fr->nhi = fmax(fr->nhi, s->complexity_n);
            fr->tlo = fmin(fr->tlo, s->median_ns);
            fr->thi = fmax(fr->thi, s->median_ns);
        }
    if (!(fr->nhi > fr->nlo) || !(fr->thi > 0))
        return -1;
    if (!(fr->thi > fr->tlo))
        fr->tlo /= 2, fr->thi *= 2;
    return 0;
}

/* A chart's ticks: grid lines across the plotting area and their labels,
   N below the axis, times left of it, all in one unit. */
static void chart_ticks(FILE * f, const frame * fr, const prof_axis * n_axis,
                        const prof_axis * t_axis)
{
    char label[48];
    double unit_ns;
    const char * unit = prof_impl_axis_time_unit(t_axis, &unit_ns);
    int k;
    fputs("<g class=\"xticks\">\n", f);
    for (k = 0; k < n_axis->n; k++)
    {
        double x = px(fr, n_axis->v[k]);
        prof_impl_axis_n_label(label, sizeof label, n_axis->v[k]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "class=\"grid\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                "class=\"tick\">%s</text>\n", x, fr->py0, x, fr->py1, x,
                fr->py0 + 15, label);
    }
    fputs("</g>\n<g class=\"yticks\">\n", f);
    for (k = 0; k < t_axis->n; k++)
    {
        double y = py(fr, t_axis->v[k]);
        prof_impl_axis_time_label(label, sizeof label, t_axis->v[k], unit,
                                  unit_ns);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "class=\"grid\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                "class=\"name\">%s</text>\n", fr->px0, y, fr->px1, y,
                fr->px0 - 4, y + 4, label);
    }
    fprintf(f, "</g>\n<text x=\"%.1f\" y=\"%.1f\" class=\"tick\">N</text>\n",
            (fr->px0 + fr->px1) / 2, fr->py0 + 30);
}

/* The box, title, axes, ticks and labels of a chart at (x, y). */
static void chart_frame(FILE * f, const frame * fr, double x, double y,
                        const char * family, size_t len,
                        const prof_axis * n_axis, const prof_axis * t_axis)
{
    char title[300];
    snprintf(title, sizeof title, "%.*s: time against N (log-log)", (int) len,
             family);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
            "fill=\"none\" stroke=\"#ccc\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
            "class=\"head\">", x, y, CHART_W, CHART_H, x + CHART_W / 2.0, y + 18);
    put_escaped(f, title);
    fputs("</text>\n", f);
    chart_ticks(f, fr, n_axis, t_axis);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"zero\"/>\n"
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"zero\"/>\n",
            fr->px0, fr->py0, fr->px1, fr->py0, fr->px0, fr->py0, fr->px0, fr->py1);
}

/* A fitted curve of one side (cls "old" or "new", row 0 or 1 of labels). */
static void chart_fit(FILE * f, const frame * fr, const prof_fit_line * fit,
                      const char * cls, int row)
{
    int k;
    fprintf(f, "<polyline class=\"fit%s\" points=\"", cls);
    for (k = 0; k <= 40; k++)
    {
        double nv = exp(log(fr->nlo) + (log(fr->nhi) - log(fr->nlo)) * k / 40.0);
        double tv = fit->coefficient_ns * big_o_value(fit->big_o, nv);
        if (tv > 0.0)
            fprintf(f, "%.1f,%.1f ", px(fr, nv),
                    fmin(fmax(py(fr, tv), fr->py1 - 10), fr->py0 + 10));
    }
    fprintf(f, "\"><title>%s: %s O(%s)</title></polyline>\n",
            cls, fit->family, fit->big_o);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"fitlabel%s\">%s fit: "
            "%.3g ns &#215; %s</text>\n", fr->px0 + 8, fr->py1 + 6 + 14 * row,
            cls, cls, fit->coefficient_ns, fit->big_o);
}

/* One chart: time [ns] against N on log-log axes, at (x, y). */
static void chart(FILE * f, double x, double y, const char * family,
                  size_t len, const prof_result_file * files[2])
{
    static const char * cls[2] = { "old", "new" };
    frame fr;
    prof_axis n_axis, t_axis;
    char t[32];
    int side, i;

    fr.px0 = x + 70;
    fr.px1 = x + CHART_W - 15;
    fr.py0 = y + CHART_H - 45;
    fr.py1 = y + 30;
    if (chart_ranges(&fr, family, len, files) != 0)
        return;
    prof_impl_axis_log(&n_axis, fr.nlo, fr.nhi, 1);
    prof_impl_axis_log(&t_axis, fr.tlo, fr.thi, 0);
    fr.nlo = n_axis.lo;
    fr.nhi = n_axis.hi;
    fr.tlo = t_axis.lo;
    fr.thi = t_axis.hi;
    fputs("<g class=\"chart\">\n", f);
    chart_frame(f, &fr, x, y, family, len, &n_axis, &t_axis);
    for (side = 0; side < 2; side++)
    {
        const prof_result_file * rf = files[side];
        for (i = 0; rf != NULL && i < rf->nfits; i++)
            if (strlen(rf->fits[i].family) == len
                && strncmp(rf->fits[i].family, family, len) == 0
                && !isnan(big_o_value(rf->fits[i].big_o, fr.nlo)))
                chart_fit(f, &fr, &rf->fits[i], cls[side], side);
        for (i = 0; rf != NULL && i < rf->count; i++)
            if (charted(&rf->series[i], family, len))
            {
                prof_impl_format_ns(t, sizeof t, rf->series[i].median_ns);
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" class=\"%s\">"
                        "<title>N = %g: %s</title></circle>\n",
                        px(&fr, rf->series[i].complexity_n),
                        py(&fr, rf->series[i].median_ns), cls[side],
                        rf->series[i].complexity_n, t);
            }
    }
    fputs("</g>\n", f);
}

/* ---- the rows: samples and changes ---------------------------------------- */

/* Widen [range[0], range[1]] to hold v; finite values only: an old
   median of 0 makes them inf (put at the edge by map), and an infinite
   axis made every x NaN. */
static void widen(double range[2], double v)
{
    if (isfinite(v))
    {
        range[0] = fmin(range[0], v);
        range[1] = fmax(range[1], v);
    }
}

/* The two panels' axes, clipped to the data: every finite sample relative
   to its old median, and every change and interval end. */
static void limits(const prof_plot_row * rows, int n, prof_axis * strip,
                   prof_axis * bar)
{
    double s[2] = { 0.0, 0.0 }, b[2] = { 0.0, 0.0 }, m;
    int i, j;
    for (i = 0; i < n; i++)
    {
        const prof_plot_row * r = &rows[i];
        m = r->old->median_ns;
        for (j = 0; j < r->old->count; j++)
            widen(s, r->old->samples_ns[j] / m - 1);
        for (j = 0; j < r->new_->count; j++)
            widen(s, r->new_->samples_ns[j] / m - 1);
        widen(b, r->verdict.change);
        widen(b, r->verdict.ci_low);
        widen(b, r->verdict.ci_high);
    }
    prof_impl_axis_change(strip, s[0], s[1]);
    prof_impl_axis_change(bar, b[0], b[1]);
}

static void svg_head(FILE * f, int height)
{
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
            "font-size=\"12\">\n", WIDTH, height, WIDTH, height);
    fputs("<style>.head{font-weight:bold;text-anchor:middle}"
          ".tick{text-anchor:middle;fill:#555;font-size:11px}"
          ".title{font-weight:bold;font-size:13px}"
          ".name{text-anchor:end}.grid{stroke:#ddd}.zero{stroke:#888}"
          ".old{fill:#1f77b4;fill-opacity:0.55}.new{fill:#ff7f0e;fill-opacity:0.55}"
          ".mold{stroke:#1f77b4;stroke-width:2}.mnew{stroke:#ff7f0e;stroke-width:2}"
          ".slower{fill:#d62728}.faster{fill:#2ca02c}.same{fill:#aaa}"
          ".ci{stroke:#222;stroke-width:1.5}"
          ".fitold{fill:none;stroke:#1f77b4;stroke-width:1.5;stroke-dasharray:5 3}"
          ".fitnew{fill:none;stroke:#ff7f0e;stroke-width:1.5;stroke-dasharray:5 3}"
          ".fitlabelold{fill:#1f77b4}.fitlabelnew{fill:#d0650a}"
          "</style>\n", f);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, height);
}

/* A side's samples as dots relative to the old median m, at height y. */
static void dots(FILE * f, const prof_series * s, double m,
                 const prof_axis * a, double y, const char * cls)
{
    int j;
    for (j = 0; j < s->count; j++)
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" class=\"%s\"/>\n",
                map(s->samples_ns[j] / m - 1, a, strip_x0, strip_x1), y, cls);
}

/* Row i: the name, both sides' samples and medians, the change bar and
   its interval. */
static void row(FILE * f, const prof_plot_row * r, int i,
                const prof_axis * strip, const prof_axis * bar)
{
    double y = TOP + i * ROW_H + ROW_H / 2.0, m = r->old->median_ns;
    double x0 = map(0.0, bar, bar_x0, bar_x1);
    double x1 = map(r->verdict.change, bar, bar_x0, bar_x1);
    double mo = map(0.0, strip, strip_x0, strip_x1);
    double mn = map(r->new_->median_ns / m - 1, strip, strip_x0, strip_x1);
    const char * cls = r->verdict.verdict == PROF_VERDICT_SLOWER ? "slower"
                     : r->verdict.verdict == PROF_VERDICT_FASTER ? "faster"
                     : "same";

    fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"name\">", LABEL_W, y + 4);
    put_escaped(f, r->old->name);
    fputs("</text>\n", f);
    dots(f, r->old, m, strip, y - 6, "old");
    dots(f, r->new_, m, strip, y + 6, "new");
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"mold\"/>\n"
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"mnew\"/>\n",
            mo, y - 12, mo, y, mn, y, mn, y + 12);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" "
            "class=\"%s\"><title>%+.2f%% (p = %.3g)</title></rect>\n",
            fmin(x0, x1), y - 7, fmax(fabs(x1 - x0), 1.0), cls,
            100.0 * r->verdict.change, r->verdict.p);
    if (isfinite(r->verdict.ci_low) && isfinite(r->verdict.ci_high))
    {
        double a = map(r->verdict.ci_low, bar, bar_x0, bar_x1);
        double b = map(r->verdict.ci_high, bar, bar_x0, bar_x1);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ci\"/>\n"
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ci\"/>\n"
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ci\"/>\n",
                a, y, b, y, a, y - 5, a, y + 5, b, y - 5, b, y + 5);
    }
}

static void legend(FILE * f, int y)
{
    fprintf(f, "<g transform=\"translate(%d,%d)\">"
            "<circle cx=\"0\" cy=\"-4\" r=\"4\" class=\"old\"/><text x=\"8\" y=\"0\">old</text>"
            "<circle cx=\"50\" cy=\"-4\" r=\"4\" class=\"new\"/><text x=\"58\" y=\"0\">new</text>"
            "<rect x=\"100\" y=\"-10\" width=\"12\" height=\"10\" class=\"slower\"/><text x=\"116\" y=\"0\">slower</text>"
            "<rect x=\"170\" y=\"-10\" width=\"12\" height=\"10\" class=\"faster\"/><text x=\"186\" y=\"0\">faster</text>"
            "<rect x=\"240\" y=\"-10\" width=\"12\" height=\"10\" class=\"same\"/><text x=\"256\" y=\"0\">not significant</text>"
            "</g>\n", 20, y);
}

static void draw(FILE * f, const prof_plot_row * rows, int n,
                 const prof_result_file * old, const prof_result_file * new_,
                 const prof_plot_side sides[2])
{
    const prof_result_file * rf = old != NULL ? old : new_, * files[2];
    int fam[32], nfam = families(rf, fam, 32);
    int rows_h = TOP + n * ROW_H + BOTTOM, i;
    prof_axis strip, bar;
    char label[64];

    files[0] = old;
    files[1] = new_;
    limits(rows, n, &strip, &bar);
    svg_head(f, rows_h + (nfam + 1) / 2 * (CHART_H + CHART_GAP));
    title(f, sides);
    axis(f, &strip, strip_x0, strip_x1, rows_h,
         "samples, relative to the old median");
    snprintf(label, sizeof label, "change of the median, %g%% interval",
             100.0 * PROF_CI_LEVEL);
    axis(f, &bar, bar_x0, bar_x1, rows_h, label);
    for (i = 0; i < n; i++)
        row(f, &rows[i], i, &strip, &bar);
    legend(f, rows_h - 8);
    for (i = 0; i < nfam; i++)
    {
        const char * name = rf->series[fam[i]].name;
        chart(f, 20 + (i % 2) * (CHART_W + CHART_GAP),
              rows_h + (i / 2) * (CHART_H + CHART_GAP), name,
              prof_impl_family_len(name), files);
    }
    fputs("</svg>\n", f);
}

int prof_impl_plot_write(const char * path, prof_plot_format format,
                         const prof_plot_row * rows, int n,
                         const prof_result_file * old,
                         const prof_result_file * new_,
                         const prof_plot_side sides[2])
{
    prof_impl_outfile o;
    if (prof_impl_outfile_open(&o, path) != 0)
        return -1;
    if (format == PROF_PLOT_HTML)
    {
        fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">", o.f);
        put_caption(o.f, sides);
        fputs("</head>\n<body style=\"margin:0;background:white\">\n", o.f);
    }
    draw(o.f, rows, n, old, new_, sides);
    if (format == PROF_PLOT_HTML)
        fputs("</body></html>\n", o.f);
    return prof_impl_outfile_commit(&o);
}
