/* A program that traces with libprofiler-alloc.a linked in, for
   check_alloc_hook.sh: known allocations in named zones (sizes, a
   realloc chain, leaks of three kinds of allocation, a block freed on
   another thread, a thread of many pairs, a fork child), each zone's
   numbers exact whatever the C library allocates for itself. */
#define PROF_TRACE 1
#include "profiler.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void * shared;

static void * worker(void * arg)
{
    int i;
    (void) arg;
    free(shared); /* allocated in main's zone "shared" */
    {
        PROF_ZONE("worker");
        for (i = 0; i < 1000; i++)
        {
            char * volatile p = (char *) malloc(24);
            free(p);
        }
    }
    return NULL;
}

static int leaks(void)
{
    PROF_ZONE("leak");
    void * q = NULL;
    char * volatile p = (char *) malloc(1000);
    void * volatile a = aligned_alloc(64, 128);
    if (posix_memalign(&q, 64, 256) != 0 || p == NULL || a == NULL)
        return 1;
    return 0;
}

int main(void)
{
    pthread_t th;
    pid_t pid;
    int st = 0;
    {
        PROF_ZONE("sized");
        char * volatile p = (char *) malloc(100);
        char * volatile c = (char *) calloc(10, 30);
        free(p);
        free(c);
        free(NULL);
    }
    {
        PROF_ZONE("chain");
        char * p = (char *) malloc(16), * q;
        if ((q = (char *) realloc(p, 32)) != NULL)
            p = q;
        if ((q = (char *) realloc(p, 64)) != NULL)
            p = q;
        free(p);
    }
    if (leaks() != 0)
        return 1;
    {
        PROF_ZONE("shared");
        shared = malloc(77);
    }
    if (pthread_create(&th, NULL, worker, NULL) != 0 || pthread_join(th, NULL) != 0)
        return 1;
    fflush(NULL);
    if ((pid = fork()) == 0)
    {
        PROF_ZONE("child");
        char * volatile p = (char *) malloc(5);
        free(p);
        exit(0);
    }
    if (pid < 0 || waitpid(pid, &st, 0) != pid || st != 0)
        return 1;
    puts("alloc_target: done");
    return 0;
}
