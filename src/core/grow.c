/*
    Growable arrays: one helper for every array that is appended to, so that
    the doubling, the overflow check and the failure path are written once;
    and the one reader of a whole file into such a buffer.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

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

char * prof_impl_read_all(FILE * f, size_t * len, size_t max)
{
    struct stat st;
    size_t cap = 65536, n = 0, got, want;
    char * buf;
    /* a regular file's size, + 1 so that its end is seen at once: one
       buffer, no copy on growth */
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)
        && (unsigned long long) st.st_size < max)
        cap = (size_t) st.st_size + 1;
    buf = (char *) malloc(cap);
    for (;;)
    {
        if (buf == NULL || (n == cap && prof_impl_grow(&buf, &cap, cap + 1, 1) != 0))
        {
            free(buf);
            errno = ENOMEM;
            return NULL;
        }
        want = cap - n < max + 1 - n ? cap - n : max + 1 - n;   /* n <= max */
        got = fread(buf + n, 1, want, f);
        n += got;
        if (n > max)
        {
            free(buf);
            errno = EFBIG;
            return NULL;
        }
        if (got == 0)
            break;
    }
    if (ferror(f) || (n == cap && prof_impl_grow(&buf, &cap, cap + 1, 1) != 0))
    {
        int e = ferror(f) ? (errno != 0 ? errno : EIO) : ENOMEM;
        free(buf);
        errno = e;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}
