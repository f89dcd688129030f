/*
    A running program for prof-trace record -p (check_record_attach.sh),
    knowing nothing of the profiler: attach_target SECONDS [DELAY [fork]]
    spins in two threads (spin_main, spin_first) for SECONDS (at most 60),
    and starts a third (spin_late) after DELAY seconds (default 0.5) or at
    SIGUSR1, whichever comes first; with "fork", a child process
    (spin_child) then too. Then it exits 0. With "leader-exit" the main
    thread ends at once (pthread_exit), the process lives on in
    spin_first. Built with frame pointers.
    SPDX-License-Identifier: MIT
*/
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t go;
static double end_s;
static volatile unsigned long sink;

static void on_usr1(int sig)
{
    (void) sig;
    go = 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* Work between two looks at the clock, in the function that is sampled;
   each its own constant, so that no two are folded into one. */
#define SPIN(name, k)                                                 \
    __attribute__((noinline)) static void name(void)                  \
    {                                                                 \
        while (now() < end_s)                                         \
        {                                                             \
            unsigned long i, x = sink;                                \
            for (i = 0; i < 200000; i++)                              \
                x = x * 6364136223846793005u + i + k;                 \
            sink = x;                                                 \
        }                                                             \
    }
SPIN(spin_first, 1)
SPIN(spin_late, 3)
SPIN(spin_child, 5)

static void * first(void * arg)
{
    (void) arg;
    spin_first();
    return NULL;
}

static void * late(void * arg)
{
    (void) arg;
    spin_late();
    return NULL;
}

/* The main thread's spin: it starts the third thread (and the child)
   after the delay or at SIGUSR1. */
__attribute__((noinline)) static void spin_main(double delay_s, int fork_too,
                                                pthread_t * t3, pid_t * kid)
{
    double at = now() + delay_s;
    int started = 0;
    while (now() < end_s)
    {
        unsigned long i, x = sink;
        for (i = 0; i < 200000; i++)
            x = x * 6364136223846793005u + i;
        sink = x;
        if (!started && (go || now() >= at))
        {
            started = 1;
            pthread_create(t3, NULL, late, NULL);
            if (fork_too && (*kid = fork()) == 0)
            {
                spin_child();
                _exit(0);
            }
        }
    }
    if (!started)
        pthread_create(t3, NULL, late, NULL); /* ends at once */
}

int main(int argc, char ** argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 2.0;
    double delay = argc > 2 ? atof(argv[2]) : 0.5;
    struct sigaction sa;
    pthread_t t1, t3;
    pid_t kid = -1;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    alarm(70); /* never left running */
    end_s = now() + (secs > 0 && secs <= 60 ? secs : 2.0);
    pthread_create(&t1, NULL, first, NULL);
    if (argc > 3 && strcmp(argv[3], "leader-exit") == 0)
        pthread_exit(NULL); /* the process goes on in spin_first */
    spin_main(delay, argc > 3 && strcmp(argv[3], "fork") == 0, &t3, &kid);
    pthread_join(t1, NULL);
    pthread_join(t3, NULL);
    if (kid > 0)
        waitpid(kid, NULL, 0);
    return 0;
}
