/* p-alloc: what the lock and allocation records cost, single thread,
   side by side in one process (rounds of 1000 operations, each variant
   once per round, in turn; the median round over ROUNDS, per operation):

     raw          two raw counter reads (the floor of any record)
     zone         PROF_ZONE_BEGIN + PROF_ZONE_END (two events)
     lock marks   PROF_LOCK_ACQUIRED + PROF_LOCK_RELEASED (two records)
     mutex        pthread_mutex_lock + unlock, uncontended, not recorded
     prof_mutex   prof_mutex_lock + prof_mutex_unlock (trylock; two records)
     alloc marks  PROF_ALLOC + PROF_FREE (two records, nothing allocated)
     libc pair    __libc_malloc(32) + __libc_free: glibc's allocator, what
                  malloc and free are without libprofiler-alloc.a
     hooked pair  malloc(32) + free through libprofiler-alloc.a (this
                  program links it): the pair and its two records

   Then the bytes each kind of record takes in the file (the file's growth
   over 100000 records, flushed). Quiet, then beside two busy processes it
   starts itself (killed after, and bounded by timeout 120). The trace goes to $PROF_TRACE_FILE, else /tmp/p-alloc.<pid>
   (removed at the end).
   Usage: p-alloc [ROUNDS]   (201) */
#define PROF_TRACE 1
#define _GNU_SOURCE 1
#include "profiler.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char ** environ;
extern void * __libc_malloc(size_t n);
extern void __libc_free(void * p);

enum { OPS = 1000, VARIANTS = 8, BUSY = 2, RECORDS = 100000 };
static const char * const names[VARIANTS] = { "raw", "zone", "lock marks",
    "mutex", "prof_mutex", "alloc marks", "libc pair", "hooked pair" };

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int lock_word;
static void * volatile sink;
static unsigned long long tsink;

/* One round of variant v: its ticks for OPS operations. */
static unsigned long long round_of(int v)
{
    unsigned long long t0 = prof_impl_ticks(), t1;
    int i;
    for (i = 0; i < OPS; i++)
        switch (v)
        {
        case 0: tsink += prof_impl_ticks(); tsink += prof_impl_ticks(); break;
        case 1: PROF_ZONE_BEGIN("z"); PROF_ZONE_END("z"); break;
        case 2: PROF_LOCK_ACQUIRED(&lock_word); PROF_LOCK_RELEASED(&lock_word); break;
        case 3: pthread_mutex_lock(&mu); pthread_mutex_unlock(&mu); break;
        case 4: prof_mutex_lock(&mu); prof_mutex_unlock(&mu); break;
        case 5: PROF_ALLOC(&lock_word, 32); PROF_FREE(&lock_word); break;
        case 6: sink = __libc_malloc(32); __libc_free(sink); break;
        default: sink = malloc(32); free(sink); break;
        }
    t1 = prof_impl_ticks();
    return t1 - t0;
}

static int cmp(const void * a, const void * b)
{
    unsigned long long x = *(const unsigned long long *) a;
    unsigned long long y = *(const unsigned long long *) b;
    return x < y ? -1 : x > y;
}

/* Each variant's median ns per operation over rounds rounds, into ns. */
static int measure(int rounds, double * ns)
{
    unsigned long long * t = (unsigned long long *) calloc((size_t) rounds
                                                           * VARIANTS, sizeof *t);
    double per = 1e9 / prof_tick_rate() / OPS;
    int r, v, j;
    if (t == NULL)
        return -1;
    for (r = 0; r < rounds; r++)
        for (j = 0; j < VARIANTS; j++) /* in turn, from another one each round */
        {
            v = (j + r) % VARIANTS;
            t[(size_t) v * rounds + r] = round_of(v);
        }
    for (v = 0; v < VARIANTS; v++)
    {
        qsort(t + (size_t) v * rounds, (size_t) rounds, sizeof *t, cmp);
        ns[v] = (double) t[(size_t) v * rounds + rounds / 2] * per;
    }
    free(t);
    return 0;
}

/* The file's size after a flush. */
static long long file_size(const char * path)
{
    struct stat st;
    if (prof_trace_flush() != 0 || stat(path, &st) != 0)
        return -1;
    return (long long) st.st_size;
}

/* Bytes a record of each kind takes: the file's growth over RECORDS. */
static void record_sizes(const char * path)
{
    static const char * const what[4] = { "zone begin or end", "lock record",
                                          "alloc record", "free record" };
    long long s[5];
    int k, i;
    for (k = 0; k < 4; k++)
    {
        s[k] = file_size(path);
        for (i = 0; i < RECORDS / 2; i++)
            switch (k)
            {
            case 0: PROF_ZONE_BEGIN("z"); PROF_ZONE_END("z"); break;
            case 1: PROF_LOCK_ACQUIRED(&lock_word); PROF_LOCK_RELEASED(&lock_word); break;
            case 2: PROF_ALLOC(&lock_word, 32); PROF_ALLOC(&lock_word, 32); break;
            default: PROF_FREE(&lock_word); PROF_FREE(&lock_word); break;
            }
    }
    s[4] = file_size(path);
    for (k = 0; k < 4; k++)
        printf("  %-18s %6.2f bytes in the file\n", what[k],
               s[k] < 0 || s[k + 1] < 0 ? -1.0
               : (double) (s[k + 1] - s[k]) / RECORDS);
}

/* Two busy shells, bounded by timeout (120 s), each in a process group
   of its own, which is killed after. Spawned, not forked: a fork of a
   process that traces slows its recording afterwards (zones 5-20x). */
static void busy(pid_t * kids)
{
    static char * const cmd[] = { "timeout", "120", "sh", "-c",
                                  "while :; do :; done", NULL };
    posix_spawnattr_t a;
    int i;
    posix_spawnattr_init(&a);
    posix_spawnattr_setflags(&a, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&a, 0);
    for (i = 0; i < BUSY; i++)
        if (posix_spawnp(&kids[i], cmd[0], NULL, &a, cmd, environ) != 0)
            kids[i] = -1;
    posix_spawnattr_destroy(&a);
}

static void report(const char * when, const double * ns)
{
    double load[3] = { 0, 0, 0 };
    FILE * f = fopen("/proc/loadavg", "r");
    int v;
    if (f != NULL)
    {
        if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
            load[0] = -1;
        fclose(f);
    }
    printf("%s (load %.2f %.2f %.2f): ns per operation, median round\n", when,
           load[0], load[1], load[2]);
    for (v = 0; v < VARIANTS; v++)
        printf("  %-12s %8.1f ns  %5.2fx raw\n", names[v], ns[v], ns[v] / ns[0]);
    printf("  hook per malloc/free pair: +%.1f ns (%.2fx the libc pair); "
           "prof_mutex: +%.1f ns per lock/unlock\n", ns[7] - ns[6], ns[7] / ns[6],
           ns[4] - ns[3]);
}

int main(int argc, char ** argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 201, i;
    const char * env = getenv("PROF_TRACE_FILE");
    char path[64];
    double ns[VARIANTS];
    pid_t kids[BUSY];
    if (rounds < 3 || rounds > 100000)
    {
        fprintf(stderr, "usage: p-alloc [ROUNDS]   (3..100000, 201)\n");
        return 2;
    }
    snprintf(path, sizeof path, "/tmp/p-alloc.%ld", (long) getpid());
    if (prof_trace_open(env != NULL && env[0] ? env : path) != 0)
        return 1;
    PROF_LOCK_NAME(&lock_word, "p-alloc");
    PROF_LOCK_NAME(&mu, "mu");
    record_sizes(env != NULL && env[0] ? env : path);
    if (measure(rounds, ns) != 0)
        return 1;
    report("quiet", ns);
    busy(kids);
    if (measure(rounds, ns) == 0)
        report("beside 2 busy processes", ns);
    for (i = 0; i < BUSY; i++)
        if (kids[i] > 0)
            kill(-kids[i], SIGKILL), waitpid(kids[i], NULL, 0);
    if (env == NULL || !env[0])
        unlink(path);
    return 0;
}
