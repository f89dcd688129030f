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
    size_t k;
    memset(&o, 0, sizeof o);
    memset(s, 0, sizeof *s);
    o.warn = f;
    o.max_warnings_per_kind = 1000;
    pt_handler_init(&h, s);
    h.annot = on_annot;
    rc = pt_stream(p, &o, &h, t);
    rewind(f);
    k = fread(wb, 1, sizeof wb - 1, f);
    wb[k] = '\0';
    fclose(f);
    if (w != NULL)
        *w = wb;
    return rc;
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

int main(void)
{
    if (mkdtemp(dir) == NULL)
        return 1;
    test_kinds();
    test_strings();
    test_small_buffer();
    return finish_in(dir, "test_trace_annot");
}
