/*
    The exec family, wrapped: exec replaces the process image without
    running exit handlers, so the recorder writes its buffers first
    (prof_impl_trace_before_exec), as it does at fork through atfork. A
    program that calls none of these functions does not link this file.

    Each wrapper then calls the C library's own function (found with
    dlsym(RTLD_NEXT) when the program is loaded, so its behaviour is
    unchanged). A wrapper does only async-signal-safe work, as it may run
    between fork and exec in a multi-threaded program (the runner's worker
    processes, src/bench/bench_workers.c): no dlsym (it takes the dynamic
    loader's lock, which another thread may hold at the fork), no malloc
    unless an execl* must build its argv. In a static program
    there is no next definition: execve and fexecve are then the system
    calls (fexecve through /proc/self/fd where execveat is missing), and
    the PATH search of execvp/execvpe is done here as POSIX describes it
    (each PATH directory in turn; EACCES remembered; a file that is not an
    executable format is run by /bin/sh).
    Linux only (elsewhere an exec loses the buffered events; see the doc).
    SPDX-License-Identifier: MIT
*/
#if defined(__linux__)

#include "internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NOINST __attribute__((no_instrument_function))

extern char ** environ;

typedef int (*execve_fn)(const char *, char * const[], char * const[]);
typedef int (*fexecve_fn)(int, char * const[], char * const[]);

int execve(const char * path, char * const argv[], char * const envp[]) NOINST;
int execv(const char * path, char * const argv[]) NOINST;
int execvpe(const char * file, char * const argv[], char * const envp[]) NOINST;
int execvp(const char * file, char * const argv[]) NOINST;
int fexecve(int fd, char * const argv[], char * const envp[]) NOINST;
int execl(const char * path, const char * arg, ...) NOINST;
int execle(const char * path, const char * arg, ...) NOINST;
int execlp(const char * file, const char * arg, ...) NOINST;

/* The next definitions (the C library's), or NULL in a static program,
   found once by a constructor: a child of fork (or vfork, or clone) must
   not call dlsym, which would wait for ever for a loader lock that
   another thread of the parent held at the fork. The void * to function
   pointer conversion is POSIX's. */
static void * next_execve, * next_fexecve, * next_execvpe;
static int resolved;

static NOINST void resolve(void)
{
    next_execve = dlsym(RTLD_NEXT, "execve");
    next_fexecve = dlsym(RTLD_NEXT, "fexecve");
    next_execvpe = dlsym(RTLD_NEXT, "execvpe");
    __atomic_store_n(&resolved, 1, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static NOINST void resolve_at_load(void)
{
    resolve();
}

/* *fn, resolved now only by an exec that comes before the constructors
   have run (another constructor's, single-threaded). */
static NOINST void * next(void * const * fn)
{
    if (!__atomic_load_n(&resolved, __ATOMIC_ACQUIRE))
        resolve();
    return *fn;
}

/* Argument vectors of up to STACK_ARGS pointers are built on the stack
   (execl*, and /bin/sh for a script in a static program): no malloc
   between fork and exec. Longer ones are malloc'd, as a last resort. */
enum { STACK_ARGS = 256 };

static NOINST char ** args_room(char ** local, size_t n)
{
    return n <= STACK_ARGS ? local : (char **) malloc(n * sizeof *local);
}

static NOINST void args_free(char ** v, char ** local)
{
    if (v != local)
        free(v);
}

static NOINST int sys_execve(const char * path, char * const argv[],
                             char * const envp[])
{
    return (int) syscall(SYS_execve, path, argv, envp);
}

int execve(const char * path, char * const argv[], char * const envp[])
{
    void * f = next(&next_execve);
    prof_impl_trace_before_exec();
    if (f != NULL)
        return ((execve_fn) (size_t) f)(path, argv, envp);
    return sys_execve(path, argv, envp);
}

int execv(const char * path, char * const argv[])
{
    return execve(path, argv, environ);
}

int fexecve(int fd, char * const argv[], char * const envp[])
{
    void * f = next(&next_fexecve);
    prof_impl_trace_before_exec();
    if (f != NULL)
        return ((fexecve_fn) (size_t) f)(fd, argv, envp);
#if defined(SYS_execveat)
    syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
    if (errno != ENOSYS)
        return -1;
#endif
    {
        /* no execveat (an old kernel, qemu-user): the descriptor's name,
           written out by hand (snprintf is not async-signal-safe) */
        char path[32] = "/proc/self/fd/", digits[12];
        size_t k = 0, at = strlen(path);
        unsigned u = fd >= 0 ? (unsigned) fd : 0;
        do
            digits[k++] = (char) ('0' + u % 10);
        while ((u /= 10) > 0);
        while (k > 0)
            path[at++] = digits[--k];
        path[at] = '\0';
        return sys_execve(path, argv, envp);
    }
}

/* execve, and /bin/sh for a file that is no executable format. */
static NOINST int exec_or_sh(const char * path, char * const argv[],
                             char * const envp[])
{
    size_t n = 0;
    char * local[STACK_ARGS], ** sh;
    sys_execve(path, argv, envp);
    if (errno != ENOEXEC)
        return -1;
    while (argv[n] != NULL)
        n++;
    if ((sh = args_room(local, n + 2)) == NULL)
        return -1;
    sh[0] = (char *) "sh";
    sh[1] = (char *) path;
    memcpy(sh + 2, argv + (n > 0), (n > 0 ? n : 1) * sizeof *sh);
    sys_execve("/bin/sh", sh, envp);
    args_free(sh, local);
    return -1;
}

/* The PATH search of execvpe, for a static program. */
static NOINST int search_path(const char * file, char * const argv[],
                              char * const envp[])
{
    const char * path = getenv("PATH"), * p;
    size_t flen = strlen(file);
    int eacces = 0;
    if (file[0] == '\0')
    {
        errno = ENOENT;
        return -1;
    }
    if (strchr(file, '/') != NULL)
        return exec_or_sh(file, argv, envp);
    for (p = path != NULL ? path : "/bin:/usr/bin"; ; p++)
    {
        const char * colon = strchr(p, ':');
        size_t dlen = colon != NULL ? (size_t) (colon - p) : strlen(p);
        char buf[4096];
        if (dlen + 1 + flen < sizeof buf)
        {
            memcpy(buf, dlen ? p : ".", dlen ? dlen : 1);
            buf[dlen ? dlen : 1] = '/';
            memcpy(buf + (dlen ? dlen : 1) + 1, file, flen + 1);
            exec_or_sh(buf, argv, envp);
            if (errno == EACCES)
                eacces = 1;
            else if (errno != ENOENT && errno != ENOTDIR && errno != ESTALE
                     && errno != ENODEV && errno != ETIMEDOUT)
                return -1;
        }
        if (colon == NULL)
            break;
        p = colon;
    }
    errno = eacces ? EACCES : ENOENT;
    return -1;
}

int execvpe(const char * file, char * const argv[], char * const envp[])
{
    void * f = next(&next_execvpe);
    prof_impl_trace_before_exec();
    if (f != NULL)
        return ((execve_fn) (size_t) f)(file, argv, envp);
    return search_path(file, argv, envp);
}

int execvp(const char * file, char * const argv[])
{
    return execvpe(file, argv, environ);
}

/* The arguments of an execl* call after arg, up to its NULL, as an argv
   (in local if it fits; NULL if out of memory); *envp gets the one after
   the NULL when envp is not NULL (execle). */
static NOINST char ** list_args(const char * arg, va_list ap, char *** envp,
                                char ** local)
{
    va_list cp;
    size_t n = 1, i;
    char ** v;
    va_copy(cp, ap);
    while (va_arg(cp, char *) != NULL)
        n++;
    va_end(cp);
    if ((v = args_room(local, n + 1)) == NULL)
        return NULL;
    v[0] = (char *) arg;
    for (i = 1; i <= n; i++)
        v[i] = va_arg(ap, char *); /* v[n] is the NULL */
    if (envp != NULL)
        *envp = va_arg(ap, char **);
    return v;
}

/* execl, execle, execlp: which is 'l', 'e' or 'p'. */
static NOINST int exec_list(int which, const char * path, const char * arg,
                            va_list ap)
{
    char ** envp = environ, * local[STACK_ARGS];
    char ** v = list_args(arg, ap, which == 'e' ? &envp : NULL, local);
    int rc;
    if (v == NULL)
    {
        errno = ENOMEM;
        return -1;
    }
    rc = which == 'p' ? execvpe(path, v, environ) : execve(path, v, envp);
    args_free(v, local);
    return rc;
}

int execl(const char * path, const char * arg, ...)
{
    va_list ap;
    int rc;
    va_start(ap, arg);
    rc = exec_list('l', path, arg, ap);
    va_end(ap);
    return rc;
}

int execle(const char * path, const char * arg, ...)
{
    va_list ap;
    int rc;
    va_start(ap, arg);
    rc = exec_list('e', path, arg, ap);
    va_end(ap);
    return rc;
}

int execlp(const char * file, const char * arg, ...)
{
    va_list ap;
    int rc;
    va_start(ap, arg);
    rc = exec_list('p', file, arg, ap);
    va_end(ap);
    return rc;
}

#else
typedef int prof_impl_trace_exec_linux_only; /* ISO C: no empty unit */
#endif
