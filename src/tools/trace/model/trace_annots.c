/*
    The annotations in prof-trace's reports: see trace_annots.h.
    Plots and frames are kept by name (the same text at two addresses is
    one name): a plot's count, min, max and sum; a frame name's mark times,
    sorted at the end for the times between marks (in ns, whatever the
    thread). NaN and inf pass through: a plot's min and max skip NaN (its
    count of NaN is shown), its mean is NaN or inf when a sample is.
    SPDX-License-Identifier: MIT
*/
#include "trace_annots.h"
#include "trace_map.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
    const char * name;
    int frame;              /* a frame name (else a plot) */
    uint64_t n, nan;
    double min, max, sum;
    double * marks;         /* frames: the marks' times, ns */
    size_t cap;
} pt_series;

struct pt_annots
{
    pt_series * v;
    size_t n, cap;
    uint64_t counts[PT_ANNOT_KINDS];
    pt_map values;          /* --by-value: hash -> owned row name */
    int oom;
};

/* Frame time percentiles in the summary. */
static const double frame_q[] = { 0.5, 0.9, 0.99 };

void pt_put_text(FILE * out, const char * s)
{
    for (; *s; s++)
        fputc((unsigned char) *s < 32 || *s == 127 ? '?' : *s, out);
}

void pt_put_csv(FILE * out, const char * s)
{
    if (strpbrk(s, ",\"\r\n") == NULL)
        prof_impl_put_unicode(out, s); /* quoted only where it must be */
    else
        prof_impl_csv_string(out, s);
}

pt_annots * pt_annots_new(void)
{
    return (pt_annots *) calloc(1, sizeof(pt_annots));
}

void pt_annots_free(pt_annots * s)
{
    size_t i;
    if (s == NULL)
        return;
    for (i = 0; i < s->n; i++)
        free(s->v[i].marks);
    free(s->v);
    pt_map_free(&s->values, 1);
    free(s);
}

/* The series of name (made on first use), NULL if out of memory. */
static pt_series * series(pt_annots * s, const char * name, int frame)
{
    size_t i;
    pt_series * x;
    for (i = 0; i < s->n; i++)
        if (s->v[i].frame == frame && (s->v[i].name == name
                                       || strcmp(s->v[i].name, name) == 0))
            return &s->v[i];
    if (prof_impl_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v) != 0)
        return NULL;
    x = &s->v[s->n++];
    memset(x, 0, sizeof *x);
    x->name = name;
    x->frame = frame;
    x->min = INFINITY;
    x->max = -INFINITY;
    return x;
}

void pt_annots_add(pt_annots * s, const pt_trace * t, const pt_annot * a)
{
    pt_series * x;
    s->counts[a->kind]++;
    if (a->kind != PROF_TF_EXT_PLOT && a->kind != PROF_TF_EXT_FRAME)
        return;
    if ((x = series(s, a->name, a->kind == PROF_TF_EXT_FRAME)) == NULL)
    {
        s->oom = 1;
        return;
    }
    if (x->frame)
    {
        if (prof_impl_grow(&x->marks, &x->cap, x->n + 1, sizeof *x->marks) != 0)
        {
            s->oom = 1;
            return;
        }
        x->marks[x->n] = (double) pt_whole_ns(t, a->ticks);
    }
    else if (isnan(a->value))
        x->nan++;
    else
    {
        x->min = a->value < x->min ? a->value : x->min;
        x->max = a->value > x->max ? a->value : x->max;
    }
    x->sum += a->value;
    x->n++;
}

/* A plot's column: %g (its sep before it), or "-" for none (no samples). */
static void put_value(FILE * out, double v, int has, int csv)
{
    if (csv)
        fputc(',', out);
    if (has)
        fprintf(out, csv ? "%.6g" : " %12.6g", v);
    else
        fprintf(out, csv ? "%s" : " %12s", "-");
}

static void write_plots(pt_annots * s, FILE * out, int csv)
{
    size_t i;
    int head = 0;
    for (i = 0; i < s->n; i++)
    {
        const pt_series * x = &s->v[i];
        int has = x->n > x->nan;
        if (x->frame)
            continue;
        if (!head++)
            fputs(csv ? "\nplot,samples,nan,min,max,mean\n"
                  : "\nplot    samples      nan          min          max"
                    "         mean  name\n", out);
        if (csv)
        {
            pt_put_csv(out, x->name);
            fprintf(out, ",%llu,%llu", (unsigned long long) x->n,
                    (unsigned long long) x->nan);
        }
        else
            fprintf(out, "%-4s %10llu %8llu", "p", (unsigned long long) x->n,
                    (unsigned long long) x->nan);
        put_value(out, x->min, has, csv);
        put_value(out, x->max, has, csv);
        put_value(out, x->sum / (double) x->n, x->n > 0, csv);
        if (!csv)
            fputs("  ", out), pt_put_text(out, x->name);
        fputc('\n', out);
    }
}

/* One frame name's row: marks, then the mean, percentiles and max of the
   times between them (0 with fewer than two marks). */
static void frame_row(FILE * out, pt_series * x, int csv)
{
    size_t i, k = x->n > 1 ? x->n - 1 : 0;
    double q[5];
    prof_impl_sort(x->marks, (int) x->n);
    q[0] = k > 0 ? (x->marks[k] - x->marks[0]) / (double) k : 0;
    for (i = 0; i < k; i++) /* in place: the gaps, then sorted */
        x->marks[i] = x->marks[i + 1] - x->marks[i];
    prof_impl_sort(x->marks, (int) k);
    for (i = 0; i < 3; i++)
        q[1 + i] = k > 0 ? prof_impl_quantile(x->marks, (int) k, frame_q[i]) : 0;
    q[4] = k > 0 ? x->marks[k - 1] : 0;
    if (csv)
        pt_put_csv(out, x->name), fprintf(out, ",%llu", (unsigned long long) x->n);
    else
        fprintf(out, "%-4s %10llu", "F", (unsigned long long) x->n);
    for (i = 0; i < 5; i++)
        fprintf(out, csv ? ",%.0f" : " %12.0f", q[i]);
    if (!csv)
        fputs("  ", out), pt_put_text(out, x->name);
    fputc('\n', out);
}

static void write_frames(pt_annots * s, FILE * out, int csv)
{
    size_t i;
    int head = 0;
    for (i = 0; i < s->n; i++)
        if (s->v[i].frame)
        {
            if (!head++)
                fputs(csv ? "\nframe,marks,mean_ns,p50_ns,p90_ns,p99_ns,max_ns\n"
                      : "\nframe    marks      mean_ns       p50_ns       p90_ns"
                        "       p99_ns       max_ns  name (time between marks)\n",
                      out);
            frame_row(out, &s->v[i], csv);
        }
}

int pt_annots_write(pt_annots * s, FILE * out, const pt_trace * t, int csv)
{
    const uint64_t * c = s->counts;
    write_plots(s, out, csv);
    write_frames(s, out, csv);
    if (c[PROF_TF_EXT_MESSAGE] + c[PROF_TF_EXT_ZONE_VALUE] + c[PROF_TF_EXT_ZONE_TEXT]
        + t->annots[0] > 0)
        fprintf(out, csv ? "\nmessages,zone_values,zone_texts,no_zone,unknown\n"
                "%llu,%llu,%llu,%llu,%llu\n"
                : "\n%llu messages, %llu zone values, %llu zone texts (%llu "
                  "with no zone open), %llu records of unknown kinds\n",
                (unsigned long long) c[PROF_TF_EXT_MESSAGE],
                (unsigned long long) c[PROF_TF_EXT_ZONE_VALUE],
                (unsigned long long) c[PROF_TF_EXT_ZONE_TEXT],
                (unsigned long long) t->annots_unowned,
                (unsigned long long) t->annots[0]);
    return s->oom ? -1 : 0;
}

/* ---- --by-value -------------------------------------------------------------- */

const char * pt_annots_by_value(pt_annots * s, const pt_zone * z)
{
    char buf[PROF_TF_MAX_STRING + 64];
    uint64_t h = (uint64_t) (size_t) z->name * UINT64_C(0x9e3779b97f4a7c15);
    uint64_t bits;
    if (!(z->vflags & PT_VALUE_SET))
        return z->name;
    if (z->vflags & PT_VALUE_DOUBLE)
    {
        snprintf(buf, sizeof buf, "%s [%.6g]", z->name, z->value);
        memcpy(&bits, &z->value, sizeof bits);
    }
    else
    {
        snprintf(buf, sizeof buf, "%s [%lld]", z->name, (long long) z->ivalue);
        bits = (uint64_t) z->ivalue;
    }
    h ^= bits * UINT64_C(0xff51afd7ed558ccd) + (z->vflags & PT_VALUE_DOUBLE);
    for (;; h++) /* another row of the same hash: the next key */
    {
        void ** slot = pt_map_find(&s->values, h, 1);
        if (slot == NULL)
            break;
        if (*slot == NULL)
        {
            if ((*slot = prof_impl_strdup(buf)) == NULL)
                break;
            s->values.n++;
        }
        if (strcmp((const char *) *slot, buf) == 0)
            return (const char *) *slot;
    }
    s->oom = 1;
    return NULL;
}

/* ---- raw lines and Chrome JSON -------------------------------------------------- */

static const char * const event_words[PT_ANNOT_KINDS] = {
    "?", "value", "text", "message", "plot", "frame", "lock_wait",
    "lock_acquired", "lock_released", "alloc", "free"
};

/* ,"args":{ or , before a member of args, which is open from then on. */
static int arg(FILE * out, int open, const char * name)
{
    fprintf(out, "%s\"%s\":", open ? "," : ",\"args\":{", name);
    return 1;
}

int pt_json_zone_args(FILE * out, const pt_zone * z, int open)
{
    if (z->vflags & PT_VALUE_DOUBLE)
        open = arg(out, open, "value"), pt_json_number(out, z->value);
    else if (z->vflags & PT_VALUE_SET)
        open = arg(out, open, "value"), fprintf(out, "%lld", (long long) z->ivalue);
    if (z->text != NULL)
        open = arg(out, open, "text"), prof_impl_json_string(out, z->text);
    return open;
}

void pt_json_zone_values(FILE * out, const pt_trace * t, const pt_zone * z)
{
    if (!(z->vflags & PT_VALUE_SET) && z->text == NULL)
        return;
    fputs(",\n{\"name\":", out);
    prof_impl_json_string(out, z->name);
    fputs(",\"cat\":\"value\",\"ph\":\"i\",\"s\":\"t\",\"ts\":", out);
    pt_json_us(out, pt_whole_ns(t, z->end));
    fprintf(out, ",\"pid\":%u,\"tid\":%u", t->pid, t->threads[z->thread].tid);
    fputs(pt_json_zone_args(out, z, 0) ? "}}" : "}", out);
}

int pt_json_annot(FILE * out, const pt_trace * t, const pt_annot * a, int * first)
{
    if (a->kind != PROF_TF_EXT_MESSAGE && a->kind != PROF_TF_EXT_PLOT
        && a->kind != PROF_TF_EXT_FRAME)
        return 0;
    pt_json_sep(out, first);
    fputs("{\"name\":", out);
    prof_impl_json_string(out, a->kind == PROF_TF_EXT_MESSAGE ? a->text : a->name);
    fprintf(out, ",\"cat\":\"%s\",\"ph\":\"%s\",\"ts\":", event_words[a->kind],
            a->kind == PROF_TF_EXT_PLOT ? "C" : "i");
    pt_json_us(out, pt_whole_ns(t, a->ticks));
    fprintf(out, ",\"pid\":%u,\"tid\":%u", t->pid, t->threads[a->thread].tid);
    if (a->kind == PROF_TF_EXT_PLOT) /* "args":{name: value} */
    {
        fputs(",\"args\":{", out);
        prof_impl_json_string(out, a->name);
        fputc(':', out);
        pt_json_number(out, a->value);
        fputc('}', out);
    }
    else
        fputs(a->kind == PROF_TF_EXT_FRAME ? ",\"s\":\"p\"" : ",\"s\":\"t\"", out);
    fputc('}', out);
    return 1;
}

void pt_raw_annot(FILE * out, const pt_trace * t, const pt_annot * a)
{
    fprintf(out, "%u\t%lld\t%lld\t%s\ta\t", t->threads[a->thread].tid,
            (long long) a->ticks, (long long) pt_whole_ns(t, a->ticks),
            event_words[a->kind]);
    if (a->name != NULL)
        pt_put_text(out, a->name);
    if (a->kind == PROF_TF_EXT_PLOT || a->kind == PROF_TF_EXT_ZONE_VALUE)
    {
        if (a->kind == PROF_TF_EXT_PLOT)
            fputc('=', out);
        if (a->vflags & PT_VALUE_DOUBLE || a->kind == PROF_TF_EXT_PLOT)
            fprintf(out, "%.17g", a->value);
        else
            fprintf(out, "%lld", (long long) a->ivalue);
    }
    else if (a->text != NULL)
        pt_put_text(out, a->text);
    else if (a->kind == PROF_TF_EXT_ALLOC)
        fprintf(out, "0x%llx %llu", (unsigned long long) a->u[0],
                (unsigned long long) a->u[1]);
    else if (a->kind >= PROF_TF_EXT_LOCK_WAIT) /* the name, if any, before */
        fprintf(out, "%s0x%llx", a->kind == PROF_TF_EXT_FREE ? ""
                : a->name != NULL ? " " : "lock ", (unsigned long long) a->u[0]);
    fputc('\n', out);
}
