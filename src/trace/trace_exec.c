/*
    The recorder's exec family: exec replaces the process image without
    running exit handlers, so each of these writes the trace's buffers and
    its end record first (prof_impl_trace_before_exec), then calls the C
    library's function of the same name, whose behaviour is unchanged.

    They are not definitions of the C library's names: a translation unit
    compiled with tracing on (PROF_TRACE or PROFILE) gets execve, execv,
    ..., fexecve as macros for prof_impl_execve, ... (profiler.h), and only
    its calls come here. A program that does not trace, or whose traced
    code calls no exec function, does not link this file, and every other
    exec of the program (the runner's worker processes,
    src/bench/workers/bench_workers.c, code built without tracing,
    libraries) goes straight to the C library. A static link takes execvp from the first
    archive that defines it, so a definition of the C library's names here
    would replace them in every program that calls them, tracing or not.

    A wrapper may run between fork and exec in a multi-threaded program,
    so it does only async-signal-safe work: no malloc unless an execl*
    call has more than STACK_ARGS arguments.
    Linux only (elsewhere an exec loses the buffered events; see the doc).
    SPDX-License-Identifier: MIT
*/
#if defined(__linux__)

#include "trace_impl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

extern char ** environ;

NOINST int prof_impl_execve(const char * path, char * const argv[],
                            char * const envp[])
{
    prof_impl_trace_before_exec();
    return execve(path, argv, envp);
}

NOINST int prof_impl_execv(const char * path, char * const argv[])
{
    prof_impl_trace_before_exec();
    return execv(path, argv);
}

NOINST int prof_impl_execvpe(const char * file, char * const argv[],
                             char * const envp[])
{
    prof_impl_trace_before_exec();
    return execvpe(file, argv, envp);
}

NOINST int prof_impl_execvp(const char * file, char * const argv[])
{
    prof_impl_trace_before_exec();
    return execvp(file, argv);
}

NOINST int prof_impl_fexecve(int fd, char * const argv[], char * const envp[])
{
    prof_impl_trace_before_exec();
    return fexecve(fd, argv, envp);
}

/* Argument vectors of up to STACK_ARGS pointers are built on the stack:
   no malloc between fork and exec. Longer ones are malloc'd, as a last
   resort. */
enum { STACK_ARGS = 256 };

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
    v = n + 1 <= STACK_ARGS ? local : (char **) malloc((n + 1) * sizeof *v);
    if (v == NULL)
        return NULL;
    v[0] = (char *) arg;
    for (i = 1; i <= n; i++)
        v[i] = va_arg(ap, char *); /* v[n] is the NULL */
    if (envp != NULL)
        *envp = va_arg(ap, char **);
    return v;
}

/* execl, execle, execlp (which is 'l', 'e' or 'p'), as execv, execve and
   execvp of the list. */
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
    prof_impl_trace_before_exec();
    rc = which == 'p' ? execvp(path, v) : execve(path, v, envp);
    if (v != local)
        free(v);
    return rc;
}

NOINST int prof_impl_execl(const char * path, const char * arg, ...)
{
    va_list ap;
    int rc;
    va_start(ap, arg);
    rc = exec_list('l', path, arg, ap);
    va_end(ap);
    return rc;
}

NOINST int prof_impl_execle(const char * path, const char * arg, ...)
{
    va_list ap;
    int rc;
    va_start(ap, arg);
    rc = exec_list('e', path, arg, ap);
    va_end(ap);
    return rc;
}

NOINST int prof_impl_execlp(const char * file, const char * arg, ...)
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
