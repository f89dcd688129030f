/*
    What a counter set holds (its events, their units, which count and why
    not) and its reports: the context line of the runner's outputs and
    prof_counters_fprint's table.
    SPDX-License-Identifier: MIT
*/
#include "counters_set.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- what the set holds -------------------------------------------------- */

int prof_counters_size(const prof_counters * set)
{
    const counter_set * c = cset_of(set);
    return is_open(c) ? c->n : 0;
}

const char * prof_counters_name(const prof_counters * set, int i)
{
    const counter_set * c = cset_of(set);
    return valid_index(c, i) ? prof_impl_known_events[c->kind[i]].name : "";
}

const char * prof_counters_unit(const prof_counters * set, int i)
{
    const counter_set * c = cset_of(set);
    return valid_index(c, i) ? prof_impl_known_events[c->kind[i]].unit : "";
}

int prof_counters_find(const prof_counters * set, const char * name)
{
    const counter_set * c = cset_of(set);
    int i, k;
    if (!is_open(c) || name == NULL || (k = prof_impl_counters_lookup(name, strlen(name))) < 0)
        return -1;
    for (i = 0; i < c->n; i++)
        if (c->kind[i] == k)
            return i;
    return -1;
}

int prof_counters_available(const prof_counters * set, int i)
{
    const counter_set * c = cset_of(set);
    return valid_index(c, i) && c->group[i] != GROUP_NONE;
}

int prof_counters_errno(const prof_counters * set, int i)
{
    const counter_set * c = cset_of(set);
    if (!valid_index(c, i))
        return -1;
    return c->group[i] != GROUP_NONE ? 0 : c->err[i];
}

const char * prof_counters_reason(const prof_counters * set, int i)
{
    const counter_set * c = cset_of(set);
    if (!valid_index(c, i))
        return NULL;
    return c->group[i] != GROUP_NONE ? "" : c->reason[i];
}

int prof_impl_counters_leader(const prof_counters * set, int group)
{
    const counter_set * c = cset_of(set);
    return is_open(c) && (group == GROUP_HW || group == GROUP_SW)
         ? c->leader[group] : -1;
}

/* ---- reports ------------------------------------------------------------- */

/* Append to buf (size bytes) at *len, as snprintf would; *len counts what
   the whole line needs. */
static void append(char * buf, size_t size, size_t * len, const char * fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void append(char * buf, size_t size, size_t * len, const char * fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vsnprintf(*len < size ? buf + *len : NULL, *len < size ? size - *len : 0, fmt, ap);
    va_end(ap);
    if (r > 0)
        *len += (size_t) r;
}

int prof_counters_context(const prof_counters * set, char * buf, size_t size)
{
    const counter_set * c = cset_of(set);
    size_t len = 0;
    int i, j, first, hw_counting = 0, done[PROF_COUNTERS_MAX];

    if (buf == NULL)
        size = 0;
    else if (size > 0)
        buf[0] = '\0';
    if (!is_open(c))
    {
        append(buf, size, &len, "counters: none (no open counter set)");
        return (int) len;
    }
    append(buf, size, &len, "counters:");
    first = 1;
    for (i = 0; i < c->n; i++)
        if (c->group[i] != GROUP_NONE)
        {
            append(buf, size, &len, "%s %s%s", first ? "" : ",", prof_impl_known_events[c->kind[i]].name,
                   c->user_only[i] && !prof_impl_known_events[c->kind[i]].hw ? " (user space only)" : "");
            first = 0;
            hw_counting |= prof_impl_known_events[c->kind[i]].hw;
        }
    if (first)
        append(buf, size, &len, " none counting");
    else
        append(buf, size, &len, " counting%s", hw_counting ? " (hardware: user space only)" : "");
    memset(done, 0, sizeof done);
    for (i = 0; i < c->n; i++)
    {
        if (c->group[i] != GROUP_NONE || done[i])
            continue;
        append(buf, size, &len, ";");
        for (j = i; j < c->n; j++)
            if (c->group[j] == GROUP_NONE && !done[j] && c->err[j] == c->err[i]
                && strcmp(c->reason[j], c->reason[i]) == 0)
            {
                append(buf, size, &len, "%s %s", j == i ? "" : ",", prof_impl_known_events[c->kind[j]].name);
                done[j] = 1;
            }
        append(buf, size, &len, " n/a (%s): %s", prof_impl_counters_errno_name(c->err[i]), c->reason[i]);
    }
    return (int) len;
}

void prof_counters_fprint(FILE * fs, const prof_counters * set)
{
    const counter_set * c = cset_of(set);
    int i;

    if (fs == NULL)
        fs = stdout;
    if (!is_open(c))
    {
        prof_impl_counters_not_open(c, "prof_counters_fprint");
        return;
    }
    for (i = 0; i < c->n; i++)
    {
        const event_info * e = &prof_impl_known_events[c->kind[i]];
        if (c->group[i] != GROUP_NONE)
            fprintf(fs, "%-17s ok   %s group, %s\n", e->name, e->hw ? "hardware" : "software",
                    c->user_only[i] ? "user space only" : "user and kernel");
        else
            fprintf(fs, "%-17s n/a  %s (errno %d): %s\n", e->name, prof_impl_counters_errno_name(c->err[i]),
                    c->err[i], c->reason[i]);
    }
}
