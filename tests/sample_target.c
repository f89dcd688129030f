/*
    A program that knows nothing of the profiler, for prof-trace record:
    two threads, each about 80% of its time in hot() and 20% in cold(), for
    argv[1] seconds (default 0.5); "fork" also runs a child process doing
    the same. "rounds N": N rounds a thread instead (fixed work, for the
    cost of sampling it: profile/p-sample-perf.sh). Built with frame
    pointers.
    SPDX-License-Identifier: MIT
*/
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sample_work.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

typedef struct { double secs; long rounds; } job;

static void * work(void * arg)
{
    const job * j = (const job *) arg;
    double end = now() + j->secs;
    long r;
    for (r = 0; j->rounds > 0 ? r < j->rounds : now() < end; r++)
    {
        hot(400000);
        cold(100000);
    }
    return NULL;
}

int main(int argc, char ** argv)
{
    job j = { 0.5, 0 };
    pthread_t t;
    pid_t kid;
    if (argc > 2 && strcmp(argv[1], "rounds") == 0)
        j.rounds = atol(argv[2]) > 0 ? atol(argv[2]) : 1;
    else if (argc > 1)
        j.secs = atof(argv[1]);
    kid = argc > 2 && strcmp(argv[2], "fork") == 0 ? fork() : -1;
    alarm(60);
    pthread_create(&t, NULL, work, &j);
    work(&j);
    pthread_join(t, NULL);
    if (kid == 0)
        _exit(0);
    if (kid > 0)
        waitpid(kid, NULL, 0);
    return 3; /* an exit status prof-trace record must pass on */
}
