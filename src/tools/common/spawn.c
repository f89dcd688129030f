/*
    Running a command as a measured child process: its own process group
    (or the caller's), extra environment, input and output files (opened
    by the parent, never blocking), exec (posix_spawnp; or fork, a call
    before the exec, execvp), the signals the caller passes on at their
    default action in the child whatever the caller's were; wait4 for the
    status and resource usage (with a call between polls, while_running);
    signals received meanwhile passed on to the child's process group (or,
    in the caller's group, to the child). An exec failure (command not
    found) is told apart from a command that ran and exited 127:
    posix_spawnp returns it, and after a fork the child sends it back
    through a close-on-exec pipe.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "prof_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char ** environ;

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
enum { NFORWARDED = sizeof forwarded / sizeof forwarded[0] };

static volatile sig_atomic_t child_group;   /* 0 until the child exists */
static volatile sig_atomic_t own_group;     /* the child leads its group */
static volatile sig_atomic_t received;      /* a forwarded signal, or 0 */
static volatile sig_atomic_t holding;       /* prof_spawn_hold is on */
static volatile sig_atomic_t held;          /* a signal noted meanwhile */
static struct sigaction before_hold[NFORWARDED];

/* sig to the child: its whole group, or the child alone when it is in
   the caller's group. */
static void pass_on(int sig)
{
    if (child_group > 0)
        kill(own_group ? -(pid_t) child_group : (pid_t) child_group, sig);
}

static void forward(int sig, siginfo_t * si, void * uc)
{
    (void) uc;
    received = sig;
    if (holding)
        held = sig;
    /* the terminal's ^C (SI_KERNEL) reached the caller's whole group, so
       a child in it has it already */
    if (own_group || si == NULL || si->si_code != SI_KERNEL)
        pass_on(sig);
}

static void note(int sig)
{
    held = sig;
}

void prof_spawn_hold(void)
{
    struct sigaction sa;
    int i;
    if (holding)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = note;
    sigemptyset(&sa.sa_mask);
    held = 0;
    for (i = 0; i < NFORWARDED; i++)
        sigaction(forwarded[i], &sa, &before_hold[i]);
    holding = 1;
}

int prof_spawn_held(void)
{
    return held;
}

void prof_spawn_release(int sig)
{
    int i;
    if (holding)
        for (i = 0; i < NFORWARDED; i++)
            sigaction(forwarded[i], &before_hold[i], NULL);
    holding = 0;
    if (sig != 0)
    {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

/* The core's monotonic clock, in seconds. */
static double now_s(void)
{
    return prof_impl_now_ns() * 1e-9;
}

/* The environment with cmd's variables set: a new array of pointers into
   environ and cmd->env (not copied), or NULL when out of memory. */
static char ** child_environment(char * const * extra)
{
    size_t n = 0, k = 0, i, j;
    char ** env;
    while (environ[n] != NULL)
        n++;
    while (extra != NULL && extra[k] != NULL)
        k++;
    env = (char **) malloc((n + k + 1) * sizeof *env);
    if (env == NULL)
        return NULL;
    for (i = j = 0; i < n; i++)
    {
        size_t e, len = strcspn(environ[i], "=");
        for (e = 0; e < k; e++)          /* replaced by an extra one? */
            if (strncmp(environ[i], extra[e], len) == 0 && extra[e][len] == '=')
                break;
        if (e == k)
            env[j++] = environ[i];
    }
    for (i = 0; i < k; i++)
        env[j++] = extra[i];
    env[j] = NULL;
    return env;
}

static void close_files(const int fd[3])
{
    int i;
    for (i = 0; i < 3; i++)
        if (fd[i] >= 0)
            close(fd[i]);
}

/* The child's stdin, stdout and stderr files, opened here in the parent
   (close-on-exec, above 2) into fd[0..2], -1 where inherited; stdout and
   stderr created or truncated. Never a blocking open: a FIFO with no
   writer (stdin) or no reader (stdout) would hold it forever where no
   signal reaches it (a vfork'd child, its parent waiting for it), so
   each opens O_NONBLOCK, which is then cleared; such a FIFO gives the
   command an empty stdin, or ENXIO. 0, or -1 (errno; none left open). */
static int open_files(const prof_spawn_cmd * cmd, int fd[3])
{
    const char * path[3];
    int i, e;
    path[0] = cmd->stdin_path;
    path[1] = cmd->stdout_path;
    path[2] = cmd->stderr_path;
    fd[0] = fd[1] = fd[2] = -1;
    for (i = 0; i < 3; i++)
    {
        int f, mode = i == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC;
        if (path[i] == NULL)
            continue;
        f = open(path[i], mode | O_NONBLOCK | O_CLOEXEC, 0666);
        if (f >= 0 && f <= 2)       /* our own stdin or stdout was closed */
        {
            int g = fcntl(f, F_DUPFD_CLOEXEC, 3);
            close(f);
            f = g;
        }
        fd[i] = f;
        if (f < 0 || fcntl(f, F_SETFL, fcntl(f, F_GETFL) & ~O_NONBLOCK) != 0)
        {
            e = errno;
            close_files(fd);
            errno = e;
            return -1;
        }
    }
    return 0;
}

/* In the child: set up, wait for the parent's go (go >= 0) and exec; on
   failure, errno goes to the pipe. Only async-signal-safe calls (and
   execvp) after fork. */
static void child(const prof_spawn_cmd * cmd, char ** env, const int fd[3],
                  int report, int go)
{
    int i, e = 0;
    char byte;
    if (!cmd->same_group)
        setpgid(0, 0);
    for (i = 0; i < NFORWARDED; i++)
        signal(forwarded[i], SIG_DFL);
    if (go >= 0 && read(go, &byte, 1) != 1)
        _exit(127);                     /* the parent gave up on the run */
    for (i = 0; i < 3 && e == 0; i++)
        if (fd[i] >= 0 && dup2(fd[i], i) < 0)
            e = errno;
    if (e == 0)
    {
        environ = env;
        execvp(cmd->argv[0], cmd->argv);
        e = errno;
    }
    if (write(report, &e, sizeof e) < 0)
        e = 0;
    _exit(127);
}

static void fill_usage(prof_spawn_result * r, const struct rusage * ru)
{
    r->user_s = ru->ru_utime.tv_sec + 1e-6 * ru->ru_utime.tv_usec;
    r->sys_s = ru->ru_stime.tv_sec + 1e-6 * ru->ru_stime.tv_usec;
    r->max_rss_kb = ru->ru_maxrss;
    r->minor_faults = ru->ru_minflt;
    r->major_faults = ru->ru_majflt;
    r->voluntary_switches = ru->ru_nvcsw;
    r->involuntary_switches = ru->ru_nivcsw;
}

/* In the parent: read the exec report (report >= 0: forked), reap the
   child (calling while_running until it ends), fill r (its wall time
   counted from start). */
static int wait_child(const prof_spawn_cmd * cmd, pid_t pid, int report,
                      double start, prof_spawn_result * r)
{
    struct rusage ru;
    int status, e = 0;
    ssize_t got = 0;
    while (report >= 0 && (got = read(report, &e, sizeof e)) < 0
           && errno == EINTR)
        ;
    if (report >= 0)
        close(report);
    for (;;)
    {
        pid_t w = wait4(pid, &status, cmd->while_running ? WNOHANG : 0, &ru);
        if (w == pid)
            break;
        if (w == 0)
            cmd->while_running(cmd->ctx);
        else if (errno != EINTR)
        {
            r->end = PROF_SPAWN_NOT_STARTED;
            r->status = errno;
            return -1;
        }
    }
    r->wall_s = now_s() - start;
    fill_usage(r, &ru);
    if (got == (ssize_t) sizeof e)
    {
        r->end = PROF_SPAWN_NOT_STARTED;
        r->status = e;
        return -1;
    }
    r->end = WIFSIGNALED(status) ? PROF_SPAWN_KILLED : PROF_SPAWN_EXITED;
    r->status = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
    return 0;
}

/* The before_exec call while the child waits on go (go[1] is written or
   closed either way); the time it took, or -1 if it refused (the child is
   then killed). */
static double before_exec(const prof_spawn_cmd * cmd, pid_t pid, int go[2])
{
    double t0 = now_s();
    int rc = cmd->before_exec(cmd->ctx, (long) pid);
    if (rc != 0)
        kill(pid, SIGKILL);
    else if (write(go[1], "g", 1) != 1)
        rc = -1;
    close(go[1]);
    return rc != 0 ? -1.0 : now_s() - t0;
}

/* Make the pipes: report (exec errors) and, with before_exec, go. 0, or
   -1 (errno set; none left open). */
static int pipes(const prof_spawn_cmd * cmd, int report[2], int go[2])
{
    int i;
    go[0] = go[1] = -1;
    if (pipe(report) != 0)
        return -1;
    if (cmd->before_exec != NULL && pipe(go) != 0)
    {
        close(report[0]);
        close(report[1]);
        return -1;
    }
    for (i = 0; i < 2; i++)
    {
        fcntl(report[i], F_SETFD, FD_CLOEXEC);
        if (go[i] >= 0)
            fcntl(go[i], F_SETFD, FD_CLOEXEC);
    }
    return 0;
}

/* Start cmd by posix_spawnp, as the forked child would set itself up:
   0 with *pid and *start (the clock read just before posix_spawnp, so
   that building the attributes is not in the command's time), or the
   error (exec's included: the child is then reaped). */
static int spawn_direct(const prof_spawn_cmd * cmd, char ** env,
                        const int fd[3], pid_t * pid, double * start)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t dfl;
    int i, e;
    if ((e = posix_spawn_file_actions_init(&fa)) != 0)
        return e;
    if ((e = posix_spawnattr_init(&at)) != 0)
    {
        posix_spawn_file_actions_destroy(&fa);
        return e;
    }
    sigemptyset(&dfl);
    for (i = 0; i < NFORWARDED; i++)
        sigaddset(&dfl, forwarded[i]);
    e = posix_spawnattr_setsigdefault(&at, &dfl);
    if (e == 0)
        e = posix_spawnattr_setpgroup(&at, 0);
    if (e == 0)
        e = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF
                                          | (cmd->same_group ? 0
                                             : POSIX_SPAWN_SETPGROUP));
    for (i = 0; i < 3 && e == 0; i++)
        if (fd[i] >= 0)
            e = posix_spawn_file_actions_adddup2(&fa, fd[i], i);
    if (e == 0)
    {
        *start = now_s();
        e = posix_spawnp(pid, cmd->argv[0], &fa, &at, cmd->argv, env);
    }
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    return e;
}

/* The child of a fork: its group, the call before its exec, its end.
   0, or -1 (r->end PROF_SPAWN_NOT_STARTED). */
static int run_forked(const prof_spawn_cmd * cmd, char ** env,
                      const int fd[3], prof_spawn_result * r)
{
    int pipefd[2], go[2], rc = -1;
    double start, held_back = 0.0;
    pid_t pid;
    if (pipes(cmd, pipefd, go) != 0)
    {
        r->status = errno;
        return -1;
    }
    fflush(NULL);
    start = now_s();
    pid = fork();
    if (pid == 0)
        child(cmd, env, fd, pipefd[1], go[0]);
    close(pipefd[1]);
    if (go[0] >= 0)
        close(go[0]);
    if (pid < 0)
    {
        r->status = errno;
        close(pipefd[0]);
        if (go[1] >= 0)
            close(go[1]);
        return -1;
    }
    if (!cmd->same_group)
        setpgid(pid, pid);              /* also here: no race with kill */
    child_group = pid;
    if (received)
        pass_on(received);
    if (go[1] >= 0)
        held_back = before_exec(cmd, pid, go);
    rc = wait_child(cmd, pid, pipefd[0], start + fmax(held_back, 0.0), r);
    if (held_back < 0.0 && r->end != PROF_SPAWN_NOT_STARTED)
    {
        r->end = PROF_SPAWN_NOT_STARTED;
        r->status = ECANCELED;
        rc = -1;
    }
    return rc;
}

/* The child of posix_spawnp: 0, or -1; ENOEXEC (a script without #!,
   which execvp hands to sh) in r->status means: fork instead. */
static int run_direct(const prof_spawn_cmd * cmd, char ** env,
                      const int fd[3], prof_spawn_result * r)
{
    double start = 0.0;
    pid_t pid;
    int e = spawn_direct(cmd, env, fd, &pid, &start);
    if (e != 0)
    {
        r->status = e;
        return -1;
    }
    child_group = pid;                  /* its group exists: it has exec'd */
    if (received)
        pass_on(received);
    return wait_child(cmd, pid, -1, start, r);
}

int prof_spawn_run(const prof_spawn_cmd * cmd, prof_spawn_result * r)
{
    struct sigaction sa, old[NFORWARDED];
    char ** env = child_environment(cmd->env);
    int i, rc = -1, fd[3];

    memset(r, 0, sizeof *r);
    r->end = PROF_SPAWN_NOT_STARTED;
    r->status = ENOMEM;
    if (env == NULL)
        return -1;
    if (open_files(cmd, fd) != 0)
    {
        r->status = errno;
        free(env);
        return -1;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = forward;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    received = 0;
    child_group = 0;
    own_group = !cmd->same_group;
    for (i = 0; i < NFORWARDED; i++)
        sigaction(forwarded[i], &sa, &old[i]);
    if (cmd->before_exec != NULL
        || ((rc = run_direct(cmd, env, fd, r)) != 0 && r->status == ENOEXEC))
        rc = run_forked(cmd, env, fd, r);
    close_files(fd);
    child_group = 0;
    for (i = 0; i < NFORWARDED; i++)
        sigaction(forwarded[i], &old[i], NULL);
    r->interrupted = received;
    free(env);
    return rc;
}

void prof_spawn_describe(const prof_spawn_result * r, char * buf, size_t size)
{
    if (r->end == PROF_SPAWN_EXITED)
        snprintf(buf, size, "exit status %d", r->status);
    else if (r->end == PROF_SPAWN_KILLED)
        snprintf(buf, size, "killed by signal %d (%s)", r->status,
                 strsignal(r->status));
    else if (r->status == ENOENT)
        snprintf(buf, size, "not found");
    else
        snprintf(buf, size, "could not be started: %s", strerror(r->status));
}
