/*
    Interruptions: SIGINT (Ctrl-C) and SIGTERM while a suite that writes a
    file (--out) is alive. The handler only notes the signal and says so
    (write(2): nothing else is safe in a handler); the runner looks at the
    note between epochs and between benchmarks (PROF_IMPL_INTERRUPT_POLL),
    has each file written with the benchmarks that finished, marked
    partial (by the writer bench_output.c arms the handlers with), then
    ends the process by the signal, as its default action would (a shell
    sees 128 + N: 130 for Ctrl-C). A second signal
    ends the process at once: a file being written then loses its
    temporary copy before the rename (prof_impl_outfile_remove_all, the
    writer's), so the old file stays whole.

    The handlers go only where the action is the default one (a program
    with handlers of its own, or one started with the signal ignored,
    keeps them), never in a worker process, and only while a suite has a
    file; the default action comes back when the last such suite is freed.
    Windows has no sigaction: there a signal ends the program as before.
    SPDX-License-Identifier: MIT
*/
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
# include <signal.h>
# include <unistd.h>
#endif

volatile sig_atomic_t prof_impl_interrupt_signal;

/* What writes the files, or NULL: no suite has one. */
static void (*partial_writer)(int sig);

int prof_impl_interrupt_files(void)
{
    return partial_writer != NULL;
}

#if !defined(_WIN32)

static const int caught[] = { SIGINT, SIGTERM };
enum { NCAUGHT = (int) (sizeof caught / sizeof caught[0]) };
static int ours[NCAUGHT];       /* our handler is installed for caught[i] */

static void say(const char * s, size_t n)
{
    ssize_t w = write(2, s, n);
    (void) w;
}

static void on_signal(int sig)
{
    static const char first[] = "profiler: interrupted: the benchmarks "
        "that finished go to the --out file, marked partial, after this "
        "epoch; interrupt again to stop at once (the file then unchanged)\n";
    if (prof_impl_interrupt_signal == 0)
    {
        prof_impl_interrupt_signal = sig;
        say(first, sizeof first - 1);
        return;
    }
    prof_impl_outfile_remove_all();     /* a file being written */
    signal(sig, SIG_DFL);
    raise(sig);     /* delivered as the handler returns: the end */
}

static void arm(int on)
{
    /* SA_RESTART: the program's calls go on */
    prof_impl_handlers_set(caught, NCAUGHT, ours, on_signal, SA_RESTART, on);
}

static void die(int sig)
{
    sigset_t set;
    fflush(NULL);
    signal(sig, SIG_DFL);
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);       /* a signal whose default is to go on */
}

#else

static void arm(int on)
{
    (void) on;
}

static void die(int sig)
{
    fflush(NULL);
    exit(128 + sig);
}

#endif

void prof_impl_interrupt_arm(void (*writer)(int sig))
{
    partial_writer = writer;
    arm(writer != NULL);
}

void prof_impl_interrupted(int sig)
{
    if (partial_writer != NULL)
        partial_writer(sig);
    die(sig);
}
