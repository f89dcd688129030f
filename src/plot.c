/*
    Pictures of a comparison without dependencies: SVG written by hand, or
    the same SVG inside a self-contained HTML page.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
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

static void draw(FILE * f, const prof_plot_row * rows, int n)
{
    int height = TOP + n * ROW_H + BOTTOM, i, j;
    double strip_lim = 0.01, bar_lim = 0.01;

    for (i = 0; i < n; i++)
    {
        const prof_plot_row * r = &rows[i];
        double m = r->old->median_ns, v[3];
        for (j = 0; j < r->old->count; j++)
            strip_lim = fmax(strip_lim, fabs(r->old->samples_ns[j] / m - 1));
        for (j = 0; j < r->new_->count; j++)
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
          ".ci{stroke:#222;stroke-width:1.5}</style>\n", f);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, height);
    axis(f, strip_lim, strip_x0, strip_x1, height,
         "samples, relative to the old median");
    axis(f, bar_lim, bar_x0, bar_x1, height,
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
            "</g>\n", 20, height - 8);
    fputs("</svg>\n", f);
}

int prof_impl_plot_write(const char * path, int html,
                         const prof_plot_row * rows, int n)
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
    draw(f, rows, n);
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
