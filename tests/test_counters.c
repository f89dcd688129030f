/* prof_counters_* against the real kernel: software events count what the
   code does (page faults of fresh pages, context switches of sleeps, CPU
   time), hardware events count plausibly or fail with a reported reason,
   and bad input gives a profiler: message and an error code.
   With the argument "unprivileged" (run as an unprivileged user by CTest),
   it checks what perf_event_paranoid lets such a user count. */
#include "check.h"
#include "profiler.h"

#include <errno.h>
#include <math.h>
#include <sys/mman.h>

enum { PAGES = 256 };

static double thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int read_paranoid(void)
{
    int v = -1000;
    FILE * f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    if (f != NULL)
    {
        if (fscanf(f, "%d", &v) != 1)
            v = -1000;
        fclose(f);
    }
    return v;
}

/* What a call printed on stderr contains what. */
#define CHECK_MSG(call, what) \
    do { \
        capture_t cap_; const char * out_; \
        capture_begin(&cap_, 2); (void) (call); out_ = capture_end(&cap_); \
        CHECK(strstr(out_, "profiler: ") != NULL && strstr(out_, what) != NULL, \
              "%s printed \"%s\", expected \"%s\"", #call, out_, what); \
    } while (0)

static void test_bad_input(void)
{
    prof_counters c, junk;
    prof_counter_value v[PROF_COUNTERS_MAX];
    char line[256];
    capture_t cap;
    int r;

    CHECK_MSG(r = prof_counters_open(NULL, NULL), "NULL");
    CHECK(r == PROF_COUNTERS_EINVAL, "open(NULL): %d", r);

    memset(&c, 0, sizeof c);
    CHECK_MSG(r = prof_counters_open(&c, "task-clock,bogus"), "unknown event \"bogus\"");
    CHECK(r == PROF_COUNTERS_EINVAL, "unknown name: %d", r);
    CHECK(prof_counters_size(&c) == 0, "a failed open leaves the set not open");
    CHECK_MSG(r = prof_counters_start(&c), "not open");
    CHECK(r == PROF_COUNTERS_EINVAL, "start after failed open: %d", r);

    CHECK_MSG(r = prof_counters_open(&c, "task-clock,,page-faults"), "empty event name");
    CHECK(r == PROF_COUNTERS_EINVAL, "empty name: %d", r);
    CHECK_MSG(r = prof_counters_open(&c, ""), "empty event name");
    CHECK(r == PROF_COUNTERS_EINVAL, "empty list: %d", r);
    CHECK_MSG(r = prof_counters_open(&c, "cs,context-switches"), "listed twice");
    CHECK(r == PROF_COUNTERS_EINVAL, "alias twice: %d", r);
    CHECK_MSG(r = prof_counters_open(&c,
              "cycles,ref-cycles,instructions,branches,branch-misses,cache-references,"
              "cache-misses,task-clock,page-faults,context-switches,cpu-migrations,"
              "cycles,cycles,cycles,cycles,cycles,cycles"), "too many events");
    CHECK(r == PROF_COUNTERS_EINVAL, "17 events: %d", r);

    /* A set that was never opened (garbage) or was closed. */
    memset(&junk, 0x5a, sizeof junk);
    CHECK_MSG(r = prof_counters_read(&junk, v), "not open");
    CHECK(r == PROF_COUNTERS_EINVAL, "read of garbage: %d", r);
    CHECK_MSG(r = prof_counters_stop(NULL), "NULL");
    CHECK(r == PROF_COUNTERS_EINVAL, "stop(NULL): %d", r);

    r = prof_counters_open(&c, " task-clock , faults ");   /* spaces, an alias */
    CHECK(r >= 0, "open with spaces and alias: %d", r);
    CHECK(prof_counters_size(&c) == 2, "2 events: %d", prof_counters_size(&c));
    CHECK(strcmp(prof_counters_name(&c, 1), "page-faults") == 0, "alias named as perf stat: %s",
          prof_counters_name(&c, 1));
    CHECK(prof_counters_find(&c, "faults") == 1 && prof_counters_find(&c, "cycles") == -1
          && prof_counters_find(&c, NULL) == -1, "find");
    CHECK(strcmp(prof_counters_unit(&c, 0), "ns") == 0 && strcmp(prof_counters_unit(&c, 1), "") == 0,
          "units");
    CHECK(strcmp(prof_counters_name(&c, 2), "") == 0 && prof_counters_reason(&c, -1) == NULL
          && prof_counters_errno(&c, 5) == -1 && prof_counters_available(&c, 2) == 0,
          "out-of-range index");

    CHECK_MSG(r = prof_counters_open(&c, NULL), "already open");
    CHECK(r == PROF_COUNTERS_EINVAL, "open twice: %d", r);
    CHECK_MSG(r = prof_counters_read(&c, v), "read before");
    CHECK(r == PROF_COUNTERS_ESTATE, "read before start: %d", r);
    CHECK_MSG(r = prof_counters_stop(&c), "not running");
    CHECK(r == PROF_COUNTERS_ESTATE, "stop while stopped: %d", r);
    CHECK(prof_counters_start(&c) == 0, "start");
    CHECK_MSG(r = prof_counters_start(&c), "already running");
    CHECK(r == PROF_COUNTERS_ESTATE, "start twice: %d", r);
    CHECK_MSG(r = prof_counters_overhead(&c, v), "running");
    CHECK(r == PROF_COUNTERS_ESTATE, "overhead while running: %d", r);
    CHECK(prof_counters_stop(&c) == 0, "stop");
    CHECK_MSG(r = prof_counters_read(&c, NULL), "NULL output");
    CHECK(r == PROF_COUNTERS_EINVAL, "read(NULL): %d", r);
    CHECK(prof_counters_read(&c, v) == 0, "read after stop");
    CHECK(prof_counters_reset(&c) == 0, "reset");
    CHECK_MSG(r = prof_counters_read(&c, v), "read before");
    CHECK(r == PROF_COUNTERS_ESTATE, "read after reset, before start: %d", r);

    prof_counters_close(&c);
    CHECK_MSG(r = prof_counters_start(&c), "closed");
    CHECK(r == PROF_COUNTERS_EINVAL, "start closed: %d", r);
    CHECK_MSG(r = prof_counters_read(&c, v), "closed");
    CHECK(r == PROF_COUNTERS_EINVAL, "read closed: %d", r);
    CHECK_MSG(r = prof_counters_reset(&c), "closed");
    CHECK(r == PROF_COUNTERS_EINVAL, "reset closed: %d", r);
    CHECK_MSG(prof_counters_fprint(stdout, &c), "closed");
    CHECK(prof_counters_size(&c) == 0 && prof_counters_available(&c, 0) == 0, "closed size");
    prof_counters_context(&c, line, sizeof line);
    CHECK(strstr(line, "no open counter set") != NULL, "context of closed: %s", line);
    CHECK(prof_counters_context(&c, NULL, 0) > 0, "context length with no buffer");

    capture_begin(&cap, 2);
    prof_counters_close(&c);              /* twice: nothing */
    prof_counters_close(NULL);
    CHECK(strcmp(capture_end(&cap), "") == 0, "close of closed/NULL is silent");
    CHECK(prof_counters_open(&c, "task-clock") >= 0, "a closed set can be opened again");
    prof_counters_close(&c);
}

/* Unavailable event i: errno and reason reported, readings NaN. */
static void check_unavailable(prof_counters * c, const prof_counter_value * v, int i)
{
    int err = prof_counters_errno(c, i);
    const char * why = prof_counters_reason(c, i);
    CHECK(err == ENOENT || err == EOPNOTSUPP || err == ENODEV || err == EACCES || err == EPERM
          || err == ENOSYS || err == ENOSPC || err == EINVAL,
          "%s: unexpected errno %d", prof_counters_name(c, i), err);
    CHECK(why != NULL && strlen(why) > 20 && strchr(why, '\n') == NULL,
          "%s: one-line reason: \"%s\"", prof_counters_name(c, i), why ? why : "(null)");
    CHECK(isnan(v[i].value) && isnan(v[i].raw), "%s: n/a reads as NaN, not %g",
          prof_counters_name(c, i), v[i].value);
}

static void test_software(void)
{
    prof_counters c;
    prof_counter_value v[PROF_COUNTERS_MAX], w[PROF_COUNTERS_MAX], o[PROF_COUNTERS_MAX];
    int tc, pf, cs, k, r;
    double cpu0, cpu1, t0, t1;
    char * pages;

    r = prof_counters_open(&c, "task-clock,page-faults,context-switches,cpu-migrations");
    CHECK(r >= 0, "open software events: %d", r);
    tc = 0; pf = 1; cs = 2;
    if (!prof_counters_available(&c, tc))
    {
        int err = prof_counters_errno(&c, tc);
        /* qemu-user and sandboxes: no perf_event_open at all. Nothing else
           excuses a software event. */
        CHECK(err == ENOSYS, "task-clock unavailable: errno %d: %s", err,
              prof_counters_reason(&c, tc));
        CHECK(strstr(prof_counters_reason(&c, tc), "not implemented") != NULL,
              "reason: %s", prof_counters_reason(&c, tc));
        CHECK(prof_counters_start(&c) == 0 && prof_counters_stop(&c) == 0
              && prof_counters_read(&c, v) == 0, "a set with nothing available still works");
        for (k = 0; k < 4; k++)
            check_unavailable(&c, v, k);
        printf("SKIP software counting: %s\n", prof_counters_reason(&c, tc));
        prof_counters_close(&c);
        return;
    }
    CHECK(r == 4, "all four software events count here as root: %d", r);
    prof_counters_fprint(stdout, &c);

    /* Page faults: about one per fresh page touched. */
    pages = check_fresh_pages(4 * PAGES);
    CHECK(pages != NULL, "mmap");
    if (pages == NULL)
        return;
    CHECK(prof_counters_start(&c) == 0, "start");
    check_touch_pages(pages, PAGES);
    CHECK(prof_counters_stop(&c) == 0, "stop");
    CHECK(prof_counters_read(&c, v) == 0, "read");
    printf("touch %d fresh pages: %g page faults\n", PAGES, v[pf].value);
    CHECK(v[pf].value >= PAGES * 0.9 && v[pf].value <= 2.0 * PAGES + 50,
          "page faults for %d fresh pages: %g", PAGES, v[pf].value);
    CHECK(v[pf].enabled_ns > 0 && v[pf].running_ns == v[pf].enabled_ns && v[pf].value == v[pf].raw,
          "software events are never multiplexed: enabled %g running %g",
          v[pf].enabled_ns, v[pf].running_ns);

    /* A stopped set counts nothing; a second pair accumulates. */
    check_touch_pages(pages + PAGES * check_page_size(), PAGES);
    CHECK(prof_counters_start(&c) == 0 && prof_counters_stop(&c) == 0, "empty pair");
    CHECK(prof_counters_read(&c, w) == 0, "read");
    CHECK(w[pf].value - v[pf].value < PAGES / 4, "pages touched while stopped counted: %g -> %g",
          v[pf].value, w[pf].value);
    CHECK(prof_counters_start(&c) == 0, "start");
    check_touch_pages(pages + 2 * PAGES * check_page_size(), PAGES);
    CHECK(prof_counters_read(&c, w) == 0, "read while running");
    CHECK(w[pf].value >= 2 * PAGES * 0.9 - 1, "read while running: %g", w[pf].value);
    CHECK(prof_counters_stop(&c) == 0, "stop");
    CHECK(prof_counters_read(&c, w) == 0, "read");
    CHECK(w[pf].value >= 2 * PAGES * 0.9 && w[pf].value <= 2 * (2.0 * PAGES + 50),
          "two pairs accumulate: %g", w[pf].value);

    /* The overhead of an empty pair: no faults, no switches, a little time;
       the totals are unchanged by measuring it. */
    CHECK(prof_counters_overhead(&c, o) == 0, "overhead");
    CHECK(prof_counters_read(&c, v) == 0, "read");
    CHECK(v[pf].value == w[pf].value && v[tc].value == w[tc].value,
          "overhead leaves the totals: %g/%g, %g/%g", v[pf].value, w[pf].value,
          v[tc].value, w[tc].value);
    printf("empty start/stop pair: task-clock %g ns, %g page faults, %g context switches\n",
           o[tc].value, o[pf].value, o[cs].value);
    CHECK(o[pf].value == 0 && o[cs].value == 0, "empty pair: %g faults, %g switches",
          o[pf].value, o[cs].value);
    CHECK(o[tc].value > 0 && o[tc].value < 1e6, "empty pair task-clock %g ns", o[tc].value);

    /* Reset, then context switches: each sleep gives up the CPU. */
    CHECK(prof_counters_reset(&c) == 0, "reset");
    CHECK(prof_counters_start(&c) == 0, "start");
    for (k = 0; k < 20; k++)
        sleep_ms(1);
    CHECK(prof_counters_stop(&c) == 0, "stop");
    CHECK(prof_counters_read(&c, v) == 0, "read");
    printf("20 sleeps of 1 ms: %g context switches, task-clock %g ns\n", v[cs].value, v[tc].value);
    CHECK(v[cs].value >= 20 && v[cs].value <= 2000, "context switches of 20 sleeps: %g", v[cs].value);
    CHECK(v[pf].value < PAGES / 4, "reset zeroed page faults: %g", v[pf].value);
    CHECK(v[tc].value < 15e6, "task-clock while sleeping 20 ms: %g ns", v[tc].value);

    /* task-clock: the thread's CPU time. */
    CHECK(prof_counters_reset(&c) == 0, "reset");
    t0 = mono_ns();
    cpu0 = thread_cpu_ns();
    CHECK(prof_counters_start(&c) == 0, "start");
    spin_cpu_ms(60);
    CHECK(prof_counters_stop(&c) == 0, "stop");
    cpu1 = thread_cpu_ns();
    t1 = mono_ns();
    CHECK(prof_counters_read(&c, v) == 0, "read");
    printf("spin 60 ms: task-clock %.3f ms, thread CPU time %.3f ms, wall %.3f ms\n",
           v[tc].value * 1e-6, (cpu1 - cpu0) * 1e-6, (t1 - t0) * 1e-6);
    /* task-clock runs while the thread is on a CPU, including time the
       hypervisor stole from the VM, which the thread's CPU time leaves out
       (14 ms more than the CPU time of a 60 ms spin was seen): bounded by
       the CPU time below and by the wall time above. */
    CHECK(v[tc].value > 0.9 * (cpu1 - cpu0) - 2e6 && v[tc].value < (t1 - t0) + 2e6,
          "task-clock %g ns, thread CPU time %g ns, wall %g ns",
          v[tc].value, cpu1 - cpu0, t1 - t0);
    CHECK(strcmp(prof_counters_reason(&c, tc), "") == 0 && prof_counters_errno(&c, tc) == 0,
          "available: empty reason, errno 0");
    munmap(pages, 4 * PAGES * check_page_size());
    prof_counters_close(&c);
}

/* The default set: hardware and software events side by side. */
static void test_hardware(void)
{
    prof_counters c;
    prof_counter_value v[PROF_COUNTERS_MAX];
    char line[2048];
    volatile unsigned long x = 0;
    long i;
    int k, cyc, ins, br, bm, pf, r;

    r = prof_counters_open(&c, NULL);
    CHECK(r >= 0, "open default set: %d", r);
    CHECK(prof_counters_size(&c) == 7, "default set has 7 events: %d", prof_counters_size(&c));
    prof_counters_fprint(stdout, &c);
    prof_counters_context(&c, line, sizeof line);
    printf("%s\n", line);
    CHECK(strncmp(line, "counters: ", 10) == 0 && strchr(line, '\n') == NULL, "context: %s", line);
    CHECK((size_t) prof_counters_context(&c, NULL, 0) == strlen(line), "context length");
    {
        char small[16];
        int need = prof_counters_context(&c, small, sizeof small);
        CHECK(need == (int) strlen(line) && strlen(small) == sizeof small - 1
              && strncmp(small, line, sizeof small - 1) == 0, "truncated context: %s", small);
    }

    cyc = prof_counters_find(&c, "cycles");
    ins = prof_counters_find(&c, "instructions");
    br = prof_counters_find(&c, "branches");
    bm = prof_counters_find(&c, "branch-misses");
    pf = prof_counters_find(&c, "page-faults");
    CHECK(prof_counters_start(&c) == 0, "start");
    for (i = 0; i < 1000000; i++)
        x += (unsigned long) i;
    CHECK(prof_counters_stop(&c) == 0, "stop");
    CHECK(x == 499999500000UL, "loop sum %lu", (unsigned long) x);
    CHECK(prof_counters_read(&c, v) == 0, "read");
    for (k = 0; k < prof_counters_size(&c); k++)
    {
        if (prof_counters_available(&c, k))
        {
            CHECK(!isnan(v[k].value) && v[k].value >= 0, "%s counts: %g",
                  prof_counters_name(&c, k), v[k].value);
            CHECK(strstr(line, prof_counters_name(&c, k)) != NULL, "context names %s",
                  prof_counters_name(&c, k));
            continue;
        }
        check_unavailable(&c, v, k);
        CHECK(strstr(line, prof_counters_name(&c, k)) != NULL && strstr(line, " n/a (") != NULL
              && strstr(line, prof_counters_reason(&c, k)) != NULL,
              "context says why %s is n/a: %s", prof_counters_name(&c, k), line);
    }
    if (prof_counters_available(&c, ins) && prof_counters_available(&c, cyc))
    {
        printf("1e6 loop iterations: %g instructions, %g cycles, IPC %.2f, %g branches, "
               "%g misses\n", v[ins].value, v[cyc].value, v[ins].value / v[cyc].value,
               v[br].value, v[bm].value);
        CHECK(v[ins].value >= 1e6 && v[ins].value < 1e8, "instructions: %g", v[ins].value);
        CHECK(v[cyc].value > 1e5, "cycles: %g", v[cyc].value);
        CHECK(v[ins].value / v[cyc].value > 0.05 && v[ins].value / v[cyc].value < 10,
              "IPC %g", v[ins].value / v[cyc].value);
        if (prof_counters_available(&c, br) && prof_counters_available(&c, bm))
            CHECK(v[br].value >= 1e6 && v[bm].value <= v[br].value, "branches %g, misses %g",
                  v[br].value, v[bm].value);
    }
    else
    {
        int err = prof_counters_errno(&c, cyc);
        /* No PMU (the VMs here): ENOENT with a reason that says so. */
        if (access("/sys/bus/event_source/devices/cpu", F_OK) != 0 && err == ENOENT)
            CHECK(strstr(prof_counters_reason(&c, cyc), "PMU") != NULL,
                  "reason names the missing PMU: %s", prof_counters_reason(&c, cyc));
        printf("hardware events unavailable (%d): %s\n", err, prof_counters_reason(&c, cyc));
    }
    if (prof_counters_available(&c, pf))
        CHECK(!isnan(v[pf].value), "software events count next to unavailable hardware ones");
    prof_counters_close(&c);
}

/* Run as an unprivileged user: perf_event_paranoid decides. */
static void test_unprivileged(void)
{
    prof_counters c;
    prof_counter_value v[PROF_COUNTERS_MAX];
    char line[2048];
    int paranoid = read_paranoid(), r, k;

    CHECK(geteuid() != 0, "run as an unprivileged user");
    r = prof_counters_open(&c, "task-clock,page-faults,context-switches");
    CHECK(r >= 0, "open: %d", r);
    prof_counters_fprint(stdout, &c);
    prof_counters_context(&c, line, sizeof line);
    printf("perf_event_paranoid %d: %s\n", paranoid, line);
    if (prof_counters_errno(&c, 0) == ENOSYS)
    {
        printf("SKIP: no perf_event_open here\n");
        prof_counters_close(&c);
        return;
    }
    CHECK(prof_counters_start(&c) == 0 && prof_counters_stop(&c) == 0
          && prof_counters_read(&c, v) == 0, "start/stop/read");
    if (paranoid >= 3)
        for (k = 0; k < 3; k++)
        {
            CHECK(!prof_counters_available(&c, k), "paranoid %d forbids %s", paranoid,
                  prof_counters_name(&c, k));
            CHECK(strstr(prof_counters_reason(&c, k), "perf_event_paranoid is") != NULL,
                  "reason: %s", prof_counters_reason(&c, k));
        }
    else if (paranoid == 2)
    {
        /* User space only: task-clock still counts; faults and switches
           happen in the kernel and would read 0, so they are n/a. */
        CHECK(prof_counters_available(&c, 0), "task-clock counts at paranoid 2");
        CHECK(strstr(line, "task-clock (user space only)") != NULL, "context: %s", line);
        for (k = 1; k < 3; k++)
        {
            CHECK(!prof_counters_available(&c, k) && prof_counters_errno(&c, k) == EACCES,
                  "%s at paranoid 2: errno %d", prof_counters_name(&c, k),
                  prof_counters_errno(&c, k));
            CHECK(strstr(prof_counters_reason(&c, k), "perf_event_paranoid 2") != NULL
                  && strstr(prof_counters_reason(&c, k), "sysctl") != NULL,
                  "reason with the fix: %s", prof_counters_reason(&c, k));
            CHECK(isnan(v[k].value), "%s reads NaN, not 0: %g", prof_counters_name(&c, k),
                  v[k].value);
        }
    }
    else
        CHECK(r == 3, "paranoid %d allows all three: %d", paranoid, r);
    prof_counters_close(&c);
}

int main(int argc, char ** argv)
{
    if (argc > 1 && strcmp(argv[1], "unprivileged") == 0)
    {
        test_unprivileged();
        return check_report("test_counters unprivileged");
    }
    test_bad_input();
    test_software();
    test_hardware();
    return check_report("test_counters");
}
