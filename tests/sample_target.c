/*
    A program that knows nothing of the profiler, for prof-trace record:
    two threads, each about 80% of its time in hot() and 20% in cold(), for
    argv[1] seconds (default 0.5); "fork" also runs a child process doing
    the same. Built with frame pointers.
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

static void * work(void * arg)
{
    double end = now() + *(double *) arg;
    while (now() < end)
    {
        hot(400000);
        cold(100000);
    }
    return NULL;
}

int main(int argc, char ** argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.5;
    pthread_t t;
    pid_t kid = argc > 2 && strcmp(argv[2], "fork") == 0 ? fork() : -1;
    alarm(60);
    pthread_create(&t, NULL, work, &secs);
    work(&secs);
    pthread_join(t, NULL);
    if (kid == 0)
        _exit(0);
    if (kid > 0)
        waitpid(kid, NULL, 0);
    return 3; /* an exit status prof-trace record must pass on */
}
