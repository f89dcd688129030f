/*
    The reader's sampling chunks (format versions 3 and 4): the trace that
    make_sampled_trace.py writes (argv[1]) read back sample by sample with
    its known shares, stacks, mappings, processes and counts; then damaged
    sampling records built here, each refused with a message.
    SPDX-License-Identifier: MIT
*/
#include "check.h"
#include "trace_read.h"
#include "trace_util.h"
#include "trace_elf.h"

typedef struct
{
    unsigned long per_stack[2][8]; /* [thread 7 or 8][stack id] */
    unsigned long weight8, nostack, truncated, calls;
    int64_t last, zone_begin;
    int in_order;
    unsigned long zones;
    unsigned long copies;          /* samples with a stack copy */
    uint64_t copy_sp, copy_pc, copy_word; /* the first copy's rsp, rip, data */
} counts;

static void on_zone(void * ctx, const pt_trace * t, const pt_zone * z)
{
    counts * c = (counts *) ctx;
    (void) t;
    c->zones++;
    c->zone_begin = z->begin;
}

static void on_sample(void * ctx, const pt_trace * t, const pt_sample * s)
{
    counts * c = (counts *) ctx;
    int th = s->tid == 8;
    c->calls++;
    if (s->tid == 8)
        c->weight8 += s->weight;
    if (s->stack == PT_NO_STACK)
        c->nostack++;
    else if (s->stack < 8)
        c->per_stack[th][s->stack]++;
    if (s->flags & PT_SAMPLE_TRUNCATED)
        c->truncated++;
    if (s->copy != NULL && c->copies++ == 0 && s->copy->size >= 8)
    {
        c->copy_sp = s->copy->r[7];
        c->copy_pc = s->copy->r[16];
        memcpy(&c->copy_word, s->copy->data, 8);
    }
    if (s->tid == 7)
    {
        c->in_order &= s->ticks >= c->last;
        c->last = s->ticks;
    }
    CHECK(t->threads[s->thread].tid == s->tid, "thread index");
}

static void test_generated(const char * path)
{
    counts c;
    pt_handler h;
    pt_options o;
    pt_trace t;
    uint32_t n;
    const uint64_t * ip;
    const pt_vma * v;
    memset(&c, 0, sizeof c);
    c.in_order = 1;
    memset(&o, 0, sizeof o);
    pt_handler_init(&h, &c);
    h.sample = on_sample;
    CHECK(pt_stream(path, &o, &h, &t) == 0, "read %s", path);
    CHECK(t.version == 3 && t.nzones == 2, "version %u, %zu zones", t.version, t.nzones);
    CHECK(c.calls == 2000 && t.sampling.read == 2000 && t.sampling.recorded == 2000,
          "%lu samples", c.calls);
    CHECK(c.per_stack[0][0] == 800 && c.per_stack[0][1] == 200 && c.in_order,
          "thread 7: %lu hot, %lu cold", c.per_stack[0][0], c.per_stack[0][1]);
    CHECK(c.per_stack[1][2] == 499 && c.per_stack[1][3] == 250
          && c.per_stack[1][4] == 250 && c.nostack == 1 && c.truncated == 1
          && c.weight8 == 1002, "thread 8: %lu %lu %lu, weight %lu",
          c.per_stack[1][2], c.per_stack[1][3], c.per_stack[1][4], c.weight8);
    CHECK(t.nstacks == 5 && t.stacks[4].pid == 4242, "%zu stacks", t.nstacks);
    ip = pt_stack_frames(&t, 0, &n);
    CHECK(n == 3 && ip != NULL && ip[0] == 0x7F0000001010u, "stack 0: %u frames", n);
    CHECK(pt_stack_frames(&t, PT_NO_STACK, &n) == NULL && n == 0, "no stack");
    CHECK(t.sampling.method == PT_SAMPLING_PERF && t.sampling.hz == 10000
          && t.sampling.lost == 5 && t.sampling.truncated == 1
          && t.sampling.achieved_hz > 10009 && t.sampling.achieved_hz < 10011,
          "method %d, %g Hz, lost %llu, achieved %g", t.sampling.method,
          t.sampling.hz, (unsigned long long) t.sampling.lost,
          t.sampling.achieved_hz);
    v = pt_vma_at(&t, 4242, 0x7F1000001010u, 60000000);
    CHECK(v != NULL && strstr(v->path, "libplugin.so") != NULL, "plugin mapped");
    CHECK(pt_vma_at(&t, 4242, 0x7F1000001010u, 40000000) == NULL, "not yet mapped");
    CHECK(pt_vma_at(&t, 4242, 0x7F0000001010u, 0) != NULL, "MAPS at 0");
    CHECK(t.nprocesses == 1 && t.processes[0].end == 100200000
          && strcmp(t.processes[0].name, "/nonexistent/sampled") == 0, "process");
    pt_free(&t);
}

/* Stream b from a file, the warnings into *w (freed by the next call). */
static int read_warned(tbuf * b, pt_trace * t, counts * c, char ** w)
{
    static char * buf;
    static size_t len;
    char path[] = "/tmp/test_sample_read_XXXXXX";
    int fd = mkstemp(path), rc = -9;
    pt_options o;
    pt_handler h;
    FILE * f;
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    memset(&o, 0, sizeof o);
    o.warn = f;
    memset(c, 0, sizeof *c);
    c->in_order = 1;
    pt_handler_init(&h, c);
    h.sample = on_sample;
    h.zone = on_zone;
    if (fd >= 0 && write(fd, b->d, b->n) == (ssize_t) b->n)
        rc = pt_stream(path, &o, &h, t);
    if (fd >= 0)
    {
        close(fd);
        unlink(path);
    }
    fclose(f);
    *w = buf;
    return rc;
}

static void test_damaged(void)
{
    static const uint64_t stack[] = { UINT64_C(8) << 32 | 0, 0x1000 };
    uint64_t bad_id[] = { UINT64_C(1) << 32 | 5, 0x1000 };
    uint64_t huge[] = { UINT64_C(5000) << 32 | 1 };
    uint64_t samples[] = { 100, 10 << 24 | 0 << 3,
                           10 << 24 | (uint64_t) PROF_TF_NO_STACK << 3,
                           10 << 24 | 0 << 3 | 4 };
    uint64_t maps2[] = { 5 };
    uint64_t ext[] = { 0, UINT64_C(5) << 24 | 2 << 8 | 31u << 3 | 7, 1, 2,
                       UINT64_C(5) << 24 | 0 << 3 | 0 };
    tbuf b = { 0, 0, 0 };
    pt_trace t;
    counts c;
    char * w;
    tb_header(&b, 1e9, 0);
    tb_chunk(&b, PROF_TF_STACKS, 0, stack, sizeof stack); /* 8 frames claimed */
    tb_chunk(&b, PROF_TF_STACKS, 0, bad_id, sizeof bad_id);
    tb_chunk(&b, PROF_TF_STACKS, 0, huge, sizeof huge);
    tb_chunk(&b, PROF_TF_SAMPLES, 9, samples, sizeof samples);
    tb_chunk(&b, PROF_TF_MAPS2, 0, maps2, sizeof maps2);
    tb_labels(&b, 9, 0, (const uint64_t[]) { 0x42 }, 1);
    tb_string(&b, 0x42, "z");
    tb_chunk(&b, PROF_TF_EVENTS2, 9, ext, sizeof ext);
    tb_end(&b, 1000, 0);
    CHECK(read_warned(&b, &t, &c, &w) == 0, "read");
    CHECK(strstr(w, "stack 0 of 8 frames") != NULL
          && strstr(w, "stack 5 of 1 frames") != NULL
          && strstr(w, "stack 1 of 5000 frames") != NULL
          && strstr(w, "sample of stack 0, which is not defined") != NULL
          && strstr(w, "weight of 0") != NULL
          && strstr(w, "mappings record of 8 bytes") != NULL
          && strstr(w, "in-stream record of kind 31") != NULL, "warnings:\n%s", w);
    CHECK(t.nstacks == 0 && t.sampling.read == 1 && c.nostack == 1, "%zu stacks, "
          "%llu samples", t.nstacks, (unsigned long long) t.sampling.read);
    /* the extension record's two payload words are not events */
    CHECK(c.zones == 1 && c.zone_begin == 10, "%lu zones, at %lld", c.zones,
          (long long) c.zone_begin);
    pt_free(&t);
    free(b.d);
}

/* USAMPLES (version 4): a sample with its registers (rsp, rip) and 16
   bytes of stack; one of an architecture not known (its chain kept); one
   weighted; one whose copy runs past the chunk's end (its chain kept,
   the rest of the chunk ignored); each said. */
static void test_copies(void)
{
    static const uint64_t stack[] = { UINT64_C(1) << 32 | 0, 0x1000 };
    uint64_t u[] = { 100,
                     /* 1: rsp, rip, 16 bytes at 0x7ff0 */
                     10 << 24 | 0 << 3, UINT64_C(1) << 7 | UINT64_C(1) << 16,
                     UINT64_C(16) << 32 | PROF_TF_ARCH_X86_64, 0x7ff0, 0x1000,
                     0x7ff0, 0xABCD, 0xEF,
                     /* 2: architecture 9, no registers, no bytes */
                     10 << 24 | 0 << 3, 0, 9, 0x7ff0,
                     /* 3: weighted (3), ARM64, x30 only, 8 bytes */
                     10 << 24 | 0 << 3 | 4, 3, UINT64_C(1) << 30,
                     UINT64_C(8) << 32 | PROF_TF_ARCH_ARM64, 0x42, 0x7000, 0x55,
                     /* 4: 4000 bytes claimed, 16 there */
                     10 << 24 | 0 << 3, 0, UINT64_C(4000) << 32 | 1, 0x7ff0, 1, 2 };
    tbuf b = { 0, 0, 0 };
    pt_trace t;
    counts c;
    char * w;
    tb_header(&b, 1e9, 0);
    tb_chunk(&b, PROF_TF_STACKS, 0, stack, sizeof stack);
    tb_chunk(&b, PROF_TF_USAMPLES, 7, u, sizeof u);
    tb_end(&b, 1000, 0);
    CHECK(read_warned(&b, &t, &c, &w) == 0, "read");
    CHECK(c.calls == 4 && c.per_stack[0][0] == 4 && c.copies == 2
          && t.sampling.read_copies == 2 && c.in_order, "%lu samples, %lu of "
          "stack 0, %lu copies", c.calls, c.per_stack[0][0], c.copies);
    CHECK(c.copy_sp == 0x7ff0 && c.copy_pc == 0x1000 && c.copy_word == 0xABCD,
          "rsp %llx rip %llx word %llx", (unsigned long long) c.copy_sp,
          (unsigned long long) c.copy_pc, (unsigned long long) c.copy_word);
    CHECK(strstr(w, "stack copy of architecture 9") != NULL
          && strstr(w, "stack copy cut or damaged") != NULL, "warnings:\n%s", w);
    pt_free(&t);
    free(b.d);
}

/* --record TRACE WHAT: a trace of tests/sample_target.c written by
   prof-trace record, its leaves named from the mappings it recorded; its
   forked child sampled if WHAT is "children", not if "threads". */
typedef struct
{
    pt_symbols * syms;
    uint32_t pid;
    unsigned long hot, main_pid, child_pid, threads_seen;
    uint32_t tids[8];
} rec_tally;

static void rec_sample(void * ctx, const pt_trace * t, const pt_sample * s)
{
    rec_tally * c = (rec_tally *) ctx;
    uint32_t n, i;
    const uint64_t * ip = pt_stack_frames(t, s->stack, &n);
    const char * name;
    c->pid = t->pid;
    if (n == 0 || t->stacks[s->stack].pid != c->pid)
    {
        c->child_pid += n > 0;
        return;
    }
    c->main_pid++;
    for (i = 0; i < c->threads_seen && c->tids[i] != s->tid; i++)
        ;
    if (i == c->threads_seen && i < 8)
        c->tids[c->threads_seen++] = s->tid;
    if (c->syms == NULL)
    {
        char text[1 << 14];
        size_t k, len = 0;
        char process[256] = "";
        for (k = 0; k < t->nvmas && len + 512 < sizeof text; k++)
            len += (size_t) snprintf(text + len, sizeof text - len,
                                     "%llx-%llx r-xp %llx 00:00 %llu %s\n",
                                     (unsigned long long) t->vmas[k].start,
                                     (unsigned long long) t->vmas[k].end,
                                     (unsigned long long) t->vmas[k].offset,
                                     (unsigned long long) t->vmas[k].inode,
                                     t->vmas[k].path);
        c->syms = pt_symbols_new(NULL, NULL, NULL);
        if (c->syms != NULL)
            pt_symbols_maps(c->syms, (const unsigned char *) text, len, process,
                            sizeof process);
    }
    name = c->syms != NULL ? pt_symbols_name(c->syms, ip[0]) : NULL;
    if (name != NULL && strncmp(name, "hot", 3) == 0)
        c->hot++;
}

static int test_record(const char * path, int children)
{
    rec_tally c;
    pt_handler h;
    pt_options o;
    pt_trace t;
    memset(&c, 0, sizeof c);
    memset(&o, 0, sizeof o);
    o.warn = stderr;
    pt_handler_init(&h, &c);
    h.sample = rec_sample;
    CHECK(pt_stream(path, &o, &h, &t) == 0, "read %s", path);
    printf("record: %lu samples of pid %u on %lu threads, %lu in hot; %lu of its "
           "child; %zu processes, %zu mappings; %.0f Hz achieved\n", c.main_pid,
           c.pid, c.threads_seen, c.hot, c.child_pid, t.nprocesses, t.nvmas,
           t.sampling.achieved_hz);
    CHECK(c.main_pid > 20 && c.threads_seen >= 2 && c.hot * 2 > c.main_pid,
          "%lu samples, %lu threads, %lu hot", c.main_pid, c.threads_seen, c.hot);
    if (children)
        CHECK(c.child_pid > 5 && t.nprocesses >= 2, "child: %lu samples, %zu processes",
              c.child_pid, t.nprocesses);
    else
        CHECK(c.child_pid == 0, "the child sampled without --children: %lu samples",
              c.child_pid);
    CHECK(t.sampling.achieved_hz > 50 && t.sampling.achieved_hz < 2000,
          "%g Hz", t.sampling.achieved_hz);
    pt_symbols_free(c.syms);
    pt_free(&t);
    return check_report("test_sample_read --record");
}

int main(int argc, char ** argv)
{
    if (argc > 2 && strcmp(argv[1], "--record") == 0)
        return test_record(argv[2], argc > 3 && strcmp(argv[3], "children") == 0);
    if (argc > 1)
        test_generated(argv[1]);
    test_damaged();
    test_copies();
    return check_report("test_sample_read");
}
