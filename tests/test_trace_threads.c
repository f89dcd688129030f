/* Threads (also run under ThreadSanitizer): four threads record with small
   buffers (many flushes) while the main thread flushes on demand; with the
   argument "writer", 64 KiB buffers that go to the writer thread (double
   buffering); a second
   wave reuses the records of the first; every zone arrives, per thread, in
   order, with nothing lost, under a memory cap (PROF_TRACE_MEMORY_KB) that
   gives the later threads the smallest buffers. Then exit() while a thread is still recording:
   the file is complete up to the exit-time flush. */
#define PROF_TRACE 1
#include "trace_util.h"
#include "internal.h"

#include <pthread.h>
#include <sys/wait.h>

enum { THREADS = 4, ZONES = 20000 };

static char path[] = "/tmp/prof-trace-threads-XXXXXX";
static int stop;
static pthread_barrier_t all_started; /* all THREADS hold a record at once */

static void * worker(void * arg)
{
    long i;
    char name[16];
    snprintf(name, sizeof name, "w%ld", (long) (size_t) arg);
    prof_trace_thread_name(name); /* takes a record (and a buffer) */
    if ((size_t) arg < 2 * THREADS)
        pthread_barrier_wait(&all_started);
    for (i = 0; i < ZONES; i++)
    {
        PROF_ZONE("outer");
        PROF_ZONE_BEGIN("inner");
        PROF_ZONE_END("inner");
    }
    return NULL;
}

static void * endless(void * arg)
{
    (void) arg;
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED))
    {
        PROF_ZONE("spin");
    }
    return NULL;
}

static void load(pt_trace * t, const char ** w)
{
    size_t n;
    unsigned char * d = pt_slurp(path, &n);
    CHECK(d != NULL && read_trace(d, n, t, 0, w) == 0, "read %s", path);
    free(d);
}

int main(int argc, char ** argv)
{
    int writer = argc > 1 && strcmp(argv[1], "writer") == 0;
    pthread_t th[THREADS];
    pt_trace t;
    const char * w;
    long i, wave;
    size_t k;
    int fdt = mkstemp(path), st;
    pid_t pid;
    capture_t c;
    const char * err;

    if (fdt < 0)
        return 1;
    close(fdt);
    /* room for two records with 8 KiB buffers: later threads get 2 KiB;
       or buffers large enough to go to the writer thread */
    setenv("PROF_TRACE_BUFFER_KB", writer ? "64" : "8", 1);
    setenv("PROF_TRACE_MEMORY_KB", writer ? "8192" : "70", 1);

    /* exit() while a thread records, in a child (before any thread here) */
    fflush(NULL);
    pid = fork();
    if (pid == 0)
    {
        pthread_t e;
        prof_trace_open(path);
        pthread_create(&e, NULL, endless, NULL);
        worker((void *) 99);
        exit(0);
    }
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exit child status %d", st);
    load(&t, &w);
    CHECK(t.has_end && count_zones(&t, "outer", -1, 0) == ZONES, "exit child");
    pt_free(&t);

    CHECK(prof_trace_open(path) == 0, "open");
    pthread_barrier_init(&all_started, NULL, THREADS);
    capture_begin(&c, 2);
    for (wave = 0; wave < 2; wave++)
    {
        for (i = 0; i < THREADS; i++)
            pthread_create(&th[i], NULL, worker, (void *) (size_t) (wave * THREADS + i));
        for (i = 0; i < 50; i++)
            CHECK(prof_trace_flush() == 0, "flush");
        for (i = 0; i < THREADS; i++)
            pthread_join(th[i], NULL);
    }
    err = capture_end(&c);
    if (writer)
        CHECK(prof_impl_trace_writer_buffers() >= 8 * THREADS, "%lu buffers "
              "went to the writer thread", prof_impl_trace_writer_buffers());
    else
        CHECK(strstr(err, "profiler: trace: event buffers reached 70 KiB "
                     "(PROF_TRACE_MEMORY_KB): new threads get 2 KiB buffers") != NULL,
              "stderr: %s", err);
    CHECK(prof_trace_flush() == 0 && prof_trace_lost() == 0, "lost");
    load(&t, &w);
    CHECK(t.nthreads == 2 * THREADS, "%zu threads", t.nthreads);
    CHECK(t.events == (uint64_t) 2 * THREADS * ZONES * 4, "%llu events",
          (unsigned long long) t.events);
    for (k = 0; k < t.nthreads; k++)
    {
        CHECK(t.threads[k].name[0] == 'w', "thread %zu name '%s'", k, t.threads[k].name);
        CHECK(count_zones(&t, "outer", (long) k, 0) == ZONES
              && count_zones(&t, "inner", (long) k, 0) == ZONES, "thread %zu", k);
    }
    CHECK(strstr(w, "unmatched") == NULL && strstr(w, "time goes back") == NULL,
          "warnings: %s", w);
    pt_free(&t);
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    remove(path);
    return check_report("test_trace_threads");
}
