/*
    profiler: messages on stderr (and the one status line a terminal may
    show, erased before each message), and the string helpers every file
    shares (a bounded copy, a CSV field).
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

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

void prof_impl_csv_string(FILE * out, const char * s)
{
    fputc('"', out);
    for (; *s; s++)
    {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}
