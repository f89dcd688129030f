/*
    The process's memory use: FLINT 3's fprint_memory_usage line, and FLINT
    2.x's meminfo_t, get_memory_usage and SHOW_MEMORY_USAGE line.
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
/* Read VmSize, VmPeak, VmRSS, VmHWM (kB) into sizes[0..3] in bytes; func
   starts the message about what cannot be read. */
static void read_status(const char * path, double sizes[4], const char * func)
{
    static const char * const keys[4] = { "VmSize:", "VmPeak:", "VmRSS:",
                                          "VmHWM:" };
    char buf[256];
    int found = 0, i;
    FILE * f = fopen(path, "r");

    if (f == NULL)
    {
        prof_impl_warn("%s: cannot read %s: %s", func, path, strerror(errno));
        return;
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
        prof_impl_warn("%s: %s lacks some of VmSize, VmPeak, VmRSS, VmHWM",
                       func, path);
}
#endif

/* The process's memory use in bytes: current and peak virtual size,
   current and peak resident set (SIZE_UNKNOWN where the system does not
   say), with one profiler: message (starting with func) when some are
   unknown. Linux reads status_path; elsewhere task_info (macOS) and
   getrusage. */
static void read_usage(double sizes[4], const char * status_path,
                       const char * func)
{
    int i;
    for (i = 0; i < 4; i++)
        sizes[i] = SIZE_UNKNOWN;
#if defined(__linux__)
    read_status(status_path, sizes, func);
    if (sizes[3] < 0.0)
        sizes[3] = rusage_peak_bytes();
#else
    (void) status_path;
# if defined(__APPLE__)
    {
        mach_task_basic_info_data_t info;
        mach_msg_type_number_t count = MACH_TASK_BASIC_INFO_COUNT;
        if (task_info(mach_task_self(), MACH_TASK_BASIC_INFO,
                      (task_info_t) &info, &count) == KERN_SUCCESS)
        {
            sizes[0] = (double) info.virtual_size;
            sizes[2] = (double) info.resident_size;
        }
    }
# endif
    sizes[3] = rusage_peak_bytes();
    if (sizes[0] < 0.0 || sizes[3] < 0.0)
        prof_impl_warn("%s: this system reports only part of the memory use",
                       func);
#endif
}

void prof_impl_fprint_memory_usage(FILE * fs, const char * status_path)
{
    double sizes[4];
    if (fs == NULL)
        fs = stdout;
    read_usage(sizes, status_path, "fprint_memory_usage");
#if defined(__linux__)
    put_line(fs, "virt/peak/rss/peak: ", sizes, 4);
#else
    sizes[1] = sizes[2];        /* no peak virtual size: virt/rss/peak */
    sizes[2] = sizes[3];
    put_line(fs, "virt/rss/peak: ", sizes, 3);
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

/* FLINT 2.x's meminfo_t: kB, 0 where unknown. */
void prof_impl_get_memory_usage(meminfo_t meminfo, const char * status_path)
{
    double sizes[4];
    if (meminfo == NULL)
        return;
    read_usage(sizes, status_path, "get_memory_usage");
    meminfo->size = sizes[0] >= 0.0 ? (ulong) (sizes[0] / 1024.0) : 0;
    meminfo->peak = sizes[1] >= 0.0 ? (ulong) (sizes[1] / 1024.0) : 0;
    meminfo->rss = sizes[2] >= 0.0 ? (ulong) (sizes[2] / 1024.0) : 0;
    meminfo->hwm = sizes[3] >= 0.0 ? (ulong) (sizes[3] / 1024.0) : 0;
}

void get_memory_usage(meminfo_t meminfo)
{
    prof_impl_get_memory_usage(meminfo, "/proc/self/status");
}

/* SHOW_MEMORY_USAGE: FLINT 2.x's line, in MB with two decimals, "n/a"
   where unknown. */
void prof_impl_show_memory_usage_to(FILE * fs, const char * status_path)
{
    /* FLINT's order: size, peak, rss, hwm (as read_usage's) */
    double sizes[4];
    char line[128];
    size_t n;
    int i;

    read_usage(sizes, status_path, "SHOW_MEMORY_USAGE");
    n = (size_t) snprintf(line, sizeof line, "virt/peak/res/peak(MB):");
    for (i = 0; i < 4 && n < sizeof line; i++)
        n += sizes[i] >= 0.0
           ? (size_t) snprintf(line + n, sizeof line - n, " %.2f",
                               sizes[i] / (1024.0 * 1024.0))
           : (size_t) snprintf(line + n, sizeof line - n, " n/a");
    if (n < sizeof line - 1)
        strcat(line, "\n");
    if (fputs(line, fs) == EOF || fflush(fs) == EOF)
        prof_impl_warn("SHOW_MEMORY_USAGE: cannot write: %s",
                       strerror(errno));
}

void prof_impl_show_memory_usage(void)
{
    prof_impl_show_memory_usage_to(stdout, "/proc/self/status");
}
