/*
    Pictures of a comparison without dependencies: SVG written by hand, or
    the same SVG inside a self-contained HTML page.
    SPDX-License-Identifier: MIT
*/
#include "../internal.h"
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <string.h>

enum { WIDTH = 960, LABEL_W = 230, ROW_H = 36, TOP = 70, BOTTOM = 50 };
/* The two panels: samples relative to the old median, change of median. */
static const double strip_x0 = 240, strip_x1 = 620;
static const double bar_x0 = 690, bar_x1 = 940;

static void put_escaped(FILE * f, const char * s)
{
    for (; *s; s++)
        switch (*s)
        {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if ((unsigned char) *s >= 0x20 || *s == '\t')
                fputc(*s, f);
        }
}

/* A "nice" axis limit >= v: 1, 2 or 5 times a power of ten. */
static double nice_limit(double v)
{
    double p = pow(10.0, floor(log10(v)));
    if (v <= p) return p;
    if (v <= 2 * p) return 2 * p;
    if (v <= 5 * p) return 5 * p;
    return 10 * p;
}

static double map(double v, double lim, double x0, double x1)
{
    double t = (v / lim + 1.0) / 2.0;
    if (t != t) t = 0.5;    /* 0 / 0 (an old median of 0): the centre */
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    return x0 + t * (x1 - x0);
}

static void axis(FILE * f, double lim, double x0, double x1, int height,
                 const char * title)
{
    int k;
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"head\">", (x0 + x1) / 2, TOP - 30);
    put_escaped(f, title);
    fputs("</text>\n", f);
    for (k = -2; k <= 2; k++)
    {
        double v = lim * k / 2.0, x = map(v, lim, x0, x1);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                "class=\"%s\"/>\n", x, TOP - 12, x, height - BOTTOM + 4,
                k == 0 ? "zero" : "grid");
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\">%+.3g%%</text>\n",
                x, height - BOTTOM + 18, 100.0 * v);
    }
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

static size_t family_len(const char * name)
{
    const char * slash = strchr(name, '/');
    return slash ? (size_t) (slash - name) : strlen(name);
}

static int in_family(const char * name, const char * family, size_t len)
{
    return family_len(name) == len && strncmp(name, family, len) == 0;
}

/* The families with at least two points of N in a file, as indexes of
   their first member; returns how many (at most max). */
static int families(const prof_result_file * rf, int * first, int max)
{
    int i, j, k = 0;
    if (rf == NULL)
        return 0;
    for (i = 0; i < rf->count && k < max; i++)
    {
        const char * name = rf->series[i].name;
        size_t len = family_len(name);
        int points = 0, seen = 0;
        if (!(rf->series[i].complexity_n > 0.0))
            continue;
        for (j = 0; j < i && !seen; j++)
            seen = rf->series[j].complexity_n > 0.0
                && in_family(rf->series[j].name, name, len);
        for (j = 0; j < rf->count && !seen; j++)
            points += rf->series[j].complexity_n > 0.0
                   && in_family(rf->series[j].name, name, len);
        if (!seen && points >= 2)
            first[k++] = i;
    }
    return k;
}

/* One chart: time [ns] against N on log-log axes, at (x, y). */
static void chart(FILE * f, double x, double y, const char * family,
                  size_t len, const prof_result_file * files[2])
{
    static const char * cls[2] = { "old", "new" };
    double nlo = INFINITY, nhi = 0, tlo = INFINITY, thi = 0;
    double px0 = x + 60, px1 = x + CHART_W - 15, py0 = y + CHART_H - 40,
           py1 = y + 30;
    int side, i, k;
    char title[300];

    for (side = 0; side < 2; side++)
        for (i = 0; files[side] != NULL && i < files[side]->count; i++)
        {
            const prof_series * s = &files[side]->series[i];
            if (s->complexity_n > 0.0 && in_family(s->name, family, len)
                && s->median_ns > 0.0)
            {
                nlo = fmin(nlo, s->complexity_n); nhi = fmax(nhi, s->complexity_n);
                tlo = fmin(tlo, s->median_ns); thi = fmax(thi, s->median_ns);
            }
        }
    if (!(nhi > nlo) || !(thi > 0))
        return;
    if (!(thi > tlo))
        tlo /= 2, thi *= 2;
#define PX(v) (px0 + (log(v) - log(nlo)) / (log(nhi) - log(nlo)) * (px1 - px0))
#define PY(v) (py0 - (log(v) - log(tlo)) / (log(thi) - log(tlo)) * (py0 - py1))
    snprintf(title, sizeof title, "%.*s: time against N (log-log)", (int) len,
             family);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
            "fill=\"none\" stroke=\"#ccc\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
            "class=\"head\">", x, y, CHART_W, CHART_H, x + CHART_W / 2.0, y + 18);
    put_escaped(f, title);
    fputs("</text>\n", f);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"zero\"/>\n"
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"zero\"/>\n",
            px0, py0, px1, py0, px0, py0, px0, py1);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\">N = %g</text>\n"
            "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\">%g</text>\n",
            px0, py0 + 15, nlo, px1, py0 + 15, nhi);
    {
        char lo[32], hi[32];
        prof_impl_format_ns(lo, sizeof lo, tlo);
        prof_impl_format_ns(hi, sizeof hi, thi);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"name\">%s</text>\n"
                "<text x=\"%.1f\" y=\"%.1f\" class=\"name\">%s</text>\n",
                px0 - 4, py0, lo, px0 - 4, py1 + 8, hi);
    }
    for (side = 0; side < 2; side++)
    {
        const prof_result_file * rf = files[side];
        if (rf == NULL)
            continue;
        for (i = 0; i < rf->nfits; i++)
        {
            const prof_fit_line * fit = &rf->fits[i];
            if (strlen(fit->family) != len || strncmp(fit->family, family, len) != 0
                || isnan(big_o_value(fit->big_o, nlo)))
                continue;
            fprintf(f, "<polyline class=\"fit%s\" points=\"", cls[side]);
            for (k = 0; k <= 40; k++)
            {
                double nv = exp(log(nlo) + (log(nhi) - log(nlo)) * k / 40.0);
                double tv = fit->coefficient_ns * big_o_value(fit->big_o, nv);
                if (tv > 0.0)
                    fprintf(f, "%.1f,%.1f ", PX(nv),
                            fmin(fmax(PY(tv), py1 - 10), py0 + 10));
            }
            fprintf(f, "\"><title>%s: %s O(%s)</title></polyline>\n",
                    cls[side], fit->family, fit->big_o);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"fitlabel%s\">%s fit: "
                    "%.3g ns &#215; %s</text>\n", px0 + 8, py1 + 6 + 14 * side,
                    cls[side], cls[side], fit->coefficient_ns, fit->big_o);
        }
        for (i = 0; i < rf->count; i++)
        {
            const prof_series * s = &rf->series[i];
            if (s->complexity_n > 0.0 && in_family(s->name, family, len)
                && s->median_ns > 0.0)
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" class=\"%s\">"
                        "<title>N = %g: %.4g ns</title></circle>\n",
                        PX(s->complexity_n), PY(s->median_ns), cls[side],
                        s->complexity_n, s->median_ns);
        }
    }
#undef PX
#undef PY
}

static void draw(FILE * f, const prof_plot_row * rows, int n,
                 const prof_result_file * old, const prof_result_file * new_)
{
    int fam[32], nfam = families(old != NULL ? old : new_, fam, 32);
    int rows_h = TOP + n * ROW_H + BOTTOM;
    int height = rows_h + (nfam + 1) / 2 * (CHART_H + CHART_GAP), i, j;
    double strip_lim = 0.01, bar_lim = 0.01;

    for (i = 0; i < n; i++)
    {
        const prof_plot_row * r = &rows[i];
        double m = r->old->median_ns, v[3];
        /* finite only: an old median of 0 makes the others inf (clamped to
           the edge by map), and an infinite limit made every x NaN */
        for (j = 0; j < r->old->count; j++)
            if (isfinite(r->old->samples_ns[j] / m))
                strip_lim = fmax(strip_lim, fabs(r->old->samples_ns[j] / m - 1));
        for (j = 0; j < r->new_->count; j++)
            if (isfinite(r->new_->samples_ns[j] / m))
                strip_lim = fmax(strip_lim, fabs(r->new_->samples_ns[j] / m - 1));
        v[0] = r->verdict.change;
        v[1] = r->verdict.ci_low;
        v[2] = r->verdict.ci_high;
        for (j = 0; j < 3; j++)
            if (isfinite(v[j]))
                bar_lim = fmax(bar_lim, fabs(v[j]));
    }
    strip_lim = nice_limit(strip_lim);
    bar_lim = nice_limit(bar_lim);

    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
            "font-size=\"12\">\n", WIDTH, height, WIDTH, height);
    fputs("<style>.head{font-weight:bold;text-anchor:middle}"
          ".tick{text-anchor:middle;fill:#555;font-size:11px}"
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
    axis(f, strip_lim, strip_x0, strip_x1, rows_h,
         "samples, relative to the old median");
    axis(f, bar_lim, bar_x0, bar_x1, rows_h,
         "change of the median, 95% interval");

    for (i = 0; i < n; i++)
    {
        const prof_plot_row * r = &rows[i];
        double y = TOP + i * ROW_H + ROW_H / 2.0, m = r->old->median_ns;
        double x0 = map(0.0, bar_lim, bar_x0, bar_x1);
        double x1 = map(r->verdict.change, bar_lim, bar_x0, bar_x1);
        const char * cls = r->verdict.verdict == PROF_VERDICT_SLOWER ? "slower"
                         : r->verdict.verdict == PROF_VERDICT_FASTER ? "faster"
                         : "same";

        fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"name\">", LABEL_W, y + 4);
        put_escaped(f, r->old->name);
        fputs("</text>\n", f);
        for (j = 0; j < r->old->count; j++)
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" class=\"old\"/>\n",
                    map(r->old->samples_ns[j] / m - 1, strip_lim, strip_x0,
                        strip_x1), y - 6);
        for (j = 0; j < r->new_->count; j++)
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" class=\"new\"/>\n",
                    map(r->new_->samples_ns[j] / m - 1, strip_lim, strip_x0,
                        strip_x1), y + 6);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"mold\"/>\n",
                map(0.0, strip_lim, strip_x0, strip_x1), y - 12,
                map(0.0, strip_lim, strip_x0, strip_x1), y);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"mnew\"/>\n",
                map(r->new_->median_ns / m - 1, strip_lim, strip_x0, strip_x1), y,
                map(r->new_->median_ns / m - 1, strip_lim, strip_x0, strip_x1), y + 12);

        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" "
                "class=\"%s\"><title>%+.2f%% (p = %.3g)</title></rect>\n",
                fmin(x0, x1), y - 7, fmax(fabs(x1 - x0), 1.0), cls,
                100.0 * r->verdict.change, r->verdict.p);
        if (isfinite(r->verdict.ci_low) && isfinite(r->verdict.ci_high))
        {
            double a = map(r->verdict.ci_low, bar_lim, bar_x0, bar_x1);
            double b = map(r->verdict.ci_high, bar_lim, bar_x0, bar_x1);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ci\"/>\n"
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ci\"/>\n"
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ci\"/>\n",
                    a, y, b, y, a, y - 5, a, y + 5, b, y - 5, b, y + 5);
        }
    }
    fprintf(f, "<g transform=\"translate(%d,%d)\">"
            "<circle cx=\"0\" cy=\"-4\" r=\"4\" class=\"old\"/><text x=\"8\" y=\"0\">old</text>"
            "<circle cx=\"50\" cy=\"-4\" r=\"4\" class=\"new\"/><text x=\"58\" y=\"0\">new</text>"
            "<rect x=\"100\" y=\"-10\" width=\"12\" height=\"10\" class=\"slower\"/><text x=\"116\" y=\"0\">slower</text>"
            "<rect x=\"170\" y=\"-10\" width=\"12\" height=\"10\" class=\"faster\"/><text x=\"186\" y=\"0\">faster</text>"
            "<rect x=\"240\" y=\"-10\" width=\"12\" height=\"10\" class=\"same\"/><text x=\"256\" y=\"0\">not significant</text>"
            "</g>\n", 20, rows_h - 8);
    for (i = 0; i < nfam; i++)
    {
        const prof_result_file * rf = old != NULL ? old : new_;
        const prof_result_file * files[2];
        const char * name = rf->series[fam[i]].name;
        files[0] = old;
        files[1] = new_;
        chart(f, 20 + (i % 2) * (CHART_W + CHART_GAP),
              rows_h + (i / 2) * (CHART_H + CHART_GAP), name,
              family_len(name), files);
    }
    fputs("</svg>\n", f);
}

int prof_impl_plot_write(const char * path, int html,
                         const prof_plot_row * rows, int n,
                         const prof_result_file * old,
                         const prof_result_file * new_)
{
    FILE * f = fopen(path, "w");
    int bad;

    if (f == NULL)
    {
        prof_impl_warn("cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    if (html)
        fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
              "<title>prof-compare</title></head>\n"
              "<body style=\"margin:0;background:white\">\n", f);
    draw(f, rows, n, old, new_);
    if (html)
        fputs("</body></html>\n", f);
    bad = ferror(f);
    if (fclose(f) != 0 || bad)
    {
        prof_impl_warn("cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
