/*
    Growable arrays: one helper for every array that is appended to, so that
    the doubling, the overflow check and the failure path are written once.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <stdint.h>
#include <stdlib.h>

int prof_impl_grow(void * array, size_t * capacity, size_t need,
                   size_t size)
{
    void ** p = (void **) array, * q;
    size_t cap = *capacity ? *capacity : 1;
    if (need <= *capacity)
        return 0;
    while (cap < need)
    {
        if (cap > SIZE_MAX / 2)
            return -1;
        cap *= 2;
    }
    if (size == 0 || cap > SIZE_MAX / size)
        return -1;
    q = realloc(*p, cap * size);
    if (q == NULL)
        return -1;
    *p = q;
    *capacity = cap;
    return 0;
}
