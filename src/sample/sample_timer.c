/*
    The sampler's fallback when perf events are refused: a CPU-time timer
    per thread (timer_create on the thread's CPU clock, SIGEV_THREAD_ID,
    SIGPROF), whose handler walks the frame pointers of the interrupted
    code into a ring of the thread's own (its only writer). The reader
    thread (sample.c) arms a timer for each thread it finds in
    /proc/self/task at each pass (those that block SIGPROF, the reader's
    and the recorder's writer thread, are left out), reads the mappings
    the walk may touch, and drains the rings into the sample writer.
    The walk never faults: it reads only [sp, end) of the writable private
    mapping that holds the interrupted stack pointer, as the reader last
    read the mappings (published with a count of handlers running, so a
    table is freed only when no handler can still read it); each frame
    pointer must be 8-aligned, above the last and leave 16 bytes below the
    end, each return address at least 4096; at most SAMPLE_TIMER_FRAMES.
    On x86-64 it also keeps the word at sp, which the reader puts in as
    the caller of a frameless leaf when it is a return address the chain
    does not hold next (prof_impl_sample_leaf_caller, sample_ring.c).
    The reader scans /proc/self/task every SAMPLE_TIMER_SCAN_MS, so that
    a thread made after the start (the usual case: sampling starts at the
    top of main) is sampled from its first milliseconds, and reads the
    mappings again when it arms a thread (its stack is new) or every
    SAMPLE_POLL_MS. A thread's CPU time is read at each pass and, by the
    handler, at each of its samples, so that a thread that ends between
    two passes has its time counted up to its last sample (the rate
    achieved is samples over CPU time).
    The kernel checks CPU-time timers at its tick, so the rate is capped
    at CONFIG_HZ: each sample weighs 1 + the timer's overruns.
    With stack_bytes (dwarf) the handler also keeps the interrupted
    registers (from the ucontext) and a copy of [sp, sp + stack_bytes) cut at
    the end of the mapping that holds sp (the same table as the walk's, so
    the copy never faults), into a per-thread buffer beside its ring.
    SPDX-License-Identifier: MIT
*/
#include "sample_impl.h"
#include "internal.h"
#include "trace_format.h"

#include <errno.h>
#include <string.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__x86_64__)
# define TIMER_ARCH PROF_TF_ARCH_X86_64
# define TIMER_SP 7  /* rsp's DWARF number */
#else
# define TIMER_ARCH PROF_TF_ARCH_ARM64
# define TIMER_SP 31
#endif

#ifndef sigev_notify_thread_id
# define sigev_notify_thread_id _sigev_un._tid
#endif

typedef struct
{
    uint64_t ns;
    uint32_t weight;
    uint16_t n;
    uint8_t truncated;
    uint64_t word;              /* x86-64: the word at sp (a leaf's caller?) */
    uint64_t ip[SAMPLE_TIMER_FRAMES + 1]; /* + 1: room for that caller */
    uint64_t have;              /* dwarf: the registers kept */
    uint64_t r[SAMPLE_UREGS];
    uint32_t copied;            /* bytes of stack copied from r's sp */
} timer_entry;

typedef struct
{
    uint32_t tid;
    int live;                   /* its timer is armed */
    int seen;                   /* found by this pass's scan */
    timer_t timer;
    clockid_t clock;
    uint64_t cpu0, cpu1;        /* its CPU clock when armed, at the last pass */
    uint64_t cpu_seen;          /* the handler's: its CPU clock at its last sample */
    timer_entry * e;            /* SAMPLE_TIMER_ENTRIES */
    unsigned char * stack;      /* dwarf: T.stack_bytes an entry */
    unsigned head, tail;        /* head: the handler's, tail: the reader's */
    uint64_t dropped;           /* the handler's: its ring was full */
} timer_slot;

typedef struct
{
    size_t n;
    uintptr_t span[];           /* n pairs: start, end */
} region_table;

static struct
{
    timer_slot slot[SAMPLE_TIMER_THREADS];
    unsigned nslots;
    region_table * regions;
    uint64_t regions_ns;        /* when they were read, CLOCK_MONOTONIC_RAW */
    int handlers;               /* handlers running now */
    uint64_t period_ns;
    int capped;                 /* said: threads past the cap */
    unsigned stack_bytes;       /* copied a sample (0: fp only) */
} T;
static struct sigaction old_prof; /* SIGPROF's action before the first start */

/* ---- the handler ----------------------------------------------------------- */

static int in_region(const region_table * r, uintptr_t sp, uintptr_t * hi)
{
    size_t i;
    for (i = 0; r != NULL && i < r->n; i++)
        if (r->span[2 * i] <= sp && sp < r->span[2 * i + 1])
            return *hi = r->span[2 * i + 1], 1;
    return 0;
}

/* The chain at pc, its frame pointer fp and stack pointer sp into e.
   Other frames' words are read as they are: not an AddressSanitizer
   error (a stray frame pointer may land in a redzone). */
static __attribute__((no_sanitize_address)) void walk(timer_entry * e, uintptr_t pc, uintptr_t fp, uintptr_t sp)
{
    uintptr_t hi = 0;
    size_t n = 0;
    e->ip[n++] = pc;
    e->truncated = 0;
    e->word = 0;
    if (in_region(__atomic_load_n(&T.regions, __ATOMIC_SEQ_CST), sp, &hi))
    {
#if defined(__x86_64__)
        if (sp % 8 == 0 && sp <= hi - 8)
            e->word = *(const uintptr_t *) sp;
#endif
        while (fp >= sp && fp % 8 == 0 && fp <= hi - 16)
        {
            const uintptr_t * f = (const uintptr_t *) fp;
            if (f[1] < 4096)
                break;
            if (n == SAMPLE_TIMER_FRAMES)
            {
                e->truncated = 1;
                break;
            }
            e->ip[n++] = f[1];
            if (f[0] <= fp)
                break;
            fp = f[0];
        }
    }
    e->n = (uint16_t) n;
}

/* The registers of m and the stack from sp to at most T.stack_bytes,
   cut at the end of its mapping, into e and buf: byte by byte (no call
   out, other frames' redzones read as they are). */
static __attribute__((no_sanitize_address)) void keep_copy(timer_entry * e,
                                                           unsigned char * buf,
                                                           const mcontext_t * m)
{
    uintptr_t hi = 0, sp, i, n = 0;
#if defined(__x86_64__)
    static const int greg[] = { REG_RBX, REG_RBP, REG_RSP, REG_RIP, REG_R12, REG_R13,
                                REG_R14, REG_R15 };
    static const int dwarf[] = { 3, 6, 7, 16, 12, 13, 14, 15 };
    for (i = 0; i < sizeof greg / sizeof greg[0]; i++)
    {
        e->r[dwarf[i]] = (uint64_t) m->gregs[greg[i]];
        e->have |= UINT64_C(1) << dwarf[i];
    }
    sp = (uintptr_t) m->gregs[REG_RSP];
#else
    for (i = 19; i <= 30; i++)
        e->r[i] = m->regs[i];
    e->r[31] = m->sp;
    e->r[32] = m->pc;
    e->have = ((UINT64_C(1) << 33) - 1) & ~((UINT64_C(1) << 19) - 1);
    sp = (uintptr_t) m->sp;
#endif
    if (in_region(__atomic_load_n(&T.regions, __ATOMIC_SEQ_CST), sp, &hi))
        n = hi - sp < T.stack_bytes ? hi - sp : T.stack_bytes;
    for (i = 0; i < n; i++)
        buf[i] = ((const volatile unsigned char *) sp)[i];
    e->copied = (uint32_t) n;
}

/* A SIGPROF that is not a timer's of the sampler's: what it did before
   the sampler took SIGPROF (only SIG_DFL or SIG_IGN: start() refuses
   another handler). */
static void not_ours(void)
{
    if (old_prof.sa_handler == SIG_DFL)
    {
        signal(SIGPROF, SIG_DFL);
        raise(SIGPROF);
    }
}

static void on_prof(int sig, siginfo_t * si, void * uc)
{
    const mcontext_t * m = &((const ucontext_t *) uc)->uc_mcontext;
    int saved = errno;
    unsigned k = (unsigned) si->si_value.sival_int, head;
    timer_slot * s;
    timer_entry * e;
    struct timespec ts;
    (void) sig;
    /* counted first: stop() frees nothing while a handler runs */
    __atomic_add_fetch(&T.handlers, 1, __ATOMIC_SEQ_CST);
    if (si->si_code != SI_TIMER)
        not_ours();
    else if (k < __atomic_load_n(&T.nslots, __ATOMIC_SEQ_CST)) /* else a late one */
    {
        s = &T.slot[k];
        head = s->head;
        if (head - __atomic_load_n(&s->tail, __ATOMIC_ACQUIRE) >= SAMPLE_TIMER_ENTRIES)
            s->dropped++;
        else
        {
            e = &s->e[head % SAMPLE_TIMER_ENTRIES];
            clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
            e->ns = (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
            e->weight = 1 + (uint32_t) (si->si_overrun > 0 ? si->si_overrun : 0);
#if defined(__x86_64__)
            walk(e, (uintptr_t) m->gregs[REG_RIP], (uintptr_t) m->gregs[REG_RBP],
                 (uintptr_t) m->gregs[REG_RSP]);
#else
            walk(e, (uintptr_t) m->pc, (uintptr_t) m->regs[29], (uintptr_t) m->sp);
#endif
            e->have = 0;
            if (s->stack != NULL)
                keep_copy(e, s->stack + (size_t) (head % SAMPLE_TIMER_ENTRIES)
                          * T.stack_bytes, m);
            __atomic_store_n(&s->head, head + 1, __ATOMIC_RELEASE);
        }
        if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
            __atomic_store_n(&s->cpu_seen, (uint64_t) ts.tv_sec * 1000000000u
                             + (uint64_t) ts.tv_nsec, __ATOMIC_RELAXED);
    }
    __atomic_sub_fetch(&T.handlers, 1, __ATOMIC_SEQ_CST);
    errno = saved;
}

/* ---- the reader's side --------------------------------------------------------- */

/* The writable private mappings now (where a stack can be), or NULL. */
static region_table * read_regions(void)
{
    FILE * f = fopen("/proc/self/maps", "r");
    char line[512];
    size_t cap = 64;
    region_table * r = f != NULL ? (region_table *) malloc(sizeof *r + 2 * cap * sizeof(uintptr_t))
                                 : NULL;
    if (r != NULL)
        r->n = 0;
    while (r != NULL && fgets(line, sizeof line, f) != NULL)
    {
        unsigned long lo, hi;
        char perm[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perm) != 3 || strcmp(perm, "rw-p") != 0)
            continue;
        if (r->n == cap)
        {
            region_table * g = (region_table *) realloc(r, sizeof *r + 4 * cap * sizeof(uintptr_t));
            if (g == NULL)
                break;
            r = g;
            cap *= 2;
        }
        r->span[2 * r->n] = (uintptr_t) lo;
        r->span[2 * r->n + 1] = (uintptr_t) hi;
        r->n++;
    }
    if (f != NULL)
        fclose(f);
    return r;
}

/* New mappings for the walk; the old table freed once no handler can be
   reading it (else kept: it is small). */
static void refresh_regions(void)
{
    region_table * r = read_regions(), * old;
    struct timespec ts;
    int i;
    if (r == NULL)
        return;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    T.regions_ns = (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
    old = __atomic_exchange_n(&T.regions, r, __ATOMIC_SEQ_CST);
    for (i = 0; i < 1000 && __atomic_load_n(&T.handlers, __ATOMIC_SEQ_CST) != 0; i++)
        sched_yield();
    if (i < 1000)
        free(old);
}

/* 1 if thread tid blocks SIGPROF (the reader, the recorder's writer). */
static int blocks_prof(uint32_t tid)
{
    char path[64], line[256];
    unsigned long long mask = 0;
    FILE * f;
    snprintf(path, sizeof path, "/proc/self/task/%u/status", (unsigned) tid);
    if ((f = fopen(path, "r")) == NULL)
        return 1; /* gone */
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "SigBlk: %llx", &mask) == 1)
            break;
    fclose(f);
    return (mask >> (SIGPROF - 1)) & 1;
}

static uint64_t cpu_of(clockid_t c, uint64_t before)
{
    struct timespec ts;
    if (clock_gettime(c, &ts) != 0)
        return before; /* the thread has ended */
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* Slot s's CPU time to now, or, for a thread that has ended, to the last
   of its samples if that came after the last pass. */
static void count_cpu(timer_slot * s)
{
    uint64_t seen = __atomic_load_n(&s->cpu_seen, __ATOMIC_RELAXED);
    s->cpu1 = cpu_of(s->clock, s->cpu1);
    if (seen > s->cpu1)
        s->cpu1 = seen;
}

/* A timer on thread tid's CPU clock in slot k: 0, or -1. */
static int arm(unsigned k, uint32_t tid)
{
    timer_slot * s = &T.slot[k];
    struct sigevent ev;
    struct itimerspec it;
    memset(s, 0, sizeof *s);
    s->tid = tid;
    /* the thread's CPU clock, as pthread_getcpuclockid makes it:
       (~tid << 3) | CPUCLOCK_PERTHREAD | CPUCLOCK_SCHED */
    s->clock = (clockid_t) (int) ((~(unsigned) tid << 3) | 6u);
    if ((s->e = (timer_entry *) malloc(SAMPLE_TIMER_ENTRIES * sizeof *s->e)) == NULL)
        return -1;
    if (T.stack_bytes > 0
        && (s->stack = (unsigned char *) malloc((size_t) SAMPLE_TIMER_ENTRIES
                                                * T.stack_bytes)) == NULL)
    {
        free(s->e);
        s->e = NULL;
        return -1;
    }
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = SIGPROF;
    ev.sigev_value.sival_int = (int) k;
    ev.sigev_notify_thread_id = (pid_t) tid;
    if (timer_create(s->clock, &ev, &s->timer) != 0)
    {
        free(s->e);
        free(s->stack);
        s->e = NULL;
        s->stack = NULL;
        return -1;
    }
    s->live = 1;
    s->cpu0 = s->cpu1 = cpu_of(s->clock, 0);
    it.it_interval.tv_sec = (time_t) (T.period_ns / 1000000000u);
    it.it_interval.tv_nsec = (long) (T.period_ns % 1000000000u);
    it.it_value = it.it_interval;
    __atomic_store_n(&T.nslots, k + 1, __ATOMIC_SEQ_CST); /* before it fires */
    if (timer_settime(s->timer, 0, &it, NULL) != 0)
    {
        timer_delete(s->timer);
        s->live = 0;
        return -1;
    }
    return 0;
}

static timer_slot * slot_of(uint32_t tid)
{
    unsigned k;
    for (k = 0; k < T.nslots; k++)
        if (T.slot[k].tid == tid && T.slot[k].e != NULL)
            return &T.slot[k];
    return NULL;
}

/* Timers for the threads that have none; those gone are let go. The
   number of timers armed. */
static int scan_threads(void)
{
    int armed = 0;
    DIR * d = opendir("/proc/self/task");
    struct dirent * de;
    unsigned k;
    for (k = 0; k < T.nslots; k++)
        T.slot[k].seen = 0;
    while (d != NULL && (de = readdir(d)) != NULL)
    {
        uint32_t tid = (uint32_t) strtoul(de->d_name, NULL, 10);
        timer_slot * s = tid != 0 ? slot_of(tid) : NULL;
        if (s != NULL)
            s->seen = 1;
        else if (tid != 0 && T.nslots < SAMPLE_TIMER_THREADS && !blocks_prof(tid)
                 && arm(T.nslots, tid) == 0)
            T.slot[T.nslots - 1].seen = 1, armed++;
        else if (tid != 0 && T.nslots == SAMPLE_TIMER_THREADS && !T.capped && !blocks_prof(tid))
        {
            T.capped = 1;
            prof_impl_warn("sampling: more than %d threads; the later ones are not "
                           "sampled", SAMPLE_TIMER_THREADS);
        }
    }
    if (d != NULL)
        closedir(d);
    for (k = 0; k < T.nslots; k++)
        if (T.slot[k].live)
        {
            count_cpu(&T.slot[k]);
            if (!T.slot[k].seen)
            {
                timer_delete(T.slot[k].timer);
                T.slot[k].live = 0;
            }
        }
    return armed;
}

static void drain(sample_writer * w)
{
    unsigned k;
    for (k = 0; k < T.nslots; k++)
    {
        timer_slot * s = &T.slot[k];
        unsigned head = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE), tail = s->tail;
        for (; s->e != NULL && tail != head; tail++)
        {
            /* not const: its ip may take the leaf's caller */
            timer_entry * e = &s->e[tail % SAMPLE_TIMER_ENTRIES];
            size_t n = e->n;
            int flags = e->truncated ? PROF_TF_SAMPLE_TRUNCATED : 0;
            sample_copy c;
            flags |= prof_impl_sample_leaf_caller(e->ip, &n,
                                                  SAMPLE_TIMER_FRAMES + 1, e->word);
            if (e->have != 0)
            {
                c.arch = TIMER_ARCH;
                c.have = e->have;
                memcpy(c.r, e->r, sizeof c.r);
                c.base = e->r[TIMER_SP];
                c.data = s->stack + (size_t) (tail % SAMPLE_TIMER_ENTRIES) * T.stack_bytes;
                c.size = e->copied;
            }
            prof_impl_sw_add(w, 0, s->tid, e->ns, e->ip, n, flags, e->weight,
                             e->have != 0 ? &c : NULL);
        }
        __atomic_store_n(&s->tail, tail, __ATOMIC_RELEASE);
    }
}

int prof_impl_sample_timers_start(double hz, unsigned stack_bytes, const char ** why)
{
    struct sigaction sa;
    static int installed;
    memset(&T, 0, sizeof T);
    T.period_ns = (uint64_t) (1e9 / hz + 0.5);
    T.stack_bytes = stack_bytes;
    if (installed)
        return 0; /* by an earlier start */
    if (sigaction(SIGPROF, NULL, &old_prof) != 0)
        return *why = "sigaction", errno;
    if ((old_prof.sa_flags & SA_SIGINFO) || (old_prof.sa_handler != SIG_DFL
                                          && old_prof.sa_handler != SIG_IGN))
        return *why = "the program has a SIGPROF handler", EBUSY;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_prof;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigfillset(&sa.sa_mask);
    if (sigaction(SIGPROF, &sa, NULL) != 0)
        return *why = "sigaction", errno;
    /* kept after the stop: a timer's signal already queued may still come */
    installed = 1;
    return 0;
}

void prof_impl_sample_timers_poll(sample_writer * w)
{
    struct timespec ts;
    uint64_t now;
    int armed = scan_threads();
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    now = (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
    if (armed > 0 || now - T.regions_ns >= SAMPLE_POLL_MS * 1000000ull)
        refresh_regions();
    drain(w);
}

sample_timer_counts prof_impl_sample_timers_stop(sample_writer * w)
{
    sample_timer_counts c;
    unsigned k, n = T.nslots;
    int i;
    memset(&c, 0, sizeof c);
    c.period_ns = T.period_ns;
    for (k = 0; k < n; k++)
        if (T.slot[k].live)
            timer_delete(T.slot[k].timer);
    __atomic_store_n(&T.nslots, 0, __ATOMIC_SEQ_CST); /* late signals: ignored */
    for (i = 0; i < 100000 && __atomic_load_n(&T.handlers, __ATOMIC_SEQ_CST) != 0; i++)
        sched_yield();
    for (k = 0; k < n; k++)
        if (T.slot[k].live)
            count_cpu(&T.slot[k]); /* the handlers' last word included */
    T.nslots = n;
    drain(w);
    T.nslots = 0;
    for (k = 0; k < n; k++)
    {
        c.cpu_ns += T.slot[k].cpu1 - T.slot[k].cpu0;
        c.lost += T.slot[k].dropped;
        if (i < 100000)
        {
            free(T.slot[k].e);
            free(T.slot[k].stack);
        }
    }
    if (i < 100000)
        free(T.regions);
    T.regions = NULL;
    return c;
}

#else /* no timer fallback here */

int prof_impl_sample_timers_start(double hz, unsigned stack_bytes, const char ** why)
{
    (void) hz; (void) stack_bytes;
    *why = "no frame-pointer walk on this system";
    return ENOSYS;
}

void prof_impl_sample_timers_poll(sample_writer * w) { (void) w; }

sample_timer_counts prof_impl_sample_timers_stop(sample_writer * w)
{
    sample_timer_counts c;
    (void) w;
    memset(&c, 0, sizeof c);
    return c;
}

#endif
