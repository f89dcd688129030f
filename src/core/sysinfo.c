/*
    The machine a benchmark ran on, for the context of the reports: CPU
    model, cores, clock rate, caches, load, host, date, executable. Linux
    reads /proc and /sys; elsewhere the fields stay empty or zero.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__unix__) || defined(__APPLE__)
# include <unistd.h>
#endif

static void trim(char * s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
}

static int read_line(const char * path, char * buf, size_t size)
{
    FILE * f = fopen(path, "r");
    int ok;
    if (f == NULL)
        return 0;
    ok = fgets(buf, (int) size, f) != NULL;
    fclose(f);
    if (ok)
        trim(buf);
    return ok;
}

/* Model name and clock rate from /proc/cpuinfo ("Processor" on old ARM
   kernels). */
static void read_cpuinfo(prof_impl_sysinfo * si)
{
    char line[512];
    int have_model = 0, have_mhz = 0;
    FILE * f = fopen("/proc/cpuinfo", "r");

    if (f == NULL)
        return;
    while (fgets(line, sizeof line, f) != NULL)
    {
        char * colon = strchr(line, ':');
        if (colon == NULL)
            continue;
        trim(colon + 1);
        if (!have_model && (strncmp(line, "model name", 10) == 0
                            || strncmp(line, "Processor", 9) == 0))
        {
            prof_impl_copy(si->cpu, sizeof si->cpu,
                           colon + (colon[1] == ' ' ? 2 : 1));
            have_model = 1;
        }
        else if (!have_mhz && strncmp(line, "cpu MHz", 7) == 0)
        {
            si->mhz = atof(colon + 1);
            have_mhz = 1;
        }
    }
    fclose(f);
}

/* The number of CPUs in a list such as "0-3" or "0,2" (at least 1). */
static int count_cpus(const char * list)
{
    int a, b, count = 0;
    const char * p = list;
    while (*p)
    {
        if (sscanf(p, "%d-%d", &a, &b) == 2 && b >= a)
            count += b - a + 1;
        else
            count++;
        p = strchr(p, ',');
        if (p == NULL)
            break;
        p++;
    }
    return count > 0 ? count : 1;
}

/* Cache index i of cpu0 from /sys into si->caches[si->ncaches]: 1, or 0
   when there is no such cache. */
static int read_cache(prof_impl_sysinfo * si, int i)
{
    char path[128], buf[64], unit;
    long size;
    int level;

    sprintf(path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
    if (!read_line(path, buf, sizeof buf))
        return 0;
    level = atoi(buf);
    sprintf(path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    if (!read_line(path, buf, sizeof buf))
        return 0;
    size = atol(buf);
    unit = buf[strspn(buf, "0123456789")];
    if (unit == 'K') size *= 1024;
    else if (unit == 'M') size *= 1024 * 1024;
    si->caches[si->ncaches].level = level;
    si->caches[si->ncaches].size = size;
    sprintf(path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
    if (!read_line(path, buf, sizeof buf))
        prof_impl_copy(buf, sizeof buf, "Unified");
    prof_impl_copy(si->caches[si->ncaches].type, sizeof si->caches[0].type,
                   buf);
    sprintf(path,
            "/sys/devices/system/cpu/cpu0/cache/index%d/shared_cpu_list", i);
    si->caches[si->ncaches].sharing = read_line(path, buf, sizeof buf)
                                    ? count_cpus(buf) : 1;
    si->ncaches++;
    return 1;
}

/* Host name and this program's path, where the system says. */
static void read_host_exe(prof_impl_sysinfo * si)
{
#if defined(__unix__) || defined(__APPLE__)
    ssize_t n;
    if (gethostname(si->host, sizeof si->host - 1) != 0)
        si->host[0] = '\0';
    n = readlink("/proc/self/exe", si->exe, sizeof si->exe - 1);
    si->exe[n > 0 ? n : 0] = '\0';
#else
    (void) si;
#endif
}

/* Now, in local time, as ISO 8601 with the offset as +hh:mm (as Google
   Benchmark writes it). */
static void format_date(prof_impl_sysinfo * si)
{
    time_t now = time(NULL);
    struct tm tmv;
    char z[8];
    size_t n;

#if defined(__unix__) || defined(__APPLE__)
    localtime_r(&now, &tmv);
#else
    tmv = *localtime(&now);
#endif
    n = strftime(si->date, sizeof si->date, "%Y-%m-%dT%H:%M:%S", &tmv);
    if (strftime(z, sizeof z, "%z", &tmv) == 5)
        sprintf(si->date + n, "%.3s:%.2s", z, z + 3);
}

void prof_impl_sysinfo_read(prof_impl_sysinfo * si)
{
    char line[512];
    int i;

    memset(si, 0, sizeof *si);
    prof_impl_copy(si->cpu, sizeof si->cpu, "unknown");
    read_cpuinfo(si);
#if defined(_SC_NPROCESSORS_ONLN)
    si->cores = (int) sysconf(_SC_NPROCESSORS_ONLN);
#endif
    if (si->cores < 1)
        si->cores = 1;
    if (!read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
                   si->scaling, sizeof si->scaling))
        si->scaling[0] = '\0';
    for (i = 0; i < 8 && read_cache(si, i); i++)
        ;
    if (read_line("/proc/loadavg", line, sizeof line))
        sscanf(line, "%lf %lf %lf", &si->load[0], &si->load[1], &si->load[2]);
    read_host_exe(si);
    format_date(si);
}
