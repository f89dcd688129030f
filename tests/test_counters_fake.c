/* The counters' logic driven by fakes, asserted exactly: the multiplexing
   correction, the parsing of group reads, the reasons given for each way an
   event can fail, the retry in user space only, and the two-group layout
   (through a perf_event_open hook). Also: nothing else in the library calls
   perf_event_open. */
#include "check.h"
#include "internal.h"

#include <errno.h>
#include <math.h>
#if defined(__linux__)
# include <linux/perf_event.h>
#endif

static void target(void * arg, ulong count)
{
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
    {
        prof_start();
        prof_stop();
    }
}

/* Everything but the counters: not one perf_event_open. */
static void test_no_calls_without_counters(void)
{
    timeit_t t;
    double mn, mx;
    prof_counters c;
    char line[256];
    capture_t cap;

    timeit_start(t);
    start_clock(1); stop_clock(1);
    (void) prof_tick_rate(); (void) prof_tick_overhead();
    prof_repeat(&mn, &mx, target, NULL);
    capture_begin(&cap, 1);
    print_memory_usage();
    timeit_stop(t);
    timeit_print(t, 1);
    capture_end(&cap);
    /* The counters' query functions on a set never opened make none either. */
    memset(&c, 0, sizeof c);
    (void) prof_counters_size(&c);
    (void) prof_counters_context(&c, line, sizeof line);
    CHECK(prof_impl_perf_open_calls == 0, "%lu perf_event_open calls before any open",
          prof_impl_perf_open_calls);
}

static void test_scale(void)
{
    CHECK(prof_impl_counters_scale(100, 1000, 1000) == 100, "not multiplexed");
    CHECK(prof_impl_counters_scale(100, 1000, 250) == 400, "counted 1/4 of the time: x4");
    CHECK(prof_impl_counters_scale(100, 1000, 1001) == 100, "running > enabled: unscaled");
    CHECK(isnan(prof_impl_counters_scale(0, 1000, 0)), "enabled, never ran: NaN, not 0");
    CHECK(prof_impl_counters_scale(0, 0, 0) == 0, "never enabled: 0");
}

static void test_convert(void)
{
    /* nr, enabled, running, (value, id) x nr */
    unsigned long long buf[] = { 2, 5000, 2500, 300, 11, 40, 12 };
    unsigned long long ids[] = { 12, 11 }, missing[] = { 13 };
    double base[] = { 10, 0 };
    prof_counter_value v[2];

    CHECK(prof_impl_counters_convert(buf, 7, 2, ids, base, 1000, 500, v) == 0, "convert");
    /* event 12: 40 - 10 = 30 counted 2000 of 4000 ns: 60 */
    CHECK(v[0].raw == 30 && v[0].enabled_ns == 4000 && v[0].running_ns == 2000
          && v[0].value == 60, "event 12: raw %g en %g run %g value %g",
          v[0].raw, v[0].enabled_ns, v[0].running_ns, v[0].value);
    CHECK(v[1].raw == 300 && v[1].value == 600, "event 11: raw %g value %g", v[1].raw, v[1].value);

    CHECK(prof_impl_counters_convert(buf, 7, 1, ids, base, 0, 0, v) == 0 && v[0].value == 60
          && v[0].raw == 30 && v[0].enabled_ns == 5000, "no baseline: %g", v[0].value);
    CHECK(prof_impl_counters_convert(buf, 7, 1, ids, base, 0, 2500, v) == 0
          && isnan(v[0].value), "baseline running equal to now: NaN");
    CHECK(prof_impl_counters_convert(buf, 7, 1, ids, base, 2500, 0, v) == 0 && v[0].value == 30,
          "running as long as enabled since the baseline: unscaled, %g", v[0].value);
    CHECK(prof_impl_counters_convert(buf, 7, 1, ids, base, 1000, 2500, v) == 0
          && isnan(v[0].value) && isnan(v[0].raw), "never ran since the baseline: NaN");
    CHECK(prof_impl_counters_convert(buf, 2, 1, ids, base, 0, 0, v) == -1, "short read");
    CHECK(prof_impl_counters_convert(buf, 5, 1, ids, base, 0, 0, v) == -1, "nr beyond the read");
    CHECK(prof_impl_counters_convert(buf, 7, 1, missing, base, 0, 0, v) == -1, "id not in read");
}

/* The event and the machine, as prof_impl_counters_reason's bits. */
#define HW PROF_IMPL_WHY_HW
#define KERNEL PROF_IMPL_WHY_KERNEL_ONLY
#define LINUX PROF_IMPL_WHY_LINUX
#define PMU PROF_IMPL_WHY_PMU
#define VM PROF_IMPL_WHY_VM

static const char * reason(int err, unsigned why, int paranoid)
{
    static char buf[256];
    prof_impl_counters_reason(buf, sizeof buf, err, why, paranoid);
    CHECK(strchr(buf, '\n') == NULL && strlen(buf) > 20, "one line: %s", buf);
    return buf;
}

#define CHECK_REASON(args, a, b) \
    do { \
        const char * r_ = reason args; \
        CHECK(strstr(r_, a) != NULL && strstr(r_, b) != NULL, \
              "reason%s: \"%s\" lacks \"%s\" or \"%s\"", #args, r_, a, b); \
    } while (0)

static void test_reasons(void)
{
    CHECK_REASON((ENOSYS, HW, 2), "only on Linux", "no counters");
    CHECK_REASON((ENOSYS, LINUX | PMU, 2), "not implemented", "qemu-user");
    CHECK_REASON((ENOENT, HW | LINUX | VM, 2), "no hardware PMU in this virtual machine", "pmu=on");
    CHECK_REASON((EOPNOTSUPP, HW | LINUX | VM, 2), "virtual machine", "bare metal");
    CHECK_REASON((ENOENT, HW | LINUX, 2), "no hardware PMU is exposed", "/sys/bus/event_source");
    CHECK_REASON((ENOENT, HW | LINUX | PMU, 2), "no such generic event", "leave it out");
    CHECK_REASON((ENOENT, LINUX | PMU, 2), "software event", "leave it out");
    CHECK_REASON((EACCES, KERNEL | LINUX | PMU, 2), "perf_event_paranoid 2",
                 "sysctl kernel.perf_event_paranoid=1");
    CHECK_REASON((EACCES, HW | LINUX | PMU, 3), "perf_event_paranoid is 3", "unprivileged");
    CHECK_REASON((EPERM, LINUX | PMU, 4), "perf_event_paranoid is 4", "CAP_PERFMON");
    CHECK_REASON((EPERM, LINUX | PMU, 2), "seccomp", "perf_event_paranoid is 2");
    CHECK_REASON((EACCES, HW | LINUX | PMU, -1000), "unreadable", "root");
    CHECK_REASON((EACCES, HW | LINUX | PMU, 1), "perf_event_paranoid is 1", "CAP_PERFMON");
    CHECK_REASON((EACCES, KERNEL | LINUX | PMU, 1), "perf_event_paranoid is 1", "CAP_PERFMON");
    CHECK_REASON((EMFILE, LINUX | PMU, 2), "file descriptors", "ulimit -n");
    CHECK_REASON((ENOSPC, HW | LINUX | PMU, 2), "never counted", "fewer hardware events");
    CHECK_REASON((EINVAL, HW | LINUX | PMU, 2), "rejected", "alone");
    CHECK_REASON((EBUSY, HW | LINUX | PMU, 2), "busy", "exclusively");
    CHECK_REASON((EIO, HW | LINUX | PMU, 2), "perf_event_open failed: ", strerror(EIO));
}

#if defined(__linux__)
/* Fakes for the system call. */
static int fake_errno;
static unsigned long fake_kernel_calls;

static int fail_all(void * attr, long pid, int group_fd)
{
    (void) attr; (void) pid; (void) group_fd;
    errno = fake_errno;
    return -1;
}

/* A kernel at perf_event_paranoid 2 for an unprivileged user: anything
   that includes the kernel is refused. */
static int paranoid2(void * attr, long pid, int group_fd)
{
    struct perf_event_attr * a = (struct perf_event_attr *) attr;
    if (!a->exclude_kernel)
    {
        fake_kernel_calls++;
        errno = EACCES;
        return -1;
    }
    return prof_impl_perf_open_syscall(attr, pid, group_fd);
}

/* A machine with a PMU, played by software events: "cycles" is cpu-clock
   and "instructions" task-clock, so the hardware group really opens. */
static int fake_pmu(void * attr, long pid, int group_fd)
{
    struct perf_event_attr * a = (struct perf_event_attr *) attr;
    if (a->type == PERF_TYPE_HARDWARE)
    {
        CHECK(a->exclude_kernel && a->exclude_hv, "hardware events count user space only");
        a->type = PERF_TYPE_SOFTWARE;
        a->config = a->config == PERF_COUNT_HW_CPU_CYCLES ? PERF_COUNT_SW_CPU_CLOCK
                                                           : PERF_COUNT_SW_TASK_CLOCK;
        a->exclude_kernel = a->exclude_hv = 0;
    }
    CHECK(a->read_format == (PERF_FORMAT_GROUP | PERF_FORMAT_ID
                             | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING),
          "read format: %llx", (unsigned long long) a->read_format);
    CHECK(a->disabled == (group_fd < 0), "leaders start disabled, members follow them");
    return prof_impl_perf_open_syscall(attr, pid, group_fd);
}

/* ioctl failures: on every fd, or on the hardware leader only. */
static int fail_fd = -2;
static int fail_ioctl(int fd, unsigned long request, void * arg)
{
    if (fail_fd == -2 || fd == fail_fd)
    {
        errno = EIO;
        return -1;
    }
    return prof_impl_perf_ioctl_syscall(fd, request, arg);
}

/* A start whose ioctl fails leaves the set stopped, with nothing counting:
   it marked itself running first, so the next start was refused. */
static void test_failed_start(void)
{
    prof_counters c;
    prof_counter_value v[PROF_COUNTERS_MAX];
    capture_t cap;
    const char * out;
    int r;

    if (prof_counters_open(&c, "task-clock") != 1)
    {
        printf("SKIP failed start: task-clock unavailable\n");
        prof_counters_close(&c);
        return;
    }
    prof_impl_perf_ioctl = fail_ioctl;
    fail_fd = -2;
    capture_begin(&cap, 2);
    r = prof_counters_start(&c);
    out = capture_end(&cap);
    prof_impl_perf_ioctl = prof_impl_perf_ioctl_syscall;
    CHECK(r == PROF_COUNTERS_ESYS && strstr(out, "PERF_EVENT_IOC_ENABLE") != NULL,
          "failed start: %d [%s]", r, out);
    r = prof_counters_start(&c);
    CHECK(r == 0, "start after a failed start: %d", r);
    CHECK(prof_counters_stop(&c) == 0, "stop");
    prof_counters_close(&c);

    /* Two groups (fake PMU): the hardware leader refuses; the software
       group, switched on first, must not be left counting. */
    prof_impl_perf_open = fake_pmu;
    r = prof_counters_open(&c, "cycles,task-clock");
    prof_impl_perf_open = prof_impl_perf_open_syscall;
    CHECK(r == 2, "both groups open: %d", r);
    prof_impl_perf_ioctl = fail_ioctl;
    fail_fd = prof_impl_counters_leader(&c, 0);
    capture_begin(&cap, 2);
    r = prof_counters_start(&c);
    capture_end(&cap);
    prof_impl_perf_ioctl = prof_impl_perf_ioctl_syscall;
    CHECK(r == PROF_COUNTERS_ESYS, "hardware leader refused: %d", r);
    spin_cpu_ms(30);                /* not counted: the start failed */
    CHECK(prof_counters_start(&c) == 0 && prof_counters_stop(&c) == 0
          && prof_counters_read(&c, v) == 0, "start, stop, read");
    CHECK(v[1].value < 10e6, "task-clock counted %g ns after a failed start", v[1].value);
    prof_counters_close(&c);
}

static void test_hooks(void)
{
    prof_counters c;
    prof_counter_value v[PROF_COUNTERS_MAX];
    char line[2048];
    unsigned long before;
    int r, k, real_ok;

    /* Is perf_event_open there at all (not under qemu-user)? */
    real_ok = prof_counters_open(&c, "task-clock") == 1;
    prof_counters_close(&c);

    /* Every event refused: each is opened once (no retry for ENOENT),
       reported, and reads NaN; start/stop/read still work. */
    prof_impl_perf_open = fail_all;
    fake_errno = ENOENT;
    before = prof_impl_perf_open_calls;
    r = prof_counters_open(&c, NULL);
    CHECK(r == 0, "nothing available: %d", r);
    CHECK(prof_impl_perf_open_calls - before == 7, "one call per event: %lu",
          prof_impl_perf_open_calls - before);
    CHECK(prof_counters_start(&c) == 0 && prof_counters_stop(&c) == 0
          && prof_counters_read(&c, v) == 0, "a set with nothing available works");
    for (k = 0; k < 7; k++)
        CHECK(isnan(v[k].value) && prof_counters_errno(&c, k) == ENOENT, "%s", prof_counters_name(&c, k));
    prof_counters_context(&c, line, sizeof line);
    CHECK(strstr(line, "none counting") != NULL
          && strstr(line, "cycles, instructions, branches, branch-misses n/a (ENOENT)") != NULL
          && strstr(line, "task-clock, page-faults, context-switches n/a (ENOENT): this kernel") != NULL,
          "context groups events by reason: %s", line);
    prof_counters_close(&c);

    /* A seccomp filter: EPERM everywhere, task-clock retried user-only. */
    fake_errno = EPERM;
    before = prof_impl_perf_open_calls;
    prof_counters_open(&c, "task-clock,page-faults");
    CHECK(prof_impl_perf_open_calls - before == 3, "task-clock retried: %lu calls",
          prof_impl_perf_open_calls - before);
    CHECK(prof_counters_errno(&c, 0) == EPERM && prof_counters_errno(&c, 1) == EPERM, "EPERM");
    prof_counters_close(&c);
    prof_impl_perf_open = prof_impl_perf_open_syscall;

    if (!real_ok)
    {
        printf("SKIP hooks over the real system call: perf_event_open unavailable\n");
        return;
    }

    /* Unprivileged at paranoid 2: task-clock counts in user space only;
       page faults would read 0 there, so they are n/a with EACCES. */
    prof_impl_perf_open = paranoid2;
    fake_kernel_calls = 0;
    before = prof_impl_perf_open_calls;
    r = prof_counters_open(&c, "task-clock,page-faults");
    CHECK(r == 1, "task-clock only: %d", r);
    CHECK(prof_impl_perf_open_calls - before == 3 && fake_kernel_calls == 2,
          "%lu calls, %lu refused", prof_impl_perf_open_calls - before, fake_kernel_calls);
    CHECK(prof_counters_available(&c, 0) && prof_counters_errno(&c, 1) == EACCES,
          "page-faults: errno %d", prof_counters_errno(&c, 1));
    prof_counters_context(&c, line, sizeof line);
    CHECK(strstr(line, "task-clock (user space only) counting; page-faults n/a (EACCES): ") != NULL,
          "context: %s", line);
    CHECK(prof_counters_start(&c) == 0, "start");
    spin_cpu_ms(5);
    CHECK(prof_counters_stop(&c) == 0 && prof_counters_read(&c, v) == 0, "stop, read");
    CHECK(v[0].value > 1e6 && isnan(v[1].value), "task-clock %g, page-faults %g",
          v[0].value, v[1].value);
    prof_counters_close(&c);

    /* A PMU: hardware and software groups side by side, both toggled,
       each read at once. */
    prof_impl_perf_open = fake_pmu;
    r = prof_counters_open(&c, "page-faults,cycles,task-clock,instructions");
    CHECK(r == 4, "all four open: %d", r);
    prof_counters_fprint(stdout, &c);
    prof_counters_context(&c, line, sizeof line);
    CHECK(strcmp(line, "counters: page-faults, cycles, task-clock, instructions counting "
                 "(hardware: user space only)") == 0, "context: %s", line);
    CHECK(prof_counters_start(&c) == 0, "start");
    spin_cpu_ms(20);
    CHECK(prof_counters_stop(&c) == 0, "stop");
    spin_cpu_ms(20);                       /* stopped: not counted */
    CHECK(prof_counters_start(&c) == 0, "start");
    spin_cpu_ms(20);
    CHECK(prof_counters_stop(&c) == 0 && prof_counters_read(&c, v) == 0, "stop, read");
    printf("fake PMU: cycles (cpu-clock) %g ns, instructions (task-clock) %g ns, "
           "task-clock %g ns\n", v[1].value, v[3].value, v[2].value);
    for (k = 1; k < 4; k++)
        CHECK(v[k].value > 30e6 && v[k].value < 60e6, "%s: %g ns for 40 ms counted",
              prof_counters_name(&c, k), v[k].value);
    CHECK(fabs(v[1].value - v[2].value) < 0.2 * v[2].value + 1e6,
          "hardware group agrees with software group: %g vs %g", v[1].value, v[2].value);
    prof_counters_close(&c);
    prof_impl_perf_open = prof_impl_perf_open_syscall;
    test_failed_start();
}
#endif

int main(void)
{
    test_no_calls_without_counters();
    test_scale();
    test_convert();
    test_reasons();
#if defined(__linux__)
    test_hooks();
#endif
    return check_report("test_counters_fake");
}
