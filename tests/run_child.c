/*
    A tiny command for prof-run's tests and profile program: its arguments
    are steps done in order.

        count FILE     append one line (its name and pid) to FILE
        mark FILE      write its pid to FILE (the test then knows it runs)
        spin N         N steps of a dependent multiply-add chain (CPU work)
        print MB       write MB megabytes to stdout
        touch MB       touch MB megabytes of fresh memory (page faults, RSS)
        sleep MS       sleep MS milliseconds
        exit CODE      exit with CODE
    SPDX-License-Identifier: MIT
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned long long spin(unsigned long long n)
{
    unsigned long long x = 1, i;
    for (i = 0; i < n; i++)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x;
}

static int print_mb(long mb)
{
    static char block[1 << 16];
    long i, n = mb * 16;
    memset(block, 'x', sizeof block);
    for (i = 0; i < n; i++)
        if (fwrite(block, 1, sizeof block, stdout) != sizeof block)
            return 1;
    return fflush(stdout) != 0;
}

static int touch_mb(long mb)
{
    size_t n = (size_t) mb << 20, i;
    volatile char * p = (volatile char *) malloc(n);
    if (p == NULL)
        return 1;
    for (i = 0; i < n; i += 4096)
        p[i] = (char) i;
    free((void *) p);
    return 0;
}

static int append(const char * path, const char * mode)
{
    FILE * f = fopen(path, mode);
    if (f == NULL)
        return 1;
    fprintf(f, "%ld\n", (long) getpid());
    return fclose(f) != 0;
}

int main(int argc, char ** argv)
{
    int i;
    for (i = 1; i + 1 < argc; i += 2)
    {
        const char * step = argv[i], * arg = argv[i + 1];
        long v = atol(arg);
        int rc = 0;
        if (strcmp(step, "count") == 0)
            rc = append(arg, "a");
        else if (strcmp(step, "mark") == 0)
            rc = append(arg, "w");
        else if (strcmp(step, "spin") == 0)
            rc = spin((unsigned long long) atof(arg)) == 42;
        else if (strcmp(step, "print") == 0)
            rc = print_mb(v);
        else if (strcmp(step, "touch") == 0)
            rc = touch_mb(v);
        else if (strcmp(step, "sleep") == 0)
        {
            struct timespec ts;
            ts.tv_sec = v / 1000;
            ts.tv_nsec = (v % 1000) * 1000000L;
            nanosleep(&ts, NULL);
        }
        else if (strcmp(step, "exit") == 0)
            return (int) v;
        else
        {
            fprintf(stderr, "run_child: unknown step %s\n", step);
            return 2;
        }
        if (rc != 0)
        {
            fprintf(stderr, "run_child: %s %s failed\n", step, arg);
            return 2;
        }
    }
    return 0;
}
