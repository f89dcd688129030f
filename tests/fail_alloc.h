/*
    Out of memory on demand, for the tests of what a tool does when an
    allocation fails. A test linked with fail_alloc.c and
    -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc (fail_alloc_link in
    tests/CMakeLists.txt) has every malloc, calloc and realloc of its own
    code and of the library's go through here; the C library's own (stdio
    buffers) do not.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TEST_FAIL_ALLOC_H
#define PROF_TEST_FAIL_ALLOC_H

#include <stddef.h>

/* Let n more allocations succeed, then fail every one after them (as a
   machine out of memory does: a later one does not succeed again);
   n < 0: never fail. */
void fail_alloc_after(long n);
/* Let n more allocations succeed, fail the one after them, and let all
   later ones succeed again (memory short for a moment). */
void fail_alloc_only(long n);
/* How many allocations failed since the last fail_alloc_after. */
long fail_alloc_failed(void);
/* The largest size one malloc, calloc or realloc asked for since the last
   fail_alloc_after (calloc: n x size, saturated). */
size_t fail_alloc_largest(void);

#endif
