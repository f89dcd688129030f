/* A FLINT 2.x-style program (FLINT 2.x and 3.0-3.3's memory API): it
   includes "profiler.h" only and uses meminfo_t, get_memory_usage and
   SHOW_MEMORY_USAGE as FLINT's profile programs do. The same file builds
   unchanged against this library (with and without FLINT's headers) and
   against FLINT 2.9's own profiler (tests/CMakeLists.txt). It checks that
   the fields and the printed line are within 1 MB of /proc/self/status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "profiler.h"

/* The kB of field key in /proc/self/status, or -1. */
static long status_kb(const char * key)
{
    char line[256];
    long kb = -1;
    size_t k = strlen(key);
    FILE * f = fopen("/proc/self/status", "r");
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, key, k) == 0)
            kb = strtol(line + k, NULL, 10);
    fclose(f);
    return kb;
}

static int near(const char * what, double kb, const char * key)
{
    long want = status_kb(key);
    int ok = want >= 0 && kb >= want - 1024.0 && kb <= want + 1024.0;
    if (!ok)
        printf("FAIL: %s is %.0f kB, %s %ld kB\n", what, kb, key, want);
    return ok;
}

int main(void)
{
    meminfo_t meminfo;
    char line[256] = "";
    double mb[4];
    int ok = 1, fd, saved;
    FILE * tmp;
    size_t i, n = (size_t) 8 << 20;
    volatile char * block = (volatile char *) malloc(n);

    if (block == NULL)
        return 1;
    for (i = 0; i < n; i += 4096)       /* 8 MB resident */
        block[i] = (char) i;

    get_memory_usage(meminfo);
    ok &= near("size", (double) meminfo->size, "VmSize:");
    ok &= near("peak", (double) meminfo->peak, "VmPeak:");
    ok &= near("rss", (double) meminfo->rss, "VmRSS:");
    ok &= near("hwm", (double) meminfo->hwm, "VmHWM:");
    ok &= meminfo->rss >= 8192;

    /* SHOW_MEMORY_USAGE prints to stdout: take the line from a file put
       in its place. */
    tmp = tmpfile();
    fflush(stdout);
    saved = dup(1);
    if (tmp == NULL || saved < 0 || dup2(fileno(tmp), 1) < 0)
        return 1;
    SHOW_MEMORY_USAGE
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(tmp);
    fd = fgets(line, sizeof line, tmp) != NULL;
    fclose(tmp);
    printf("%s", line);
    if (!fd || sscanf(line, "virt/peak/res/peak(MB): %lf %lf %lf %lf",
                      &mb[0], &mb[1], &mb[2], &mb[3]) != 4)
    {
        printf("FAIL: not FLINT's format: [%s]\n", line);
        return 1;
    }
    ok &= near("the line's virt", mb[0] * 1024.0, "VmSize:");
    ok &= near("the line's peak", mb[1] * 1024.0, "VmPeak:");
    ok &= near("the line's res", mb[2] * 1024.0, "VmRSS:");
    ok &= near("the line's res peak", mb[3] * 1024.0, "VmHWM:");
    printf("meminfo: size %lu peak %lu rss %lu hwm %lu kB: %s\n",
           (unsigned long) meminfo->size, (unsigned long) meminfo->peak,
           (unsigned long) meminfo->rss, (unsigned long) meminfo->hwm,
           ok ? "within 1 MB of /proc/self/status" : "FAIL");
    free((void *) block);
    return ok ? 0 : 1;
}
