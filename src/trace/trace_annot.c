/*
    Extension records (trace_format.h, format version 3): the one writer
    every annotation goes through, prof_impl_trace_ext, and the
    annotations' entry points (PROF_ZONE_VALUE, PROF_ZONE_TEXT,
    PROF_MESSAGE, PROF_PLOT, PROF_FRAME_MARK in profiler.h).

    A record is written by the slow path (trace.c, record; its words laid
    out by trace_ext.c): the same buffer, the same room rule and the same
    signal and thread safety as a zone's event, one counter read after any
    set-up. Strings are copied into the buffer: at most len bytes are read,
    never past a zero byte, never more than PROF_TF_MAX_STRING (4 KiB), and
    no more than fit in the thread's buffer (the smallest, 2 KiB past the
    memory cap, holds 2024 bytes). Names (plots, frames) are labels, read
    when the buffer is written: give string literals, as for zones.
    SPDX-License-Identifier: MIT
*/
#define PROF_IMPL_TRACE_INTERNAL 1
#include "internal.h"
#include "trace_format.h"

#include <string.h>

#if !defined(_WIN32) /* Windows: prof_impl_trace_ext is in trace_none.c */

#include "trace_impl.h"

NOINST void prof_impl_trace_ext(unsigned kind, const char * name,
                                const unsigned long long * w, size_t n,
                                const char * s, size_t len)
{
    prof_impl_tr_ext x;
    x.kind = kind;
    x.name = name;
    x.w = w;
    x.n = n;
    x.s = s;
    x.len = s == NULL ? 0
            : strnlen(s, len < PROF_TF_MAX_STRING ? len : PROF_TF_MAX_STRING);
    prof_impl_tr_record_ext(&x);
}

#else
# define NOINST
#endif /* !_WIN32 */

/* ---- the annotations (profiler.h) -------------------------------------------- */

/* The inline path's kinds and tags (profiler.h) are the format's. */
typedef char prof_impl_annot_kinds_agree[(PROF_IMPL_EXT_ZONE_VALUE
    == PROF_TF_EXT_ZONE_VALUE && PROF_IMPL_EXT_PLOT == PROF_TF_EXT_PLOT
    && PROF_IMPL_EXT_FRAME == PROF_TF_EXT_FRAME && PROF_IMPL_VALUE_INT
    == PROF_TF_VALUE_INT && PROF_IMPL_VALUE_DOUBLE == PROF_TF_VALUE_DOUBLE)
    ? 1 : -1];

/* NULL for a string is recorded as this, as a NULL label is shown. */
static const char null_text[] = "(null)";

NOINST void prof_impl_trace_zone_text(const char * s, size_t len)
{
    if (s == NULL)
        prof_impl_trace_ext(PROF_TF_EXT_ZONE_TEXT, NULL, NULL, 0, null_text,
                            sizeof null_text - 1);
    else
        prof_impl_trace_ext(PROF_TF_EXT_ZONE_TEXT, NULL, NULL, 0, s, len);
}

NOINST void prof_impl_trace_message(const char * s)
{
    prof_impl_trace_ext(PROF_TF_EXT_MESSAGE, NULL, NULL, 0,
                        s != NULL ? s : null_text, (size_t) -1);
}
