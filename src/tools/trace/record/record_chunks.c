/*
    prof-trace record's chunks: the file header, the kernel's records
    (MMAP2, COMM, FORK, EXIT) as MAPS2 and PROCESS chunks, the samples
    through the sampler's writer, the counts and the end. See
    record_impl.h, and trace_format.h for the chunks.
    SPDX-License-Identifier: MIT
*/
#include "record_impl.h"
#include "internal.h"
#include "trace_format.h"

#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

uint64_t pt_rec_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

int pt_rec_put(void * ctx, uint32_t type, uint32_t tid, const void * p, size_t n)
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

void pt_rec_writer_init(recorder * r)
{
    r->w.put = pt_rec_put;
    r->w.ticks = same_ns;
    r->w.ctx = r;
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
    pt_rec_put(r, type, tid, b, n);
}

void pt_rec_process(recorder * r, uint32_t tid, uint64_t ns, uint32_t pid,
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
        pt_rec_process(r, u[1], ns, u[0], 0, PROF_TF_PROC_EXEC, line);
    }
    else if (type == 7 /* FORK */ || type == 4 /* EXIT */)
    {
        /* pid, ppid, tid, ptid */
        int proc = u[0] == u[2];
        if (type == 7 && proc)
            pt_rec_process(r, u[2], ns, u[0], u[1], PROF_TF_PROC_START, "");
        if (type == 7 && r->forked != NULL)
            r->forked(r->forked_ctx, u[0], u[2]);
        if (type == 7)
            pt_rec_process(r, u[2], ns, u[0], u[1], PROF_TF_PROC_THREAD, "");
        else
            pt_rec_process(r, u[2], ns, u[0], u[1], proc ? PROF_TF_PROC_EXIT
                           : PROF_TF_PROC_THREAD_EXIT, "");
    }
}

static void on_sample(void * ctx, uint32_t pid, uint32_t tid, uint64_t ns,
                      const uint64_t * ip, size_t n, int flags, const sample_copy * c)
{
    prof_impl_sw_add(&((recorder *) ctx)->w, pid, tid, ns, ip, n, flags, 1, c);
}

void pt_rec_drain(recorder * r, int last)
{
    uint64_t now = pt_rec_now_ns();
    prof_impl_sample_rings_drain(&r->rings, on_sample, on_record, r);
    prof_impl_sw_flush(&r->w, last ? UINT64_MAX : now - SAMPLE_HOLD_NS);
}

void pt_rec_poll(recorder * r, int ms)
{
    struct pollfd p[SAMPLE_MAX_CPUS];
    int i;
    for (i = 0; i < r->rings.n; i++)
    {
        p[i].fd = r->rings.fd[i];
        p[i].events = POLLIN;
    }
    poll(p, (nfds_t) r->rings.n, ms);
    pt_rec_drain(r, 0);
}

/* The file header, and a SAMPLING chunk saying the file holds no zones. */
void pt_rec_header(recorder * r, uint32_t pid, uint64_t ns0)
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
    pt_rec_put(r, PROF_TF_SAMPLING, 0, no_zones, sizeof no_zones);
}

void pt_rec_end(recorder * r, uint64_t cpu_ns, int sig)
{
    uint64_t now = pt_rec_now_ns() & PROF_TF_TICK_MASK;
    uint64_t kv[][2] = {
        { PROF_TF_SAMPLING_METHOD, PROF_TF_METHOD_PERF },
        { PROF_TF_SAMPLING_EVENT, 1 /* PERF_COUNT_SW_TASK_CLOCK */ },
        { PROF_TF_SAMPLING_HZ, (uint64_t) (r->hz + 0.5) },
        { PROF_TF_SAMPLING_CLOCK, CLOCK_MONOTONIC_RAW },
        { PROF_TF_SAMPLING_RING, r->rings.ring_bytes },
        { PROF_TF_SAMPLING_MAX_STACK, r->rings.max_stack },
        { PROF_TF_SAMPLING_START, r->ns0 & PROF_TF_TICK_MASK },
        { PROF_TF_SAMPLING_STOP, now },
        { PROF_TF_SAMPLING_SAMPLES, r->w.samples },
        { PROF_TF_SAMPLING_LOST, r->rings.lost },
        { PROF_TF_SAMPLING_TRUNCATED, r->w.truncated },
        { PROF_TF_SAMPLING_DROPPED, r->w.dropped },
        { PROF_TF_SAMPLING_CPU_NS, cpu_ns } };
    uint64_t end[3];
    pt_rec_put(r, PROF_TF_SAMPLING, 0, kv, sizeof kv);
    end[0] = now;
    end[1] = 0;
    end[2] = (uint64_t) (unsigned) sig;
    pt_rec_put(r, PROF_TF_END, 0, end, sizeof end);
}

