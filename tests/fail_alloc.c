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
static int once;            /* after the one failure, all succeed again */
static size_t largest;

void fail_alloc_after(long n)
{
    left = n;
    once = 0;
    failed = 0;
    largest = 0;
}

void fail_alloc_only(long n)
{
    fail_alloc_after(n);
    once = 1;
}

long fail_alloc_failed(void)
{
    return failed;
}

size_t fail_alloc_largest(void)
{
    return largest;
}

/* 1 if this allocation (of size bytes) is to fail. */
static int fails(size_t size)
{
    largest = size > largest ? size : largest;
    if (left == 0)
    {
        failed++;
        left = once ? -1 : 0;
        return 1;
    }
    if (left > 0)
        left--;
    return 0;
}

void * __wrap_malloc(size_t size)
{
    return fails(size) ? NULL : __real_malloc(size);
}

void * __wrap_calloc(size_t n, size_t size)
{
    return fails(size != 0 && n > (size_t) -1 / size ? (size_t) -1 : n * size)
           ? NULL : __real_calloc(n, size);
}

void * __wrap_realloc(void * p, size_t size)
{
    return fails(size) ? NULL : __real_realloc(p, size);
}
