/* Annotations (extension records, format version 3): each recorded in a
   child process and read back with exact counts and contents: zone values
   and texts on their zone, messages, plots and frame marks; strings NULL,
   not terminated, over 4 KiB, and past a small buffer's room; many records
   across buffer hand-offs (no record split, none lost); the reader on
   hand-made files: unknown kinds skipped, short, cut and corrupt records
   said and ignored. */
#define PROF_TRACE 1
#define TRACE_TEST_DIR "/tmp/prof-trace-annot-XXXXXX"
#include "trace_util.h"
#include "perfetto_decode.h"
#include "trace_report.h"

#include <math.h>
#include <pthread.h>

/* What an annot handler saw, by kind; the last message and plot. */
typedef struct
{
    unsigned long n[PT_ANNOT_KINDS];
    double plot_sum;
    char last_text[PROF_TF_MAX_STRING + 1];
    size_t longest;
    const char * last_name;
} seen;

static void on_annot(void * ctx, const pt_trace * t, const pt_annot * a)
{
    seen * s = (seen *) ctx;
    (void) t;
    s->n[a->kind]++;
    if (a->kind == PROF_TF_EXT_PLOT)
        s->plot_sum += a->value;
    if (a->text != NULL)
    {
        CHECK(strlen(a->text) == a->len, "text length %u", a->len);
        memcpy(s->last_text, a->text, a->len + 1);
        if (a->len > s->longest)
            s->longest = a->len;
    }
    if (a->name != NULL)
        s->last_name = a->name;
}

/* Read path with h's annot handler into s (zones collected too). */
static int read_seen(const char * p, pt_trace * t, seen * s, const char ** w)
{
    static char wb[1 << 16];
    pt_options o;
    pt_handler h;
    FILE * f = tmpfile();
    int rc;
    memset(&o, 0, sizeof o);
    memset(s, 0, sizeof *s);
    o.warn = f;
    o.max_warnings_per_kind = 1000;
    pt_handler_init(&h, s);
    h.annot = on_annot;
    rc = pt_stream(p, &o, &h, t);
    warnings_of(f, wb, sizeof wb);
    if (w != NULL)
        *w = wb;
    return rc;
}

/* The report kind of the trace at p, streamed (annotations included), as
   a malloc'd buffer of *n bytes with a zero after them. */
static char * stream_report(const char * p, pt_output kind, int by_value,
                            size_t * n)
{
    FILE * f = tmpfile();
    pt_report * r = pt_report_new(f, kind, NULL, 0);
    pt_handler h = pt_report_handler(r);
    pt_options o;
    pt_trace t;
    char * s;
    long len;
    memset(&o, 0, sizeof o);
    pt_report_by_value(r, by_value);
    CHECK(pt_stream(p, &o, &h, &t) == 0, "stream");
    CHECK(pt_report_finish(r, &t) == 0, "finish");
    pt_free(&t);
    len = ftell(f);
    rewind(f);
    s = (char *) calloc((size_t) len + 1, 1);
    *n = fread(s, 1, (size_t) len, f);
    fclose(f);
    return s;
}

static size_t occurs(const char * s, const char * what)
{
    size_t c = 0;
    for (; (s = strstr(s, what)) != NULL; s++)
        c++;
    return c;
}

/* The X events of Chrome JSON text s whose args hold a value or text. */
static size_t x_with_args(const char * s)
{
    size_t c = 0;
    const char * e;
    for (; (e = strchr(s, '\n')) != NULL; s = e + 1)
    {
        const char * x = strstr(s, "\"ph\":\"X\"");
        const char * v = strstr(s, "\"value\":"), * t = strstr(s, "\"text\":");
        c += x != NULL && x < e && ((v != NULL && v < e) || (t != NULL && t < e));
    }
    return c;
}

/* ---- recorded ----------------------------------------------------------------- */

static void child_kinds(void)
{
    int i;
    CHECK(prof_trace_open(path) == 0, "open");
    for (i = 0; i < 10; i++)
    {
        PROF_ZONE("sized");
        PROF_ZONE_VALUE(i % 3 == 0 ? -1 : 64 << i);
        PROF_ZONE_TEXT("file.txt and more", 8);
        PROF_PLOT("queue", i);
        PROF_FRAME_MARK();
    }
    {
        PROF_ZONE("float");
        PROF_ZONE_VALUE_F(2.5);
    }
    PROF_MESSAGE("hello");
    PROF_PLOT("queue", NAN);
    PROF_PLOT("bytes", INFINITY);
    PROF_FRAME_MARK_NAMED("physics");
}

/* The kinds' trace through every output, with exact counts. */
static void test_outputs(void)
{
    size_t n;
    pf_trace d;
    char * o = stream_report(path, PT_OUT_TEXT, 0, &n);
    CHECK(strstr(o, "1 messages, 11 zone values, 10 zone texts (0 with no zone "
          "open), 0 records") != NULL && strstr(o, "p            11        1"
          "            0            9          nan  queue") != NULL
          && strstr(o, "F            10") != NULL && strstr(o, "F             1")
          != NULL, "text:\n%s", o);
    free(o);
    o = stream_report(path, PT_OUT_CSV, 1, &n);
    CHECK(strstr(o, "u,sized [-1],4,") != NULL && strstr(o, "u,sized [128],1,")
          != NULL && strstr(o, "u,float [2.5],1,") != NULL
          && strstr(o, "queue,11,1,0,9,nan\n") != NULL
          && strstr(o, "bytes,1,0,inf,inf,inf\n") != NULL
          && strstr(o, "\nframe,10,") != NULL && strstr(o, "\nphysics,1,0,0,")
          != NULL && strstr(o, "\n1,11,10,0,0\n") != NULL, "csv:\n%s", o);
    free(o);
    o = stream_report(path, PT_OUT_RAW, 0, &n);
    CHECK(occurs(o, "\tplot\ta\t") == 12 && occurs(o, "\tvalue\ta\t") == 11
          && occurs(o, "\ttext\ta\tfile.txt\n") == 10
          && occurs(o, "\tmessage\ta\thello\n") == 1
          && occurs(o, "\tframe\ta\t") == 11, "raw:\n%s", o);
    free(o);
    o = stream_report(path, PT_OUT_JSON, 0, &n);
    CHECK(occurs(o, "\"ph\":\"C\"") == 12 && occurs(o, "\"cat\":\"message\"") == 1
          && occurs(o, "\"cat\":\"frame\"") == 11 && occurs(o, "\"value\":") == 11
          && occurs(o, "\"text\":\"file.txt\"") == 10 && occurs(o, "\"NaN\"") == 1
          && occurs(o, "\"Infinity\"") == 1 && occurs(o, "\"value\":2.5") == 1,
          "json:\n%s", o);
    free(o);
    /* the values beside their zones' X events, never in their args (which
       key speedscope's frames): every zone named "sized" one frame */
    o = stream_report(path, PT_OUT_JSON, 0, &n);
    CHECK(x_with_args(o) == 0 && occurs(o, "\"cat\":\"value\",\"ph\":\"i\"") == 11,
          "json: %zu X events with a value or text, %zu value events",
          x_with_args(o), occurs(o, "\"cat\":\"value\""));
    free(o);
    o = stream_report(path, PT_OUT_JSON_BE, 0, &n);
    CHECK(occurs(o, "\"ph\":\"C\"") == 12 && occurs(o, "\"value\":") == 11
          && occurs(o, "\"ph\":\"E\"") == 11, "json-be:\n%s", o);
    free(o);
    o = stream_report(path, PT_OUT_PERFETTO, 0, &n);
    CHECK(pf_decode((const unsigned char *) o, n, &d) == 0 && d.counters == 12
          && d.annotations == 21 && d.instants == 12 && d.begins == 11
          && d.ends == 11, "perfetto: %s; %zu counters, %zu annotations, %zu "
          "instants", d.error, d.counters, d.annotations, d.instants);
    free(o);
}

static void test_kinds(void)
{
    pt_trace t;
    seen s;
    const char * w;
    size_t i, sized = 0, minus = 0;
    int nan_seen = 0;
    set_path("kinds.ptrace");
    CHECK(run_child(child_kinds) == 0, "child");
    memset(&t, 0, sizeof t);
    CHECK(load_trace(path, &t, &w) == 0, "read: %s", w);
    CHECK(t.annots[PROF_TF_EXT_ZONE_VALUE] == 11 && t.annots[PROF_TF_EXT_ZONE_TEXT]
          == 10 && t.annots[PROF_TF_EXT_MESSAGE] == 1 && t.annots[PROF_TF_EXT_PLOT]
          == 12 && t.annots[PROF_TF_EXT_FRAME] == 11 && t.annots[0] == 0
          && t.annots_unowned == 0, "counts %llu %llu %llu %llu %llu",
          (unsigned long long) t.annots[1], (unsigned long long) t.annots[2],
          (unsigned long long) t.annots[3], (unsigned long long) t.annots[4],
          (unsigned long long) t.annots[5]);
    for (i = 0; i < t.nzones; i++)
    {
        const pt_zone * z = &t.zones[i];
        if (strcmp(z->name, "sized") == 0)
        {
            sized++;
            CHECK(z->vflags == PT_VALUE_SET && z->text != NULL
                  && strcmp(z->text, "file.txt") == 0, "value and text on zone");
            minus += z->ivalue == -1;
        }
        else if (strcmp(z->name, "float") == 0)
            CHECK(z->vflags == (PT_VALUE_SET | PT_VALUE_DOUBLE) && z->value == 2.5
                  && z->text == NULL, "double value");
    }
    CHECK(sized == 10 && minus == 4, "%zu sized zones, %zu of -1", sized, minus);
    pt_free(&t);
    CHECK(read_seen(path, &t, &s, &w) == 0, "stream: %s", w);
    CHECK(s.n[PROF_TF_EXT_PLOT] == 12 && strcmp(s.last_text, "hello") == 0
          && s.last_name != NULL && strcmp(s.last_name, "physics") == 0,
          "handler: %lu plots, text '%s'", s.n[PROF_TF_EXT_PLOT], s.last_text);
    nan_seen = isnan(s.plot_sum); /* 0..9, NaN and inf: NaN passes through */
    CHECK(nan_seen, "NaN plot kept");
    pt_free(&t);
    test_outputs();
}

/* Strings: NULL, not terminated (a buffer of 5000 bytes with no zero),
   over 4 KiB, a length past the zero. */
static char big[5000];

static void child_strings(void)
{
    CHECK(prof_trace_open(path) == 0, "open");
    memset(big, 'x', sizeof big);
    PROF_MESSAGE(NULL);
    PROF_MESSAGE(big);              /* cut at 4096 */
    {
        PROF_ZONE("z");
        PROF_ZONE_TEXT(big, sizeof big);
    }
    {
        PROF_ZONE("z");
        PROF_ZONE_TEXT(NULL, 3);
    }
    {
        PROF_ZONE("z");
        PROF_ZONE_TEXT("ab", 1000); /* stops at the zero */
    }
    PROF_MESSAGE("");
}

static void test_strings(void)
{
    pt_trace t;
    seen s;
    const char * w;
    size_t i, n4096 = 0, null = 0, ab = 0;
    set_path("strings.ptrace");
    CHECK(run_child(child_strings) == 0, "child");
    CHECK(read_seen(path, &t, &s, &w) == 0, "stream: %s", w);
    CHECK(s.n[PROF_TF_EXT_MESSAGE] == 3 && s.n[PROF_TF_EXT_ZONE_TEXT] == 3
          && s.longest == PROF_TF_MAX_STRING && s.last_text[0] == '\0',
          "%lu messages, longest %zu", s.n[PROF_TF_EXT_MESSAGE], s.longest);
    pt_free(&t);
    CHECK(load_trace(path, &t, &w) == 0, "read");
    for (i = 0; i < t.nzones; i++)
        if (t.zones[i].text != NULL)
        {
            n4096 += strlen(t.zones[i].text) == PROF_TF_MAX_STRING;
            null += strcmp(t.zones[i].text, "(null)") == 0;
            ab += strcmp(t.zones[i].text, "ab") == 0;
        }
    CHECK(n4096 == 1 && null == 1 && ab == 1, "zone texts %zu %zu %zu", n4096,
          null, ab);
    pt_free(&t);
}

/* The smallest buffer (4 KiB: 512 words): a 4 KiB text is cut to what
   fits; 20000 messages and plots across many buffers from two threads,
   none lost or split. */
static void * many(void * arg)
{
    int i;
    (void) arg;
    for (i = 0; i < 10000; i++)
    {
        PROF_ZONE("m");
        PROF_MESSAGE("a message of some length");
        PROF_PLOT("p", 1.0);
    }
    return NULL;
}

static void child_small(void)
{
    pthread_t th;
    setenv("PROF_TRACE_BUFFER_KB", "4", 1);
    CHECK(prof_trace_open(path) == 0, "open");
    memset(big, 'y', sizeof big);
    PROF_MESSAGE(big);
    CHECK(pthread_create(&th, NULL, many, NULL) == 0, "thread");
    many(NULL);
    pthread_join(th, NULL);
}

static void test_small_buffer(void)
{
    pt_trace t;
    seen s;
    const char * w;
    set_path("small.ptrace");
    CHECK(run_child(child_small) == 0, "child");
    CHECK(read_seen(path, &t, &s, &w) == 0, "stream: %s", w);
    CHECK(s.n[PROF_TF_EXT_MESSAGE] == 20001 && s.n[PROF_TF_EXT_PLOT] == 20000
          && s.plot_sum == 20000.0 && t.nzones == 20000 && t.warnings == 0
          && t.lost == 0, "%lu messages, %lu plots, %zu zones, %lu warnings: %s",
          s.n[PROF_TF_EXT_MESSAGE], s.n[PROF_TF_EXT_PLOT], t.nzones,
          t.warnings, w);
    CHECK(s.longest > 3000 && s.longest < PROF_TF_MAX_STRING, "cut to %zu",
          s.longest);
    pt_free(&t);
}

/* ---- hand-made files ---------------------------------------------------------- */


static uint64_t ext_word(unsigned kind, unsigned words)
{
    return UINT64_C(10) << 24 | (uint64_t) words << 8 | kind << 3 | PROF_TF_EV_EXT;
}

/* A file of thread 9 (label 0: "q") with the events words w[0..n). */
static void make_file(tbuf * b, const uint64_t * w, size_t n)
{
    static const uint64_t key = 0x42;
    b->n = 0;
    tb_header(b, 1e9, 0);
    tb_string(b, key, "q");
    tb_labels(b, 9, 0, &key, 1);
    tb_chunk(b, PROF_TF_EVENTS2, 9, w, n * 8);
    tb_end(b, 100000, 0);
}

static void test_damaged(void)
{
    double one = 1.0;
    uint64_t bits, w[16], abc = 0x636261;
    tbuf b = { 0, 0, 0 };
    pt_trace t;
    const char * warn;
    size_t n = 0, whole;
    memcpy(&bits, &one, 8);
    w[n++] = 0;                                         /* the base */
    w[n++] = ext_word(PROF_TF_EXT_PLOT, 2), w[n++] = 0, w[n++] = bits;
    w[n++] = ext_word(PROF_TF_EXT_PLOT, 1), w[n++] = 0; /* short */
    w[n++] = ext_word(PROF_TF_EXT_MESSAGE, 2), w[n++] = 100, w[n++] = abc;
    w[n++] = ext_word(PROF_TF_EXT_FRAME, 1), w[n++] = 7; /* no label 7 */
    w[n++] = ext_word(31, 1), w[n++] = 0;               /* unknown */
    w[n++] = ext_word(PROF_TF_EXT_MESSAGE, 5), w[n++] = 3, w[n++] = abc;
    make_file(&b, w, n);
    save_seed("annot-damaged.ptrace", b.d, b.n);
    CHECK(read_trace(b.d, b.n, &t, 0, &warn) == 0 && t.annots[PROF_TF_EXT_PLOT] == 1
          && t.annots[0] == 1 && t.annots[PROF_TF_EXT_MESSAGE] == 0
          && t.annots[PROF_TF_EXT_FRAME] == 0, "read: %s", warn);
    CHECK(strstr(warn, "plot record of 1 words, fewer than its 2") != NULL
          && strstr(warn, "message record whose text does not fit") != NULL
          && strstr(warn, "frame mark of label number 7, not defined") != NULL
          && strstr(warn, "kind 31, which this prof-trace does not know") != NULL
          && strstr(warn, "message record cut (3 of its words missing)") != NULL,
          "warnings:\n%s", warn);
    pt_free(&t);
    /* one good plot: cut anywhere, it is said; bits flipped never crash,
       and a flipped size or kind is said */
    make_file(&b, w, 4);
    whole = b.n;
    check_cuts_and_flips(b.d, whole, PROF_TF_EXT_PLOT);
    {
        size_t head = whole - 16 - 24 - 8 * 3; /* the plot's extension word */
        b.d[head + 1] ^= 1;                     /* words 2 -> 3: cut */
        CHECK(read_trace(b.d, whole, &t, 0, &warn) == 0
              && strstr(warn, "plot record cut") != NULL, "words flipped: %s", warn);
        pt_free(&t);
        b.d[head + 1] ^= 1;
        b.d[head] ^= 0x80;                      /* kind 4 -> 20 */
        CHECK(read_trace(b.d, whole, &t, 0, &warn) == 0
              && strstr(warn, "kind 20") != NULL, "kind flipped: %s", warn);
        pt_free(&t);
    }
    free(b.d);
}

int main(int argc, char ** argv)
{
    unsigned char * d;
    size_t n;
    seed_dir = argc > 1 ? argv[1] : NULL;
    if (mkdtemp(dir) == NULL)
        return 1;
    test_kinds();
    if ((d = pt_slurp(path, &n)) != NULL) /* kinds.ptrace */
        save_seed("annot-kinds.ptrace", d, n);
    free(d);
    test_strings();
    test_small_buffer();
    test_damaged();
    return finish_in(dir, "test_trace_annot");
}
