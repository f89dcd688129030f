/* prof-trace's Perfetto output, decoded by a decoder of our own against
   the public .proto field numbers (perfetto_decode.h; no Perfetto loader
   can be installed here): the example trace of examples/trace_threads
   (argv[1]) and a hand-made one with unmatched zones give well-formed
   packets, one sequence with its state cleared first, names interned
   before use, a described track per thread, slices that nest per track
   with the right names and times, and fewer bytes than the JSON. */
#include "trace_util.h"
#include "perfetto_decode.h"

static unsigned char * render(const pt_trace * t, pt_output kind, size_t * n)
{
    FILE * f = tmpfile();
    unsigned char * d;
    long len;
    pt_write_report(f, t, kind);
    len = ftell(f);
    rewind(f);
    d = (unsigned char *) malloc((size_t) len + 1);
    *n = fread(d, 1, (size_t) len, f);
    fclose(f);
    return d;
}

static pf_trace dec; /* large: not on the stack */

/* outer [100, 200] holding inner [110, 130]; then an inner end without a
   begin and an outer never ended, on a second thread. */
static void test_hand_made(void)
{
    enum { OUTER = 0x10, INNER = 0x20 };
    tev e1[] = { { 100, PROF_IMPL_EV_BEGIN, OUTER }, { 110, PROF_IMPL_EV_BEGIN, INNER },
                 { 130, PROF_IMPL_EV_END, INNER }, { 200, PROF_IMPL_EV_END, OUTER } };
    tev e2[] = { { 120, PROF_IMPL_EV_END, INNER }, { 140, PROF_IMPL_EV_BEGIN, OUTER } };
    tbuf b = { 0, 0, 0 };
    pt_trace t;
    unsigned char * pf;
    size_t n, i;
    tb_header(&b, 1e9, 0);
    tb_string(&b, OUTER, "outer");
    tb_string(&b, INNER, "inner");
    tb_chunk(&b, PROF_TF_THREAD, 5, "five\0\0\0\0", 8);
    tb_events(&b, 5, e1, 4);
    tb_events(&b, 6, e2, 2);
    tb_end(&b, 300, 0);
    CHECK(read_trace(b.d, b.n, &t, 0, NULL) == 0, "read");
    pf = render(&t, PT_OUT_PERFETTO, &n);
    CHECK(pf_decode(pf, n, &dec) == 0, "decode: %s", dec.error);
    CHECK(dec.begins == 3 && dec.ends == 3 && dec.instants == 1, "%zu begins, "
          "%zu ends, %zu instants", dec.begins, dec.ends, dec.instants);
    CHECK(dec.unmatched == 2, "%zu unmatched", dec.unmatched);
    CHECK(dec.ntracks == 3, "%zu tracks", dec.ntracks); /* process, 2 threads */
    for (i = 0; i < dec.ntracks; i++)
        if (dec.tracks[i].tid == 5)
            CHECK(strcmp(dec.tracks[i].name, "five") == 0, "name %s", dec.tracks[i].name);
    /* the last slice ended is thread 6's outer, closed at the end (300) */
    CHECK(dec.last_begin == 140 && dec.last_end == 300
          && strcmp(dec.names[dec.last_name], "outer") == 0, "last slice %llu..%llu %s",
          (unsigned long long) dec.last_begin, (unsigned long long) dec.last_end,
          dec.names[dec.last_name]);
    free(pf);
    pt_free(&t);
    free(b.d);
}

static void test_example(const char * path)
{
    pt_trace t;
    unsigned char * d, * pf, * js;
    size_t n, npf, njs, i, depth = 0;
    d = pt_slurp(path, &n);
    CHECK(d != NULL && read_trace(d, n, &t, 0, NULL) == 0, "read %s", path);
    pf = render(&t, PT_OUT_PERFETTO, &npf);
    js = render(&t, PT_OUT_JSON, &njs);
    CHECK(pf_decode(pf, npf, &dec) == 0, "decode: %s", dec.error);
    CHECK(dec.begins == t.nzones && dec.ends == t.nzones && dec.instants == 0,
          "%zu slices for %zu zones", dec.begins, t.nzones);
    CHECK(dec.ntracks == t.nthreads + 1, "%zu tracks", dec.ntracks);
    for (i = 0; i < dec.ntracks; i++)
        depth += dec.tracks[i].depth;
    CHECK(depth == 0, "slices left open");
    CHECK(npf * 2 < njs, "perfetto %zu bytes, JSON %zu", npf, njs);
    printf("perfetto: %zu bytes (%.1f a zone), JSON %zu (%.1f a zone)\n", npf,
           (double) npf / (double) t.nzones, njs, (double) njs / (double) t.nzones);
    free(pf);
    free(js);
    pt_free(&t);
    free(d);
}

/* A thread renamed after its first event, streamed as prof-trace reads
   (the names are not known at the start): its track carries the final
   name, as the JSON's thread_name does; a thread never named gets
   "thread TID". */
static void test_renamed(void)
{
    enum { OUTER = 0x10 };
    tev e1[] = { { 100, PROF_IMPL_EV_BEGIN, OUTER }, { 200, PROF_IMPL_EV_END, OUTER } };
    tev e2[] = { { 300, PROF_IMPL_EV_BEGIN, OUTER }, { 400, PROF_IMPL_EV_END, OUTER } };
    char path[] = "/tmp/prof-trace-renamed-XXXXXX";
    tbuf b = { 0, 0, 0 };
    pt_trace t;
    pt_options o;
    pt_report * r;
    pt_handler h;
    unsigned char * pf;
    size_t n, i, seen = 0;
    int fd = mkstemp(path);
    FILE * f = fd >= 0 ? fdopen(fd, "wb") : NULL, * out = tmpfile();
    tb_header(&b, 1e9, 0);
    tb_string(&b, OUTER, "outer");
    tb_chunk(&b, PROF_TF_THREAD, 5, "first\0\0\0", 8);
    tb_events(&b, 5, e1, 2);
    tb_events(&b, 6, e1, 2);
    tb_chunk(&b, PROF_TF_THREAD, 5, "final\0\0\0", 8);   /* renamed */
    tb_events(&b, 5, e2, 2);
    tb_end(&b, 500, 0);
    CHECK(f != NULL && fwrite(b.d, 1, b.n, f) == b.n && fclose(f) == 0, "write");
    memset(&o, 0, sizeof o);
    r = pt_report_new(out, PT_OUT_PERFETTO, NULL, 0);
    h = pt_report_handler(r);
    CHECK(pt_stream(path, &o, &h, &t) == 0, "stream");
    CHECK(pt_report_finish(r, &t) == 0, "finish");
    pt_free(&t);
    n = (size_t) ftell(out);
    rewind(out);
    pf = (unsigned char *) malloc(n + 1);
    CHECK(fread(pf, 1, n, out) == n, "read back");
    CHECK(pf_decode(pf, n, &dec) == 0, "decode: %s", dec.error);
    CHECK(dec.ntracks == 3, "%zu tracks", dec.ntracks);
    for (i = 0; i < dec.ntracks; i++)
    {
        if (dec.tracks[i].tid == 5)
        {
            seen++;
            CHECK(strcmp(dec.tracks[i].name, "final") == 0,
                  "thread 5 is named %s", dec.tracks[i].name);
        }
        if (dec.tracks[i].tid == 6)
        {
            seen++;
            CHECK(strcmp(dec.tracks[i].name, "thread 6") == 0,
                  "thread 6 is named %s", dec.tracks[i].name);
        }
    }
    CHECK(seen == 2, "both threads' tracks");
    free(pf);
    fclose(out);
    remove(path);
    free(b.d);
}

int main(int argc, char ** argv)
{
    test_hand_made();
    test_renamed();
    if (argc > 1)
        test_example(argv[1]);
    return check_report("test_trace_perfetto");
}
