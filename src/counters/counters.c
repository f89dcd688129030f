/*
    Event counters: Linux perf events around a region of code.

    Layout. Events go into at most two groups, each read at once with
    PERF_FORMAT_GROUP: one of the hardware events (user space only) and one
    of the software events. Software events share no group with hardware
    ones, because a group is scheduled on the PMU as a whole: in one mixed
    group, hardware events that do not fit the free PMU counters (or a PMU
    shared with the NMI watchdog or another perf user) would stop the
    software counts too, and page faults or context switches are wanted
    exactly where the hardware is not available (VMs). Two groups cost one
    more ioctl per start and per stop, only when both kinds are available.

    Start/stop toggles each group's leader; members are opened enabled, so
    they count exactly while their leader does (one atomic switch per group).
    Totals since open/reset are the kernel's running totals minus a baseline
    read at reset: PERF_EVENT_IOC_RESET would zero the counts but not
    time_enabled/time_running, which would make the multiplexing correction
    wrong, so it is never used.

    Nothing here makes a perf system call before prof_counters_open. The
    events' table and the pure logic are in counters_events.c, what a set
    holds and its reports in counters_report.c (counters_set.h).
    SPDX-License-Identifier: MIT
*/
#include "counters_set.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
# include <linux/perf_event.h>
# include <sys/ioctl.h>
# include <sys/syscall.h>
# include <unistd.h>
#endif


/* ---- the system call, behind a hook for tests -------------------------- */

unsigned long prof_impl_perf_open_calls;

#if defined(__linux__)
/* Sets opened by two threads at once both count their calls. */
static void count_open_call(void)
{
# if defined(__GNUC__)
    __atomic_fetch_add(&prof_impl_perf_open_calls, 1, __ATOMIC_RELAXED);
# else
    prof_impl_perf_open_calls++;
# endif
}
#endif

int prof_impl_perf_event_open(void * attr, long pid, int cpu, int group_fd)
{
#if defined(__linux__) && defined(SYS_perf_event_open)
    return (int) syscall(SYS_perf_event_open, attr, (pid_t) pid, cpu,
                         group_fd, PERF_FLAG_FD_CLOEXEC);
#else
    (void) attr; (void) pid; (void) cpu; (void) group_fd;
    errno = ENOSYS;
    return -1;
#endif
}

int prof_impl_perf_open_syscall(void * attr, long pid, int group_fd)
{
    return prof_impl_perf_event_open(attr, pid, -1 /* any CPU */, group_fd);
}

int (*prof_impl_perf_open)(void * attr, long pid, int group_fd)
    = prof_impl_perf_open_syscall;

int prof_impl_perf_ioctl_syscall(int fd, unsigned long request, void * arg)
{
#if defined(__linux__)
    return ioctl(fd, request, arg);
#else
    (void) fd; (void) request; (void) arg;
    errno = ENOSYS;
    return -1;
#endif
}

int (*prof_impl_perf_ioctl)(int fd, unsigned long request, void * arg)
    = prof_impl_perf_ioctl_syscall;

/* ---- what the machine allows ------------------------------------------- */

int prof_impl_perf_paranoid(void)
{
    int v = PARANOID_UNKNOWN;
    FILE * f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    if (f != NULL)
    {
        if (fscanf(f, "%d", &v) != 1)
            v = PARANOID_UNKNOWN;
        fclose(f);
    }
    return v;
}

unsigned prof_impl_why_process(void)
{
    unsigned why = 0;
#if defined(__linux__)
    FILE * f = fopen("/proc/self/status", "r");
    char line[256];
    int mode = 0;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "Seccomp: %d", &mode) == 1)
            break;
    if (f != NULL)
        fclose(f);
    why = PROF_IMPL_WHY_LINUX | (mode == 2 ? PROF_IMPL_WHY_SECCOMP : 0u);
#endif
    return why;
}

/* ---- argument checks (cold paths) -------------------------------------- */

PROF_IMPL_COLD int prof_impl_counters_not_open(const counter_set * c,
                                               const char * func)
{
    if (c == NULL)
        prof_impl_warn("%s: NULL counter set", func);
    else if (c->magic == MAGIC_CLOSED)
        prof_impl_warn("%s: the counter set is closed", func);
    else
        prof_impl_warn("%s: the counter set is not open (call prof_counters_open first)", func);
    return PROF_COUNTERS_EINVAL;
}

static PROF_IMPL_COLD int bad_state(const char * func, const char * what)
{
    prof_impl_warn("%s: %s", func, what);
    return PROF_COUNTERS_ESTATE;
}

static PROF_IMPL_COLD int sys_failed(const char * func, const char * call)
{
    prof_impl_warn("%s: %s failed: %s", func, call, strerror(errno));
    return PROF_COUNTERS_ESYS;
}

/* ---- group reads -------------------------------------------------------- */

enum { GROUP_WORDS = 3 + 2 * PROF_COUNTERS_MAX };

#if defined(__linux__)
/* The events of group g (indices into the set) and their ids. */
static int group_members(const counter_set * c, int g, int * idx,
                         unsigned long long * ids, double * base)
{
    int i, m = 0;
    for (i = 0; i < c->n; i++)
        if (c->group[i] == g)
        {
            idx[m] = i;
            ids[m] = c->id[i];
            if (base != NULL)
                base[m] = c->base_raw[i];
            m++;
        }
    return m;
}
#endif

/* Read group g: out[i] for its events, relative to the baseline unless
   absolute. 0 or -1 (errno set; EIO for a malformed read). */
static int read_group(const counter_set * c, int g, int absolute,
                      prof_counter_value * out)
{
#if defined(__linux__)
    unsigned long long buf[GROUP_WORDS], ids[PROF_COUNTERS_MAX];
    double base[PROF_COUNTERS_MAX];
    prof_counter_value v[PROF_COUNTERS_MAX];
    int idx[PROF_COUNTERS_MAX], m, j;
    ssize_t got;

    m = group_members(c, g, idx, ids, base);
    got = read(c->leader[g], buf, sizeof buf);
    if (got < 0)
        return -1;
    if (absolute)
        memset(base, 0, sizeof base);
    if (prof_impl_counters_convert(buf, (size_t) got / sizeof buf[0], m, ids, base,
            absolute ? 0.0 : c->base_enabled[g], absolute ? 0.0 : c->base_running[g], v) != 0)
    {
        errno = EIO;
        return -1;
    }
    for (j = 0; j < m; j++)
        out[idx[j]] = v[j];
    return 0;
#else
    (void) c; (void) g; (void) absolute; (void) out;
    errno = ENOSYS;
    return -1;
#endif
}

static void set_unavailable(prof_counter_value * v)
{
    v->value = v->raw = NAN;
    v->enabled_ns = v->running_ns = 0.0;
}

/* Read every group (absolute or since the baseline) into out[0 .. n-1]. */
static int read_all(const counter_set * c, int absolute, prof_counter_value * out)
{
    int i, g;
    for (i = 0; i < c->n; i++)
        set_unavailable(&out[i]);
    for (g = 0; g < 2; g++)
        if (c->leader[g] >= 0 && read_group(c, g, absolute, out) != 0)
            return -1;
    return 0;
}

/* Make the current kernel totals the zero of the set's totals. */
static int take_baseline(counter_set * c)
{
    prof_counter_value now[PROF_COUNTERS_MAX];
    int i;

    if (read_all(c, 1, now) != 0)
        return -1;
    for (i = 0; i < c->n; i++)
        if (c->group[i] != GROUP_NONE)
        {
            c->base_raw[i] = now[i].raw;
            c->base_enabled[c->group[i]] = now[i].enabled_ns;
            c->base_running[c->group[i]] = now[i].running_ns;
        }
    return 0;
}

#if defined(__linux__)
static int switch_group(const counter_set * c, int g, int on)
{
    return c->leader[g] < 0 ? 0
         : prof_impl_perf_ioctl(c->leader[g], on ? PERF_EVENT_IOC_ENABLE
                                                 : PERF_EVENT_IOC_DISABLE, NULL);
}
#endif

/* Switch both groups on (hardware last) or off (hardware first). 0, or -1
   (errno set) with no group left on by a failed switch-on; a failed
   switch-off still tries the other group. */
static int toggle(const counter_set * c, int on)
{
#if defined(__linux__)
    int err;
    if (on)
    {
        if (switch_group(c, GROUP_SW, 1) != 0)
            return -1;
        if (switch_group(c, GROUP_HW, 1) == 0)
            return 0;
        err = errno;
        (void) switch_group(c, GROUP_SW, 0);
        errno = err;
        return -1;
    }
    if (switch_group(c, GROUP_HW, 0) != 0)
    {
        err = errno;
        (void) switch_group(c, GROUP_SW, 0);
        errno = err;
        return -1;
    }
    return switch_group(c, GROUP_SW, 0);
#else
    (void) c; (void) on;
    return 0;
#endif
}

/* ---- open / close -------------------------------------------------------- */

static void close_group(counter_set * c, int g, int err)
{
    int i;
    for (i = 0; i < c->n; i++)
        if (c->group[i] == g)
        {
#if defined(__linux__)
            if (c->fd[i] >= 0 && c->fd[i] != c->leader[g])
                close(c->fd[i]);
#endif
            c->fd[i] = -1;
            c->group[i] = GROUP_NONE;
            c->err[i] = err;
        }
#if defined(__linux__)
    if (c->leader[g] >= 0)
        close(c->leader[g]);
#endif
    c->leader[g] = -1;
}

#if defined(__linux__)
/* The attributes of event e in group g: on attempt 0 user and kernel space
   for software events, on attempt 1 user space only. */
static void fill_attr(struct perf_event_attr * attr, const counter_set * c,
                      const event_info * e, int g, int attempt)
{
    memset(attr, 0, sizeof *attr);
    attr->size = sizeof *attr;
    attr->type = e->type;
    attr->config = e->config;
    attr->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID
        | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    /* The leader starts disabled and switches the group; members follow
       it. */
    attr->disabled = c->leader[g] < 0;
    /* Hardware: the code under test, not interrupts or our ioctls (and
       allowed at perf_event_paranoid 2). Software: everything first, user
       space only if that is all that is allowed. */
    attr->exclude_kernel = attr->exclude_hv = e->hw || attempt == 1;
    if (c->pid > 0)
    {
        /* Another process: its threads and children count too, and the
           leader switches on at its exec. */
        attr->inherit = 1;
        attr->enable_on_exec = attr->disabled;
    }
}

/* Open event i into its group; sets c->fd/err/user_only/id. */
static void open_event(counter_set * c, int i)
{
    const event_info * e = &prof_impl_known_events[c->kind[i]];
    int g = e->hw ? GROUP_HW : GROUP_SW, fd, attempt;
    struct perf_event_attr attr;

    for (attempt = 0; attempt < 2; attempt++)
    {
        fill_attr(&attr, c, e, g, attempt);
        count_open_call();
        fd = prof_impl_perf_open(&attr, c->pid, c->leader[g]);
        if (fd >= 0)
            break;
        c->err[i] = errno;
        /* Retry user-only where that still counts something. */
        if (e->hw || e->kernel_only || (errno != EACCES && errno != EPERM))
            return;
    }
    if (fd < 0)
        return;
    if (prof_impl_perf_ioctl(fd, PERF_EVENT_IOC_ID, &c->id[i]) != 0)
    {
        c->err[i] = errno;
        close(fd);
        return;
    }
    c->err[i] = 0;
    c->fd[i] = fd;
    c->group[i] = g;
    c->user_only[i] = attr.exclude_kernel;
    if (c->leader[g] < 0)
        c->leader[g] = fd;
}

/* Does the hardware group ever get the PMU? Switch it on and off once. */
static void probe_hw_group(counter_set * c)
{
    prof_counter_value v[PROF_COUNTERS_MAX];
    int i;

    if (c->leader[GROUP_HW] < 0)
        return;
    if (switch_group(c, GROUP_HW, 1) != 0 || switch_group(c, GROUP_HW, 0) != 0
        || read_group(c, GROUP_HW, 1, v) != 0)
    {
        close_group(c, GROUP_HW, errno);
        return;
    }
    for (i = 0; i < c->n; i++)
        if (c->group[i] == GROUP_HW)
        {
            if (v[i].running_ns <= 0.0 && v[i].enabled_ns > 0.0)
                close_group(c, GROUP_HW, ENOSPC);
            return;
        }
}

/* One group of hardware events, one of software; the totals' zero. */
static void open_events(counter_set * c)
{
    int i;
    for (i = 0; i < c->n; i++)
        if (prof_impl_known_events[c->kind[i]].hw)
            open_event(c, i);
    for (i = 0; i < c->n; i++)
        if (!prof_impl_known_events[c->kind[i]].hw)
            open_event(c, i);
    /* Another process's group cannot be tried before it runs: an event
       that never got the PMU reads NaN there. */
    if (c->pid == 0)
        probe_hw_group(c);
    if (take_baseline(c) != 0)
    {
        int err = errno;
        close_group(c, GROUP_HW, err);
        close_group(c, GROUP_SW, err);
    }
}
#endif

/* Check c and parse the list; c becomes a set of its events, none open
   yet. The number of events, or PROF_COUNTERS_EINVAL after a message. */
static int begin_open(counter_set * c, const char * events, const char * func)
{
    int kinds[PROF_COUNTERS_MAX], n, i;

    if (c == NULL)
        return prof_impl_counters_not_open(c, func);
    if (c->magic == MAGIC_OPEN)
    {
        prof_impl_warn("%s: the counter set is already open (close it first)",
                       func);
        return PROF_COUNTERS_EINVAL;
    }
    c->magic = 0;
    n = prof_impl_counters_parse(events != NULL ? events : PROF_COUNTERS_DEFAULT, kinds,
                     func);
    if (n < 0)
        return PROF_COUNTERS_EINVAL;
    memset(c, 0, sizeof *c);
    c->n = n;
    c->state = STATE_FRESH;
    c->leader[0] = c->leader[1] = -1;
    c->paranoid = prof_impl_perf_paranoid();
    for (i = 0; i < n; i++)
    {
        c->kind[i] = kinds[i];
        c->fd[i] = -1;
        c->group[i] = GROUP_NONE;
        c->err[i] = ENOSYS;
    }
    return n;
}

/* Give each unavailable event its reason; the number available. */
static int explain_unavailable(counter_set * c)
{
    unsigned machine = prof_impl_why_process();
    int i, available = 0, machine_known = 0;

    for (i = 0; i < c->n; i++)
    {
        const event_info * e = &prof_impl_known_events[c->kind[i]];
        if (c->group[i] != GROUP_NONE)
        {
            available++;
            continue;
        }
#if defined(__linux__)
        if (e->hw && !machine_known)
        {
            /* the machine check's (sysinfo.c) */
            machine |= (prof_impl_machine_pmu() == 1 ? PROF_IMPL_WHY_PMU : 0u)
                     | (prof_impl_machine_vm() == 1 ? PROF_IMPL_WHY_VM : 0u);
            machine_known = 1;
        }
#endif
        prof_impl_counters_reason(c->reason[i], sizeof c->reason[i], c->err[i],
                machine | (e->hw ? PROF_IMPL_WHY_HW : 0u)
                | (e->kernel_only ? PROF_IMPL_WHY_KERNEL_ONLY : 0u), c->paranoid);
    }
    (void) machine_known;
    return available;
}

/* Open the events of a set begun by begin_open: how many can count. */
static int finish_open(counter_set * c)
{
#if defined(__linux__)
    open_events(c);
#endif
    c->magic = MAGIC_OPEN;
    return explain_unavailable(c);
}

int prof_counters_open(prof_counters * set, const char * events)
{
    counter_set * c = set_of(set);
    int n = begin_open(c, events, "prof_counters_open");
    return n < 0 ? n : finish_open(c);
}

int prof_impl_counters_open_child(prof_counters * set, const char * events,
        long pid)
{
    counter_set * c = set_of(set);
    int n;

    if (pid <= 0)
    {
        prof_impl_warn("prof_impl_counters_open_child: process id %ld is not "
                       "a child's", pid);
        return PROF_COUNTERS_EINVAL;
    }
    n = begin_open(c, events, "prof_impl_counters_open_child");
    if (n < 0)
        return n;
    c->pid = pid;
    n = finish_open(c);
    c->state = STATE_RUNNING;       /* from the child's exec on */
    return n;
}

void prof_counters_close(prof_counters * set)
{
    counter_set * c = set_of(set);
    if (!is_open(c))
        return;
    close_group(c, GROUP_HW, EBADF);
    close_group(c, GROUP_SW, EBADF);
    c->magic = MAGIC_CLOSED;
}

/* ---- the timed path ------------------------------------------------------ */

int prof_counters_start(prof_counters * set)
{
    counter_set * c = set_of(set);
    if (!is_open(c))
        return prof_impl_counters_not_open(c, "prof_counters_start");
    if (c->state == STATE_RUNNING)
        return bad_state("prof_counters_start", "already running (call prof_counters_stop first)");
    if (toggle(c, 1) != 0)
        return sys_failed("prof_counters_start", "ioctl(PERF_EVENT_IOC_ENABLE)");
    c->state = STATE_RUNNING;
    return 0;
}

int prof_counters_stop(prof_counters * set)
{
    counter_set * c = set_of(set);
    if (!is_open(c))
        return prof_impl_counters_not_open(c, "prof_counters_stop");
    if (c->state != STATE_RUNNING)
        return bad_state("prof_counters_stop", "not running (call prof_counters_start first)");
    if (toggle(c, 0) != 0)
        return sys_failed("prof_counters_stop", "ioctl(PERF_EVENT_IOC_DISABLE)");
    c->state = STATE_STOPPED;
    return 0;
}

/* ---- totals -------------------------------------------------------------- */

int prof_counters_reset(prof_counters * set)
{
    counter_set * c = set_of(set);
    if (!is_open(c))
        return prof_impl_counters_not_open(c, "prof_counters_reset");
    if (take_baseline(c) != 0)
        return sys_failed("prof_counters_reset", "read");
    if (c->state != STATE_RUNNING)
        c->state = STATE_FRESH;
    return 0;
}

int prof_counters_read(prof_counters * set, prof_counter_value * out)
{
    counter_set * c = set_of(set);
    prof_counter_value v[PROF_COUNTERS_MAX];

    if (!is_open(c))
        return prof_impl_counters_not_open(c, "prof_counters_read");
    if (out == NULL)
    {
        prof_impl_warn("prof_counters_read: NULL output array");
        return PROF_COUNTERS_EINVAL;
    }
    if (c->state == STATE_FRESH)
        return bad_state("prof_counters_read", "read before any prof_counters_start "
                         "since open or reset: nothing was counted");
    if (read_all(c, 0, v) != 0)
        return sys_failed("prof_counters_read", "read");
    memcpy(out, v, (size_t) c->n * sizeof v[0]);
    return 0;
}

/* prof_counters_overhead's samples: for event i and pair k, the count
   (what = 0), the time enabled (1) and the time running (2). */
#define PAIR_SAMPLE(d, what, i, k) \
    (d)[((what) * PROF_COUNTERS_MAX + (i)) * OVERHEAD_PAIRS + (k)]

/* Run OVERHEAD_PAIRS empty start/stop pairs, reading the totals after
   each, into d; last gets the totals after the last pair read (first if
   none). 0, or -1 with errno set. */
static int count_empty_pairs(const counter_set * c, double * d,
        const prof_counter_value * first, prof_counter_value * last)
{
    prof_counter_value now[PROF_COUNTERS_MAX];
    int i, k;

    memcpy(last, first, sizeof now);
    for (k = 0; k < OVERHEAD_PAIRS; k++)
    {
        if (toggle(c, 1) != 0 || toggle(c, 0) != 0 || read_all(c, 1, now) != 0)
            return -1;
        for (i = 0; i < c->n; i++)
        {
            double en = now[i].enabled_ns - last[i].enabled_ns;
            double run = now[i].running_ns - last[i].running_ns;
            PAIR_SAMPLE(d, 0, i, k) =
                prof_impl_counters_scale(now[i].raw - last[i].raw, en, run);
            PAIR_SAMPLE(d, 1, i, k) = en;
            PAIR_SAMPLE(d, 2, i, k) = run;
        }
        memcpy(last, now, sizeof now);
    }
    return 0;
}

/* What the pairs counted between the totals first and last is not the
   caller's: move the zero past it. */
static void move_zero(counter_set * c, const prof_counter_value * first,
                      const prof_counter_value * last)
{
    int i, g;
    for (i = 0; i < c->n; i++)
        if (c->group[i] != GROUP_NONE)
            c->base_raw[i] += last[i].raw - first[i].raw;
    for (g = 0; g < 2; g++)
        for (i = 0; i < c->n; i++)
            if (c->group[i] == g)
            {
                c->base_enabled[g] += last[i].enabled_ns - first[i].enabled_ns;
                c->base_running[g] += last[i].running_ns - first[i].running_ns;
                break;
            }
}

int prof_counters_overhead(prof_counters * set, prof_counter_value * out)
{
    counter_set * c = set_of(set);
    prof_counter_value first[PROF_COUNTERS_MAX], last[PROF_COUNTERS_MAX];
    double * d;
    int i, r;

    if (!is_open(c))
        return prof_impl_counters_not_open(c, "prof_counters_overhead");
    if (out == NULL)
    {
        prof_impl_warn("prof_counters_overhead: NULL output array");
        return PROF_COUNTERS_EINVAL;
    }
    if (c->state == STATE_RUNNING)
        return bad_state("prof_counters_overhead", "running (stop it first)");
    if (read_all(c, 1, first) != 0)
        return sys_failed("prof_counters_overhead", "read");
    d = (double *) malloc(sizeof(double) * OVERHEAD_PAIRS * 3 * PROF_COUNTERS_MAX);
    if (d == NULL)
    {
        prof_impl_warn("prof_counters_overhead: out of memory");
        return PROF_COUNTERS_ESYS;
    }
    r = count_empty_pairs(c, d, first, last);
    move_zero(c, first, last);
    for (i = 0; r == 0 && i < c->n; i++)
    {
        if (c->group[i] == GROUP_NONE)
        {
            set_unavailable(&out[i]);
            continue;
        }
        out[i].value = prof_impl_median(&PAIR_SAMPLE(d, 0, i, 0), OVERHEAD_PAIRS);
        out[i].raw = out[i].value;
        out[i].enabled_ns = prof_impl_median(&PAIR_SAMPLE(d, 1, i, 0), OVERHEAD_PAIRS);
        out[i].running_ns = prof_impl_median(&PAIR_SAMPLE(d, 2, i, 0), OVERHEAD_PAIRS);
    }
    i = errno;
    free(d);
    errno = i;
    return r == 0 ? 0 : sys_failed("prof_counters_overhead", "ioctl or read");
}

