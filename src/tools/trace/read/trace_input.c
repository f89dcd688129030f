/*
    The trace reader's input window: see trace_input.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_input.h"
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int pt_src_open(pt_src * s, const char * path, size_t window)
{
    struct stat sb;
    memset(s, 0, sizeof *s);
    s->f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (s->f == NULL)
        return -2;
    if (fstat(fileno(s->f), &sb) == 0 && S_ISDIR(sb.st_mode))
    {
        if (s->f != stdin)      /* a directory: no bytes to read */
            fclose(s->f);
        s->f = NULL;
        errno = EISDIR;
        return -2;
    }
    s->total = S_ISREG(sb.st_mode) ? (uint64_t) sb.st_size : UINT64_MAX;
    s->window = window > 0 ? window : PT_WINDOW;
    if (prof_impl_grow(&s->buf, &s->cap, s->window, 1) != 0)
    {
        s->oom = 1;
        return -3;
    }
    s->p = s->buf;
    return 0;
}

void pt_src_memory(pt_src * s, const unsigned char * d, size_t n)
{
    memset(s, 0, sizeof *s);
    s->p = d != NULL ? d : (const unsigned char *) "";
    s->len = d != NULL ? n : 0;
    s->total = s->len;
    s->window = PT_WINDOW;
    s->eof = 1;
}

void pt_src_close(pt_src * s)
{
    if (s->f != NULL && s->f != stdin)
        fclose(s->f);
    free(s->buf);
    memset(s, 0, sizeof *s);
}

size_t pt_src_need(pt_src * s, size_t k)
{
    if (s->len - s->pos >= k || s->f == NULL || s->eof)
        return s->len - s->pos;
    if (s->pos > 0)
    {
        memmove(s->buf, s->buf + s->pos, s->len - s->pos);
        s->off += s->pos;
        s->len -= s->pos;
        s->pos = 0;
    }
    if (k > s->cap && prof_impl_grow(&s->buf, &s->cap, k, 1) != 0)
    {
        s->oom = 1;
        return s->len;
    }
    s->p = s->buf;
    while (s->len < k && !s->eof)
    {
        size_t got = fread(s->buf + s->len, 1, s->cap - s->len, s->f);
        s->len += got;
        s->eof = got == 0;
    }
    return s->len - s->pos;
}

uint64_t pt_src_offset(const pt_src * s)
{
    return s->off + s->pos;
}

void pt_src_skip(pt_src * s, uint64_t n)
{
    while (n > 0)
    {
        size_t have = pt_src_need(s, 1);
        size_t k = (uint64_t) have < n ? have : (size_t) n;
        if (have == 0)
            return;
        s->pos += k;
        n -= k;
    }
}

/* Where the window has moved on past `to` (pt_src_need moves it), the
   input is sought and the window read again: the bytes at the read
   position are only ever those pt_src_need made available. */
int pt_src_seek(pt_src * s, uint64_t to, size_t k)
{
    if (to >= s->off && to <= s->off + s->len)
        s->pos = (size_t) (to - s->off);
    else if (s->f == NULL || to > (uint64_t) INT64_MAX
             || fseeko(s->f, (off_t) to, SEEK_SET) != 0)
        return -1;
    else
    {
        s->off = to;
        s->len = s->pos = 0;
        s->eof = 0;
    }
    return pt_src_need(s, k) >= k ? 0 : -1;
}

unsigned char * pt_slurp(const char * path, size_t * n)
{
    FILE * f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    unsigned char * d;
    if (f == NULL)
        return NULL;
    d = (unsigned char *) prof_impl_read_all(f, n, (size_t) -1 - 1);
    if (f != stdin)
        fclose(f);
    return d;
}

void pt_each_line(const unsigned char * p, size_t n,
                  void (*fn)(void * ctx, const char * line), void * ctx)
{
    size_t i = 0;
    while (i < n && p[i] != '\0')
    {
        char line[4096 + 256];
        size_t len = 0;
        while (i < n && p[i] != '\n' && p[i] != '\0')
        {
            if (len + 1 < sizeof line)
                line[len++] = (char) p[i];
            i++;
        }
        if (i < n && p[i] == '\n')
            i++;
        line[len] = '\0';
        fn(ctx, line);
    }
}
