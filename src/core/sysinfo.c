/*
    The machine a benchmark ran on, for the context of the reports: CPU
    model, cores, clock rate, caches, load, host, date, executable; and
    the machine check (pyperf's "system show"): the load against the
    cores, the frequency governor, turbo/boost, ASLR, a virtual machine
    and its PMU. Linux reads /proc and /sys; elsewhere the fields stay
    empty or zero and the check says "unknown". A file that cannot be read
    is "unknown", never a failure.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__unix__) || defined(__APPLE__)
# include <dirent.h>
# include <unistd.h>
#endif

const char * prof_impl_sys_root = "";

/* path (absolute: "/proc/loadavg") under prof_impl_sys_root into buf. */
static const char * sys_path(char * buf, size_t size, const char * path)
{
    const char * root = prof_impl_sys_root != NULL ? prof_impl_sys_root : "";
    snprintf(buf, size, "%s%s", root, path);
    return buf;
}

static FILE * open_sys(const char * path)
{
    char full[512];
    return fopen(sys_path(full, sizeof full, path), "r");
}

static void trim(char * s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
}

static int read_line(const char * path, char * buf, size_t size)
{
    FILE * f = open_sys(path);
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
    FILE * f = open_sys("/proc/cpuinfo");

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
    si->cores = prof_impl_online_cores();
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

/* ---- the machine check ----------------------------------------------- */

int prof_impl_online_cores(void)
{
    long n = 1;
#if defined(_SC_NPROCESSORS_ONLN)
    n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    return n >= 1 && n < 1000000 ? (int) n : 1;
}

/* The load averages of /proc/loadavg into load[3]: 1, or 0 (NaN) if it
   cannot be read or holds no three numbers. */
static int read_load(double load[3])
{
    char line[256];
    int ok = read_line("/proc/loadavg", line, sizeof line)
          && sscanf(line, "%lf %lf %lf", &load[0], &load[1], &load[2]) == 3
          && load[0] >= 0.0 && load[1] >= 0.0 && load[2] >= 0.0;
    if (!ok)
        load[0] = load[1] = load[2] = NAN;
    return ok;
}

double prof_impl_load_now(void)
{
    double load[3];
    read_load(load);
    return load[0];
}

int prof_impl_machine_loaded(double load, int cores)
{
    return load > (double) cores;      /* NaN: unknown, not loaded */
}

double (*prof_impl_fake_load)(void);

double prof_impl_run_load(void)
{
    if (prof_impl_fake_read != NULL)
        return prof_impl_fake_load != NULL ? prof_impl_fake_load() : NAN;
    return prof_impl_load_now();
}

/* The CPUs' frequency governor: "" if none can be read, "mixed" when
   they differ. */
static void read_governor(char * out, size_t size, int cores)
{
    char path[96], buf[32];
    int i;
    out[0] = '\0';
    for (i = 0; i < cores && i < 4096; i++)
    {
        sprintf(path, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
                i);
        if (!read_line(path, buf, sizeof buf) || buf[0] == '\0')
            continue;
        if (out[0] == '\0')
            prof_impl_copy(out, size, buf);
        else if (strcmp(out, buf) != 0)
        {
            prof_impl_copy(out, size, "mixed");
            return;
        }
    }
}

/* A file that holds "0" or "1": that digit, else -1. */
static int read_bit(const char * path)
{
    char buf[16];
    if (!read_line(path, buf, sizeof buf) || (buf[0] != '0' && buf[0] != '1')
        || buf[1] != '\0')
        return -1;
    return buf[0] - '0';
}

/* Turbo (Intel) or boost (acpi-cpufreq, AMD): 1 on, 0 off, -1 unknown. */
static int read_turbo(void)
{
    int v = read_bit("/sys/devices/system/cpu/intel_pstate/no_turbo");
    if (v >= 0)
        return !v;
    return read_bit("/sys/devices/system/cpu/cpufreq/boost");
}

/* kernel.randomize_va_space: 0 off, 1 partial, 2 full; -1 unknown. */
static int read_aslr(void)
{
    char buf[16];
    if (!read_line("/proc/sys/kernel/randomize_va_space", buf, sizeof buf)
        || buf[0] < '0' || buf[0] > '2' || buf[1] != '\0')
        return -1;
    return buf[0] - '0';
}

int prof_impl_machine_vm(void)
{
    char line[4096];
    int vm = -1;
    FILE * f = open_sys("/proc/cpuinfo");
    /* x86 guests see the "hypervisor" CPU flag; Xen guests have
       /sys/hypervisor; ARM guests a device-tree node */
    if (f != NULL)
    {
        while (vm != 1 && fgets(line, sizeof line, f) != NULL)
            vm = strncmp(line, "flags", 5) == 0
              && strstr(line, " hypervisor") != NULL;
        fclose(f);
    }
    if (vm != 1 && read_line("/sys/hypervisor/type", line, sizeof line))
        vm = line[0] != '\0';
    if (vm != 1 && (f = open_sys("/proc/device-tree/hypervisor/compatible"))
                   != NULL)
    {
        vm = 1;
        fclose(f);
    }
    return vm;
}

int prof_impl_machine_pmu(void)
{
#if defined(__unix__) || defined(__APPLE__)
    char path[512];
    DIR * d = opendir(sys_path(path, sizeof path,
                               "/sys/bus/event_source/devices"));
    struct dirent * e;
    int found = 0;
    if (d == NULL)
        return -1;
    /* "cpu" on x86, "cpu_core" on hybrid Intel, "armv8_pmuv3_0" and the
       like on ARM */
    while (!found && (e = readdir(d)) != NULL)
        found = strncmp(e->d_name, "cpu", 3) == 0
             || strncmp(e->d_name, "armv", 4) == 0
             || strncmp(e->d_name, "arm_", 4) == 0
             || strstr(e->d_name, "pmu") != NULL;
    closedir(d);
    return found;
#else
    return -1;
#endif
}

void prof_impl_machine_read(prof_impl_machine * m)
{
    memset(m, 0, sizeof *m);
    m->cores = prof_impl_online_cores();
    read_load(m->load);
    read_governor(m->governor, sizeof m->governor, m->cores);
    m->turbo = read_turbo();
    m->aslr = read_aslr();
    m->vm = prof_impl_machine_vm();
    m->pmu = prof_impl_machine_pmu();
}

const char * prof_impl_machine_word(int what, int v)
{
    static const char * const words[][4] = {
        { "unknown", "off", "on", "on" },           /* turbo */
        { "unknown", "off", "partial", "full" },    /* ASLR */
        { "unknown", "no", "yes", "yes" } };        /* VM, PMU */
    return words[what][v < 0 ? 0 : v > 2 ? 3 : v + 1];
}

void prof_impl_machine_line(const prof_impl_machine * m, char * buf,
        size_t size)
{
    char load[96];
    if (isnan(m->load[0]))
        snprintf(load, sizeof load, "load unknown on %d cores", m->cores);
    else
        snprintf(load, sizeof load, "load %.2f on %d cores%s", m->load[0],
                 m->cores, prof_impl_machine_loaded(m->load[0], m->cores)
                 ? " (over the cores)" : "");
    snprintf(buf, size, "machine: %s, governor %s, turbo %s, ASLR %s, "
             "virtual machine %s, PMU %s", load,
             m->governor[0] ? m->governor : "unknown",
             prof_impl_machine_word(PROF_IMPL_WORD_TURBO, m->turbo),
             prof_impl_machine_word(PROF_IMPL_WORD_ASLR, m->aslr),
             prof_impl_machine_word(PROF_IMPL_WORD_YES, m->vm),
             prof_impl_machine_word(PROF_IMPL_WORD_YES, m->pmu));
}

int prof_impl_machine_findings(const prof_impl_machine * m,
        char text[][PROF_IMPL_FINDING], int max)
{
    int n = 0;
#define FINDING (n < max ? text[n++] : text[max - 1])
    if (prof_impl_machine_loaded(m->load[0], m->cores))
        snprintf(FINDING, PROF_IMPL_FINDING, "the load average %.2f exceeds "
                 "the %d cores: other processes share the CPUs, and figures "
                 "measured now include their time",
                 m->load[0], m->cores);
    if (m->governor[0] && strcmp(m->governor, "performance") != 0)
        snprintf(FINDING, PROF_IMPL_FINDING, "the frequency governor is %s, "
                 "not performance: the clock rate follows the load "
                 "(cpupower frequency-set -g performance)",
                 strcmp(m->governor, "mixed") == 0 ? "not the same on every "
                 "CPU" : m->governor);
    if (m->turbo == 1)
        snprintf(FINDING, PROF_IMPL_FINDING, "turbo/boost is on: the clock "
                 "rate depends on the temperature and on the other cores' "
                 "work (intel_pstate/no_turbo = 1, or cpufreq/boost = 0)");
    if (m->aslr == 0 || m->aslr == 1)
        snprintf(FINDING, PROF_IMPL_FINDING, "ASLR is %s: every process gets "
                 "%s layout, so one layout's luck is in every run "
                 "(sysctl kernel.randomize_va_space=2)",
                 m->aslr == 0 ? "off" : "partial",
                 m->aslr == 0 ? "the same" : "much the same");
    if (m->vm == 1 && m->pmu == 0)
        snprintf(FINDING, PROF_IMPL_FINDING, "a virtual machine without a "
                 "PMU: perf refuses hardware events (cycles, instructions), "
                 "and other guests share the host");
#undef FINDING
    return n;
}

void prof_impl_machine_print(FILE * out, const prof_impl_machine * m)
{
    char text[PROF_IMPL_FINDINGS][PROF_IMPL_FINDING], gov[64];
    int i, n = prof_impl_machine_findings(m, text, PROF_IMPL_FINDINGS);
    snprintf(gov, sizeof gov, "%s", m->governor[0] ? m->governor : "unknown");
    fprintf(out, "machine check (/proc and /sys):\n");
    fprintf(out, "  cores            %d online\n", m->cores);
    if (isnan(m->load[0]))
        fprintf(out, "  load average     unknown\n");
    else
        fprintf(out, "  load average     %.2f %.2f %.2f (1, 5, 15 min)%s\n",
                m->load[0], m->load[1], m->load[2],
                prof_impl_machine_loaded(m->load[0], m->cores)
                ? ": over the cores" : "");
    fprintf(out, "  governor         %s\n", gov);
    fprintf(out, "  turbo/boost      %s\n",
            prof_impl_machine_word(PROF_IMPL_WORD_TURBO, m->turbo));
    fprintf(out, "  ASLR             %s\n",
            prof_impl_machine_word(PROF_IMPL_WORD_ASLR, m->aslr));
    fprintf(out, "  virtual machine  %s\n",
            prof_impl_machine_word(PROF_IMPL_WORD_YES, m->vm));
    fprintf(out, "  CPU PMU          %s\n",
            prof_impl_machine_word(PROF_IMPL_WORD_YES, m->pmu));
    if (n == 0)
        fprintf(out, "nothing found that bends the figures\n");
    for (i = 0; i < n; i++)
        fprintf(out, "%s %s\n", i == 0 ? "findings:\n -" : " -", text[i]);
    fprintf(out, "how to get quiet figures: doc/runner.md, \"Quiet figures\"\n");
}
