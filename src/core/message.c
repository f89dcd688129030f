/*
    profiler: messages on stderr (and the one status line a terminal may
    show, erased before each message), and the string helpers every file
    shares (a bounded copy, a CSV field, UTF-8, a JSON string).
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A status line is on stderr now (a progress line at a terminal). */
static int status_shown;

void prof_impl_status(const char * text)
{
    fprintf(stderr, "\rprofiler: %s\033[K", text);
    fflush(stderr);
    status_shown = 1;
}

void prof_impl_status_clear(void)
{
    if (!status_shown)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    status_shown = 0;
}

void prof_impl_warn(const char * fmt, ...)
{
    /* One fprintf call per line so that lines from threads do not mix. */
    char line[512];
    va_list ap;

    prof_impl_status_clear();       /* a message never runs into it */
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "profiler: %s\n", line);
}

void prof_impl_copy(char * dst, size_t size, const char * src)
{
    size_t n = strlen(src);
    if (size == 0)
        return;
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

char * prof_impl_strdup(const char * s)
{
    size_t n = strlen(s) + 1;
    char * d = (char *) malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

/* str with each byte that is not UTF-8 as U+FFFD (as in JSON strings), and
   with csv each '"' doubled. */
static void put_utf8(FILE * out, const char * str, int csv)
{
    const unsigned char * s = (const unsigned char *) str;
    size_t left = strlen(str);
    while (left > 0)
    {
        size_t len = prof_impl_utf_len(s, left);
        if (len == 0)
        {
            fputs("\xEF\xBF\xBD", out);
            len = 1;
        }
        else
        {
            if (csv && *s == '"')
                fputc('"', out);
            fwrite(s, 1, len, out);
        }
        s += len;
        left -= len;
    }
}

void prof_impl_csv_string(FILE * out, const char * s)
{
    fputc('"', out);
    put_utf8(out, s, 1);
    fputc('"', out);
}

void prof_impl_put_unicode(FILE * out, const char * s)
{
    put_utf8(out, s, 0);
}

void prof_impl_md_text(FILE * out, const char * s)
{
    for (; *s; s++)
    {
        if (*s == '|')
            fputs("\\|", out);
        else
            fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
    }
}

int prof_impl_md_width(const char * s)
{
    int n = 0;
    for (; *s; s++)
        n += (((unsigned char) *s & 0xC0) != 0x80) + (*s == '|');
    return n;
}

const char * prof_impl_fixed(char * out, size_t size, double v, int places,
        int sign)
{
    if (fabs(v) < PROF_IMPL_FIXED_MAX)
        snprintf(out, size, sign ? "%+.*f" : "%.*f", places, v);
    else
        snprintf(out, size, sign ? "%+.4g" : "%.4g", v);
    return out;
}

void prof_impl_md_code(FILE * out, const char * s)
{
    fputc('`', out);
    prof_impl_md_text(out, s);
    fputc('`', out);
}

size_t prof_impl_utf_len(const unsigned char * s, size_t n)
{
    unsigned cp;
    size_t k, i;
    if (n == 0)
        return 0;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        k = 2, cp = s[0] & 0x1F;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF)
        k = 3, cp = s[0] & 0x0F;
    else if (s[0] >= 0xF0 && s[0] <= 0xF4)
        k = 4, cp = s[0] & 0x07;
    else
        return 0;
    if (n < k)
        return 0;
    for (i = 1; i < k; i++)
    {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    /* overlong forms, surrogates and code points past U+10FFFF */
    if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF))
        || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return k;
}

void prof_impl_json_string(FILE * out, const char * str)
{
    const unsigned char * s = (const unsigned char *) str;
    size_t left = strlen(str);
    fputc('"', out);
    while (left > 0)
    {
        size_t len = prof_impl_utf_len(s, left);
        if (len == 0)
        {
            fputs("\\ufffd", out);     /* a byte that is not UTF-8 */
            len = 1;
        }
        else if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if (*s < 0x20)
            fprintf(out, "\\u%04x", *s);
        else
            fwrite(s, 1, len, out);
        s += len;
        left -= len;
    }
    fputc('"', out);
}
