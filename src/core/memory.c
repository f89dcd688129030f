/*
    fprint_memory_usage: the process's memory use in FLINT's one-line format.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(FLINT_HAVE_getrusage)
# include <sys/resource.h>
#endif
#if defined(__APPLE__)
# include <mach/mach.h>
#endif

#define SIZE_UNKNOWN (-1.0)

/* Write a size in bytes as exactly 7 characters: "  512 B", "24.8 MB",
   "9.50 GB", " 512 kB" (powers of 1024), or "    n/a" when unknown. Three
   significant digits, as FLINT prints them. */
static void format_size(char out[8], double bytes)
{
    static const char units[] = "kMGTPE";
    double num = bytes;
    int u = -1, decimals;

    if (!(bytes >= 0.0))
    {
        memcpy(out, "    n/a", 8);
        return;
    }
    if (bytes < 1024.0)
    {
        snprintf(out, 8, "%5.0f B", bytes);
        return;
    }
    while (num >= 1024.0 && u < 5)
    {
        num /= 1024.0;
        u++;
    }
    /* Choose decimals after rounding: 9.996 is "10.0", not "10.00". */
    decimals = num < 9.995 ? 2 : num < 99.95 ? 1 : 0;
    snprintf(out, 8, "%4.*f %cB", decimals, num, units[u]);
}

static void put_line(FILE * fs, const char * label, const double * sizes,
                     int n)
{
    char line[128], size[8];
    int i;

    strcpy(line, label);
    for (i = 0; i < n; i++)
    {
        format_size(size, sizes[i]);
        if (i > 0)
            strcat(line, " / ");
        strcat(line, size);
    }
    strcat(line, "\n");
    /* Flush, so that a full disk or a closed pipe is reported here. */
    if (fputs(line, fs) == EOF || fflush(fs) == EOF)
        prof_impl_warn("fprint_memory_usage: cannot write: %s",
                       strerror(errno));
}

/* Peak resident set in bytes from getrusage, or SIZE_UNKNOWN. */
static double rusage_peak_bytes(void)
{
#if defined(FLINT_HAVE_getrusage)
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
# if defined(__APPLE__)
        return (double) ru.ru_maxrss;          /* bytes on macOS */
# else
        return (double) ru.ru_maxrss * 1024.0; /* kilobytes elsewhere */
# endif
#endif
    return SIZE_UNKNOWN;
}

#if defined(__linux__)
/* Read VmSize, VmPeak, VmRSS, VmHWM (kB) into sizes[0..3] in bytes.
   Returns how many were found. */
static int read_status(const char * path, double sizes[4])
{
    static const char * const keys[4] = { "VmSize:", "VmPeak:", "VmRSS:",
                                          "VmHWM:" };
    char buf[256];
    int found = 0, i;
    FILE * f = fopen(path, "r");

    if (f == NULL)
    {
        prof_impl_warn("fprint_memory_usage: cannot read %s: %s", path,
                       strerror(errno));
        return 0;
    }
    while (fgets(buf, sizeof buf, f) != NULL)
        for (i = 0; i < 4; i++)
        {
            size_t k = strlen(keys[i]);
            if (strncmp(buf, keys[i], k) == 0)
            {
                char * end;
                double kb = strtod(buf + k, &end);
                if (end != buf + k && kb >= 0.0 && sizes[i] < 0.0)
                {
                    sizes[i] = kb * 1024.0;
                    found++;
                }
            }
        }
    fclose(f);
    if (found < 4)
        prof_impl_warn("fprint_memory_usage: %s lacks some of VmSize, "
                       "VmPeak, VmRSS, VmHWM", path);
    return found;
}
#endif

void prof_impl_fprint_memory_usage(FILE * fs, const char * status_path)
{
    if (fs == NULL)
        fs = stdout;
#if defined(__linux__)
    {
        double sizes[4] = { SIZE_UNKNOWN, SIZE_UNKNOWN, SIZE_UNKNOWN,
                            SIZE_UNKNOWN };
        read_status(status_path, sizes);
        if (sizes[3] < 0.0)
            sizes[3] = rusage_peak_bytes();
        put_line(fs, "virt/peak/rss/peak: ", sizes, 4);
    }
#else
    {
        double sizes[3] = { SIZE_UNKNOWN, SIZE_UNKNOWN, SIZE_UNKNOWN };
        (void) status_path;
# if defined(__APPLE__)
        {
            mach_task_basic_info_data_t info;
            mach_msg_type_number_t count = MACH_TASK_BASIC_INFO_COUNT;
            if (task_info(mach_task_self(), MACH_TASK_BASIC_INFO,
                          (task_info_t) &info, &count) == KERN_SUCCESS)
            {
                sizes[0] = (double) info.virtual_size;
                sizes[1] = (double) info.resident_size;
            }
        }
# endif
        sizes[2] = rusage_peak_bytes();
        if (sizes[0] < 0.0 || sizes[2] < 0.0)
            prof_impl_warn("fprint_memory_usage: this system reports only "
                           "part of the memory use");
        put_line(fs, "virt/rss/peak: ", sizes, 3);
    }
#endif
}

void fprint_memory_usage(FILE * fs)
{
    prof_impl_fprint_memory_usage(fs, "/proc/self/status");
}

void print_memory_usage(void)
{
    fprint_memory_usage(stdout);
}
