/* The trace reader and its reports, driven by hand-made trace files with a
   fake clock (1e9 ticks/s: a tick is a ns), so results are asserted exactly:
   nesting and self time, every kind of unmatched begin/end, counter
   wrap-around, cut and damaged files, the CSV, text and JSON reports; the
   8-byte events of format 2 (label ids, SYNC words, an undefined id, a cut
   inside them); the same file read whole and streamed from disk. */
#include "trace_util.h"
#include "fail_alloc.h"

#include <stddef.h>
#include <sys/time.h>


enum { OUTER = 0x1000, INNER = 0x2000, A = 0x3000, B = 0x4000, X = 0x5000,
       Z = 0x6000 };

/* thread 7: outer [100,200] holding inner [110,130] and [140,150] */
static void nested_file(tbuf * b, uint64_t start)
{
    tev e[] = {
        { 100, PROF_IMPL_EV_BEGIN, OUTER }, { 110, PROF_IMPL_EV_BEGIN, INNER },
        { 130, PROF_IMPL_EV_END, INNER },   { 140, PROF_IMPL_EV_BEGIN, INNER },
        { 150, PROF_IMPL_EV_END, INNER },   { 200, PROF_IMPL_EV_END, OUTER } };
    size_t i;
    tb_header(b, 1e9, start);
    tb_string(b, OUTER, "outer");
    tb_string(b, INNER, "inner");
    for (i = 0; i < 6; i++)
        e[i].ticks += start;
    tb_events(b, 7, e, 3);           /* two chunks, as two flushes */
    tb_events(b, 7, e + 3, 3);
    tb_end(b, start + 300, 0);
}

static void test_nested(void)
{
    tbuf b = { 0, 0, 0 };
    pt_trace t;
    const char * w;
    char * csv, * txt;

    nested_file(&b, 50);
    save_seed("nested.ptrace", b.d, b.n);
    CHECK(read_trace(b.d, b.n, &t, 0, &w) == 0, "read failed");
    CHECK(w[0] == '\0', "unexpected warnings: %s", w);
    CHECK(t.nzones == 3 && t.nthreads == 1 && t.events == 6,
          "%zu zones, %zu threads, %llu events", t.nzones, t.nthreads,
          (unsigned long long) t.events);
    CHECK(t.span == 300, "span %lld", (long long) t.span);
    csv = report(&t, 'c');
    CHECK(strstr(csv, "kind,name,calls,total_ns,avg_ns,min_ns,max_ns,self_ns,unmatched\n"
                      "u,outer,1,100,100.0,100,100,70,0\n"
                      "u,inner,2,30,15.0,10,20,30,0\n") != NULL, "csv:\n%s", csv);
    txt = report(&t, 't');
    CHECK(strstr(txt, "3 zones in 1 threads, 6 events") != NULL, "text:\n%s", txt);
    CHECK(strstr(txt, "u             2             30         15.0           10 "
                      "          20             30         0  inner\n") != NULL,
          "text:\n%s", txt);
    free(csv);
    free(txt);
    pt_free(&t);
    free(b.d);
}

/* The counter passes 2^61 (the bits the file keeps) during the run. */
static void test_wrap(void)
{
    tbuf b = { 0, 0, 0 };
    pt_trace t;
    char * csv;
    nested_file(&b, (UINT64_C(1) << 61) - 120); /* outer begins at 2^61-20 */
    CHECK(read_trace(b.d, b.n, &t, 0, NULL) == 0, "read failed");
    csv = report(&t, 'c');
    CHECK(strstr(csv, "u,outer,1,100,100.0,100,100,70,0\n") != NULL, "csv:\n%s", csv);
    free(csv);
    pt_free(&t);
    free(b.d);
}

/* a [10,30) holding b (never ended: closed at a's end); an end of x with no
   begin; z begun and never ended (open at exit: closed at the end, 100);
   an end with the wrong label (c ends as d). */
static void test_unmatched(void)
{
    tev e[] = {
        { 10, PROF_IMPL_EV_BEGIN, A }, { 20, PROF_IMPL_EV_BEGIN, B },
        { 30, PROF_IMPL_EV_END, A },   { 40, PROF_IMPL_EV_END, X },
        { 50, PROF_IMPL_EV_BEGIN, Z } };
    tbuf b = { 0, 0, 0 };
    pt_trace t;
    const char * w;
    char * csv, * js;
    tb_header(&b, 1e9, 0);
    tb_string(&b, A, "a");
    tb_string(&b, B, "b");
    tb_string(&b, X, "x");
    tb_string(&b, Z, "z");
    tb_events(&b, 3, e, 5);
    tb_end(&b, 100, 0);
    save_seed("unmatched.ptrace", b.d, b.n);
    CHECK(read_trace(b.d, b.n, &t, 0, &w) == 0, "read failed");
    CHECK(strstr(w, "'b' has no end; closed at the end of 'a'") != NULL, "%s", w);
    CHECK(strstr(w, "end of 'x' without a begin") != NULL, "%s", w);
    CHECK(strstr(w, "'z' still open at the end of the trace") != NULL, "%s", w);
    CHECK(count_zones(&t, "a", -1, 0) == 1, "a");
    CHECK(count_zones(&t, "b", -1, PT_NO_END) == 1, "b");
    CHECK(count_zones(&t, "x", -1, PT_NO_BEGIN) == 1, "x");
    CHECK(count_zones(&t, "z", -1, PT_NO_END) == 1, "z");
    csv = report(&t, 'c');
    /* unmatched zones are shown, counted as unmatched, kept out of the
       statistics; the text's first line counts them, one event each */
    js = report(&t, 't');
    CHECK(strncmp(js, "4 zones in 1 threads, 5 events, ", 32) == 0
          && t.events == 5, "text:\n%s", js);
    free(js);
    CHECK(strstr(csv, "u,a,1,20,20.0,20,20,10,0\n") != NULL, "csv:\n%s", csv);
    CHECK(strstr(csv, "u,b,0,0,0.0,0,0,0,1\n") != NULL, "csv:\n%s", csv);
    CHECK(strstr(csv, "u,x,0,0,0.0,0,0,0,1\n") != NULL, "csv:\n%s", csv);
    CHECK(strstr(csv, "u,z,0,0,0.0,0,0,0,1\n") != NULL, "csv:\n%s", csv);
    js = report(&t, 'j');
    CHECK(strstr(js, "{\"name\":\"z\",\"cat\":\"zone\",\"ph\":\"X\",\"ts\":0.050,"
                     "\"dur\":0.050,\"pid\":4242,\"tid\":3,\"args\":{\"unmatched\":"
                     "\"begin without end\"}}") != NULL, "json:\n%s", js);
    CHECK(strstr(js, "{\"name\":\"x\",\"cat\":\"zone\",\"ph\":\"i\",\"s\":\"t\","
                     "\"ts\":0.040,\"pid\":4242,\"tid\":3,\"args\":{\"unmatched\":"
                     "\"end without begin\"}}") != NULL, "json:\n%s", js);
    free(csv);
    free(js);
    pt_free(&t);
    free(b.d);

    /* the wrong label: begin c, end d: d has no begin, c stays open */
    {
        tev f[] = { { 10, PROF_IMPL_EV_BEGIN, A }, { 20, PROF_IMPL_EV_END, B } };
        memset(&b, 0, sizeof b);
        tb_header(&b, 1e9, 0);
        tb_string(&b, A, "c");
        tb_string(&b, B, "d");
        tb_events(&b, 3, f, 2);
        tb_end(&b, 30, 0);
        CHECK(read_trace(b.d, b.n, &t, 0, &w) == 0, "read failed");
        CHECK(strstr(w, "end of 'd' without a begin (innermost open: 'c')") != NULL,
              "%s", w);
        CHECK(count_zones(&t, "c", -1, PT_NO_END) == 1
              && count_zones(&t, "d", -1, PT_NO_BEGIN) == 1, "c/d");
        pt_free(&t);
        free(b.d);
    }
}

/* Cut the nested file at every length: never a crash; whole events kept. */
static void test_truncated(void)
{
    tbuf b = { 0, 0, 0 };
    pt_trace t;
    const char * w;
    size_t n;
    nested_file(&b, 0);
    for (n = 0; n <= b.n; n++)
    {
        unsigned char * copy = (unsigned char *) malloc(n ? n : 1);
        int rc;
        memcpy(copy, b.d, n);
        rc = read_trace(copy, n, &t, 0, &w);
        CHECK((rc == 0) == (n >= sizeof(prof_tf_header)), "length %zu: rc %d", n, rc);
        if (rc == 0 && n < b.n)
            CHECK(strstr(w, "no end record") != NULL, "length %zu: %s", n, w);
        pt_free(&t);
        free(copy);
    }
    /* cut in the second events chunk, after its first event: 4 kept */
    n = b.n - (16 + 24) - 16 * 2;
    CHECK(read_trace(b.d, n, &t, 0, &w) == 0, "read failed");
    CHECK(t.events == 4, "%llu events", (unsigned long long) t.events);
    CHECK(strstr(w, "the file is cut: last record has 16 of 48 bytes; its 1 "
                    "whole events kept") != NULL, "%s", w);
    CHECK(count_zones(&t, "inner", -1, 0) == 1
          && count_zones(&t, "inner", -1, PT_NO_END) == 1
          && count_zones(&t, "outer", -1, PT_NO_END) == 1, "zones");
    pt_free(&t);
    free(b.d);
}

/* A damaged record in the middle: warned about, the rest still read. */
static void test_corrupt(void)
{
    tbuf b = { 0, 0, 0 };
    pt_trace t;
    const char * w;
    size_t first_events;
    unsigned i;
    nested_file(&b, 0);
    /* header 64, two string chunks of 16+24 each: then the first events */
    first_events = 64 + 2 * (16 + 24);
    b.d[first_events] ^= 0xff; /* its magic */
    CHECK(read_trace(b.d, b.n, &t, 0, &w) == 0, "read failed");
    CHECK(strstr(w, "unreadable record at offset 144: 64 bytes skipped") != NULL,
          "%s", w);
    CHECK(t.events == 3 && t.has_end, "%llu events", (unsigned long long) t.events);
    CHECK(count_zones(&t, "inner", -1, 0) == 1
          && count_zones(&t, "outer", -1, PT_NO_BEGIN) == 1, "zones");
    pt_free(&t);
    b.d[first_events] ^= 0xff;

    /* a size too large: skipped up to the next record */
    {
        uint32_t big = 1u << 20;
        memcpy(b.d + first_events + 8, &big, 4);
        CHECK(read_trace(b.d, b.n, &t, 0, &w) == 0, "read failed");
        CHECK(strstr(w, "runs past the end of the file") != NULL, "%s", w);
        CHECK(t.events == 3, "%llu events", (unsigned long long) t.events);
        pt_free(&t);
    }
    /* flip each byte in turn: never a crash (ASan checks the rest) */
    nested_file(&b, 0);
    for (i = 0; i < b.n; i++)
    {
        b.d[i] ^= 0x5a;
        (void) read_trace(b.d, b.n, &t, 0, NULL);
        free(report(&t, 'j'));
        free(report(&t, 't'));
        pt_free(&t);
        b.d[i] ^= 0x5a;
    }
    /* an unknown event type and a label with no string */
    {
        tev e[] = { { 1, 6, A }, { 2, PROF_IMPL_EV_BEGIN, 0x777 },
                    { 3, PROF_IMPL_EV_END, 0x777 } };
        tbuf c = { 0, 0, 0 };
        tb_header(&c, 1e9, 0);
        tb_events(&c, 1, e, 3);
        tb_end(&c, 4, 0);
        CHECK(read_trace(c.d, c.n, &t, 0, &w) == 0, "read failed");
        CHECK(strstr(w, "event of unknown type 6 ignored") != NULL, "%s", w);
        CHECK(strstr(w, "no string for the label at 0x777") != NULL, "%s", w);
        CHECK(count_zones(&t, "label@0x777", -1, 0) == 1, "unnamed zone");
        pt_free(&t);
        free(c.d);
    }
    free(b.d);
}

static void test_not_a_trace(void)
{
    pt_trace t;
    const char * w;
    const unsigned char junk[100] = "Sf|160806023262000|00001002|main\n";
    CHECK(read_trace(junk, sizeof junk, &t, 0, &w) == -1, "junk read");
    CHECK(strstr(w, "not a trace file") != NULL, "%s", w);
    pt_free(&t);
    CHECK(read_trace(NULL, 0, &t, 0, &w) == -1, "empty read");
    pt_free(&t);
    {
        /* a newer format than this reader knows: said so, not guessed at */
        tbuf b = { 0, 0, 0 };
        uint32_t v = PROF_TF_VERSION + 1;
        tb_header(&b, 1e9, 0);
        memcpy(b.d + 12, &v, 4);
        CHECK(read_trace(b.d, b.n, &t, 0, &w) == -1
              && strstr(w, "this prof-trace reads versions 1 to 4") != NULL, "%s", w);
        pt_free(&t);
        free(b.d);
    }
}

/* Names: JSON escapes and invalid UTF-8, CSV quoting, signal end. */
static void test_names(void)
{
    tev e[] = { { 1, PROF_IMPL_EV_FBEGIN, A }, { 2, PROF_IMPL_EV_FEND, A } };
    tbuf b = { 0, 0, 0 };
    pt_trace t;
    const char * w;
    char * js, * csv;
    tb_header(&b, 1e9, 0);
    tb_string(&b, A, "q\"a,b\\\n\xff");
    tb_chunk(&b, PROF_TF_THREAD, 1, "main-thread\0\0\0\0\0", 16);
    tb_events(&b, 1, e, 2);
    tb_end(&b, 3, 11);
    save_seed("names.ptrace", b.d, b.n);
    CHECK(read_trace(b.d, b.n, &t, 0, &w) == 0, "read failed");
    CHECK(strstr(w, "ended by signal 11") != NULL, "%s", w);
    js = report(&t, 'j');
    CHECK(strstr(js, "\"name\":\"q\\\"a,b\\\\\\u000a\\ufffd\",\"cat\":\"function\"")
          != NULL, "json:\n%s", js);
    CHECK(strstr(js, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":4242,\"tid\":1,"
                     "\"args\":{\"name\":\"main-thread\"}}") != NULL, "json:\n%s", js);
    csv = report(&t, 'c');
    /* the byte that is not UTF-8 as U+FFFD, as in the JSON */
    CHECK(strstr(csv, "f,\"q\"\"a,b\\\n\xEF\xBF\xBD\",1,1,") != NULL, "csv:\n%s", csv);
    free(js);
    free(csv);
    pt_free(&t);
    free(b.d);
}

/* Format 2: ids per thread (LABELS), deltas, a gap that needs a SYNC word,
   two threads with the same ids for different labels. */
static void v2_file(tbuf * b)
{
    uint64_t keys7[2] = { OUTER, INNER }, keys8[1] = { A };
    tev e7[] = {
        { 100, PROF_IMPL_EV_BEGIN, 0 }, { 110, PROF_IMPL_EV_BEGIN, 1 },
        { 130, PROF_IMPL_EV_END, 1 },
        { 130 + (UINT64_C(1) << 41), PROF_IMPL_EV_BEGIN, 1 },
        { 150 + (UINT64_C(1) << 41), PROF_IMPL_EV_END, 1 },
        { 200 + (UINT64_C(1) << 41), PROF_IMPL_EV_END, 0 } };
    tev e8[] = { { 105, PROF_IMPL_EV_FBEGIN, 0 }, { 175, PROF_IMPL_EV_FEND, 0 } };
    uint32_t v2 = 2; /* version 3 writes the same chunks */
    tb_header(b, 1e9, 50);
    memcpy(b->d + offsetof(prof_tf_header, version), &v2, sizeof v2);
    tb_string(b, OUTER, "outer");
    tb_string(b, INNER, "inner");
    tb_string(b, A, "a");
    tb_labels(b, 7, 0, keys7, 2);
    tb_labels(b, 8, 0, keys8, 1);
    tb_events2(b, 7, 90, e7, 3);          /* two chunks, as two flushes */
    tb_events2(b, 8, 0, e8, 2);
    tb_events2(b, 7, 130, e7 + 3, 3);
    tb_end(b, 300 + (UINT64_C(1) << 41), 0);
}

static void test_v2(void)
{
    tbuf b = { 0, 0, 0 };
    pt_trace t;
    const char * w;
    size_t i;
    v2_file(&b);
    save_seed("v2.ptrace", b.d, b.n);
    CHECK(read_trace(b.d, b.n, &t, 0, &w) == 0, "read failed");
    CHECK(w[0] == '\0', "unexpected warnings: %s", w);
    CHECK(t.version == 2 && t.nzones == 4 && t.nthreads == 2 && t.events == 8,
          "%zu zones, %llu events", t.nzones, (unsigned long long) t.events);
    for (i = 0; i < t.nzones; i++)
    {
        const pt_zone * z = &t.zones[i];
        if (strcmp(z->name, "outer") == 0)
            CHECK(z->begin == 50 && z->end == 150 + (INT64_C(1) << 41)
                  && z->child == 40 && z->depth == 0, "outer %lld..%lld",
                  (long long) z->begin, (long long) z->end);
        else if (strcmp(z->name, "a") == 0)
            CHECK(z->kind == PT_KIND_FUNC && z->begin == 55 && z->end == 125,
                  "a %lld..%lld", (long long) z->begin, (long long) z->end);
        else
            CHECK(strcmp(z->name, "inner") == 0 && z->depth == 1
                  && z->end - z->begin == 20, "inner");
    }
    pt_free(&t);
    /* an id never defined: a warning, the event ignored; cut inside */
    {
        tbuf c = { 0, 0, 0 };
        tev e[] = { { 1, PROF_IMPL_EV_BEGIN, 5 }, { 2, PROF_IMPL_EV_END, 5 } };
        tb_header(&c, 1e9, 0);
        tb_events2(&c, 3, 0, e, 2);
        CHECK(read_trace(c.d, c.n, &t, 0, &w) == 0 && t.events == 0
              && strstr(w, "label number 5 is not defined") != NULL, "%s", w);
        pt_free(&t);
        CHECK(read_trace(c.d, c.n - 4, &t, 0, &w) == 0
              && strstr(w, "the file is cut") != NULL, "%s", w);
        pt_free(&t);
        free(c.d);
    }
    free(b.d);
}

static void count_zone(void * ctx, const pt_trace * t, const pt_zone * z)
{
    (void) t;
    (void) z;
    ++*(size_t *) ctx;
}

/* The same trace read whole and streamed from a file, also through a
   window smaller than it (a long events chunk). */
static void test_stream(void)
{
    char path[] = "/tmp/prof-trace-stream-XXXXXX";
    tbuf b = { 0, 0, 0 };
    tev * e = (tev *) calloc(400000, sizeof *e);
    pt_trace t, u;
    pt_handler h;
    pt_options o;
    size_t i, zones = 0;
    int fd = mkstemp(path);
    FILE * f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    for (i = 0; i < 400000; i++)
    {
        e[i].ticks = 10 + i;
        e[i].type = i % 2 ? PROF_IMPL_EV_END : PROF_IMPL_EV_BEGIN;
        e[i].key = OUTER;
    }
    tb_header(&b, 1e9, 0);
    tb_string(&b, OUTER, "outer");
    tb_events(&b, 1, e, 400000);      /* 6.4 MB: many windows */
    tb_end(&b, 500000, 0);
    CHECK(f != NULL && fwrite(b.d, 1, b.n, f) == b.n && fclose(f) == 0, "write");
    memset(&o, 0, sizeof o);
    pt_handler_init(&h, &zones);
    h.begin = NULL;
    h.zone = count_zone;
    CHECK(pt_stream(path, &o, &h, &t) == 0, "stream");
    CHECK(read_trace(b.d, b.n, &u, 0, NULL) == 0, "read");
    CHECK(zones == 200000 && t.nzones == u.nzones && t.events == u.events
          && t.span == u.span && t.has_end && t.bytes == b.n, "%zu zones "
          "streamed, %zu read", zones, u.nzones);
    pt_free(&t);
    pt_free(&u);
    CHECK(pt_stream("/no/such/file", &o, &h, &t) == -2, "missing file");
    pt_free(&t);
    remove(path);
    free(e);
    free(b.d);
}

/* Each ordered output (B/E JSON, raw lines, Perfetto) of a trace nested
   200k deep, left open (the ends never came) and then closed (100k deep):
   linear in the depth, not quadratic. Run in a child with 5 s
   of CPU time (SIGPROF ends it): the linear reports take well under a
   second even under ASan, a walk of every open zone per zone takes
   minutes (2e10 steps). */
static void deep_file(const char * path, size_t depth, int closed)
{
    tbuf b = { 0, 0, 0 };
    size_t i, n = closed ? 2 * depth : depth;
    tev * e = (tev *) calloc(n, sizeof *e);
    FILE * f = fopen(path, "wb");
    for (i = 0; i < n; i++)
    {
        e[i].ticks = 10 + i;
        e[i].type = i < depth ? PROF_IMPL_EV_BEGIN : PROF_IMPL_EV_END;
        e[i].key = OUTER;
    }
    tb_header(&b, 1e9, 0);
    tb_string(&b, OUTER, "outer");
    tb_events(&b, 1, e, n);
    tb_end(&b, 10 + n, 0);
    CHECK(f != NULL && fwrite(b.d, 1, b.n, f) == b.n && fclose(f) == 0,
          "cannot write %s", path);
    free(e);
    free(b.d);
}

static void test_deep(void)
{
    static const pt_output kinds[] = { PT_OUT_JSON_BE, PT_OUT_RAW,
                                       PT_OUT_PERFETTO };
    char path[] = "/tmp/prof-trace-deep-XXXXXX";
    int fd = mkstemp(path), closed;
    size_t k;
    CHECK(fd >= 0 && close(fd) == 0, "mkstemp");
    for (closed = 0; closed < 2; closed++)
    {
        deep_file(path, closed ? 100000 : 200000, closed);
        for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        {
            int status = 0;
            pid_t pid = fork();
            if (pid == 0)
            {
                struct itimerval cpu;
                FILE * out = fopen("/dev/null", "wb");
                pt_report * r = pt_report_new(out, kinds[k], NULL, 0);
                pt_handler h;
                pt_options o;
                pt_trace t;
                int rc;
                memset(&cpu, 0, sizeof cpu);
                cpu.it_value.tv_sec = 5;
                setitimer(ITIMER_PROF, &cpu, NULL);
                memset(&o, 0, sizeof o);
                h = pt_report_handler(r);
                rc = pt_stream(path, &o, &h, &t);
                rc |= pt_report_finish(r, rc == 0 ? &t : NULL);
                pt_free(&t);
                fclose(out);
                _exit(rc == 0 ? 0 : 1);
            }
            CHECK(pid > 0 && waitpid(pid, &status, 0) == pid
                  && WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "output %d of a trace %s deep: %s %d", (int) kinds[k],
                  closed ? "100k (closed)" : "200k (open)",
                  WIFSIGNALED(status) ? "killed by signal" : "exit status",
                  WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        }
    }
    remove(path);
}

/* Out of memory at each allocation in turn, streaming the v2 file (two
   threads, labels, strings) through a small window into each report, and
   collecting it (pt_read) for pt_write_report: whatever runs out, the
   reader (-3) or the report (-1) says so, never 0 with zones lost. */
static void test_out_of_memory(void)
{
    static const pt_output kinds[] = { PT_OUT_TEXT, PT_OUT_CSV, PT_OUT_JSON,
        PT_OUT_JSON_BE, PT_OUT_RAW, PT_OUT_PERFETTO };
    char path[] = "/tmp/prof-trace-oom-XXXXXX";
    tbuf b = { 0, 0, 0 };
    pt_options o;
    size_t k;
    int fd = mkstemp(path);
    FILE * f = fd >= 0 ? fdopen(fd, "wb") : NULL, * out = tmpfile(),
         * sink = fopen("/dev/null", "w");
    v2_file(&b);
    CHECK(f != NULL && fwrite(b.d, 1, b.n, f) == b.n && fclose(f) == 0, "write");
    memset(&o, 0, sizeof o);
    o.warn = sink;
    o.window = 32;                  /* the window grows for larger chunks */
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    {
        long n, missed = 0, first = -1;
        for (n = 0; n < 2000; n++)
        {
            pt_trace t;
            pt_report * r;
            pt_handler h;
            int rc = -1, frc = -1;
            long failed;
            rewind(out);
            fail_alloc_after(n);
            r = pt_report_new(out, kinds[k], NULL, 1);
            if (r != NULL)
            {
                h = pt_report_handler(r);
                rc = pt_stream(path, &o, &h, &t);
                frc = pt_report_finish(r, rc == 0 ? &t : NULL);
                pt_free(&t);
            }
            failed = fail_alloc_failed();
            fail_alloc_after(-1);
            if (failed == 0)
            {
                CHECK(r != NULL && rc == 0 && frc == 0, "output %d with "
                      "memory enough: %d %d", (int) kinds[k], rc, frc);
                break;
            }
            CHECK(rc == 0 || rc == -3 || r == NULL, "output %d, out of memory "
                  "after %ld: reader %d", (int) kinds[k], n, rc);
            if (r != NULL && rc == 0 && frc == 0 && missed++ == 0)
                first = n;
        }
        CHECK(missed == 0, "output %d: %ld runs out of memory said 0 (the "
              "first after %ld allocations)", (int) kinds[k], missed, first);
        CHECK(n < 2000, "output %d: memory enough within 2000", (int) kinds[k]);

        missed = 0;
        for (n = 0; n < 2000; n++)
        {
            pt_trace t;
            int rc, wrc = -1;
            long failed;
            rewind(out);
            fail_alloc_after(n);
            rc = pt_read(b.d, b.n, &o, &t);
            if (rc == 0)
                wrc = pt_write_report(out, &t, kinds[k]);
            pt_free(&t);
            failed = fail_alloc_failed();
            fail_alloc_after(-1);
            if (failed == 0)
            {
                CHECK(rc == 0 && wrc == 0, "collected, output %d: %d %d",
                      (int) kinds[k], rc, wrc);
                break;
            }
            CHECK(rc == 0 || rc == -3, "collected, out of memory after %ld: "
                  "reader %d", n, rc);
            if (rc == 0 && wrc == 0)
                missed++;
        }
        CHECK(missed == 0, "collected, output %d: %ld runs out of memory "
              "said 0", (int) kinds[k], missed);
    }
    fclose(out);
    fclose(sink);
    remove(path);
    free(b.d);
}

int main(int argc, char ** argv)
{
    seed_dir = argc > 1 ? argv[1] : NULL;
    test_nested();
    test_wrap();
    test_unmatched();
    test_truncated();
    test_corrupt();
    test_not_a_trace();
    test_names();
    test_v2();
    test_stream();
    test_deep();
    test_out_of_memory();
    return check_report("test_trace_read");
}
