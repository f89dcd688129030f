/*
    The layout of an extension record in a thread's buffer (trace_format.h,
    version 3): its size, its string cut to a room, its words written, and
    the size of any record from its first word. Calls nothing of the other
    files: trace.c writes records with it, trace_file.c walks them.
    SPDX-License-Identifier: MIT
*/
#if !defined(_WIN32) /* Windows: trace_none.c */

#include "trace_impl.h"

#include <string.h>

/* Words of x after its extension word, but for its string's bytes. */
static NOINST size_t fixed_words(const prof_impl_tr_ext * x)
{
    return (x->name != NULL) + x->n + (x->s != NULL);
}

NOINST size_t prof_impl_tr_ext_words(const prof_impl_tr_ext * x)
{
    return 1 + fixed_words(x) + (x->s != NULL ? (x->len + 7) / 8 : 0);
}

NOINST void prof_impl_tr_ext_fit(prof_impl_tr_ext * x, size_t room)
{
    size_t fixed = 1 + fixed_words(x);
    if (x->s != NULL && prof_impl_tr_ext_words(x) > room && room > fixed)
        x->len = (room - fixed) * 8;
}

NOINST word_t * prof_impl_tr_put_ext(word_t * p, unsigned long long d, long id,
                                     const prof_impl_tr_ext * x)
{
    word_t * head = p++;
    if (x->name != NULL)
        *p++ = (word_t) id;
    if (x->n > 0)
        memcpy(p, x->w, x->n * sizeof *p);
    p += x->n;
    if (x->s != NULL)
    {
        size_t k = (x->len + 7) / 8;
        *p++ = x->len;
        if (k > 0)
        {
            p[k - 1] = 0; /* the padding */
            memcpy(p, x->s, x->len);
        }
        p += k;
    }
    *head = d << 24 | (word_t) (p - head - 1) << 8 | (word_t) x->kind << 3
            | PROF_TF_EV_EXT;
    return p;
}

NOINST size_t prof_impl_tr_record_words(const word_t * w, size_t n)
{
    size_t m = 1;
    if ((w[0] & 7) == PROF_TF_EV_EXT)
        m += (size_t) (w[0] >> 8) & ((1u << PROF_TF_EXT_WORDS_BITS) - 1);
    return m < n ? m : n;
}

#else
typedef int prof_impl_trace_ext_posix_only; /* ISO C: no empty translation unit */
#endif /* !_WIN32 */
