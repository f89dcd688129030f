/*
    In-process sampling end to end: two threads spend about 80% of their
    CPU time in one static function and 20% in another; the trace they
    write is read back and each leaf named with the trace reader's ELF
    reader. The hot function must hold over half the samples of each thread
    (loose: 80% expected), the counts must add up, and the rate must be
    plausible. Perf events refused (a container, qemu-user): exit 77
    (skipped) after checking that the refusal said why. With "refuse", the
    fake perf seam refuses sampling: the message names the cause, the
    setting and the fallback, and the timer fallback samples the same
    workload (method TIMER, weighted samples, hot over half of each
    thread's; where the fallback cannot run either, it must say so). With
    "seccomp", a seccomp filter refuses perf_event_open (EPERM, as a
    container's does): the message blames it, not perf_event_paranoid.
    SPDX-License-Identifier: MIT
*/
#define PROF_TRACE 1
#include "check.h"
#include "profiler.h"
#include "internal.h"
#include "trace_read.h"
#include "trace_elf.h"
#include "../src/sample/sample_impl.h"

#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>

#include "sample_work.h"

static void * work(void * arg)
{
    double end = prof_impl_now_ns() + 1e9 * *(double *) arg;
    while (prof_impl_now_ns() < end)
    {
        PROF_ZONE("round");
        hot(400000);
        cold(100000);
    }
    return NULL;
}

typedef struct
{
    pt_symbols * syms;
    unsigned long hot[2], all[2], weird;
    unsigned long hot_n, hot_called, hot_fixed; /* hot samples (not weighed),
                                    those with work() next, those fixed */
    uint32_t tids[2];
    int method;                 /* PT_SAMPLING_* expected */
} tally;

static void on_sample(void * ctx, const pt_trace * t, const pt_sample * s)
{
    tally * c = (tally *) ctx;
    uint32_t n;
    const uint64_t * ip = pt_stack_frames(t, s->stack, &n);
    const char * name = n > 0 ? pt_symbols_name(c->syms, ip[0]) : NULL;
    int k = s->tid == c->tids[0] ? 0 : s->tid == c->tids[1] ? 1 : -1;
    if (k < 0)
    {
        c->weird++;
        return;
    }
    c->all[k] += s->weight;
    if (getenv("TEST_SAMPLE_SHOW") != NULL)
        printf("leaf %s\n", name != NULL ? name : "?");
    if (name != NULL && strncmp(name, "hot", 3) == 0
        && (name[3] == '\0' || name[3] == '.')) /* hot.constprop.0 with gcc */
    {
        const char * caller = n > 1 ? pt_symbols_name(c->syms, ip[1]) : NULL;
        c->hot[k] += s->weight;
        c->hot_n++;
        c->hot_called += caller != NULL && strncmp(caller, "work", 4) == 0;
        c->hot_fixed += (s->flags & PT_SAMPLE_LEAF_FIXED) != 0;
    }
}

static pt_symbols * own_symbols(void)
{
    static char maps[1 << 16];
    char process[256] = "";
    FILE * f = fopen("/proc/self/maps", "r");
    size_t n = f != NULL ? fread(maps, 1, sizeof maps - 1, f) : 0;
    pt_symbols * s = pt_symbols_new(NULL, NULL, NULL);
    if (f != NULL)
        fclose(f);
    if (s != NULL)
        pt_symbols_maps(s, (const unsigned char *) maps, n, process, sizeof process);
    return s;
}

static int refuse(void * attr, long pid, int cpu)
{
    (void) attr; (void) pid; (void) cpu;
    errno = EACCES;
    return -1;
}

static const char * capture_start(double hz, int * rc)
{
    capture_t cap;
    capture_begin(&cap, 2);
    *rc = prof_sample_start(hz);
    return capture_end(&cap);
}

static void * work_named(void * arg)
{
    tally * c = (tally *) ((void **) arg)[1];
    c->tids[1] = (uint32_t) syscall(SYS_gettid);
    return work(((void **) arg)[0]);
}

/* The trace at path read back: shares per thread. */
static void check_trace(const char * path, tally * c)
{
    pt_handler h;
    pt_options o;
    pt_trace t;
    int k;
    c->syms = own_symbols();
    memset(&o, 0, sizeof o);
    o.warn = stderr;
    pt_handler_init(&h, c);
    h.sample = on_sample;
    CHECK(pt_stream(path, &o, &h, &t) == 0, "read %s", path);
    for (k = 0; k < 2; k++)
    {
        printf("thread %u: %lu samples, %lu in hot (%.1f%%)\n", c->tids[k],
               c->all[k], c->hot[k], c->all[k] ? 100.0 * c->hot[k] / c->all[k] : 0.0);
        CHECK(c->all[k] > (c->method == PT_SAMPLING_PERF ? 30u : 10u)
              && c->hot[k] * 2 > c->all[k], "thread %d: %lu of %lu",
              k, c->hot[k], c->all[k]);
    }
    printf("recorded %llu, read %llu, lost %llu, truncated %llu, achieved %.0f Hz "
           "of %.0f\n", (unsigned long long) t.sampling.recorded,
           (unsigned long long) t.sampling.read, (unsigned long long) t.sampling.lost,
           (unsigned long long) t.sampling.truncated, t.sampling.achieved_hz,
           t.sampling.hz);
    CHECK(c->weird == 0, "%lu samples of other threads", c->weird);
    /* hot() has no frame at -O2 (gcc 12): its caller, work(), is in its
       samples' stacks only from the word at the stack pointer (x86-64,
       perf events and the timer fallback alike) */
    printf("hot's caller work() in %lu of its %lu samples (%lu fixed)\n", c->hot_called,
           c->hot_n, c->hot_fixed);
#if defined(__x86_64__)
    CHECK(c->hot_called * 2 > c->hot_n, "hot's caller in %lu of %lu samples",
          c->hot_called, c->hot_n);
#endif
    CHECK(t.sampling.method == c->method && t.sampling.recorded == t.sampling.read
          && t.sampling.achieved_hz > 50 && t.sampling.achieved_hz < 2 * 997,
          "recorded %llu, read %llu, %g Hz", (unsigned long long) t.sampling.recorded,
          (unsigned long long) t.sampling.read, t.sampling.achieved_hz);
    CHECK(t.nzones > 10, "%zu zones", t.nzones);
    pt_free(&t);
    pt_symbols_free(c->syms);
}

#if defined(__linux__) && defined(__x86_64__)
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>

/* A seccomp filter on this process that fails perf_event_open with EPERM,
   as Docker's default profile does, and lets every other call through. */
static int seccomp_refuse_perf(void)
{
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
    struct sock_fprog prog = { (unsigned short) (sizeof f / sizeof f[0]), f };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

static int seccomp_case(const char * path)
{
    const char * said;
    int rc;
    if (seccomp_refuse_perf() != 0)
    {
        printf("no seccomp filter here: %s\n", strerror(errno));
        return 77;
    }
    CHECK(prof_trace_open(path) == 0, "open %s", path);
    said = capture_start(997, &rc);
    printf("said: %s", said);
    CHECK(strstr(said, "perf events refused (Operation not permitted)") != NULL
          && strstr(said, "seccomp filter") != NULL
          && strstr(said, "perf_event_paranoid is") == NULL
          && strstr(said, "PERFMON") == NULL, "said: %s", said);
    prof_sample_stop();
    return check_report("test_sample seccomp");
}
#else
static int seccomp_case(const char * path)
{
    (void) path;
    return 77;
}
#endif

int main(int argc, char ** argv)
{
    const char * path = argc > 2 ? argv[2] : "test_sample.ptrace";
    double secs = 1.5;
    pthread_t th;
    int rc, fake = argc > 1 && strcmp(argv[1], "refuse") == 0;
    const char * said;
    void * args[2];
    tally c;
    if (argc > 1 && strcmp(argv[1], "seccomp") == 0)
        return seccomp_case(path);
    memset(&c, 0, sizeof c);
    CHECK(prof_trace_open(path) == 0, "open %s", path);
    said = capture_start(-5, &rc);
    CHECK(rc == -1 && strstr(said, "out of range") != NULL, "bad rate: %s", said);
    if (fake)
        prof_impl_sample_open = refuse;
    said = capture_start(997, &rc);
    c.method = strstr(said, "fallback instead") != NULL ? PT_SAMPLING_TIMER
                                                         : PT_SAMPLING_PERF;
    if (fake || rc != 0 || c.method == PT_SAMPLING_TIMER)
    {
        /* the cause, and for a permission refused (the fake seam's) the
           setting to change; ENOSYS (qemu-user) has none to name */
        CHECK(strstr(said, "sampling: perf events refused") != NULL
              && (strstr(said, "perf_event_paranoid") != NULL
                  || (!fake && strstr(said, "not implemented") != NULL)),
              "said: %s", said);
        printf("perf events refused: %s", said);
    }
    if (rc != 0)
    {
        CHECK(strstr(said, "timer fallback failed too") != NULL
              && strstr(said, "zones are still recorded") != NULL, "said: %s", said);
        return check_failures ? check_report("test_sample") : 77;
    }
    CHECK(!fake || c.method == PT_SAMPLING_TIMER, "the fake seam did not refuse");
    c.tids[0] = (uint32_t) syscall(SYS_gettid);
    args[0] = &secs;
    args[1] = &c;
    pthread_create(&th, NULL, work_named, args);
    work(&secs);
    pthread_join(th, NULL);
    prof_sample_stop();
    CHECK(prof_trace_flush() == 0, "flush");
    check_trace(path, &c);
    return check_report("test_sample");
}
