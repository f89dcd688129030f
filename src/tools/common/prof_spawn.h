/*
    Running a command as a measured child process (internal: used by
    prof-compare --run, prof-run and prof-trace record; POSIX only, not
    installed; named so that it is never taken for the system's
    <spawn.h>). One call starts the command in its own process group (or
    the caller's) with extra environment variables and chosen input and
    output files, waits for it, and returns how it ended, its wall time
    and its resource usage. SIGINT, SIGTERM, SIGHUP and SIGQUIT are at
    their default action in the child whatever the caller's are (ignored
    included). One of them that the caller receives meanwhile is passed
    on to the child's whole process group (or to the child), the child is
    reaped (no zombie), and the signal is reported so that the caller can
    clean up and end. The
    handlers the caller had are restored after each run. The child is
    started by posix_spawnp (no copy of the caller's page tables: the
    cheapest start, so the least overhead in every run's time), or, when
    a call must come between its start and its exec (before_exec), by fork
    and execvp, which is safe only when the caller is single-threaded (as
    the tools are).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_PROF_SPAWN_H
#define PROF_PROF_SPAWN_H

#include <stddef.h>

/* Zero it first (memset or = {0}): fields added later default to off. */
typedef struct
{
    char * const * argv;        /* the command; argv[0] is looked up in PATH */
    char * const * env;         /* "NAME=VALUE" strings set in the child's
                                   environment (added or replacing), NULL-
                                   terminated; NULL: none */
    const char * stdout_path;   /* the child's stdout goes to this file
                                   (created or truncated; "/dev/null" to
                                   drop it), or NULL: inherited */
    const char * stderr_path;   /* the same for stderr */
    const char * stdin_path;    /* the child's stdin is read from this file
                                   ("/dev/null": nothing), or NULL:
                                   inherited */
    /* Called in the parent once the child exists, before it execs (it
       waits for this), e.g. to open event counters on it; its time is not
       in wall_s. 0 to go on; else the child is killed and the run is
       PROF_SPAWN_NOT_STARTED (ECANCELED). NULL: none (the child execs at
       once). */
    int (*before_exec)(void * ctx, long pid);
    /* Called in the parent again and again while the command runs (each
       call should return within a fraction of a second, say from a poll
       with a timeout), e.g. to read what counters collect. NULL: the
       parent sleeps in wait4 until the command ends. */
    void (*while_running)(void * ctx);
    void * ctx;
    /* 1: the child stays in the caller's process group (the terminal's
       foreground group, where it may read the terminal and the terminal's
       ^C reaches it directly); a signal the caller receives otherwise
       goes to the child alone. 0: its own group, passed each signal. */
    int same_group;
} prof_spawn_cmd;

/* How a run ended. */
typedef enum
{
    PROF_SPAWN_EXITED,          /* status is the exit status */
    PROF_SPAWN_KILLED,          /* status is the signal that ended it */
    PROF_SPAWN_NOT_STARTED      /* status is the errno of fork, exec (ENOENT:
                                   not found) or opening an output file */
} prof_spawn_end;

typedef struct
{
    prof_spawn_end end;
    int status;
    int interrupted;            /* the signal the caller received and passed
                                   on to the child, or 0 */
    double wall_s;              /* from just before the fork to just after
                                   the child is reaped, monotonic clock */
    double user_s, sys_s;       /* processor time of the child (and of its
                                   children that it waited for) */
    long max_rss_kb;            /* peak resident set size */
    long minor_faults, major_faults;
    long voluntary_switches, involuntary_switches;
} prof_spawn_result;

/* Run cmd to its end and fill r. 0 when the command ran (whatever its
   exit status: see r->end), -1 when it could not be started (r->end is
   PROF_SPAWN_NOT_STARTED); no message is printed. */
int prof_spawn_run(const prof_spawn_cmd * cmd, prof_spawn_result * r);

/* A one-line description of how r ended, e.g. "exit status 1", "killed by
   signal 9 (Killed)", "not found", for messages. */
void prof_spawn_describe(const prof_spawn_result * r, char * buf,
                         size_t size);

/* From prof_spawn_hold to prof_spawn_release, SIGINT, SIGTERM, SIGHUP and
   SIGQUIT do not end the caller: between runs they are noted, during one
   they are passed on to the child (as always) and noted too, so that the
   caller can stop, clean up or report what it has, and then end by the
   signal. */
void prof_spawn_hold(void);
/* The signal noted since prof_spawn_hold, or 0. */
int prof_spawn_held(void);
/* Restore the handlers the caller had; then, if sig is not 0, end the
   process by sig (as it would have ended without the hold). */
void prof_spawn_release(int sig);

#endif
