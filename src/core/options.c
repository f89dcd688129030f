/*
    Command lines: one table-driven parser for the runner's prof_bench_args
    and the tools (prof-compare, prof-trace, prof-run), so that every
    program takes --flag=VALUE and --flag VALUE alike, ends its options at
    "--", names an unknown flag, and prints the same kind of --help.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The length of the decimal number at the start of s, as people write
   it: digits with an optional point, and unless plain an optional sign and
   exponent; not hex, inf or nan, which strtod would take. 0 if none. */
static size_t decimal_length(const char * s, int plain)
{
    const char * p = s;
    int digits = 0;
    p += !plain && (*p == '-' || *p == '+');
    for (; *p >= '0' && *p <= '9'; p++)
        digits++;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            digits++;
    if (!plain && digits > 0 && (*p == 'e' || *p == 'E'))
    {
        const char * e = p + 1 + (p[1] == '-' || p[1] == '+');
        if (*e >= '0' && *e <= '9')
            for (p = e; *p >= '0' && *p <= '9'; p++)
                ;
    }
    return digits > 0 ? (size_t) (p - s) : 0;
}

int prof_impl_range_has(const prof_impl_range * r, double v)
{
    return (r->lo_open ? v > r->lo : v >= r->lo)
        && (r->hi_open ? v < r->hi : v <= r->hi)
        && (!r->whole || v == floor(v));
}

/* v as r prints its numbers: plain, or a time in the largest unit it
   fills ("1ms", "100ms", "5s"). */
static void put_number(char * buf, size_t size, const prof_impl_range * r,
        double v)
{
    static const char * names[] = { "s", "ms", "us", "ns" };
    static const double scale[] = { 1e9, 1e6, 1e3, 1.0 };
    double ns = r->unit == PROF_IMPL_SECONDS ? v * 1e9 : v;
    int i = 0;
    if (r->unit == PROF_IMPL_PLAIN || !(ns > 0.0))
    {
        snprintf(buf, size, "%.15g", v);
        return;
    }
    while (i < 3 && ns < scale[i])
        i++;
    snprintf(buf, size, "%.15g%s", ns / scale[i], names[i]);
}

const char * prof_impl_range_text(char * buf, size_t size, const char * text,
                                  const prof_impl_range * r)
{
    static const char * keys[] = { "{default}", "{lo}", "{hi}" };
    size_t at = 0;
    if (size == 0)
        return buf;
    while (*text != '\0' && at + 1 < size)
    {
        int k;
        for (k = 0; k < 3 && strncmp(text, keys[k], strlen(keys[k])) != 0; k++)
            ;
        if (k < 3)
        {
            put_number(buf + at, size - at, r, k == 0 ? r->def
                       : k == 1 ? r->lo : r->hi);
            at += strlen(buf + at);
            text += strlen(keys[k]);
        }
        else
            buf[at++] = *text++;
    }
    buf[at] = '\0';
    return buf;
}

const char * prof_impl_range_bounds(char * buf, size_t size,
                                    const prof_impl_range * r)
{
    const char * text = !r->lo_open && !r->hi_open ? "{lo}..{hi}"
                      : r->hi == HUGE_VAL ? (r->lo_open ? "> {lo}" : ">= {lo}")
                      : r->lo_open ? (r->hi_open ? "> {lo} and < {hi}"
                                                 : "> {lo} and <= {hi}")
                      : ">= {lo} and < {hi}";
    return prof_impl_range_text(buf, size, text, r);
}

int prof_impl_option_in(const char * program, const char * name,
        const char * arg, const prof_impl_range * r, double v)
{
    char what[160];
    if (prof_impl_range_has(r, v))
        return 1;
    if (program != NULL)
        prof_impl_warn("%s: %s=%s: %s is expected", program, name, arg,
                       prof_impl_range_text(what, sizeof what, r->what, r));
    return 0;
}

int prof_impl_option_number(const char * program, const char * name,
        const char * arg, const prof_impl_range * r, double * out)
{
    size_t n = decimal_length(arg, 0);
    double v = n > 0 ? strtod(arg, NULL) : NAN;
    if (n == 0 || arg[n] != '\0')
        v = NAN;                /* never in a range: the message below */
    if (!prof_impl_option_in(program, name, arg, r, v))
        return -1;
    *out = v;
    return 0;
}

double prof_impl_time_unit_ns(const char * unit)
{
    static const char * names[] = { "ns", "us", "ms", "s" };
    static const double scale[] = { 1.0, 1e3, 1e6, 1e9 };
    int i;
    for (i = 0; unit != NULL && i < 4; i++)
        if (strcmp(unit, names[i]) == 0)
            return scale[i];
    return 0.0;
}

int prof_impl_option_time(const char * program, const char * name,
        const char * arg, double bare_ns, double max_ns, double * ns)
{
    size_t n = decimal_length(arg, 1);
    double v = n > 0 ? strtod(arg, NULL) : -1.0;
    double scale = arg[n] == '\0' ? bare_ns : prof_impl_time_unit_ns(arg + n);
    if (n == 0 || scale == 0.0 || !(v >= 0.0) || !(v * scale <= max_ns))
    {
        char most[48] = "";
        if (max_ns != HUGE_VAL)     /* else the caller checks a range */
            snprintf(most, sizeof most, "; at most %.3g s", max_ns * 1e-9);
        prof_impl_warn("%s: %s=%s: a time is expected: a decimal number with "
                       "a unit, ns, us, ms or s (1.5ms; none: %s%s)", program,
                       name, arg, bare_ns == 1.0 ? "ns" : bare_ns == 1e3 ? "us"
                       : bare_ns == 1e6 ? "ms" : "s", most);
        return -1;
    }
    *ns = v * scale;
    return 0;
}

/* The option called by the first len bytes of a ("--name[=value]"). */
static const prof_impl_option * lookup(const prof_impl_options * o,
        const char * a, size_t len)
{
    int k;
    for (k = 0; k < o->n; k++)
        if (strlen(o->table[k].name) == len
            && strncmp(o->table[k].name, a, len) == 0)
            return &o->table[k];
    return NULL;
}

static int apply(const prof_impl_options * o, const prof_impl_option * op,
        const char * value, void * ctx)
{
    if (op->set != NULL)
        return op->set(ctx, op->name, value) != 0 ? -1 : 0;
    if (op->text != PROF_IMPL_NO_TEXT && op->value == NULL)
    {
        *(int *) ((char *) ctx + op->text) = 1;     /* a FLAG */
        return 0;
    }
    if (op->text != PROF_IMPL_NO_TEXT)
    {
        *(const char **) ((char *) ctx + op->text) = value;
        return 0;
    }
    if (strcmp(op->name, "--help") == 0)
        prof_impl_options_usage(o, stdout);
    else
        printf("%s (profiler) %s\n", o->program, PROF_IMPL_VERSION);
    return 1;
}

/* An option of several words: they are the value after "=" (if any) and
   the next words. 0, or -1 after a message. */
#define MAX_WORDS 8
static int several(const prof_impl_options * o, const prof_impl_option * op,
        const char * eq, int argc, char ** argv, int * i, void * ctx)
{
    const char * words[MAX_WORDS];
    int k = 0;
    if (eq != NULL)
        words[k++] = eq + 1;
    while (k < op->words && k < MAX_WORDS && *i + 1 < argc)
        words[k++] = argv[++*i];
    if (k < op->words)
    {
        prof_impl_warn("%s: %s needs %d values: %s %s", o->program, op->name,
                       op->words, op->name, op->value);
        return -1;
    }
    return op->set_words(ctx, op->name, words) != 0 ? -1 : 0;
}

/* Apply the option argv[*i] (its value from "=VALUE" or, for an option
   that needs one, the next word): 0, 1 (--help, --version: exit 0), 2 (an
   unknown option to keep), -1 (after a message). */
static int one(const prof_impl_options * o, int argc, char ** argv, int * i,
        void * ctx)
{
    const char * a = argv[*i], * eq = strchr(a, '='), * value = NULL;
    size_t len = eq != NULL ? (size_t) (eq - a) : strlen(a);
    const prof_impl_option * op = lookup(o, a, len);
    if (op == NULL && o->unknown == PROF_IMPL_UNKNOWN_KEEP)
        return 2;
    if (op == NULL)
    {
        prof_impl_warn("%s: unknown option %s (see --help)", o->program, a);
        return -1;
    }
    if (op->words > 1)
        return several(o, op, eq, argc, argv, i, ctx);
    if (op->value == NULL && eq != NULL)
    {
        prof_impl_warn("%s: %s takes no value", o->program, op->name);
        return -1;
    }
    if (op->value != NULL && !op->optional)
    {
        value = eq != NULL ? eq + 1 : *i + 1 < argc ? argv[++*i] : NULL;
        if (value == NULL)
        {
            prof_impl_warn("%s: %s needs a value: %s=%s", o->program,
                           op->name, op->name, op->value);
            return -1;
        }
    }
    else if (eq != NULL)
        value = eq + 1;
    return apply(o, op, value, ctx);
}

/* Apply the short option argv[*i] ("-o", its value the next word, or its
   values the next words): 0, or -1 after a message (unknown, or its value
   missing or refused). */
static int short_one(const prof_impl_options * o, int argc, char ** argv,
        int * i, void * ctx)
{
    const char * a = argv[*i], * value = NULL;
    const prof_impl_option * op = NULL;
    int k;
    for (k = 0; k < o->n && op == NULL; k++)
        if (o->table[k].alias != NULL && strcmp(o->table[k].alias, a) == 0)
            op = &o->table[k];
    if (op == NULL)
    {
        prof_impl_warn("%s: unknown option %s (see --help)", o->program, a);
        return -1;
    }
    if (op->words > 1)              /* -L NAME VALUES: the next words */
        return several(o, op, NULL, argc, argv, i, ctx);
    if (op->value != NULL)
    {
        if (*i + 1 >= argc)
        {
            prof_impl_warn("%s: %s needs a value: %s %s", o->program, a, a,
                           op->value);
            return -1;
        }
        value = argv[++*i];
    }
    return apply(o, op, value, ctx);
}

int prof_impl_options_parse(const prof_impl_options * o, int argc,
        char ** argv, void * ctx)
{
    int i, kept = 1, rc, bad = 0, ended = 0;
    for (i = 1; i < argc; i++)
    {
        char * a = argv[i];
        if (!ended && strcmp(a, "--") == 0)
        {
            ended = 1;
            continue;
        }
        if (!ended && o->dash_h && strcmp(a, "-h") == 0)
        {
            prof_impl_options_usage(o, stdout);
            return PROF_IMPL_OPTIONS_EXIT;
        }
        if (!ended && o->short_options && a[0] == '-' && a[1] != '-'
            && a[1] != '\0')
            rc = short_one(o, argc, argv, &i, ctx);
        else
            rc = !ended && a[0] == '-' && a[1] == '-'
               ? one(o, argc, argv, &i, ctx) : 2;
        if (rc == 1)
            return PROF_IMPL_OPTIONS_EXIT;
        if (rc == 2)
            argv[kept++] = a;       /* the program's own word */
        bad |= rc < 0;              /* go on: say every problem at once */
    }
    if (kept < argc)
        argv[kept] = NULL;
    return bad ? -1 : kept;
}

int prof_impl_options_env(const prof_impl_options * o, void * ctx)
{
    int k, rc = 0;
    for (k = 0; k < o->n; k++)
    {
        const char * v = o->table[k].env ? getenv(o->table[k].env) : NULL;
        if (v != NULL && *v != '\0' && apply(o, &o->table[k], v, ctx) < 0)
            rc = -1;
    }
    return rc;
}

/* Print text word-wrapped at 78 columns from column col (indent 20). */
static void wrap(FILE * f, const char * h, int col)
{
    while (*h != '\0')
    {
        int n = (int) strcspn(h, " ");
        if (col > 20 && col + 1 + n > 78)
        {
            fprintf(f, "\n%20s", "");
            col = 20;
        }
        else if (col > 20)
        {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", n, h);
        col += n;
        h += n + (h[n] == ' ');
    }
    fputc('\n', f);
}

void prof_impl_options_usage(const prof_impl_options * o, FILE * f)
{
    int k;
    if (o->usage_head != NULL)
        fputs(o->usage_head, f);
    for (k = 0; k < o->n; k++)
    {
        const prof_impl_option * op = &o->table[k];
        char flag[40], help[512], text[480];
        if (op->help == NULL)
            continue;           /* an alias, said in the tail */
        snprintf(flag, sizeof flag, "%s%s%s%s%s", op->name,
                 op->optional ? "[" : "", !op->value ? ""
                 : op->words > 1 ? " " : "=",
                 op->value ? op->value : "", op->optional ? "]" : "");
        if (op->range != NULL)
            prof_impl_range_text(text, sizeof text, op->help, op->range);
        snprintf(help, sizeof help, "%s%s%s%s", op->range ? text : op->help,
                 op->env ? " [" : "", op->env ? op->env : "",
                 op->env ? "]" : "");
        fprintf(f, "  %-17s", flag);
        if (strlen(flag) > 17)
            fprintf(f, "\n%20s", "");
        else
            fputc(' ', f);
        wrap(f, help, 20);
    }
    if (o->usage_tail != NULL)
        fputs(o->usage_tail, f);
}
