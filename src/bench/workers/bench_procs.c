/*
    Running the worker processes (prof_bench_set_processes), one after
    another: the program executed again (Linux: /proc/self/exe; elsewhere
    argv[0]) with the same arguments, a marker in the environment and an
    environment of a different size each time; each worker's records read
    from its pipe into its log (bench_workers.c pools them), under a time
    limit; a worker that crashes, hangs or sends a damaged record named
    with the benchmark it was running. What the workers print on stderr
    comes through a pipe of its own: each line once when they are done,
    with the number of processes that printed it, never on the progress
    line. A signal that ends the parent (Ctrl-C) ends the running worker
    first, and the parent then ends as an interrupted suite does
    (bench_output.c).
    SPDX-License-Identifier: MIT
*/
#include "bench.h"
#include "bench_settings.h"     /* the hang limit */

#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
# include <fcntl.h>
# include <poll.h>
# include <signal.h>
# include <sys/wait.h>
# include <unistd.h>
# if defined(__linux__)
#  include <sys/prctl.h>
# endif
extern char ** environ;
#endif

#define WORKER_VAR PROF_IMPL_WORKER_VAR
#define PAD_VAR "PROFILER_WORKER_PAD"

static int saved_argc;
static char ** saved_argv, ** saved_copy;

void prof_impl_workers_argv(int argc, char ** argv)
{
    /* a copy of the array: prof_bench_init moves the caller's words */
    char ** copy = argv ? (char **) malloc(((size_t) argc + 1) * sizeof *copy)
                        : NULL;
    if (copy == NULL)
        return;
    memcpy(copy, argv, (size_t) argc * sizeof *copy);
    copy[argc] = NULL;
    free(saved_copy);
    saved_copy = saved_argv = copy;
    saved_argc = argc;
}

#if defined(_WIN32)
int prof_impl_workers_run(prof_bench * b, prof_impl_worker_log * logs, int n,
        int * failed)
{
    (void) b;
    (void) logs;
    (void) n;
    (void) failed;
    prof_impl_warn("worker processes need fork and exec, which Windows "
                   "lacks: running in this process");
    return -1;
}
#else

/* The command line to run again: prof_bench_args's argv, else (Linux)
   /proc/self/cmdline. NULL-terminated; *owned is what to free. */
static char ** command_line(char ** owned)
{
    static char * none[1];
    FILE * f;
    char * text, ** argv;
    size_t n = 0, cap = 0, i, k = 0, count = 0;
    int c;
    *owned = NULL;
    if (saved_argv != NULL && saved_argc > 0)
        return saved_argv;
    if ((f = fopen("/proc/self/cmdline", "rb")) == NULL)
        return NULL;
    text = NULL;
    while ((c = getc(f)) != EOF)
        if (prof_impl_grow(&text, &cap, n + 2, 1) == 0)
            text[n++] = (char) c;
    fclose(f);
    if (text == NULL || n == 0)
    {
        free(text);
        return n == 0 ? none : NULL;
    }
    text[n] = '\0';
    for (i = 0; i < n; i++)
        count += text[i] == '\0';
    argv = (char **) malloc((count + 2) * sizeof *argv);
    if (argv == NULL)
    {
        free(text);
        return NULL;
    }
    for (i = 0; i < n; i += strlen(text + i) + 1)
        argv[k++] = text + i;
    argv[k] = NULL;
    /* one block: the pointers, then the text they point into */
    *owned = text;
    saved_argv = argv;      /* kept for the process's life: later suites */
    saved_argc = (int) k;
    return argv;
}

/* environ without our variables, plus the marker and a padding of len
   bytes (so that each worker's stack starts elsewhere). */
static char ** worker_environ(int fd, int k, int n, size_t pad)
{
    size_t count = 0, i, j = 0;
    char ** env, * marker, * padding;
    while (environ[count] != NULL)
        count++;
    env = (char **) malloc((count + 3) * sizeof *env);
    marker = (char *) malloc(64);
    padding = (char *) malloc(sizeof PAD_VAR + pad + 1);
    if (env == NULL || marker == NULL || padding == NULL)
    {
        free(env); free(marker); free(padding);
        return NULL;
    }
    for (i = 0; i < count; i++)
        if (strncmp(environ[i], WORKER_VAR, sizeof WORKER_VAR - 1) != 0)
            env[j++] = environ[i];
    snprintf(marker, 64, "%s=%d,%d,%d,%ld", WORKER_VAR, fd, k, n,
             (long) getpid());
    memcpy(padding, PAD_VAR "=", sizeof PAD_VAR);
    memset(padding + sizeof PAD_VAR, 'x', pad);
    padding[sizeof PAD_VAR + pad] = '\0';
    env[j++] = marker;
    env[j++] = padding;
    env[j] = NULL;
    return env;
}

static void free_environ(char ** env)
{
    size_t n = 0;
    if (env == NULL)
        return;
    while (env[n] != NULL)
        n++;
    free(env[n - 2]);
    free(env[n - 1]);
    free(env);
}

/* A worker while it runs. */
typedef struct
{
    int k, n;               /* worker k of n (from 0) */
    pid_t pid;
    int fd;                 /* the pipe's read end */
    unsigned char * buf;
    size_t len, cap;
    prof_impl_worker_log * log;
    char current[256];      /* the benchmark it said it starts */
    int done_current;       /* ... and sent */
    char problem[160];      /* why its stream was cut, or "" */
    int err_fd;             /* its stderr's read end, or -1 */
    char * err;             /* the start of a line it is printing */
    size_t errlen, errcap;
    int begun;              /* benchmarks it said it starts */
    int before, per;        /* begun by the workers before it; most begun
                               by one of them (0: none yet): the progress */
} worker;

/* ---- what the workers print: each line once, with a count -------------- */

#define ECHO_LINES_MAX 256      /* distinct lines kept; later ones pass */
#define ECHO_LINE_MAX 1024      /* a longer line is cut there */

typedef struct
{
    char * text;
    int processes;          /* workers that printed it */
    int last;               /* the last of them */
} echo_line;

static struct
{
    echo_line * v;
    size_t n, cap;
} echoes;

/* Line text[0 .. len) of worker w: counted once per worker, or (the table
   full, memory short) printed at once with its worker's number. */
static void echo_add(const worker * w, const char * text, size_t len)
{
    size_t i;
    char * copy;
    for (i = 0; i < echoes.n; i++)
        if (strncmp(echoes.v[i].text, text, len) == 0
            && echoes.v[i].text[len] == '\0')
        {
            echoes.v[i].processes += echoes.v[i].last != w->k;
            echoes.v[i].last = w->k;
            return;
        }
    if (echoes.n < ECHO_LINES_MAX
        && prof_impl_grow(&echoes.v, &echoes.cap, echoes.n + 1,
                          sizeof *echoes.v) == 0
        && (copy = (char *) malloc(len + 1)) != NULL)
    {
        memcpy(copy, text, len);
        copy[len] = '\0';
        echoes.v[echoes.n].text = copy;
        echoes.v[echoes.n].processes = 1;
        echoes.v[echoes.n++].last = w->k;
        return;
    }
    prof_impl_status_clear();
    fprintf(stderr, "%.*s (worker %d of %d)\n", (int) len, text, w->k + 1,
            w->n);
}

/* The lines, each once, as "... (in 3 of 3 processes)" (ran: the workers
   run); then none is kept. */
static void echo_flush(int ran)
{
    size_t i;
    if (echoes.n > 0)
        prof_impl_status_clear();
    for (i = 0; i < echoes.n; i++)
    {
        fprintf(stderr, "%s (in %d of %d processes)\n", echoes.v[i].text,
                echoes.v[i].processes, ran);
        free(echoes.v[i].text);
    }
    fflush(stderr);
    free(echoes.v);
    memset(&echoes, 0, sizeof echoes);
}

/* What w's stderr holds now into its lines: 1, or 0 at its end (the pipe
   is then closed, the last line taken even without its newline). */
static int read_err(worker * w)
{
    size_t start = 0, i;
    ssize_t got;
    if (prof_impl_grow(&w->err, &w->errcap, w->errlen + 4096, 1) != 0)
        got = -1;
    else
        while ((got = read(w->err_fd, w->err + w->errlen, 4096)) < 0
               && errno == EINTR)
            ;
    if (got > 0)
        w->errlen += (size_t) got;
    for (i = 0; i < w->errlen; i++)
        if (w->err[i] == '\n' || i - start >= ECHO_LINE_MAX)
        {
            echo_add(w, w->err + start, i - start);
            start = i + (w->err[i] == '\n');
        }
    if (got <= 0 && start < w->errlen)
        echo_add(w, w->err + start, w->errlen - start);
    if (got <= 0)
        start = w->errlen;
    memmove(w->err, w->err + start, w->errlen - start);
    w->errlen -= start;
    if (got > 0)
        return 1;
    close(w->err_fd);
    w->err_fd = -1;
    return 0;
}

static volatile sig_atomic_t got_signal;
static volatile pid_t running_pid;

static void on_signal(int sig)
{
    got_signal = sig;
    if (running_pid > 0)
        kill(running_pid, SIGKILL);
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
enum { NFORWARDED = (int) (sizeof forwarded / sizeof forwarded[0]) };

static void handlers(struct sigaction * old, int install)
{
    struct sigaction sa;
    int i;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < NFORWARDED; i++)
        if (install)
            sigaction(forwarded[i], &sa, &old[i]);
        else
            sigaction(forwarded[i], &old[i], NULL);
}

/* Take the complete records of w->buf into the log. -1 if one is bad. */
static int take_records(prof_bench * b, worker * w)
{
    size_t used = 0;
    for (;;)
    {
        prof_impl_wire_record r;
        char msg[128];
        long n = prof_impl_wire_decode(w->buf + used, w->len - used, &r, msg,
                                       sizeof msg);
        if (n == 0)
            break;
        if (n < 0)
        {
            snprintf(w->problem, sizeof w->problem, "sent a damaged record "
                     "(%s)", msg);
            return -1;
        }
        used += (size_t) n;
        if (r.type == PROF_IMPL_WIRE_BEGIN)
        {
            char what[300];
            prof_impl_copy(w->current, sizeof w->current, r.name);
            w->done_current = 0;
            snprintf(what, sizeof what, "worker %d of %d: %s", w->k + 1, w->n,
                     r.name);
            /* [i/n] once a worker has said how many benchmarks there are */
            w->begun++;
            prof_impl_progress(b, what, w->per > 0 ? w->before + w->begun : 0,
                               w->per * w->n);
            prof_impl_wire_free(&r);
        }
        else if (prof_impl_grow(&w->log->recs, &w->log->cap, w->log->n + 1,
                                sizeof r) == 0)
        {
            w->log->recs[w->log->n++] = r;
            w->done_current = 1;
        }
        else
        {
            prof_impl_wire_free(&r);
            snprintf(w->problem, sizeof w->problem, "out of memory");
            return -1;
        }
    }
    memmove(w->buf, w->buf + used, w->len - used);
    w->len -= used;
    return 0;
}

/* Read what w's pipe holds into its log: 1 if something came, 0 at the
   pipe's end, -1 after a problem (w is then killed). */
static int read_records(prof_bench * b, worker * w)
{
    ssize_t got;
    if (prof_impl_grow(&w->buf, &w->cap, w->len + 65536, 1) != 0)
    {
        snprintf(w->problem, sizeof w->problem, "out of memory");
        kill(w->pid, SIGKILL);
        return -1;
    }
    while ((got = read(w->fd, w->buf + w->len, 65536)) < 0 && errno == EINTR)
        ;
    if (got <= 0)
        return 0;
    w->len += (size_t) got;
    if (take_records(b, w) != 0)
    {
        kill(w->pid, SIGKILL);
        return -1;
    }
    return 1;
}

/* How often a worker whose pipe is quiet is asked whether it has ended:
   a process it started (fork without exec) may hold the pipe open after
   it, and the pipe then never ends. */
#define ENDED_CHECK_MS 250

/* 1 if w has ended (left to reap). Its pipe then holds all it sent: read
   what is there, without waiting for the pipe's end. */
static int ended(prof_bench * b, worker * w)
{
    siginfo_t si;
    struct pollfd p;
    memset(&si, 0, sizeof si);
    if (waitid(P_PID, (id_t) w->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0
        || si.si_pid != w->pid)
        return 0;
    p.fd = w->fd;
    p.events = POLLIN;
    while (poll(&p, 1, 0) > 0 && read_records(b, w) > 0)
        ;
    return 1;
}

/* Read w's records (and what it prints) until its pipe closes or it ends,
   a bad record, the time limit without a record, or a signal. */
static void read_worker(prof_bench * b, worker * w, double limit_s)
{
    double last = prof_impl_now_ns();
    for (;;)
    {
        struct pollfd p[2];
        double left_ms = limit_s * 1e3 - (prof_impl_now_ns() - last) * 1e-6;
        int ready, got;
        p[0].fd = w->fd;
        p[1].fd = w->err_fd;        /* -1: poll leaves it out */
        p[0].events = p[1].events = POLLIN;
        p[0].revents = p[1].revents = 0;
        if (got_signal)
            return;
        ready = poll(p, 2, left_ms <= 0.0 ? 0 : left_ms < ENDED_CHECK_MS
                     ? (int) left_ms + 1 : ENDED_CHECK_MS);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready > 0 && p[1].revents != 0)
            read_err(w);
        if (ready <= 0 || p[0].revents == 0)
        {
            if (ended(b, w))
                return;
            if (left_ms > 0.0)
                continue;
            snprintf(w->problem, sizeof w->problem, "sent nothing for %g s "
                     "(" PROF_IMPL_STR(PROF_IMPL_HANG_BUDGETS) " x the budget + "
                     PROF_IMPL_STR(PROF_IMPL_HANG_EXTRA_S) " s): stopped",
                     limit_s);
            kill(w->pid, SIGKILL);
            return;
        }
        if ((got = read_records(b, w)) <= 0)
            return;
        last = prof_impl_now_ns();
    }
}

/* What ended w, said once with the benchmark it was running; returns 1 if
   it failed. */
static int judge(worker * w, int status)
{
    char why[200];
    if (w->problem[0] != '\0')
        prof_impl_copy(why, sizeof why, w->problem);
    else if (WIFSIGNALED(status))
        snprintf(why, sizeof why, "was killed by signal %d (%s)",
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        snprintf(why, sizeof why, "exited with status %d%s",
                 WEXITSTATUS(status), WEXITSTATUS(status) == 127
                 && w->log->n == 0 ? " (it could not be started)" : "");
    else if (w->len > 0)
        snprintf(why, sizeof why, "ended in the middle of a record");
    else
        return 0;
    if (w->current[0] != '\0' && !w->done_current)
        prof_impl_warn("worker %d of %d (pid %ld) %s while running \"%s\"; "
                       "the other results are kept", w->k + 1, w->n,
                       (long) w->pid, why, w->current);
    else if (w->current[0] == '\0')
        prof_impl_warn("worker %d of %d (pid %ld) %s before its first "
                       "benchmark", w->k + 1, w->n, (long) w->pid, why);
    else
        prof_impl_warn("worker %d of %d (pid %ld) %s after its last "
                       "benchmark; its results are kept", w->k + 1, w->n,
                       (long) w->pid, why);
    w->log->failed = 1;
    return 1;
}

/* Reap w (its status into *status), reading what it still prints so
   that it never waits on a full pipe; then what is left in the pipe (a
   process it started may hold it open: not waited for). */
static void reap(worker * w, int * status)
{
    for (;;)
    {
        struct pollfd p;
        pid_t r = waitpid(w->pid, status, w->err_fd >= 0 ? WNOHANG : 0);
        if (r == w->pid || (r < 0 && errno != EINTR))
            break;
        p.fd = w->err_fd;
        p.events = POLLIN;
        if (r == 0 && poll(&p, 1, 50) > 0)
            read_err(w);
    }
    for (;;)
    {
        struct pollfd p;
        p.fd = w->err_fd;
        p.events = POLLIN;
        if (w->err_fd < 0 || poll(&p, 1, 0) <= 0 || read_err(w) == 0)
            break;
    }
    if (w->err_fd >= 0)
    {
        if (w->errlen > 0)
            echo_add(w, w->err, w->errlen);
        close(w->err_fd);
        w->err_fd = -1;
    }
    free(w->err);
}

/* The padding of worker k of n: spread over a page (so that each worker's
   stack starts at another offset), or PROFILER_WORKER_PAD_BYTES for all
   (to measure what the spread changes: profile/p-coverage). */
static size_t pad_bytes(int k, int n)
{
    const char * fixed = getenv("PROFILER_WORKER_PAD_BYTES");
    if (fixed != NULL && *fixed != '\0')
    {
        long v = atol(fixed);
        return v > 0 && v <= 65536 ? (size_t) v : 0;
    }
    return (size_t) k * 4096 / (size_t) n;
}

/* Start worker k of n running argv. 0, or -1 after a message. */
static int start_worker(worker * w, const char * path, char ** argv)
{
    int fds[2], errfds[2] = { -1, -1 }, devnull;
    char ** env;
    if (pipe(fds) != 0)
    {
        prof_impl_warn("worker processes: pipe: %s", strerror(errno));
        return -1;
    }
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    if (pipe(errfds) == 0)          /* else it prints straight to stderr */
        fcntl(errfds[0], F_SETFD, FD_CLOEXEC);
    env = worker_environ(fds[1], w->k, w->n, pad_bytes(w->k, w->n));
    devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    fflush(NULL);
    w->pid = env && devnull >= 0 ? fork() : -1;
    if (w->pid == 0)
    {
#if defined(__linux__)
        prctl(PR_SET_PDEATHSIG, SIGKILL);   /* if the parent dies, so do we */
#endif
        dup2(devnull, 1);                   /* the parent prints the tables */
        if (errfds[1] >= 0)
            dup2(errfds[1], 2);             /* and its lines, once each */
        execve(path, argv, env);
        _exit(127);
    }
    free_environ(env);
    if (devnull >= 0)
        close(devnull);
    close(fds[1]);
    if (errfds[1] >= 0)
        close(errfds[1]);
    w->err_fd = errfds[0];
    if (w->pid < 0)
    {
        prof_impl_warn("worker processes: cannot start one: %s",
                       strerror(errno));
        close(fds[0]);
        if (w->err_fd >= 0)
            close(w->err_fd);
        w->err_fd = -1;
        return -1;
    }
    w->fd = fds[0];
    return 0;
}

/* A signal stopped the workers after the first k ran to their end: with
   a file to write and such workers, the signal is noted and the suite
   goes on answering what they ran, to end at its first benchmark they did
   not finish (bench_suite.c); else the run ends now. Returns k. */
static int salvage(int k, int sig)
{
    if (k == 0 || !prof_impl_interrupt_files())
        prof_impl_interrupted(sig);
    prof_impl_interrupt_signal = sig;
    prof_impl_warn("interrupted: the benchmarks the %d worker process%s that "
                   "ran to the end finished go to the file, marked partial",
                   k, k == 1 ? "" : "es");
    return k;
}

int prof_impl_workers_run(prof_bench * b, prof_impl_worker_log * logs, int n,
        int * failed)
{
    char * owned;
    char ** argv = command_line(&owned);
    const char * path = "/proc/self/exe";
    double limit_s = PROF_IMPL_HANG_BUDGETS * b->s.budget_s
                   + PROF_IMPL_HANG_EXTRA_S;
    struct sigaction old[NFORWARDED];
    int k, before = 0, per = 0;
    (void) owned;           /* kept with argv for the process's life */
#if !defined(__linux__)
    path = argv ? argv[0] : NULL;
#endif
    if (argv == NULL || argv[0] == NULL || path == NULL)
    {
        prof_impl_warn("worker processes: cannot tell how this program was "
                       "started (call prof_bench_args); running in this "
                       "process");
        return -1;
    }
    for (k = 0; k < n && !got_signal && !prof_impl_interrupt_signal; k++)
    {
        worker w;
        int status = 0;
        memset(&w, 0, sizeof w);
        w.k = k;
        w.n = n;
        w.log = &logs[k];
        w.before = before;
        w.per = per;
        if (start_worker(&w, path, argv) != 0)
        {
            logs[k].failed = *failed = 1;
            continue;
        }
        running_pid = w.pid;
        handlers(old, 1);
        read_worker(b, &w, limit_s);
        reap(&w, &status);
        running_pid = 0;
        handlers(old, 0);
        close(w.fd);
        if (got_signal)     /* the worker is reaped: no zombie */
        {
            echo_flush(k + 1);
            free(w.buf);
            return salvage(k, got_signal);
        }
        *failed |= judge(&w, status);
        free(w.buf);
        before += w.begun;
        per = w.begun > per ? w.begun : per;
    }
    echo_flush(k);
    prof_impl_status_clear();
    if (prof_impl_interrupt_signal)     /* one that came between workers */
        return salvage(k, (int) prof_impl_interrupt_signal);
    return n;
}
#endif
