/*
    p-sample: what in-process sampling costs and how right it is. A
    2-thread workload spends about 80% of its time in hot() and 20% in
    cold() (fixed work, not fixed time); each configuration runs in a
    fresh child process, alternated (none, 997, 3989, 9973 Hz, none, ...),
    quiet and then beside two busy processes this program starts (bounded
    by alarm). Printed, medians of the runs: wall and workers' CPU time,
    their overhead against no sampling, samples per CPU second achieved,
    lost and truncated, and the share of hot per thread from the trace.
    Usage: p-sample [RUNS [ROUNDS]] (default 5 runs of 600 rounds; CI's
    quick run takes 1 of 150: the same paths, a quarter of the work)
    SPDX-License-Identifier: MIT
*/
#include "profiler.h"
#include "trace_read.h"
#include "trace_elf.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { ROUNDS = 600, NCONF = 4, MAXRUNS = 15 };
static int rounds = ROUNDS; /* each worker's, argv[2] */
static const double hzs[NCONF] = { 0, 997, 3989, 9973 };
#include "../tests/sample_work.h"

static void * work(void * arg)
{
    int i;
    (void) arg;
    for (i = 0; i < rounds; i++)
    {
        hot(400000);
        cold(100000);
    }
    return NULL;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

typedef struct { double wall, cpu, achieved, share[2]; unsigned long long lost, trunc; } result;

/* In a child: the workload at hz (0: not sampled), into trace path. */
static void run_child(double hz, const char * path, int out)
{
    pthread_t t;
    struct rusage ru;
    result r;
    double t0;
    memset(&r, 0, sizeof r);
    prof_trace_open(path);
    if (hz > 0 && prof_sample_start(hz) != 0)
        _exit(2);
    t0 = now();
    pthread_create(&t, NULL, work, NULL);
    work(NULL);
    pthread_join(t, NULL);
    r.wall = now() - t0;
    prof_sample_stop();
    getrusage(RUSAGE_SELF, &ru);
    r.cpu = (double) ru.ru_utime.tv_sec + 1e-6 * (double) ru.ru_utime.tv_usec
            + (double) ru.ru_stime.tv_sec + 1e-6 * (double) ru.ru_stime.tv_usec;
    if (write(out, &r, sizeof r) != (ssize_t) sizeof r)
        _exit(3);
    exit(0); /* the trace is written at exit */
}

typedef struct { pt_symbols * syms; uint32_t tids[2]; unsigned long hot[2], all[2]; } tally;

static void on_sample(void * ctx, const pt_trace * t, const pt_sample * s)
{
    tally * c = (tally *) ctx;
    uint32_t n;
    const uint64_t * ip = pt_stack_frames(t, s->stack, &n);
    const char * name = n > 0 ? pt_symbols_name(c->syms, ip[0]) : NULL;
    int k = s->tid == c->tids[0] ? 0 : s->tid == c->tids[1] ? 1 : -1;
    if (k < 0 && c->tids[1] == 0)
        c->tids[k = c->tids[0] == 0 ? 0 : 1] = s->tid;
    if (k < 0)
        return;
    c->all[k]++;
    c->hot[k] += name != NULL && strncmp(name, "hot", 3) == 0;
}

/* The trace's figures into r. */
static void read_trace(const char * path, result * r)
{
    tally c;
    pt_handler h;
    pt_options o;
    pt_trace t;
    memset(&c, 0, sizeof c);
    memset(&o, 0, sizeof o);
    o.resolve_symbols = 1;
    pt_handler_init(&h, &c);
    h.sample = on_sample;
    c.syms = pt_symbols_new(NULL, NULL, NULL);
    {   /* this executable's own mappings name hot() */
        static char maps[1 << 16];
        char process[256] = "";
        FILE * f = fopen("/proc/self/maps", "r");
        size_t n = f != NULL ? fread(maps, 1, sizeof maps - 1, f) : 0;
        if (f != NULL)
            fclose(f);
        if (c.syms != NULL)
            pt_symbols_maps(c.syms, (const unsigned char *) maps, n, process, sizeof process);
    }
    if (pt_stream(path, &o, &h, &t) == 0)
    {
        r->achieved = t.sampling.achieved_hz;
        r->lost = t.sampling.lost;
        r->trunc = t.sampling.truncated;
        r->share[0] = c.all[0] ? 100.0 * c.hot[0] / c.all[0] : 0;
        r->share[1] = c.all[1] ? 100.0 * c.hot[1] / c.all[1] : 0;
    }
    pt_free(&t);
    pt_symbols_free(c.syms);
}

static int one(double hz, result * r)
{
    char path[64];
    int p[2], st;
    pid_t pid;
    snprintf(path, sizeof path, "/tmp/p-sample.%ld.ptrace", (long) getpid());
    fflush(stdout); /* nothing buffered is written twice */
    if (pipe(p) != 0 || (pid = fork()) < 0)
        return -1;
    if (pid == 0)
    {
        close(p[0]);
        run_child(hz, path, p[1]);
    }
    close(p[1]);
    st = read(p[0], r, sizeof *r) == (ssize_t) sizeof *r ? 0 : -1;
    close(p[0]);
    waitpid(pid, NULL, 0);
    if (st == 0 && hz > 0)
        read_trace(path, r);
    unlink(path);
    return st;
}

static int cmp(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double median(double * v, int n)
{
    qsort(v, (size_t) n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void phase(const char * name, int runs)
{
    static double m[6][NCONF][MAXRUNS];
    double loads[3], base_w = 0, base_c = 0;
    int c, i;
    for (i = 0; i < runs; i++)
        for (c = 0; c < NCONF; c++)
        {
            result r;
            memset(&r, 0, sizeof r);
            if (one(hzs[c], &r) != 0)
            {
                printf("%s: run at %.0f Hz failed (sampling refused?)\n", name, hzs[c]);
                return;
            }
            m[0][c][i] = r.wall; m[1][c][i] = r.cpu; m[2][c][i] = r.achieved;
            m[3][c][i] = r.share[0]; m[4][c][i] = r.share[1];
            m[5][c][i] = (double) r.lost;
        }
    if (getloadavg(loads, 3) < 1)
        loads[0] = -1;
    printf("\n%s (load %.2f), medians of %d alternated runs:\n", name, loads[0], runs);
    printf("%8s %9s %9s %8s %8s %10s %8s %8s %6s\n", "hz", "wall_s", "cpu_s", "wall+%",
           "cpu+%", "achieved", "hot_t1%", "hot_t2%", "lost");
    for (c = 0; c < NCONF; c++)
    {
        double w = median(m[0][c], runs), u = median(m[1][c], runs);
        if (c == 0)
            base_w = w, base_c = u;
        printf("%8.0f %9.3f %9.3f %8.1f %8.1f %10.0f %8.1f %8.1f %6.0f\n", hzs[c], w, u,
               100 * (w / base_w - 1), 100 * (u / base_c - 1), median(m[2][c], runs),
               median(m[3][c], runs), median(m[4][c], runs), median(m[5][c], runs));
    }
}

static pid_t busy(void)
{
    pid_t p;
    fflush(stdout);
    p = fork();
    if (p == 0)
    {
        volatile unsigned long x = 0;
        alarm(600); /* bounded */
        for (;;)
            x++;
    }
    return p;
}

int main(int argc, char ** argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    pid_t b[2];
    if (runs < 1 || runs > MAXRUNS)
        runs = 5;
    if (argc > 2 && atoi(argv[2]) > 0)
        rounds = atoi(argv[2]);
    printf("p-sample: 2 threads x %d rounds of hot(400000) + cold(100000) "
           "(about 80/20); rate in samples per CPU second\n", rounds);
    phase("quiet", runs);
    b[0] = busy();
    b[1] = busy();
    phase("beside two busy processes", runs);
    kill(b[0], SIGKILL);
    kill(b[1], SIGKILL);
    waitpid(b[0], NULL, 0);
    waitpid(b[1], NULL, 0);
    return 0;
}
