/* User measures and a user counter: allocations and bytes allocated per
   operation, counted by a wrapper around malloc (no dependency), and the
   words split per second.

   Two ways to split a line into words: a malloc'd copy of each word, or
   pointers into one copy of the line on the stack. Two measures read the
   wrapper's totals before and after every epoch (outside the timed
   interval); the target counts its words with prof_user_count.

       ./build/examples/alloc [benchmark options, e.g. --format=json] */
#include "profiler.h"

#include <stdlib.h>
#include <string.h>

/* The counting allocator: the code under test calls it instead of
   malloc. (Code run on several threads would count with atomics.) */
static unsigned long long allocations, bytes_allocated;

static void * counting_malloc(size_t size)
{
    allocations++;
    bytes_allocated += size;
    return malloc(size);
}

/* The measures: a reading of each total; the runner takes the difference
   over an epoch and divides it by the epoch's operations. */
static double read_allocations(void * arg)
{
    (void) arg;
    return (double) allocations;
}

static double read_bytes(void * arg)
{
    (void) arg;
    return (double) bytes_allocated;
}

static const char line[] =
    "the quick brown fox jumps over the lazy dog again and again";

/* A copy of each word: one allocation per word. */
static void split_copies(void * arg, ulong count)
{
    int words = prof_user_counter("words", PROF_USER_RATE);
    char * w[32];
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
    {
        const char * p = line;
        int n = 0, k;
        while (*p != '\0' && n < 32)
        {
            size_t len = strcspn(p, " ");
            w[n] = (char *) counting_malloc(len + 1);
            if (w[n] == NULL)
                abort();
            memcpy(w[n], p, len);
            w[n][len] = '\0';
            n++;
            p += len;
            p += *p == ' ';
        }
        prof_user_count(words, n);
        PROF_DO_NOT_OPTIMIZE(w[n - 1][0]);
        for (k = 0; k < n; k++)
            free(w[k]);
    }
}

/* One copy of the line on the stack, the words as pointers into it: no
   allocation. */
static void split_in_place(void * arg, ulong count)
{
    int words = prof_user_counter("words", PROF_USER_RATE);
    char copy[sizeof line], * w[32];
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
    {
        char * p = copy;
        int n = 0;
        memcpy(copy, line, sizeof line);
        while (*p != '\0' && n < 32)
        {
            size_t len = strcspn(p, " ");
            w[n++] = p;
            p += len;
            if (*p == ' ')
                *p++ = '\0';
        }
        prof_user_count(words, n);
        PROF_DO_NOT_OPTIMIZE(w[n - 1][0]);
    }
}

int main(int argc, char ** argv)
{
    prof_bench * b = prof_bench_new();
    int rc;
    if (b == NULL || prof_bench_args(b, argc, argv) != 0)
    {
        prof_bench_free(b);   /* NULL is allowed */
        return 2;
    }
    prof_bench_add_measure(b, "allocs", NULL, read_allocations,
                           read_allocations, NULL);
    prof_bench_add_measure(b, "allocated", "B", read_bytes, read_bytes, NULL);
    prof_bench_run(b, "split, a copy per word", split_copies, NULL);
    prof_bench_run(b, "split in place", split_in_place, NULL);
    rc = prof_bench_finish(b);
    prof_bench_free(b);
    return rc == 0 ? 0 : 1;
}
