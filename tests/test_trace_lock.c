/* Locks and allocations in the trace (extension records 6-10): the reader's
   lock statistics and allocation replay on a hand-made file with exact
   times (tick rate 1e9: ticks are ns), in every output that has them
   (text summary, CSV, raw lines, --alloc, both Chrome JSON forms, Perfetto
   decoded); then recorded: two threads with a known contention pattern
   through prof_mutex_lock (exact counts; run under TSan too), and
   PROF_ALLOC / PROF_FREE with known sizes, a leak and a realloc-style
   chain across two threads.
   Damaged records of kinds 6-10 (short, cut, bits flipped) are said, never
   crash. With a directory argument, the hand-made files are also written
   there as fuzz seeds (.ci/run). */
#define PROF_TRACE 1
#define TRACE_TEST_DIR "/tmp/prof-trace-lock-XXXXXX"
#include "trace_util.h"
#include "perfetto_decode.h"

#include <pthread.h>
#include <sys/syscall.h>

/* ---- a hand-made file ------------------------------------------------------ */

typedef struct { uint64_t v[256]; size_t n; uint64_t last; } words;

static void w_start(words * w, uint64_t base)
{
    w->v[0] = base;
    w->n = 1;
    w->last = base;
}

static void w_event(words * w, uint64_t ticks, unsigned type, uint64_t id)
{
    w->v[w->n++] = (ticks - w->last) << 24 | id << 3 | type;
    w->last = ticks;
}

/* An extension record of kind at ticks: n payload words p. */
static void w_ext(words * w, uint64_t ticks, unsigned kind, const uint64_t * p,
                  size_t n)
{
    w->v[w->n++] = (ticks - w->last) << 24 | (uint64_t) n << 8 | kind << 3
                   | PROF_TF_EV_EXT;
    memcpy(w->v + w->n, p, n * 8);
    w->n += n;
    w->last = ticks;
}

static void w_lock(words * w, uint64_t ticks, unsigned kind, uint64_t lock)
{
    uint64_t p[2];
    p[0] = 1; /* label id 1: "mu" */
    p[1] = lock;
    w_ext(w, ticks, kind, p, 2);
}

static void w_alloc(words * w, uint64_t ticks, uint64_t addr, uint64_t size)
{
    uint64_t p[2];
    p[0] = addr;
    p[1] = size;
    w_ext(w, ticks, size != (uint64_t) -1 ? PROF_TF_EXT_ALLOC
          : PROF_TF_EXT_FREE, p, size != (uint64_t) -1 ? 2 : 1);
}

#define FREE_OF (uint64_t) -1

/* Thread 1 (labels 0 "z", 1 "mu"): zone z 0..1000 holding: allocs A (100
   bytes at 10), B (50 at 20); mu: acquired at 50, released 240 (no wait);
   a wait 300..450, held to 600; a release never acquired at 700.
   Thread 2, written first though later in time: frees A at 30 and again
   at 40 (double), frees C (unknown) at 45; B "reallocated" into D (80
   bytes) at 60; mu waited 100..240, held 240..290. Live at the end: D.
   mu: the lock's name. */
static void hand_file(tbuf * b, const char * mu)
{
    static const uint64_t keys[2] = { 0x1000, 0x2000 };
    words w;
    tb_header(b, 1e9, 0);
    tb_string(b, 0x1000, "z");
    tb_string(b, 0x2000, mu);
    tb_labels(b, 2, 0, keys, 2);
    w_start(&w, 0);
    w_alloc(&w, 30, 0xa0, FREE_OF);
    w_alloc(&w, 40, 0xa0, FREE_OF);
    w_alloc(&w, 45, 0xc0, FREE_OF);
    w_alloc(&w, 60, 0xb0, FREE_OF);
    w_alloc(&w, 60, 0xd0, 80);
    w_lock(&w, 100, PROF_TF_EXT_LOCK_WAIT, 0x77);
    w_lock(&w, 240, PROF_TF_EXT_LOCK_ACQUIRED, 0x77);
    w_lock(&w, 290, PROF_TF_EXT_LOCK_RELEASED, 0x77);
    tb_chunk(b, PROF_TF_EVENTS2, 2, w.v, w.n * 8);
    tb_labels(b, 1, 0, keys, 2);
    w_start(&w, 0);
    w_event(&w, 0, PROF_IMPL_EV_BEGIN, 0);
    w_alloc(&w, 10, 0xa0, 100);
    w_alloc(&w, 20, 0xb0, 50);
    w_lock(&w, 50, PROF_TF_EXT_LOCK_ACQUIRED, 0x77);
    w_lock(&w, 240, PROF_TF_EXT_LOCK_RELEASED, 0x77);
    w_lock(&w, 300, PROF_TF_EXT_LOCK_WAIT, 0x77);
    w_lock(&w, 450, PROF_TF_EXT_LOCK_ACQUIRED, 0x77);
    w_lock(&w, 600, PROF_TF_EXT_LOCK_RELEASED, 0x77);
    w_lock(&w, 700, PROF_TF_EXT_LOCK_RELEASED, 0x77);
    w_event(&w, 1000, PROF_IMPL_EV_END, 0);
    tb_chunk(b, PROF_TF_EVENTS2, 1, w.v, w.n * 8);
    tb_end(b, 1000, 0);
}

/* Report kind of the trace file p, streamed as prof-trace reads it, as a
   string (its length at *len). */
static char * report_of(const char * p, pt_output kind, size_t * len)
{
    pt_trace t;
    pt_options o;
    pt_handler h;
    FILE * f = tmpfile();
    pt_report * r = pt_report_new(f, kind, NULL, 0);
    memset(&o, 0, sizeof o);
    o.warn = stderr;
    h = pt_report_handler(r);
    CHECK(pt_stream(p, &o, &h, &t) == 0, "read %s", p);
    CHECK(pt_report_finish(r, &t) == 0, "report %d", (int) kind);
    pt_free(&t);
    return read_back(f, len);
}

static size_t count_of(const char * s, const char * what)
{
    size_t n = 0;
    for (; (s = strstr(s, what)) != NULL; s += strlen(what))
        n++;
    return n;
}

/* Report kind of the hand-made file with the lock named mu. */
static char * hand_report(const char * mu, pt_output kind)
{
    tbuf b = { NULL, 0, 0 };
    char * s;
    FILE * f;
    hand_file(&b, mu);
    f = fopen(path, "wb");
    CHECK(f != NULL && fwrite(b.d, 1, b.n, f) == b.n && fclose(f) == 0, "write");
    s = report_of(path, kind, NULL);
    free(b.d);
    return s;
}

static void test_hand(void)
{
    tbuf b = { NULL, 0, 0 };
    pf_trace d;
    char * s;
    size_t n, i;
    FILE * f;
    hand_file(&b, "mu");
    set_path("hand.ptrace");
    f = fopen(path, "wb");
    CHECK(f != NULL && fwrite(b.d, 1, b.n, f) == b.n && fclose(f) == 0, "write");
    s = report_of(path, PT_OUT_TEXT, NULL);
    /* mu: 3 acquisitions, 2 waits of 140 and 150, holds 190 + 50 + 150,
       one release unmatched; per thread: 2 and 1 acquisitions */
    CHECK(strstr(s, "1 locks\n") != NULL && strstr(s, "         3          2"
          "            290          150            390          190         1"
          "  mu 0x77\n") != NULL, "lock table:\n%s", s);
    CHECK(strstr(s, "\n         2          1            150              "
          "           340                           thread 1\n") != NULL
          && strstr(s, "\n         1          1            140              "
          "            50                           thread 2\n") != NULL,
          "holders:\n%s", s);
    CHECK(strstr(s, "7 allocation records: 4 frees, 230 bytes allocated, peak "
          "150 bytes live at 2e-08 s; 1 blocks (80 bytes) live at the end; 1 "
          "frees of unknown blocks, 1 double frees\n") != NULL, "allocs:\n%s", s);
    free(s);
    s = report_of(path, PT_OUT_CSV, NULL);
    /* the same as rows, after the zones' table and the annotations' */
    CHECK(strstr(s, "\n\nlock,address,acquired,waits,wait_ns,max_wait_ns,"
          "hold_ns,max_hold_ns,unmatched\nmu,0x77,3,2,290,150,390,190,1\n"
          "\nallocs,frees,bytes,peak_bytes,peak_ns,leaks,leak_bytes,"
          "unknown_frees,double_frees,replaced\n3,4,230,150,20,1,80,1,1,0\n")
          != NULL && strstr(s, "\nz,") < strstr(s, "\nlock,"), "csv:\n%s", s);
    free(s);
    s = report_of(path, PT_OUT_RAW, NULL);
    /* each record, in the order read (thread 2's chunk first) */
    CHECK(strstr(s, "2\t30\t30\tfree\ta\t0xa0\n2\t40\t40\tfree\ta\t0xa0\n"
          "2\t45\t45\tfree\ta\t0xc0\n2\t60\t60\tfree\ta\t0xb0\n"
          "2\t60\t60\talloc\ta\t0xd0 80\n"
          "2\t100\t100\tlock_wait\ta\tmu 0x77\n"
          "2\t240\t240\tlock_acquired\ta\tmu 0x77\n"
          "2\t290\t290\tlock_released\ta\tmu 0x77\n") != NULL
          && strstr(s, "1\t10\t10\talloc\ta\t0xa0 100\n"
          "1\t20\t20\talloc\ta\t0xb0 50\n"
          "1\t50\t50\tlock_acquired\ta\tmu 0x77\n"
          "1\t240\t240\tlock_released\ta\tmu 0x77\n"
          "1\t300\t300\tlock_wait\ta\tmu 0x77\n"
          "1\t450\t450\tlock_acquired\ta\tmu 0x77\n"
          "1\t600\t600\tlock_released\ta\tmu 0x77\n"
          "1\t700\t700\tlock_released\ta\tmu 0x77\n") != NULL
          && count_of(s, "\ta\t") == 16, "raw:\n%s", s);
    free(s);
    s = report_of(path, PT_OUT_ALLOC, NULL);
    CHECK(strstr(s, "         2            150          0              0  1  z\n")
          != NULL && strstr(s, "         1             80          1             "
          "80  2  (no zone)\n") != NULL, "by zone:\n%s", s);
    CHECK(strstr(s, "leaks: live at the end") != NULL && strstr(strstr(s, "leaks"),
          "         1             80          1             80  2  (no zone)\n")
          != NULL && strstr(strstr(s, "leaks"), "  z\n") == NULL, "leaks:\n%s", s);
    free(s);
    for (i = 0; i < 2; i++) /* --json, then --json-be: the same lock slices */
    {
        s = report_of(path, i == 0 ? PT_OUT_JSON : PT_OUT_JSON_BE, NULL);
        CHECK(count_of(s, "\"cat\":\"lock\",\"ph\":\"b\"") == 5
              && count_of(s, "\"ph\":\"e\"") == 5 && count_of(s, "\"ph\":\"C\"") == 7
              && strstr(s, "\"name\":\"hold\",\"cat\":\"lock\",\"ph\":\"b\",\"id\":"
                        "\"0.1\",\"ts\":0.450") != NULL
              && strstr(s, "\"ts\":0.060,\"pid\":4242,\"args\":{\"bytes\":80}") != NULL,
              "json %zu:\n%s", i, s);
        free(s);
    }
    s = report_of(path, PT_OUT_PERFETTO, &n);
    CHECK(pf_decode((const unsigned char *) s, n, &d) == 0, "perfetto: %s",
          d.error);
    CHECK(d.begins == 5 + 1 && d.ends == 5 + 1 && d.counters == 7
          && d.last_counter == 80, "perfetto: %zu slices, %zu counter values",
          d.begins, d.counters);
    free(s);
    free(b.d);
    /* a line break in a lock's name: '?' in the text table, as in a zone's
       name (it was printed as is, breaking the table's line) */
    s = hand_report("m\nu", PT_OUT_TEXT);
    CHECK(strstr(s, "  m?u 0x77\n") != NULL && strstr(s, "m\nu") == NULL,
          "lock table:\n%s", s);
    free(s);
    /* a byte that is not UTF-8: U+FFFD in the CSV, as in the JSON (it went
       through raw) */
    s = hand_report("m\xffu", PT_OUT_CSV);
    CHECK(strstr(s, "\nm\xEF\xBF\xBDu,0x77,") != NULL && strchr(s, '\xff') == NULL,
          "csv:\n%s", s);
    free(s);
}

/* ---- recorded: two threads on one mutex ------------------------------------ */

enum { ROUNDS = 20 };
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static volatile int b_tid, b_turn, a_turn, b_done;

/* 1 once thread tid sleeps (blocked on the mutex: it does nothing else
   after saying it is about to lock); 10 s at most. */
static int sleeping(int tid)
{
    int i;
    for (i = 0; i < 100000; i++)
    {
        char p[64], st[512], * c;
        FILE * f;
        snprintf(p, sizeof p, "/proc/self/task/%d/stat", tid);
        if ((f = fopen(p, "r")) == NULL)
            return 0;
        c = fgets(st, sizeof st, f);
        fclose(f);
        if (c != NULL && (c = strrchr(st, ')')) != NULL && c[2] == 'S')
            return 1;
        usleep(100);
    }
    return 0;
}

/* B: each round, waits for A to hold the mutex, then locks it (trylock
   fails: a wait), releases it. */
static void * thread_b(void * arg)
{
    int r;
    (void) arg;
    b_tid = (int) syscall(SYS_gettid);
    PROF_ZONE_BEGIN("b"); /* its buffer exists: the lock below sleeps only there */
    PROF_ZONE_END("b");
    for (r = 0; r < ROUNDS; r++)
    {
        while (__atomic_load_n(&a_turn, __ATOMIC_ACQUIRE) <= r)
            sched_yield();
        __atomic_store_n(&b_turn, r + 1, __ATOMIC_RELEASE);
        CHECK(prof_mutex_lock(&mu) == 0, "lock b");
        CHECK(prof_mutex_unlock(&mu) == 0, "unlock b");
        __atomic_store_n(&b_done, r + 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

static void child_locks(void)
{
    pthread_t th;
    int r;
    CHECK(prof_trace_open(path) == 0, "open");
    PROF_LOCK_NAME(&mu, "mu");
    CHECK(pthread_create(&th, NULL, thread_b, NULL) == 0, "thread");
    for (r = 0; r < ROUNDS; r++)
    {
        CHECK(prof_mutex_lock(&mu) == 0, "lock a"); /* free: no wait */
        __atomic_store_n(&a_turn, r + 1, __ATOMIC_RELEASE);
        while (__atomic_load_n(&b_turn, __ATOMIC_ACQUIRE) <= r)
            sched_yield();
        CHECK(sleeping(b_tid), "thread b blocked");
        CHECK(prof_mutex_unlock(&mu) == 0, "unlock a");
        /* B takes and releases it before A locks again: A never waits */
        while (__atomic_load_n(&b_done, __ATOMIC_ACQUIRE) <= r)
            sched_yield();
    }
    pthread_join(th, NULL);
}

static void test_recorded_locks(void)
{
    char * s, want[128];
    set_path("locks.ptrace");
    CHECK(run_child(child_locks) == 0, "child");
    s = report_of(path, PT_OUT_TEXT, NULL);
    snprintf(want, sizeof want, "%10d %10d ", 2 * ROUNDS, ROUNDS);
    CHECK(strstr(s, "1 locks\n") != NULL && strstr(s, want) != NULL
          && strstr(s, " mu 0x") != NULL, "lock table:\n%s", s);
    snprintf(want, sizeof want, "%10d %10d ", ROUNDS, 0);
    CHECK(strstr(s, want) != NULL, "a: %d acquisitions, no wait:\n%s", ROUNDS, s);
    snprintf(want, sizeof want, "%10d %10d ", ROUNDS, ROUNDS);
    CHECK(strstr(s, want) != NULL, "b: every acquisition waited:\n%s", s);
    free(s);
}

/* ---- recorded: PROF_ALLOC / PROF_FREE ---------------------------------------- */

static char pool[4096];
static void * handed; /* from main's thread to the other, which frees it */

static void * freer(void * arg)
{
    (void) arg;
    PROF_FREE(handed);
    PROF_FREE(handed); /* a double free */
    PROF_FREE(pool + 4000); /* never allocated */
    return NULL;
}

static void child_allocs(void)
{
    pthread_t th;
    int i;
    CHECK(prof_trace_open(path) == 0, "open");
    {
        PROF_ZONE("make");
        for (i = 0; i < 10; i++)
            PROF_ALLOC(pool + 16 * i, 16);       /* 160 bytes */
        for (i = 0; i < 9; i++)
            PROF_FREE(pool + 16 * i);            /* one leaks */
    }
    {
        PROF_ZONE("grow");                       /* a realloc chain */
        PROF_ALLOC(pool + 1000, 10);
        PROF_FREE(pool + 1000);
        PROF_ALLOC(pool + 1100, 20);
        PROF_FREE(pool + 1100);
        PROF_ALLOC(pool + 1200, 40);
    }
    handed = pool + 2000;
    PROF_ALLOC(handed, 7);
    PROF_ALLOC(NULL, 5); /* not recorded */
    PROF_FREE(NULL);
    CHECK(pthread_create(&th, NULL, freer, NULL) == 0, "thread");
    pthread_join(th, NULL);
}

static void test_recorded_allocs(void)
{
    char * s;
    set_path("allocs.ptrace");
    CHECK(run_child(child_allocs) == 0, "child");
    s = report_of(path, PT_OUT_ALLOC, NULL);
    CHECK(strstr(s, "28 allocation records: 14 frees, 237 bytes allocated, "
          "peak 160 bytes live") != NULL && strstr(s, "; 2 blocks (56 bytes) "
          "live at the end; 1 frees of unknown blocks, 1 double frees\n")
          != NULL, "totals:\n%s", s);
    CHECK(strstr(s, "        10            160          1             16  ")
          != NULL && strstr(s, "  make\n") != NULL
          && strstr(s, "         3             70          1             40  ")
          != NULL, "zones:\n%s", s);
    free(s);
}

/* ---- damaged files ---------------------------------------------------------- */

/* The start of a one-thread file (labels "z", "mu") in b, its events
   from w_start(w, 0) on. */
static void damaged_start(tbuf * b, words * w)
{
    static const uint64_t keys[2] = { 0x1000, 0x2000 };
    b->d = NULL, b->n = b->cap = 0;
    tb_header(b, 1e9, 0);
    tb_string(b, 0x1000, "z");
    tb_string(b, 0x2000, "mu");
    tb_labels(b, 1, 0, keys, 2);
    w_start(w, 0);
}

/* ... and its end: one good lock wait and one good alloc after w's. */
static void damaged_end(tbuf * b, words * w)
{
    w_lock(w, 100, PROF_TF_EXT_LOCK_WAIT, 0x77);
    w_alloc(w, 110, 0xa0, 16);
    tb_chunk(b, PROF_TF_EVENTS2, 1, w->v, w->n * 8);
    tb_end(b, 1000, 0);
}

/* A short record of each kind 6-10 is said and dropped, the good ones kept;
   one good lock and one good alloc record cut anywhere is said, and bits
   flipped anywhere never crash (ASan, UBSan) and mostly are said. */
static void test_damaged(void)
{
    static const unsigned kinds[5] = {
        PROF_TF_EXT_LOCK_WAIT, PROF_TF_EXT_LOCK_ACQUIRED,
        PROF_TF_EXT_LOCK_RELEASED, PROF_TF_EXT_ALLOC, PROF_TF_EXT_FREE };
    static const uint64_t none[1] = { 0 };
    tbuf b;
    pt_trace t;
    const char * warn;
    words w;
    size_t k;
    damaged_start(&b, &w);
    for (k = 0; k < 5; k++)
        w_ext(&w, 10 * k + 10, kinds[k], none, 0);
    damaged_end(&b, &w);
    save_seed("lock-damaged.ptrace", b.d, b.n);
    CHECK(read_trace(b.d, b.n, &t, 0, &warn) == 0
          && t.annots[PROF_TF_EXT_LOCK_WAIT] == 1 && t.annots[PROF_TF_EXT_ALLOC] == 1
          && t.annots[PROF_TF_EXT_LOCK_ACQUIRED] == 0
          && t.annots[PROF_TF_EXT_FREE] == 0, "read: %s", warn);
    CHECK(strstr(warn, "lock wait record of 0 words, fewer than its 1") != NULL
          && strstr(warn, "lock acquired record of 0 words") != NULL
          && strstr(warn, "lock released record of 0 words") != NULL
          && strstr(warn, "alloc record of 0 words, fewer than its 2") != NULL
          && strstr(warn, "free record of 0 words, fewer than its 1") != NULL,
          "warnings:\n%s", warn);
    pt_free(&t);
    free(b.d);
    damaged_start(&b, &w);
    damaged_end(&b, &w);
    check_cuts_and_flips(b.d, b.n, PROF_TF_EXT_ALLOC);
    free(b.d);
}

int main(int argc, char ** argv)
{
    unsigned char * d;
    size_t n;
    seed_dir = argc > 1 ? argv[1] : NULL;
    if (mkdtemp(dir) == NULL)
        return 1;
    test_damaged();
    test_hand();
    if ((d = pt_slurp(path, &n)) != NULL) /* hand.ptrace */
        save_seed("lock-hand.ptrace", d, n);
    free(d);
    test_recorded_locks();
    test_recorded_allocs();
    return finish_in(dir, "test_trace_lock");
}
