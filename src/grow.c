/*
    The one growth step for every array that grows by realloc: doubling
    capacity, so that n appends cost O(n) copies in all.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <stdint.h>
#include <stdlib.h>

int prof_impl_grow(void * array, size_t * cap, size_t n, size_t size)
{
    void ** p = (void **) array;
    size_t c = *cap ? *cap : 16;
    void * q;
    if (n <= *cap)
        return 0;
    while (c < n)
    {
        if (c > SIZE_MAX / 2)
            return -1;
        c *= 2;
    }
    if (size == 0 || c > SIZE_MAX / size)
        return -1;
    q = realloc(*p, c * size);
    if (q == NULL)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}
