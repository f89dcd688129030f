/*
    The events the counters know (perf stat's names, their types and
    units), the event list parsed, and the pure logic of the counters:
    scaling a multiplexed count, converting a group read, the reason a
    count is unavailable. No system call here: the tests drive it with
    fakes (counters.c makes the calls).
    SPDX-License-Identifier: MIT
*/
#include "counters_set.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#if defined(__linux__)
# include <linux/perf_event.h>
# define EV(type, config) PERF_TYPE_##type, PERF_COUNT_##config
#else
# define EV(type, config) 0, 0
#endif

const event_info prof_impl_known_events[] = {
    { "cycles",           "cpu-cycles",          1, 0, EV(HARDWARE, HW_CPU_CYCLES), "" },
    { "ref-cycles",       NULL,                  1, 0, EV(HARDWARE, HW_REF_CPU_CYCLES), "" },
    { "instructions",     NULL,                  1, 0, EV(HARDWARE, HW_INSTRUCTIONS), "" },
    { "branches",         "branch-instructions", 1, 0, EV(HARDWARE, HW_BRANCH_INSTRUCTIONS), "" },
    { "branch-misses",    NULL,                  1, 0, EV(HARDWARE, HW_BRANCH_MISSES), "" },
    { "cache-references", NULL,                  1, 0, EV(HARDWARE, HW_CACHE_REFERENCES), "" },
    { "cache-misses",     NULL,                  1, 0, EV(HARDWARE, HW_CACHE_MISSES), "" },
    { "task-clock",       NULL,                  0, 0, EV(SOFTWARE, SW_TASK_CLOCK), "ns" },
    /* Counted with kernel regs: with exclude_kernel they read 0. */
    { "page-faults",      "faults",              0, 1, EV(SOFTWARE, SW_PAGE_FAULTS), "" },
    { "context-switches", "cs",                  0, 1, EV(SOFTWARE, SW_CONTEXT_SWITCHES), "" },
    { "cpu-migrations",   "migrations",          0, 1, EV(SOFTWARE, SW_CPU_MIGRATIONS), "" },
};
enum { NKNOWN = (int) (sizeof prof_impl_known_events
                          / sizeof prof_impl_known_events[0]) };

/* ---- pure logic: scaling, group reads, reasons (tested with fakes) ----- */

double prof_impl_counters_scale(double raw, double enabled, double running)
{
    if (running > 0.0)
        return running >= enabled ? raw : raw * (enabled / running);
    return enabled > 0.0 ? NAN : raw;   /* never ran / never started */
}

int prof_impl_counters_convert(const unsigned long long * buf, size_t nwords,
        int nevents, const unsigned long long * ids, const double * base_raw,
        double base_enabled, double base_running, prof_counter_value * out)
{
    size_t nr, k;
    int j;
    double enabled, running;

    if (nwords < 3)
        return -1;
    nr = (size_t) buf[0];
    if (nr > (nwords - 3) / 2)
        return -1;
    enabled = (double) buf[1] - base_enabled;
    running = (double) buf[2] - base_running;
    for (j = 0; j < nevents; j++)
    {
        for (k = 0; k < nr && buf[3 + 2 * k + 1] != ids[j]; k++)
            ;
        if (k == nr)
            return -1;
        out[j].raw = (double) buf[3 + 2 * k] - base_raw[j];
        out[j].enabled_ns = enabled;
        out[j].running_ns = running;
        out[j].value = prof_impl_counters_scale(out[j].raw, enabled, running);
        if (out[j].value != out[j].value)
            out[j].raw = NAN;
    }
    return 0;
}

void prof_impl_counters_reason(char * buf, size_t size, int err, unsigned why,
        int paranoid)
{
    int hw = (why & PROF_IMPL_WHY_HW) != 0;
    int kernel_only = (why & PROF_IMPL_WHY_KERNEL_ONLY) != 0;
    int on_linux = (why & PROF_IMPL_WHY_LINUX) != 0;
    int have_pmu = (why & PROF_IMPL_WHY_PMU) != 0;
    int in_vm = (why & PROF_IMPL_WHY_VM) != 0;

    if (!on_linux)
        snprintf(buf, size, "perf events exist only on Linux: no counters on this system");
    else if (err == ENOSYS)
        snprintf(buf, size, "perf_event_open is not implemented here (a kernel without "
                 "CONFIG_PERF_EVENTS, qemu-user, or a sandbox that removes it): run natively");
    else if ((err == ENOENT || err == EOPNOTSUPP || err == ENODEV) && hw && !have_pmu)
        snprintf(buf, size, in_vm
                 ? "no hardware PMU in this virtual machine: enable the virtual PMU "
                   "(KVM/QEMU: -cpu host,pmu=on; VMware: virtualize CPU performance "
                   "counters) or run on bare metal"
                 : "no hardware PMU is exposed (none in /sys/bus/event_source/devices): "
                   "run on a host whose kernel supports this CPU's PMU");
    else if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV)
        snprintf(buf, size, hw ? "this CPU's PMU has no such generic event "
                 "(e.g. ref-cycles on AMD): leave it out"
                 : "this kernel does not provide this software event: leave it out");
    else if (err == EPERM && (why & PROF_IMPL_WHY_SECCOMP))
        snprintf(buf, size, "refused by this process's seccomp filter (a container's "
                 "or a sandbox's), whatever perf_event_paranoid says: docker run "
                 "--security-opt seccomp=unconfined, or a profile that allows "
                 "perf_event_open");
    else if ((err == EACCES || err == EPERM) && paranoid == PARANOID_UNKNOWN)
        snprintf(buf, size, "permission denied and /proc/sys/kernel/perf_event_paranoid "
                 "is unreadable: run as root or with CAP_PERFMON");
    else if ((err == EACCES || err == EPERM) && paranoid >= 3)
        snprintf(buf, size, "perf_event_paranoid is %d, which forbids perf events to "
                 "unprivileged users: sysctl kernel.perf_event_paranoid=1, or CAP_PERFMON",
                 paranoid);
    else if (err == EPERM)
        snprintf(buf, size, "refused although perf_event_paranoid is %d: probably a "
                 "seccomp filter (container): docker run --security-opt "
                 "seccomp=unconfined, or --cap-add PERFMON", paranoid);
    else if (err == EACCES && kernel_only && paranoid >= 2)
        snprintf(buf, size, "counted in the kernel, which perf_event_paranoid %d "
                 "forbids (user space only): sysctl kernel.perf_event_paranoid=1, "
                 "or run as root or with CAP_PERFMON", paranoid);
    else if (err == EACCES)
        snprintf(buf, size, "permission denied (perf_event_paranoid is %d): sysctl "
                 "kernel.perf_event_paranoid=1, or CAP_PERFMON", paranoid);
    else if (err == EMFILE || err == ENFILE)
        snprintf(buf, size, "out of file descriptors: raise the limit (ulimit -n)");
    else if (err == EBUSY)
        snprintf(buf, size, "the PMU is busy (another tool holds it exclusively)");
    else if (err == EINVAL)
        snprintf(buf, size, "the kernel rejected the event (old kernel, or the PMU "
                 "cannot add it to the group): open it alone");
    else if (err == ENOSPC)
        snprintf(buf, size, "never counted: the hardware group did not fit the free "
                 "PMU counters (NMI watchdog or another perf user?): open fewer "
                 "hardware events");
    else
        snprintf(buf, size, "perf_event_open failed: %s", strerror(err));
}

const char * prof_impl_counters_errno_name(int err)
{
    switch (err)
    {
    case ENOENT: return "ENOENT";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    case ENODEV: return "ENODEV";
    case ENOSYS: return "ENOSYS";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case EMFILE: return "EMFILE";
    case ENFILE: return "ENFILE";
    case EBUSY: return "EBUSY";
    case EINVAL: return "EINVAL";
    case ENOSPC: return "ENOSPC";
    default: return "errno";
    }
}

/* ---- parsing the event list -------------------------------------------- */

int prof_impl_counters_lookup(const char * name, size_t len)
{
    int k;
    for (k = 0; k < NKNOWN; k++)
        if ((strlen(prof_impl_known_events[k].name) == len && strncmp(prof_impl_known_events[k].name, name, len) == 0)
            || (prof_impl_known_events[k].alias != NULL && strlen(prof_impl_known_events[k].alias) == len
                && strncmp(prof_impl_known_events[k].alias, name, len) == 0))
            return k;
    return -1;
}

int prof_impl_counters_parse(const char * list, int * kinds, const char * func)
{
    const char * p = list;
    int n = 0, i, commas = 0;

    for (i = 0; list[i] != '\0'; i++)
        commas += list[i] == ',';
    if (commas >= PROF_COUNTERS_MAX)
    {
        prof_impl_warn("%s: too many events in \"%s\" (at most %d)",
                       func, list, PROF_COUNTERS_MAX);
        return -1;
    }
    for (;;)
    {
        const char * end;
        size_t len;
        int k;

        while (*p == ' ' || *p == '\t')
            p++;
        end = p + strcspn(p, ",");
        len = (size_t) (end - p);
        while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        if (len == 0)
        {
            prof_impl_warn("%s: empty event name in \"%s\"", func, list);
            return -1;
        }
        k = prof_impl_counters_lookup(p, len);
        if (k < 0)
        {
            prof_impl_warn("%s: unknown event \"%.*s\" (known: cycles, "
                           "ref-cycles, instructions, branches, branch-misses, "
                           "cache-references, cache-misses, task-clock, page-faults, "
                           "context-switches, cpu-migrations)", func, (int) len, p);
            return -1;
        }
        for (i = 0; i < n; i++)
            if (kinds[i] == k)
            {
                prof_impl_warn("%s: event \"%s\" listed twice", func,
                               prof_impl_known_events[k].name);
                return -1;
            }
        kinds[n++] = k;
        if (*end == '\0')
            return n;
        p = end + 1;
    }
}

int prof_impl_counters_check(const char * list, const char * func)
{
    int kinds[PROF_COUNTERS_MAX];
    return prof_impl_counters_parse(list, kinds, func);
}

const char * prof_impl_counters_canonical(const char * name)
{
    int k = name != NULL ? prof_impl_counters_lookup(name, strlen(name)) : -1;
    return k < 0 ? NULL : prof_impl_known_events[k].name;
}

