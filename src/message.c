/*
    profiler: messages on stderr.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

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
