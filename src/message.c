/*
    profiler: messages on stderr, and the array growth every file shares.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void prof_impl_warn(const char * fmt, ...)
{
    /* One fprintf call per line so that lines from threads do not mix. */
    char line[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "profiler: %s\n", line);
}

int prof_impl_grow(void * p, size_t * cap, size_t n, size_t size)
{
    void * q;
    size_t c = *cap ? *cap : 16;
    if (n <= *cap)
        return 0;
    while (c < n)
    {
        if (c > ((size_t) -1 / 2) / size)
            return -1;
        c *= 2;
    }
    q = realloc(*(void **) p, c * size);
    if (q == NULL)
        return -1;
    *(void **) p = q;
    *cap = c;
    return 0;
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
