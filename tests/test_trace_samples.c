/*
    The reports of a sampled trace (trace_samples.c), on a trace built in
    memory and handed to the report's handler as the reader would: the top
    functions (self, total, per thread, CSV), module+0xOFFSET names, the
    samples per zone whichever of a zone and its samples comes first, the
    collapsed stacks, speedscope's sampled profiles, and the filters.
    Ticks are nanoseconds (rate 1e9), a sample stands for 1 ms (1000 Hz).
    SPDX-License-Identifier: MIT
*/
#include "check.h"
#include "perfetto_decode.h"
#include "trace_debug.h"
#include "trace_read.h"
#include "trace_report.h"

#include <elf.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define FAKE 0x7f0000000000ull
enum { HOT = 0x1000, COLD = 0x2000, WORK = 0x3000, MAIN = 0x4000 };

/* Stacks, leaf first: 0 hot<work<main, 1 cold<work<main, 2 main alone
   (outside any function: main's own line), 3 an address in no mapping. */
static uint64_t ips[] = { FAKE + HOT + 4, FAKE + WORK + 9, FAKE + MAIN + 9,
                          FAKE + COLD + 4, FAKE + WORK + 9, FAKE + MAIN + 9,
                          FAKE + MAIN + 4, 0x1234 };
static pt_stack stacks[] = { { 1, 3, 0 }, { 1, 3, 3 }, { 1, 1, 6 },
                             { 1, 1, 7 } };
static char libpath[] = "/nonexistent/libfake.so";
static pt_vma vmas[] = { { 1, 0, INT64_MAX, FAKE, FAKE + 0x10000, 0, 0, libpath } };
static pt_thread threads[] = { { 7, "main", 0, 0, 1, 0 },
                               { 8, "worker", 0, 0, 1, 0 } };

static void make_trace(pt_trace * t)
{
    memset(t, 0, sizeof *t);
    t->tick_rate = 1e9;
    t->pid = 1;
    t->version = 3;
    t->threads = threads;
    t->nthreads = 2;
    t->stacks = stacks;
    t->nstacks = 4;
    t->stack_ips = ips;
    t->nstack_ips = sizeof ips / sizeof ips[0];
    t->vmas = vmas;
    t->nvmas = 1;
    t->sampling.method = PT_SAMPLING_PERF;
    t->sampling.hz = 1000;
    t->sampling.achieved_hz = 990;
    t->sampling.lost = 2;
    t->span = 1000000000;
    t->nzones = 2;
}

static void sample(pt_handler * h, const pt_trace * t, uint32_t thread,
                   int64_t ticks, uint32_t stack)
{
    pt_sample s;
    memset(&s, 0, sizeof s);
    s.thread = thread;
    s.tid = t->threads[thread].tid;
    s.ticks = ticks;
    s.stack = stack;
    s.weight = 1;
    h->sample(h->ctx, t, &s);
}

static pt_zone zone(uint32_t thread, const char * name, int64_t b, int64_t e,
                    uint16_t depth, uint64_t seq)
{
    pt_zone z;
    memset(&z, 0, sizeof z);
    z.thread = thread;
    z.kind = PT_KIND_ZONE;
    z.name = name;
    z.begin = b;
    z.end = e;
    z.depth = depth;
    z.seq = seq;
    return z;
}

/* Thread 0: zone "outer" [0, 1000 ms) around "inner" [200, 800 ms);
   samples every ms, 4 of 5 in hot, 1 in cold. The samples before 500 ms
   come before the zones' ends, the others after (the reader's file
   order). Thread 1: 300 samples, 100 in main alone, 200 in cold, 5 in
   no mapping. Returns what the report wrote. */
static size_t run_len;      /* bytes the last run wrote */

static char * run(pt_output kind, const pt_filter * f, int by_thread,
                  int zones_first, char ** buf, size_t * cap)
{
    static const char outer[] = "outer", inner[] = "inner";
    FILE * out = tmpfile();
    pt_trace t;
    pt_report * r = pt_report_new(out, kind, f, by_thread);
    pt_handler h = pt_report_handler(r);
    pt_zone zo = zone(0, outer, 0, 1000000000, 0, 0);
    pt_zone zi = zone(0, inner, 200000000, 800000000, 1, 1);
    int64_t i;
    make_trace(&t);
    pt_report_samples(r, NULL, 1, zones_first);
    h.begin(h.ctx, &t, &zo);
    h.begin(h.ctx, &t, &zi);
    for (i = 0; i < 500; i++)
        sample(&h, &t, 0, i * 1000000 + 500000, i % 5 == 4 ? 1 : 0);
    for (i = 0; i < 305; i++)
        sample(&h, &t, 1, i * 1000000 + 1000, i < 100 ? 2 : i < 300 ? 1 : 3);
    h.zone(h.ctx, &t, &zi);
    h.zone(h.ctx, &t, &zo);
    for (i = 500; i < 1000; i++)
        sample(&h, &t, 0, i * 1000000 + 500000, i % 5 == 4 ? 1 : 0);
    CHECK(pt_report_finish(r, &t) == 0, "finish");
    run_len = (size_t) ftell(out);
    check_read_all(out, buf, cap);
    fclose(out);
    return *buf;
}

static int has(const char * s, const char * re)
{
    regex_t x;
    int ok;
    if (regcomp(&x, re, REG_EXTENDED | REG_NEWLINE | REG_NOSUB) != 0)
        return 0;
    ok = regexec(&x, s, 0, NULL, 0) == 0;
    regfree(&x);
    return ok;
}

static void test_text(void)
{
    char * buf = NULL;
    size_t cap = 0;
    const char * s = run(PT_OUT_TEXT, NULL, 1, 0, &buf, &cap);
    /* the zones' summary first, then the samples' */
    CHECK(has(s, "^u +1 .* outer$") && has(s, "^1305 samples in 2 threads, by "
          "perf events at 1000 Hz asked, 990 Hz achieved; 2 lost"), "%s", s);
    /* all: hot 800 of 1305 self, total 800; work total 1000 + 200 */
    CHECK(has(s, "^ +800 +61\\.3% +800\\.000 +800 +61\\.3% +800\\.000  "
              "libfake\\.so\\+0x1004$"), "hot: %s", s);
    CHECK(has(s, "^ +0 +0\\.0% +0\\.000 +1200 +92\\.0% +1200\\.000  "
              "libfake\\.so\\+0x3008$"), "work (a return address - 1): %s", s);
    CHECK(has(s, "^ +5 +0\\.4% .*\\[unknown\\]\\+0x1234$"), "no mapping: %s", s);
    /* per thread */
    CHECK(has(s, "^thread 7 main: 1000 samples$")
          && has(s, "^ +800 +80\\.0% .* libfake\\.so\\+0x1004$")
          && has(s, "^ +200 +20\\.0% .* libfake\\.so\\+0x2004$"), "main: %s", s);
    CHECK(has(s, "^thread 8 worker: 305 samples$")
          && has(s, "^ +200 +65\\.6% .* libfake\\.so\\+0x2004$")
          && has(s, "^ +100 +32\\.8% .* libfake\\.so\\+0x4004$"), "worker: %s", s);
    /* per zone: inner [200, 800) holds 600, outer the other 400 of main */
    CHECK(has(s, "^ +600 +46\\.0%  zone inner: 80\\.0% libfake\\.so\\+0x1004, "
              "20\\.0% libfake\\.so\\+0x2004$"), "inner: %s", s);
    CHECK(has(s, "^ +400 +30\\.7%  zone outer: 80\\.0% libfake\\.so\\+0x1004")
          && has(s, "^ +305 +23\\.4%  outside the zones: 65\\.6% "
                 "libfake\\.so\\+0x2004"), "outer: %s", s);
    free(buf);
}

static void test_csv_folded(void)
{
    char * buf = NULL;
    size_t cap = 0;
    const char * s = run(PT_OUT_CSV, NULL, 0, 0, &buf, &cap);
    CHECK(strncmp(s, "function,self,self_pct,self_ms,total,total_pct,total_ms\n"
                  "libfake.so+0x1004,800,61.30,800.000,800,61.30,800.000\n",
                  strlen("function,self,self_pct,self_ms,total,total_pct,"
                         "total_ms\n")) == 0
          && has(s, "^libfake\\.so\\+0x3008,0,0\\.00,0\\.000,1200,91\\.95,"
                 "1200\\.000$"), "csv: %s", s);
    s = run(PT_OUT_CSV, NULL, 0, 1, &buf, &cap);
    CHECK(strncmp(s, "kind,name,calls", 15) == 0, "csv --zones: %s", s);
    s = run(PT_OUT_FOLDED, NULL, 0, 0, &buf, &cap);
    CHECK(has(s, "^main;libfake\\.so\\+0x4008;libfake\\.so\\+0x3008;"
              "libfake\\.so\\+0x1004 800$")
          && has(s, "^worker;libfake\\.so\\+0x4004 100$")
          && has(s, "^worker;\\[unknown\\]\\+0x1234 5$"), "folded: %s", s);
    s = run(PT_OUT_FOLDED, NULL, 0, 1, &buf, &cap);
    CHECK(has(s, "^main;outer;inner 600000000$"), "folded --zones: %s", s);
    s = run(PT_OUT_SPEEDSCOPE, NULL, 0, 0, &buf, &cap);
    CHECK(has(s, "\"type\":\"evented\",\"name\":\"main\"")
          && has(s, "\"type\":\"sampled\",\"name\":\"main \\(samples\\)\","
                 "\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":"
                 "1000000000,\"samples\":\\[\\[2,3,4\\],")
          && has(s, "\"name\":\"libfake.so\\+0x1004\""), "speedscope: %.300s", s);
    free(buf);
}

static pf_trace dec;        /* large: not on the stack */

/* Perfetto: the zones' slices and the samples, each with its callstack
   resolved to names (tid;root;...;leaf) */
static int pf_count(const char * stack)
{
    size_t i;
    for (i = 0; i < dec.nstacks; i++)
        if (strcmp(dec.stacks[i].text, stack) == 0)
            return (int) dec.stacks[i].count;
    return -1;
}

static void test_perfetto(void)
{
    char * buf = NULL;
    size_t cap = 0;
    const char * s = run(PT_OUT_PERFETTO, NULL, 0, 0, &buf, &cap);
    CHECK(pf_decode((const unsigned char *) s, run_len, &dec) == 0, "decode: %s",
          dec.error);
    CHECK(dec.begins == 2 && dec.ends == 2 && dec.samples == 1305,
          "%zu begins, %zu ends, %zu samples", dec.begins, dec.ends, dec.samples);
    CHECK(pf_count("7;libfake.so+0x4008;libfake.so+0x3008;libfake.so+0x1004") == 800
          && pf_count("7;libfake.so+0x4008;libfake.so+0x3008;libfake.so+0x2004") == 200
          && pf_count("8;libfake.so+0x4004") == 100
          && pf_count("8;[unknown]+0x1234") == 5, "stacks: %zu, first %s %zu",
          dec.nstacks, dec.stacks[0].text, dec.stacks[0].count);
    /* each frame in the mapping of its module, by the module's path; an
       address in no mapping in "[unknown]" */
    CHECK(strcmp(pf_module_of(&dec, "libfake.so+0x1004"), libpath) == 0
          && strcmp(pf_module_of(&dec, "libfake.so+0x4004"), libpath) == 0
          && strcmp(pf_module_of(&dec, "[unknown]+0x1234"), "/[unknown]") == 0,
          "mappings: %s, %s", pf_module_of(&dec, "libfake.so+0x1004"),
          pf_module_of(&dec, "[unknown]+0x1234"));
    free(buf);
}

/* A frame-pointer chain that ran into data: hot < work < a junk address
   < main. The stack ends at the junk: folded, speedscope and Perfetto
   show work;hot, no [unknown] caller. Frames in this test's own file
   (mapped at SELF, file offset 0x1000) carry Perfetto's real mapping:
   start, end, exact offset, the file's build-id and load bias, and
   rel_pc = the address - 1 (a return address) - start + offset + bias.
   Chrome JSON of this trace of samples only says it holds none of them. */
#define SELF 0x555500000000ull
static void test_junk_and_mappings(void)
{
    static uint64_t jips[] = { FAKE + HOT + 4, FAKE + WORK + 9, 0x42fe39c01234ull,
                               FAKE + MAIN + 9, SELF + 0x40, SELF + 0x80 };
    static pt_stack jstacks[] = { { 1, 4, 0 }, { 1, 2, 4 } };
    static char self[PATH_MAX];
    pt_vma jvmas[2] = { { 1, 0, INT64_MAX, FAKE, FAKE + 0x10000, 0, 0, libpath },
                        { 1, 0, INT64_MAX, SELF, SELF + 0x2000, 0x1000, 0, self } };
    unsigned char * img, id[PT_BUILD_ID_MAX];
    size_t n = 0, idlen = 0, k;
    uint64_t bias = 0, fr = 0;
    char * buf = NULL;
    size_t cap = 0;
    pt_output kinds[] = { PT_OUT_JSON, PT_OUT_FOLDED, PT_OUT_SPEEDSCOPE,
                          PT_OUT_PERFETTO };
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    self[len > 0 ? len : 0] = '\0';
    img = pt_slurp(self, &n);
    if (img != NULL && n >= sizeof(Elf64_Ehdr))
    {
        const Elf64_Ehdr * h = (const Elf64_Ehdr *) (void *) img;
        for (k = 0; k < h->e_phnum; k++)
        {
            const Elf64_Phdr * ph = (const Elf64_Phdr *) (void *) (img + h->e_phoff
                                                                   + k * sizeof *ph);
            if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
            {
                bias = ph->p_vaddr - ph->p_offset;
                break;
            }
        }
        idlen = pt_elf_build_id(img, n, id);
    }
    free(img);
    for (k = 0; k < 4; k++)
    {
        FILE * out = tmpfile();
        pt_trace t;
        pt_report * r = pt_report_new(out, kinds[k], NULL, 0);
        pt_handler h = pt_report_handler(r);
        int i;
        make_trace(&t);
        t.stacks = jstacks;
        t.nstacks = 2;
        t.stack_ips = jips;
        t.nstack_ips = sizeof jips / sizeof jips[0];
        t.vmas = jvmas;
        t.nvmas = 2;
        t.nzones = 0;
        t.sampling.read = 10;
        pt_report_samples(r, NULL, 1, 0);
        for (i = 0; i < 10; i++)
            sample(&h, &t, 0, i * 1000000, (uint32_t) (i & 1));
        CHECK(pt_report_finish(r, &t) == 0, "finish");
        run_len = (size_t) ftell(out);
        check_read_all(out, &buf, &cap);
        fclose(out);
        if (kinds[k] == PT_OUT_JSON) /* says it holds none of the samples */
            CHECK(has(buf, "^\\{\"name\":\"prof_trace_note\",\"ph\":\"M\",.*"
                      "\"samples_left_out\":10,\"note\":\"this trace holds only "
                      "samples"), "json: %s", buf);
        else if (kinds[k] == PT_OUT_FOLDED)
            CHECK(has(buf, "^main;libfake\\.so\\+0x3008;libfake\\.so\\+0x1004 5$")
                  && !has(buf, "unknown"), "folded: %s", buf);
        else if (kinds[k] == PT_OUT_SPEEDSCOPE)
            CHECK(!has(buf, "unknown") && has(buf, "libfake.so\\+0x1004"),
                  "speedscope: %.400s", buf);
    }
    CHECK(pf_decode((const unsigned char *) buf, run_len, &dec) == 0, "decode: %s",
          dec.error);
    CHECK(pf_count("7;libfake.so+0x3008;libfake.so+0x1004") == 5, "perfetto stacks: %s",
          dec.stacks[0].text);
    for (k = 1; k < PF_MAX_NAMES && fr == 0; k++)
        if (dec.frame_fn[k] != 0 && strcmp(dec.map_path[dec.frame_map[k]], self) == 0
            && dec.frame_pc[k] == 0x40 - 0 + 0x1000 + bias)
            fr = k;
    CHECK(fr != 0, "no frame of %s at rel_pc 0x%llx", self,
          (unsigned long long) (0x1040 + bias));
    if (fr != 0)
    {
        uint64_t m = dec.frame_map[fr];
        CHECK(dec.map[m].start == SELF && dec.map[m].end == SELF + 0x2000
              && dec.map[m].exact == 0x1000 && dec.map[m].bias == bias,
              "mapping %llx-%llx +%llx bias %llx", (unsigned long long) dec.map[m].start,
              (unsigned long long) dec.map[m].end, (unsigned long long) dec.map[m].exact,
              (unsigned long long) dec.map[m].bias);
        CHECK(idlen == 0 || (dec.bid_len[dec.map[m].bid] == idlen
                             && memcmp(dec.bids[dec.map[m].bid], id, idlen) == 0),
              "build-id: %zu bytes", dec.bid_len[dec.map[m].bid]);
        /* the caller, a return address: named at address - 1 */
        for (k = 1; k < PF_MAX_NAMES; k++)
            if (dec.frame_fn[k] != 0 && dec.frame_map[k] == m && k != fr)
                CHECK(dec.frame_pc[k] == 0x107f + bias, "caller rel_pc %llx",
                      (unsigned long long) dec.frame_pc[k]);
    }
    /* every mapping a real span: none from 0 to INT64_MAX */
    for (k = 1; k < PF_MAX_MAPS; k++)
        CHECK(!dec.mappings[k] || dec.map[k].end - dec.map[k].start < 0x100000000ull,
              "mapping %zu spans %llx-%llx", k, (unsigned long long) dec.map[k].start,
              (unsigned long long) dec.map[k].end);
    free(buf);
}

static void test_filters(void)
{
    char * buf = NULL;
    size_t cap = 0;
    pt_filter f;
    const char * s;
    memset(&f, 0, sizeof f);
    f.to_ns = 100000000;    /* the first 100 ms: 100 of main, 100 of worker */
    f.thread_name = "worker";
    s = run(PT_OUT_CSV, &f, 0, 0, &buf, &cap);
    CHECK(has(s, "^libfake\\.so\\+0x4004,100,100\\.00,") && !has(s, "0x1004"),
          "worker to 100 ms: %s", s);
    free(buf);
}

/* Samples with a stack copy whose registers do not unwind (none given):
   their frame-pointer chain is used, cut before its first frame in no
   mapping (hot < work < [junk] < main: hot < work), and the text report
   says how they were unwound; the same chain without a copy is kept
   whole, as before. */
static char * run_copies(pt_output kind, char ** buf, size_t * cap)
{
    static uint64_t jips[] = { FAKE + HOT + 4, FAKE + WORK + 9, 0x1234, FAKE + MAIN + 9 };
    static pt_stack jstack[] = { { 1, 4, 0 } };
    FILE * out = tmpfile();
    pt_trace t;
    pt_report * r = pt_report_new(out, kind, NULL, 0);
    pt_handler h = pt_report_handler(r);
    pt_ucopy c;
    pt_sample sm;
    int64_t i;
    make_trace(&t);
    t.stacks = jstack;
    t.nstacks = 1;
    t.stack_ips = jips;
    t.nstack_ips = 4;
    pt_report_samples(r, NULL, 1, 0);
    memset(&c, 0, sizeof c);
    c.arch = 1;
    for (i = 0; i < 30; i++)
    {
        memset(&sm, 0, sizeof sm);
        sm.tid = 7;
        sm.ticks = i * 1000000;
        sm.weight = 1;
        sm.copy = i < 20 ? &c : NULL;
        h.sample(h.ctx, &t, &sm);
    }
    CHECK(pt_report_finish(r, &t) == 0, "finish");
    check_read_all(out, buf, cap);
    fclose(out);
    return *buf;
}

static void test_copies(void)
{
    char * buf = NULL;
    size_t cap = 0;
    const char * s = run_copies(PT_OUT_FOLDED, &buf, &cap);
    /* the copies do not unwind (no file): their frame-pointer chains, as
       the 10 samples without a copy, end before the caller in no mapping,
       and all 30 name one stack: one line */
    CHECK(has(s, "^main;libfake\\.so\\+0x3008;libfake\\.so\\+0x1004 30$")
          && strstr(s, "unknown") == NULL, "folded: %s", s);
    s = run_copies(PT_OUT_TEXT, &buf, &cap);
    CHECK(has(s, "^stacks of the 20 samples with a stack copy: 0 unwound by CFI, "
              "20 by frame pointers, 0 truncated; median depth 2 frames$"), "text: %s", s);
    free(buf);
}

int main(void)
{
    test_copies();
    test_text();
    test_csv_folded();
    test_filters();
    test_perfetto();
    test_junk_and_mappings();
    return check_report("test_trace_samples");
}
