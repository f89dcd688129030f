/*
    Paths of the tools' outputs: whether two names would be one file.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "paths.h"

#include <stdlib.h>
#include <string.h>

/* The directory of path made absolute (symbolic links resolved) and its
   last component, in buf: 0, or -1 if the directory does not exist. */
static int canonical(const char * path, char * buf, size_t size)
{
    const char * slash = strrchr(path, '/');
    char dir[4096], * real;
    int n = slash == NULL ? 1 : slash == path ? 1 : (int) (slash - path);
    snprintf(dir, sizeof dir, "%.*s", n, slash == NULL ? "." : path);
    if ((real = realpath(dir, NULL)) == NULL)
        return -1;
    snprintf(buf, size, "%s/%s", real, slash == NULL ? path : slash + 1);
    free(real);
    return 0;
}

int prof_impl_same_target(const char * a, const char * b)
{
    char ca[8192], cb[8192];
    if (strcmp(a, b) == 0 || prof_impl_same_file(a, b))
        return 1;
    return canonical(a, ca, sizeof ca) == 0 && canonical(b, cb, sizeof cb) == 0
        && strcmp(ca, cb) == 0;
}
