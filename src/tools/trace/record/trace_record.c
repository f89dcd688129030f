/*
    prof-trace record [--hz=N] [--children] [--call-graph=fp|dwarf[,BYTES]] [-o FILE]
    -- COMMAND ARGS...:
    runs COMMAND and samples it and its threads, and with --children its
    child processes too (perf events per CPU on the child, enabled at its
    exec, inherited), the way perf record does,
    into a trace file of format version 4 (ticks are CLOCK_MONOTONIC_RAW
    nanoseconds: rate 1e9). The kernel's MMAP2, COMM, FORK and EXIT records
    become MAPS2 and PROCESS chunks, so that samples of code unmapped since
    and of processes gone still name their functions. The rings and the
    chains are the in-process sampler's (src/sample).
    The trace goes to a temporary file that replaces -o's file only when
    the command ran (src/core/outfile.c); a file the command names is
    refused. The command runs in this process's group (the terminal's ^C
    reaches it) with SIGINT, SIGTERM and SIGHUP at their default action;
    one of them sent to prof-trace alone is passed on to it. Either way,
    once the command has ended and the trace is written, the same signal
    ends prof-trace (a shell sees 128 + N).
    Exit status: the command's; 128 + N if signal N killed it; 127 if it
    could not be run; 1 if sampling was refused or the file not written;
    2 for bad usage or an output the command names.
    SPDX-License-Identifier: MIT
*/
#include "trace_record.h"
#include "sample_impl.h"
#include "internal.h"
#include "trace_format.h"
#include "prof_spawn.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PROGRAM "prof-trace record"

typedef struct
{
    FILE * f;                 /* the output's temporary file */
    char ** cmd;
    double hz;
    int children;             /* --children */
    unsigned cg;              /* --call-graph: stack bytes a sample (0: fp) */
    int opened;               /* the events are open, the header written */
    int keep;                 /* the command ran: the trace replaces -o's file */
    uint64_t ns0;             /* the start, CLOCK_MONOTONIC_RAW */
    sample_rings rings;
    sample_writer w;
} recorder;

static uint64_t raw_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static int put(void * ctx, uint32_t type, uint32_t tid, const void * p, size_t n)
{
    recorder * r = (recorder *) ctx;
    prof_tf_chunk c;
    c.magic = PROF_TF_CHUNK_MAGIC;
    c.type = type;
    c.size = (uint32_t) n;
    c.tid = tid;
    /* a failure stays in r->f's error indicator: the commit says it */
    if (fwrite(&c, sizeof c, 1, r->f) != 1 || (n > 0 && fwrite(p, n, 1, r->f) != 1))
        return -1;
    return 0;
}

static uint64_t same_ns(void * ctx, uint64_t ns)
{
    (void) ctx;
    return ns;
}

/* A chunk of a u64 time, two u32 and text, zero padded to 8. */
static void put_text(recorder * r, uint32_t type, uint32_t tid, uint64_t ns,
                     const uint32_t * four, int nfour, const char * text)
{
    unsigned char b[PROF_TF_MAX_STRING + 64];
    size_t len = strlen(text), at = 8 + 4 * (size_t) nfour, n;
    if (len > PROF_TF_MAX_STRING)
        len = PROF_TF_MAX_STRING;
    n = (at + len + 8) / 8 * 8;
    memset(b, 0, n);
    memcpy(b, &ns, 8);
    memcpy(b + 8, four, 4 * (size_t) nfour);
    memcpy(b + at, text, len);
    put(r, type, tid, b, n);
}

static void process_rec(recorder * r, uint32_t tid, uint64_t ns, uint32_t pid,
                        uint32_t ppid, uint32_t kind, const char * name)
{
    uint32_t v[4];
    v[0] = pid;
    v[1] = ppid;
    v[2] = kind;
    v[3] = 0;
    put_text(r, PROF_TF_PROCESS, tid, ns, v, 4, name);
}

/* MMAP2 (an executable mapping: a line of /proc/PID/maps), COMM at exec,
   FORK and EXIT. */
static void on_record(void * ctx, unsigned type_misc, const unsigned char * p,
                      size_t n, uint64_t ns)
{
    recorder * r = (recorder *) ctx;
    unsigned type = type_misc & 0xffff, misc = type_misc >> 16;
    uint32_t u[4], zero[2] = { 0, 0 }, replace[2] = { PROF_TF_MAPS_REPLACE, 0 };
    char line[PROF_TF_MAX_STRING + 128];
    if (n < 16)
        return;
    memcpy(u, p, 16);
    if (type == 10 /* PERF_RECORD_MMAP2 */ && n > 64)
    {
        uint64_t addr, len, pgoff, ino;
        uint32_t maj, min, prot;
        memcpy(&addr, p + 8, 8);
        memcpy(&len, p + 16, 8);
        memcpy(&pgoff, p + 24, 8);
        memcpy(&maj, p + 32, 4);
        memcpy(&min, p + 36, 4);
        memcpy(&ino, p + 40, 8);
        memcpy(&prot, p + 56, 4);
        if (!(prot & PROT_EXEC))
            return;
        snprintf(line, sizeof line, "%llx-%llx r-xp %08llx %02x:%02x %llu %.*s\n",
                 (unsigned long long) addr, (unsigned long long) (addr + len),
                 (unsigned long long) pgoff, maj, min, (unsigned long long) ino,
                 (int) (n - 64), (const char *) p + 64);
        put_text(r, PROF_TF_MAPS2, u[0], ns, zero, 2, line);
    }
    else if (type == 3 /* COMM */ && (misc & (1u << 13)) /* COMM_EXEC */)
    {
        snprintf(line, sizeof line, "%.*s", (int) (n - 8), (const char *) p + 8);
        put_text(r, PROF_TF_MAPS2, u[0], ns, replace, 2, "");
        process_rec(r, u[1], ns, u[0], 0, PROF_TF_PROC_EXEC, line);
    }
    else if (type == 7 /* FORK */ || type == 4 /* EXIT */)
    {
        /* pid, ppid, tid, ptid */
        int proc = u[0] == u[2];
        if (type == 7 && proc)
            process_rec(r, u[2], ns, u[0], u[1], PROF_TF_PROC_START, "");
        if (type == 7)
            process_rec(r, u[2], ns, u[0], u[1], PROF_TF_PROC_THREAD, "");
        else
            process_rec(r, u[2], ns, u[0], u[1], proc ? PROF_TF_PROC_EXIT
                        : PROF_TF_PROC_THREAD_EXIT, "");
    }
}

static void on_sample(void * ctx, uint32_t pid, uint32_t tid, uint64_t ns,
                      const uint64_t * ip, size_t n, int flags, const sample_copy * c)
{
    prof_impl_sw_add(&((recorder *) ctx)->w, pid, tid, ns, ip, n, flags, 1, c);
}

static void drain(recorder * r, int last)
{
    uint64_t now = raw_ns();
    prof_impl_sample_rings_drain(&r->rings, on_sample, on_record, r);
    prof_impl_sw_flush(&r->w, last ? UINT64_MAX : now - SAMPLE_HOLD_NS);
}

/* The file header, and a SAMPLING chunk saying the file holds no zones. */
static void put_header(recorder * r, uint32_t pid, uint64_t ns0)
{
    static const uint64_t no_zones[2] = { PROF_TF_SAMPLING_NO_ZONES, 1 };
    prof_tf_header h;
    struct timespec ts;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, PROF_TF_MAGIC, 8);
    h.bom = PROF_TF_BOM;
    h.version = PROF_TF_VERSION;
    h.header_size = sizeof h;
    h.pid = pid;
    h.tick_rate = 1e9;
    h.start_ticks = ns0;
    clock_gettime(CLOCK_REALTIME, &ts);
    h.start_unix_ns = (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
    (void) fwrite(&h, sizeof h, 1, r->f); /* a failure: as in put */
    /* no zones, ever: a reader names each sample's zone (none) at once */
    put(r, PROF_TF_SAMPLING, 0, no_zones, sizeof no_zones);
}

static void put_end(recorder * r, double hz, uint64_t ns0, uint64_t cpu_ns, int sig)
{
    uint64_t now = raw_ns() & PROF_TF_TICK_MASK;
    uint64_t kv[][2] = {
        { PROF_TF_SAMPLING_METHOD, PROF_TF_METHOD_PERF },
        { PROF_TF_SAMPLING_EVENT, 1 /* PERF_COUNT_SW_TASK_CLOCK */ },
        { PROF_TF_SAMPLING_HZ, (uint64_t) (hz + 0.5) },
        { PROF_TF_SAMPLING_CLOCK, CLOCK_MONOTONIC_RAW },
        { PROF_TF_SAMPLING_RING, r->rings.ring_bytes },
        { PROF_TF_SAMPLING_MAX_STACK, r->rings.max_stack },
        { PROF_TF_SAMPLING_START, ns0 & PROF_TF_TICK_MASK },
        { PROF_TF_SAMPLING_STOP, now },
        { PROF_TF_SAMPLING_SAMPLES, r->w.samples },
        { PROF_TF_SAMPLING_LOST, r->rings.lost },
        { PROF_TF_SAMPLING_TRUNCATED, r->w.truncated },
        { PROF_TF_SAMPLING_DROPPED, r->w.dropped },
        { PROF_TF_SAMPLING_CPU_NS, cpu_ns } };
    uint64_t end[3];
    put(r, PROF_TF_SAMPLING, 0, kv, sizeof kv);
    end[0] = now;
    end[1] = 0;
    end[2] = (uint64_t) (unsigned) sig;
    put(r, PROF_TF_END, 0, end, sizeof end);
}

/* Before the command's exec (prof_spawn_cmd.before_exec): the events
   opened on it, the file's header. 0, or -1 after a message (refused). */
static int open_events(void * ctx, long pid)
{
    recorder * r = (recorder *) ctx;
    int rc;
    r->ns0 = raw_ns();
    if ((rc = prof_impl_sample_rings_open(&r->rings, r->hz, (pid_t) pid,
                                          r->children, r->cg)) != 0)
    {
        char why[512];
        prof_impl_counters_reason(why, sizeof why, rc, prof_impl_why_process(),
                                  prof_impl_perf_paranoid());
        prof_impl_warn(PROGRAM ": perf events refused (%s): %s; another process "
                       "cannot be sampled without them (no fallback): not run",
                       strerror(rc), why);
        return -1;
    }
    r->opened = 1;
    put_header(r, (uint32_t) pid, r->ns0);
    process_rec(r, (uint32_t) pid, r->ns0, (uint32_t) pid, (uint32_t) getpid(),
                PROF_TF_PROC_START, r->cmd[0]);
    process_rec(r, (uint32_t) pid, r->ns0, (uint32_t) pid, 0, PROF_TF_PROC_THREAD, "");
    return 0;
}

/* While the command runs (prof_spawn_cmd.while_running): a poll of the
   rings, then what they hold drained. */
static void sample_some(void * ctx)
{
    recorder * r = (recorder *) ctx;
    struct pollfd p[SAMPLE_MAX_CPUS];
    int i;
    for (i = 0; i < r->rings.n; i++)
    {
        p[i].fd = r->rings.fd[i];
        p[i].events = POLLIN;
    }
    poll(p, (nfds_t) r->rings.n, SAMPLE_POLL_MS);
    drain(r, 0);
}

/* Run the command (stopped before its exec while its events open), sample
   it (and its child processes if r->children) until it ends, write the
   trace. It stays in this process's group (the terminal's ^C reaches it);
   a SIGINT, SIGTERM or SIGHUP sent to this process alone is passed on to
   it, and noted in *sig. Returns the exit status (see the top); r->keep
   says whether the command ran (the trace is worth keeping). */
static int record(recorder * r, int * sig)
{
    prof_spawn_cmd cmd;
    prof_spawn_result res;
    int rc;
    memset(&cmd, 0, sizeof cmd);
    cmd.argv = r->cmd;
    cmd.before_exec = open_events;
    cmd.while_running = sample_some;
    cmd.ctx = r;
    cmd.same_group = 1;
    rc = prof_spawn_run(&cmd, &res);
    *sig = res.interrupted;
    if (r->opened)
    {
        prof_impl_sample_rings_enable(&r->rings, 0);
        if (rc == 0)
            drain(r, 1);
        put_end(r, r->hz, r->ns0, prof_impl_sample_rings_close(&r->rings),
                res.end == PROF_SPAWN_KILLED ? res.status : 0);
    }
    r->keep = rc == 0; /* else the command did not run: nothing to keep */
    if (rc != 0 && (r->opened || res.status != ECANCELED)) /* else refused, said */
        prof_impl_warn(PROGRAM ": %s: %s", r->cmd[0], strerror(res.status));
    if (rc != 0)
        return r->opened ? 127 : 1;
    return res.end == PROF_SPAWN_KILLED ? 128 + res.status : res.status;
}

static int usage(void)
{
    fprintf(stderr, "usage: prof-trace record [--hz=N] [--children] "
            "[--call-graph=fp|dwarf[,BYTES]] [-o FILE] -- COMMAND [ARGS...]\n"
            "  --hz=N      samples per CPU second, (0, %d] (default %d)\n"
            "  --call-graph=fp|dwarf[,BYTES]  stacks by frame pointers alone, or\n"
            "              also the registers and BYTES of stack a sample (default\n"
            "              %d), unwound by the binaries' CFI when reported\n"
            "              (default %s)\n"
            "  --children  sample the command's child processes too (default:\n"
            "              the command and its threads)\n"
            "  -o FILE     the trace file (default prof-trace.record.PID.ptrace)\n",
            SAMPLE_MAX_HZ, SAMPLE_DEFAULT_HZ, SAMPLE_STACK_BYTES,
            SAMPLE_RECORD_CG_DEFAULT > 0 ? "dwarf" : "fp");
    return 2;
}

/* 1 if out names a file of the command (its program, an argument): it
   would be replaced; after a message. */
static int out_is_input(const char * out, char ** cmd)
{
    int i;
    for (i = 0; cmd[i] != NULL; i++)
        if (prof_impl_same_file(out, cmd[i]))
        {
            prof_impl_warn(PROGRAM ": -o %s is %s, which the command names: "
                           "refused (it would be replaced)", out, cmd[i]);
            return 1;
        }
    return 0;
}

int pt_record_main(int argc, char ** argv)
{
    const char * out = NULL;
    char path[64];
    prof_impl_outfile of;
    recorder r;
    int i, rc, sig = 0;
    memset(&r, 0, sizeof r);
    r.hz = SAMPLE_DEFAULT_HZ;
    r.cg = SAMPLE_RECORD_CG_DEFAULT;
    for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
    {
        if (strncmp(argv[i], "--hz=", 5) == 0)
        {
            if ((r.hz = prof_impl_sample_rate(argv[i] + 5)) == 0)
            {
                prof_impl_warn(PROGRAM ": --hz=%s: not a rate in (0, %d]", argv[i] + 5,
                               SAMPLE_MAX_HZ);
                return 2;
            }
        }
        else if (strcmp(argv[i], "--children") == 0)
            r.children = 1;
        else if (strncmp(argv[i], "--call-graph=", 13) == 0)
        {
            long cg = prof_impl_sample_cg(argv[i] + 13);
            if (cg < 0)
            {
                prof_impl_warn(PROGRAM ": --call-graph=%s: not fp, dwarf or dwarf,BYTES "
                               "(%d to %d)", argv[i] + 13, SAMPLE_MIN_STACK, SAMPLE_MAX_STACK);
                return 2;
            }
            r.cg = (unsigned) cg;
        }
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else
            return usage();
    }
    if (i + 1 >= argc)
        return usage();
    r.cmd = argv + i + 1;
    if (out == NULL)
    {
        snprintf(path, sizeof path, "prof-trace.record.%ld.ptrace", (long) getpid());
        out = path;
    }
    if (out_is_input(out, r.cmd))
        return 2;
    /* a temporary file, which replaces out only once the trace is whole */
    if (prof_impl_outfile_open(&of, out) != 0)
        return 1;
    r.f = of.f;
    r.w.put = put;
    r.w.ticks = same_ns;
    r.w.ctx = &r;
    rc = record(&r, &sig);
    if (!r.keep)
        prof_impl_outfile_abort(&of);      /* not run: out as it was */
    else if (prof_impl_outfile_commit(&of) != 0) /* a write failed: said */
        rc = rc != 0 ? rc : 1;
    else
        fprintf(stderr, PROGRAM ": %llu samples (%llu lost, %llu chains "
                "truncated) written to %s\n", (unsigned long long) r.w.samples,
                (unsigned long long) r.rings.lost, (unsigned long long) r.w.truncated,
                out);
    prof_impl_sw_free(&r.w);
    /* a SIGINT, SIGTERM or SIGHUP ended the command: now the trace is
       written, the same signal ends this process (a shell sees 128 + N) */
    prof_spawn_release(sig);
    return rc;
}
