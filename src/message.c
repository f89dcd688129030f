/*
    profiler: messages on stderr, and the bounded string copy that the
    library's files share.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
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
