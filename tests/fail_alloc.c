/*
    Out of memory on demand (fail_alloc.h): the linker's --wrap sends
    malloc, calloc and realloc here, and __real_* reaches the C library's
    (or a sanitizer's).
    SPDX-License-Identifier: MIT
*/
#include "fail_alloc.h"

#include <stddef.h>

void * __real_malloc(size_t size);
void * __real_calloc(size_t n, size_t size);
void * __real_realloc(void * p, size_t size);
void * __wrap_malloc(size_t size);
void * __wrap_calloc(size_t n, size_t size);
void * __wrap_realloc(void * p, size_t size);

static long left = -1;      /* allocations that still succeed; < 0: all */
static long failed;

void fail_alloc_after(long n)
{
    left = n;
    failed = 0;
}

long fail_alloc_failed(void)
{
    return failed;
}

/* 1 if this allocation is to fail. */
static int fails(void)
{
    if (left == 0)
    {
        failed++;
        return 1;
    }
    if (left > 0)
        left--;
    return 0;
}

void * __wrap_malloc(size_t size)
{
    return fails() ? NULL : __real_malloc(size);
}

void * __wrap_calloc(size_t n, size_t size)
{
    return fails() ? NULL : __real_calloc(n, size);
}

void * __wrap_realloc(void * p, size_t size)
{
    return fails() ? NULL : __real_realloc(p, size);
}
