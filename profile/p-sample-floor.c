/*
    p-sample-floor: what a timer-driven sample costs on this machine, layer
    by layer, below the sampler and with it. The same fixed work (2 threads
    of hot() + cold() rounds, tests/sample_work.h, about SECONDS of CPU
    each) runs in a fresh child process per configuration, the order
    rotated round by round:
      none      nothing;
      count     one inherited task-clock perf event per CPU (as the sampler
                opens them), counting only;
      hrtimer   the same sampling at 997 Hz but excluding user and kernel:
                its hrtimer interrupts the thread and writes nothing (the
                interrupt alone; samples: the periods the event counted);
      ip        the sampling of user space, sample_type IP | TID | TIME,
                into a ring mapped but never read (large enough for the
                whole run; its records counted afterwards): the kernel's
                floor for a timer sample;
      ip-cpu    as ip on cpu-clock instead of task-clock;
      chain     as ip plus PERF_SAMPLE_CALLCHAIN (user only): the user
                call-chain walk;
      rings     the sampler's own rings and attributes (sample_ring.c: 64 KiB
                a CPU, woken at half full; on x86-64 also the user sp and
                the word there, a frameless leaf's caller) drained by a
                thread that polls them as the sampler's reader does,
                counting the samples (no chains interned, nothing written);
      ours      prof_sample_start(997) .. prof_sample_stop(), the trace
                written (samples: the trace's, lost included);
      timer     the sampler's fallback (perf refused through the fake perf
                seam): SIGPROF from a timer on each thread's CPU clock,
                capped at the kernel's tick.
    Printed, medians of the rounds: wall and CPU time (getrusage of the
    child: the kernel's interrupt time falls to the interrupted thread),
    their overhead against none, the samples taken and lost, the cost a
    sample implied (extra CPU / samples, and extra wall x 2 threads /
    samples), and the CPU of the process outside the two threads' work
    (the sampler's reader and the trace's writer, start and stop).
    Processes side by side differ by a few % on a busy machine, so each
    perf layer also runs once a round paired in one process: the work cut
    into SEGS segments, the events off and on in turn; its us a sample is
    the medians' difference (thread CPU time of a segment, on - off, both
    threads) over the samples of an "on" segment.
    At 997 Hz a 2% budget is 20 us a sample.
    Usage: p-sample-floor [ROUNDS (5)] [SECONDS (1.5)] [LAYER...] (LAYERs
    named: those only, beside none)
    SPDX-License-Identifier: MIT
*/
#include "profiler.h"
#include "trace_read.h"
#include "sample_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../tests/sample_work.h"

enum { HZ = 997, MAXRUNS = 25, MAXCPUS = 64, SEGS = 40 };

enum { NONE, COUNT, HRTIMER, IP, IP_CPU, CHAIN, RINGS, OURS, TIMER, NCONF };
static const char * const names[NCONF] = {
    "none", "count", "hrtimer", "ip", "ip-cpu", "chain", "rings", "ours", "timer" };
static const char * const what[NCONF] = {
    "no event",
    "task-clock per CPU, inherited, counting",
    "+ its 997 Hz timer, nothing sampled",
    "+ sampling IP|TID|TIME, ring never read",
    "as ip, on cpu-clock",
    "as ip + CALLCHAIN (user)",
    "the sampler's rings, drained by a thread",
    "prof_sample_start(997), trace written",
    "the SIGPROF fallback (perf refused)" };

typedef struct { double wall, cpu, samples, lost, aside, paired; } result;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static long rounds;             /* of hot + cold, a thread */

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

typedef struct events events;
static void enable(events * e, int on);

/* A thread's part: the rounds, in SEGS segments when paired (the first
   thread turns the events on in the odd ones); its CPU time for them. */
typedef struct
{
    events * e;                 /* paired: the events to turn on and off */
    pthread_barrier_t * b;
    int first;
    double cpu, seg[SEGS];
} part;

static void * work(void * arg)
{
    part * j = (part *) arg;
    int s, nseg = j != NULL && j->e != NULL ? SEGS : 1;
    long i, per = rounds / nseg > 0 ? rounds / nseg : 1;
    double c0 = thread_cpu();
    for (s = 0; s < nseg; s++)
    {
        double c1;
        if (nseg > 1)
        {
            pthread_barrier_wait(j->b);
            if (j->first)
                enable(j->e, s % 2);
            pthread_barrier_wait(j->b);
        }
        c1 = thread_cpu();
        for (i = 0; i < per; i++)
        {
            hot(400000);
            cold(100000);
        }
        if (j != NULL)
            j->seg[s] = thread_cpu() - c1;
    }
    if (j != NULL)
        j->cpu = thread_cpu() - c0;
    return NULL;
}

/* ---- the perf layers ------------------------------------------------------ */

struct events
{
    int fd[MAXCPUS], n;
    void * ring[MAXCPUS];
    size_t ring_bytes;
    sample_rings * rings;       /* rings: the sampler's, and its reader */
    pthread_t reader;
    pthread_mutex_t opening;
    int wake[2];
    double samples;
};

static void count_sample(void * ctx, uint32_t pid, uint32_t tid, uint64_t ns,
                         const uint64_t * ip, size_t n, int truncated,
                         const sample_copy * c)
{
    (void) pid; (void) tid; (void) ns; (void) ip; (void) n; (void) truncated;
    (void) c;
    ((events *) ctx)->samples++;
}

/* As the sampler's reader (src/sample/sample.c): poll the rings and the
   stop's pipe, at most SAMPLE_POLL_MS, and drain them at each wake. */
static void * reader(void * arg)
{
    events * e = (events *) arg;
    struct pollfd p[MAXCPUS + 1];
    int i, stop = 0;
    pthread_mutex_lock(&e->opening); /* the rings are open */
    pthread_mutex_unlock(&e->opening);
    while (!stop)
    {
        p[0].fd = e->wake[0];
        p[0].events = POLLIN;
        for (i = 0; i < e->rings->n; i++)
        {
            p[i + 1].fd = e->rings->fd[i];
            p[i + 1].events = POLLIN;
        }
        if (poll(p, (nfds_t) e->rings->n + 1, SAMPLE_POLL_MS) > 0 && (p[0].revents & POLLIN))
            stop = 1;
        prof_impl_sample_rings_drain(e->rings, count_sample, NULL, e);
    }
    return NULL;
}

/* The sampler's rings with a reader made first (so never sampled). */
static int open_rings(events * e)
{
    static sample_rings r;
    sigset_t all, old;
    int rc;
    memset(e, 0, sizeof *e);
    e->rings = &r;
    if (pipe(e->wake) != 0)
        return -1;
    pthread_mutex_init(&e->opening, NULL);
    pthread_mutex_lock(&e->opening);
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&e->reader, NULL, reader, e);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0)
        return -1;
    rc = prof_impl_sample_rings_open(&r, HZ, 0, 1, 0);
    pthread_mutex_unlock(&e->opening);
    return rc == 0 ? 0 : -1;
}

static void close_rings(events * e, result * r)
{
    char c = 1;
    if (e->rings == NULL)
        return;
    if (write(e->wake[1], &c, 1) == 1)
        pthread_join(e->reader, NULL);
    r->samples = e->samples + (double) e->rings->lost;
    r->lost = (double) e->rings->lost;
    prof_impl_sample_rings_close(e->rings);
}

static int open_events(events * e, int conf, size_t ring_bytes)
{
    struct perf_event_attr a;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN), page = sysconf(_SC_PAGESIZE);
    int c;
    memset(e, 0, sizeof *e);
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = conf == IP_CPU ? PERF_COUNT_SW_CPU_CLOCK : PERF_COUNT_SW_TASK_CLOCK;
    a.disabled = 1;
    a.inherit = 1;
    a.inherit_thread = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    if (conf == HRTIMER) /* a timer, every sample excluded */
    {
        a.sample_period = 1000000000u / HZ;
        a.exclude_user = 1;
    }
    else if (conf != COUNT) /* the sampler's attributes, without its reader */
    {
        a.freq = 1;
        a.sample_freq = HZ;
        a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME
                        | (conf == CHAIN ? PERF_SAMPLE_CALLCHAIN : 0);
        a.exclude_callchain_kernel = 1;
        a.sample_id_all = 1;
        a.use_clockid = 1;
        a.clockid = CLOCK_MONOTONIC_RAW;
        a.watermark = 1;
        a.wakeup_watermark = (uint32_t) ring_bytes; /* never: nobody reads */
        e->ring_bytes = ring_bytes;
    }
    if (ncpu > MAXCPUS)
        ncpu = MAXCPUS;
    for (c = 0; c < ncpu; c++)
    {
        int fd = (int) syscall(SYS_perf_event_open, &a, 0, c, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0 && c == 0 && errno == EINVAL)
        {
            a.inherit_thread = 0; /* before Linux 5.13 */
            fd = (int) syscall(SYS_perf_event_open, &a, 0, c, -1, PERF_FLAG_FD_CLOEXEC);
        }
        if (fd < 0)
        {
            if (c > 0 && (errno == ENODEV || errno == EINVAL))
                continue;
            return -1;
        }
        e->fd[e->n] = fd;
        if (e->ring_bytes > 0)
        {
            e->ring[e->n] = mmap(NULL, e->ring_bytes + (size_t) page,
                                 PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (e->ring[e->n] == MAP_FAILED)
                return -1;
        }
        e->n++;
    }
    return 0;
}

static void enable(events * e, int on)
{
    int i;
    if (e->rings != NULL)
        prof_impl_sample_rings_enable(e->rings, on);
    for (i = 0; i < e->n; i++)
        ioctl(e->fd[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

/* The rings' samples and lost samples into r: never read, they never
   wrap; without rings, the periods the events counted. */
static void count_records(const events * e, int conf, result * r)
{
    long page = sysconf(_SC_PAGESIZE);
    int i;
    for (i = 0; i < e->n && conf == HRTIMER; i++)
    {
        uint64_t ns;
        if (read(e->fd[i], &ns, sizeof ns) == (ssize_t) sizeof ns)
            r->samples += (double) (ns / (1000000000u / HZ));
    }
    for (i = 0; i < e->n && e->ring_bytes > 0; i++)
    {
        const struct perf_event_mmap_page * m = (const struct perf_event_mmap_page *) e->ring[i];
        const unsigned char * data = (const unsigned char *) e->ring[i] + page;
        uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE), off = 0;
        while (off + sizeof(struct perf_event_header) <= head && off < e->ring_bytes)
        {
            struct perf_event_header h;
            memcpy(&h, data + off, sizeof h);
            if (h.size < sizeof h)
                break;
            if (h.type == PERF_RECORD_SAMPLE)
                r->samples++;
            else if (h.type == PERF_RECORD_LOST && h.size >= sizeof h + 16)
            {
                uint64_t lost;
                memcpy(&lost, data + off + sizeof h + 8, 8);
                r->lost += (double) lost;
            }
            off += h.size;
        }
    }
}

/* ---- one run -------------------------------------------------------------- */

static int refuse(void * attr, long pid, int cpu)
{
    (void) attr; (void) pid; (void) cpu;
    errno = EACCES;
    return -1;
}

static double seconds_of(struct timeval t)
{
    return (double) t.tv_sec + 1e-6 * (double) t.tv_usec;
}

static int cmp(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double median(const double * v, int n)
{
    double s[MAXRUNS > SEGS ? MAXRUNS : SEGS];
    memcpy(s, v, (size_t) n * sizeof *s);
    qsort(s, (size_t) n, sizeof *s, cmp);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* A paired run's CPU time a segment on - off, both threads. */
static double on_minus_off(const part * j)
{
    double on[SEGS / 2], off[SEGS / 2];
    int s;
    for (s = 0; s < SEGS / 2; s++)
    {
        off[s] = j->seg[2 * s];
        on[s] = j->seg[2 * s + 1];
    }
    return median(on, SEGS / 2) - median(off, SEGS / 2);
}

/* In a child: the work under configuration conf (paired: its events off
   and on in turn); the result into out. */
static void run_child(int conf, int paired, size_t ring_bytes, const char * path, int out)
{
    pthread_t t;
    pthread_barrier_t b;
    struct rusage ru;
    events e;
    part j[2];
    result r;
    double t0;
    memset(&r, 0, sizeof r);
    memset(&e, 0, sizeof e);
    memset(j, 0, sizeof j);
    pthread_barrier_init(&b, NULL, 2);
    j[0].b = j[1].b = &b;
    j[0].first = 1;
    if (conf == OURS || conf == TIMER)
    {
        if (conf == TIMER)
        {
            int null = open("/dev/null", O_WRONLY); /* the refusal's message */
            dup2(null, 2);
            prof_impl_sample_open = refuse;
        }
        if (prof_trace_open(path) != 0 || prof_sample_start(HZ) != 0)
            _exit(2);
    }
    else if (conf >= COUNT && conf <= RINGS)
    {
        if ((conf == RINGS ? open_rings(&e) : open_events(&e, conf, ring_bytes)) != 0)
            _exit(2);
        if (paired)
            j[0].e = j[1].e = &e;
        else
            enable(&e, 1);
    }
    t0 = now();
    pthread_create(&t, NULL, work, &j[1]);
    work(&j[0]);
    pthread_join(t, NULL);
    r.wall = now() - t0;
    if (conf == OURS || conf == TIMER)
        prof_sample_stop();
    enable(&e, 0);
    getrusage(RUSAGE_SELF, &ru);
    r.cpu = seconds_of(ru.ru_utime) + seconds_of(ru.ru_stime);
    r.aside = r.cpu - j[0].cpu - j[1].cpu;
    close_rings(&e, &r);
    count_records(&e, conf, &r);
    if (paired && r.samples > 0)
        r.paired = (on_minus_off(&j[0]) + on_minus_off(&j[1])) / (r.samples / (SEGS / 2));
    if (write(out, &r, sizeof r) != (ssize_t) sizeof r)
        _exit(3);
    exit(0); /* the trace is written at exit */
}

static void no_sample(void * ctx, const pt_trace * t, const pt_sample * s)
{
    (void) ctx; (void) t; (void) s;
}

/* The samples the trace at path recorded and lost, into r. */
static void read_trace(const char * path, result * r)
{
    pt_handler h;
    pt_options o;
    pt_trace t;
    memset(&o, 0, sizeof o);
    pt_handler_init(&h, NULL);
    h.sample = no_sample;
    if (pt_stream(path, &o, &h, &t) == 0)
    {
        r->samples = (double) (t.sampling.recorded + t.sampling.lost);
        r->lost = (double) t.sampling.lost;
    }
    pt_free(&t);
}

static int one(int conf, int paired, size_t ring_bytes, result * r)
{
    char path[64];
    int p[2], st;
    pid_t pid;
    snprintf(path, sizeof path, "/tmp/p-sample-floor.%ld.ptrace", (long) getpid());
    fflush(stdout); /* nothing buffered is written twice */
    if (pipe(p) != 0 || (pid = fork()) < 0)
        return -1;
    if (pid == 0)
    {
        close(p[0]);
        run_child(conf, paired, ring_bytes, path, p[1]);
    }
    close(p[1]);
    st = read(p[0], r, sizeof *r) == (ssize_t) sizeof *r ? 0 : -1;
    close(p[0]);
    waitpid(pid, NULL, 0);
    if (st == 0 && (conf == OURS || conf == TIMER))
        read_trace(path, r);
    unlink(path);
    return st;
}

static int is_perf(int conf)
{
    return conf >= COUNT && conf <= RINGS;
}

int main(int argc, char ** argv)
{
    static double m[7][NCONF][MAXRUNS];
    int runs = argc > 1 ? atoi(argv[1]) : 5, c, i, failed[NCONF] = { 0 };
    int on[NCONF], order[2 * NCONF], n = 0;
    double secs = argc > 2 ? atof(argv[2]) : 1.5, t0, load0[1], load1[1];
    double base_w, base_c, base_a;
    size_t ring_bytes = 64 * 4096;
    for (c = 0; c < NCONF; c++)
    {
        on[c] = argc <= 3 || c == NONE;
        for (i = 3; i < argc; i++)
            on[c] |= strcmp(argv[i], names[c]) == 0;
        if (on[c])
            order[n++] = c;
    }
    for (c = 0; c < NCONF; c++) /* the paired runs: NCONF + conf */
        if (on[c] && is_perf(c) && c != COUNT)
            order[n++] = NCONF + c;
    if (runs < 1 || runs > MAXRUNS)
        runs = 5;
    if (!(secs > 0 && secs <= 60))
        secs = 1.5;
    /* the rounds for secs a thread, from a tenth of a second of them */
    rounds = 16;
    do
    {
        rounds *= 2;
        t0 = now();
        work(NULL);
    } while (now() - t0 < 0.1);
    rounds = (long) ((double) rounds * secs / (now() - t0)) + 1;
    /* every record of the run: 2 threads at HZ, 200 bytes each at most */
    while (ring_bytes < secs * 2 * HZ * 1.2 * 200)
        ring_bytes *= 2;
    if (getloadavg(load0, 1) < 1)
        load0[0] = -1;
    printf("p-sample-floor: 2 threads x %ld rounds of hot(400000) + cold(100000) "
           "(%.2f s each), %d Hz, rings of %zu KiB (load %.2f)\n",
           rounds, secs, HZ, ring_bytes / 1024, load0[0]);
    for (i = 0; i < runs; i++)
        for (c = 0; c < n; c++)
        {
            int k = order[(c + i) % n]; /* rotated round by round */
            result r;
            memset(&r, 0, sizeof r);
            if (one(k % NCONF, k >= NCONF, ring_bytes, &r) != 0)
                failed[k % NCONF] = 1;
            if (k >= NCONF)
            {
                m[6][k - NCONF][i] = r.paired;
                continue;
            }
            m[0][k][i] = r.wall; m[1][k][i] = r.cpu;
            m[2][k][i] = r.samples; m[3][k][i] = r.lost;
            m[4][k][i] = r.aside;
        }
    if (getloadavg(load1, 1) < 1)
        load1[0] = -1;
    printf("medians of %d rotated runs (load %.2f after); us a sample: extra CPU, "
           "extra wall x 2, CPU aside, paired: over the samples\n", runs, load1[0]);
    printf("%-8s %7s %7s %6s %6s %6s %4s %8s %6s %6s %6s %6s  %s\n", "layer", "wall_s",
           "cpu_s", "wall+%", "cpu+%", "samples", "lost", "aside_ms", "us cpu", "wall",
           "aside", "paired", "what");
    base_w = median(m[0][NONE], runs);
    base_c = median(m[1][NONE], runs);
    base_a = median(m[4][NONE], runs);
    for (c = 0; c < NCONF; c++)
    {
        double w = median(m[0][c], runs), u = median(m[1][c], runs);
        double k = median(m[2][c], runs), a = median(m[4][c], runs);
        if (!on[c])
            continue;
        if (failed[c])
        {
            printf("%-8s %s: refused or failed\n", names[c], what[c]);
            continue;
        }
        printf("%-8s %7.3f %7.3f %6.1f %6.1f %7.0f %4.0f %8.1f", names[c], w, u,
               100 * (w / base_w - 1), 100 * (u / base_c - 1), k, median(m[3][c], runs),
               1e3 * a);
        if (k > 0)
            printf(" %6.1f %6.1f %6.1f", 1e6 * (u - base_c) / k, 1e6 * 2 * (w - base_w) / k,
                   1e6 * (a - base_a) / k);
        else
            printf(" %6s %6s %6s", "-", "-", "-");
        if (is_perf(c) && c != COUNT)
            printf(" %6.1f", 1e6 * median(m[6][c], runs));
        else
            printf(" %6s", "-");
        printf("  %s\n", what[c]);
    }
    return 0;
}
