/*
    prof-trace --diff: see trace_diff.h. Each trace streams into a
    pt_samples (the model of the top functions, trace_samples.c); the two
    are matched by function name (the table) or by the names of a stack's
    frames (--folded), both sorted and merged. A function's share is its
    samples over its trace's samples, so that two runs of different
    lengths compare; its time is the samples times its trace's period.
    SPDX-License-Identifier: MIT
*/
#include "trace_diff.h"
#include "trace_folded.h"
#include "trace_samples.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
    const char * name;
    uint64_t self[2], total[2];  /* samples, old and new */
    double dself, dtotal;        /* the change of their shares, points */
} df_row;
typedef struct { char * stack; uint64_t w[2]; } df_stack;

static void on_sample(void * ctx, const pt_trace * t, const pt_sample * s)
{
    pt_samples_add((pt_samples *) ctx, t, s);
}

int pt_diff_read(pt_diff_side * d, const char * path, const pt_options * o,
                 const char * const * binaries, int resolve)
{
    pt_handler h;
    pt_trace t;
    int rc;
    memset(d, 0, sizeof *d);
    d->path = path;
    if ((d->s = pt_samples_new(binaries, resolve, PT_OUT_CSV)) == NULL)
        return -3;
    pt_handler_init(&h, d->s);
    h.sample = on_sample;
    rc = pt_stream(path, o, &h, &t);
    d->period_ns = pt_samples_period_ns(&t);
    d->samples = pt_samples_count(d->s);
    if (rc == 0 && d->samples == 0)
        prof_impl_warn("prof-trace: %s holds no samples", path);
    pt_free(&t);
    return rc;
}

void pt_diff_free(pt_diff_side * d)
{
    pt_samples_free(d->s);
    d->s = NULL;
}

/* ---- the table ------------------------------------------------------------------ */

static int cmp_name(const void * a, const void * b)
{
    return strcmp(((const df_row *) a)->name, ((const df_row *) b)->name);
}

static double share(uint64_t n, uint64_t sum)
{
    return sum > 0 ? 100.0 * (double) n / (double) sum : 0;
}

/* The change of self share, then of total share, the larger first. */
static int cmp_change(const void * a, const void * b)
{
    const df_row * x = (const df_row *) a, * y = (const df_row *) b;
    if (x->dself != y->dself)
        return x->dself < y->dself ? 1 : -1;
    if (x->dtotal != y->dtotal)
        return x->dtotal < y->dtotal ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* The functions of both sides, merged by name, with the changes of
   their shares: *n rows; NULL if out of memory. sums: each side's
   samples. */
static df_row * merge_rows(pt_diff_side * side[2], size_t * n, uint64_t sums[2])
{
    pt_top * top[2];
    size_t m[2], i, k, all;
    df_row * v;
    *n = 0;
    top[0] = pt_samples_top(side[0]->s, &m[0], &sums[0]);
    top[1] = pt_samples_top(side[1]->s, &m[1], &sums[1]);
    all = m[0] + m[1];
    v = top[0] != NULL && top[1] != NULL
        ? (df_row *) calloc(all + 1, sizeof *v) : NULL;
    for (k = 0; v != NULL && k < 2; k++)
        for (i = 0; i < m[k]; i++)
        {
            df_row * r = &v[k == 0 ? i : m[0] + i];
            r->name = top[k][i].name;
            r->self[k] = top[k][i].self;
            r->total[k] = top[k][i].total;
        }
    if (v != NULL)
    {
        qsort(v, all, sizeof *v, cmp_name);
        for (i = 0; i < all; i++)
            if (*n > 0 && strcmp(v[*n - 1].name, v[i].name) == 0)
            {
                v[*n - 1].self[1] += v[i].self[1];
                v[*n - 1].total[1] += v[i].total[1];
            }
            else
                v[(*n)++] = v[i];
        for (i = 0; i < *n; i++)
        {
            v[i].dself = share(v[i].self[1], sums[1]) - share(v[i].self[0], sums[0]);
            v[i].dtotal = share(v[i].total[1], sums[1]) - share(v[i].total[0], sums[0]);
        }
    }
    free(top[0]);
    free(top[1]);
    return v;
}

static void side_line(FILE * out, const char * what, const pt_diff_side * d)
{
    fprintf(out, "%s %s: %llu samples, %.3f ms at %.6g ns a sample\n", what,
            d->path, (unsigned long long) d->samples,
            (double) d->samples * d->period_ns / 1e6, d->period_ns);
}

static int write_table(FILE * out, pt_diff_side * side[2])
{
    size_t n, i;
    uint64_t sums[2];
    df_row * v = merge_rows(side, &n, sums);
    if (v == NULL)
        return -1;
    qsort(v, n, sizeof *v, cmp_change);
    side_line(out, "old", side[0]);
    side_line(out, "new", side[1]);
    fputs("functions by the change of their share of the samples (self: "
          "the leaf; total: anywhere in the stack), grown first:\n", out);
    fprintf(out, "%8s %8s %8s %8s %8s %8s %12s %12s  %s\n", "self_old",
            "self_new", "self_+-", "tot_old", "tot_new", "tot_+-",
            "self_ms_old", "self_ms_new", "function");
    for (i = 0; i < n; i++)
    {
        double so = share(v[i].self[0], sums[0]), sn = share(v[i].self[1], sums[1]);
        double to = share(v[i].total[0], sums[0]), tn = share(v[i].total[1], sums[1]);
        fprintf(out, "%7.1f%% %7.1f%% %+7.1f%% %7.1f%% %7.1f%% %+7.1f%% "
                "%12.3f %12.3f  ", so, sn, v[i].dself, to, tn, v[i].dtotal,
                (double) v[i].self[0] * side[0]->period_ns / 1e6,
                (double) v[i].self[1] * side[1]->period_ns / 1e6);
        pt_folded_frame(out, v[i].name);
        fputc('\n', out);
    }
    free(v);
    return 0;
}

/* ---- differential collapsed stacks ---------------------------------------------- */

static int cmp_stack(const void * a, const void * b)
{
    return strcmp(((const df_stack *) a)->stack, ((const df_stack *) b)->stack);
}

/* The stacks of one side with samples, as "root;...;leaf", appended to
   *v (weight in w[k]). 0, or -1 if out of memory. */
static int side_stacks(pt_diff_side * d, int k, df_stack ** v, size_t * n,
                       size_t * cap)
{
    size_t rs, nrs = pt_samples_stacks(d->s), len;
    uint64_t * w = pt_samples_stack_weights(d->s);
    int rc = w == NULL ? -1 : 0;
    for (rs = 0; rc == 0 && rs < nrs; rs++)
    {
        uint32_t nf, f;
        const uint32_t * fn = pt_samples_stack(d->s, (uint32_t) rs, &nf);
        char * text = NULL;
        FILE * m;
        if (w[rs] == 0)
            continue;
        if (prof_impl_grow(v, cap, *n + 1, sizeof **v) != 0
            || (m = open_memstream(&text, &len)) == NULL)
        {
            rc = -1;
            break;
        }
        for (f = nf; f-- > 0;)
        {
            pt_folded_frame(m, pt_samples_function(d->s, fn[f]));
            if (f > 0)
                fputc(';', m);
        }
        if (fclose(m) != 0 || text == NULL)
            rc = -1;
        (*v)[*n].stack = text;
        (*v)[*n].w[k] = w[rs];
        (*v)[*n].w[!k] = 0;
        *n += text != NULL;
    }
    free(w);
    return rc;
}

static int write_folded(FILE * out, pt_diff_side * side[2])
{
    df_stack * v = NULL;
    size_t n = 0, cap = 0, i, k = 0;
    int rc = side_stacks(side[0], 0, &v, &n, &cap) != 0
             || side_stacks(side[1], 1, &v, &n, &cap) != 0 ? -1 : 0;
    if (rc == 0 && n > 0)
    {
        qsort(v, n, sizeof *v, cmp_stack);
        for (i = 0; i < n; i = k)
        {
            uint64_t w[2] = { 0, 0 };
            for (k = i; k < n && strcmp(v[k].stack, v[i].stack) == 0; k++)
                w[0] += v[k].w[0], w[1] += v[k].w[1];
            fprintf(out, "%s %llu %llu\n", v[i].stack, (unsigned long long) w[0],
                    (unsigned long long) w[1]);
        }
    }
    for (i = 0; i < n; i++)
        free(v[i].stack);
    free(v);
    return rc;
}

int pt_diff_write(FILE * out, pt_diff_side * old, pt_diff_side * new_,
                  int folded)
{
    pt_diff_side * side[2];
    side[0] = old;
    side[1] = new_;
    return folded ? write_folded(out, side) : write_table(out, side);
}
