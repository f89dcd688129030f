/*
    Every way a trace ends or moves besides a full buffer: exit(), thread
    exit, fatal signals (the handler writes under the lock, never when its
    own thread holds it, and chains to the program's own handler), fork (the
    child writes <path>.<pid>) and exec (trace_exec.c calls
    prof_impl_trace_before_exec). See trace_impl.h.
    SPDX-License-Identifier: MIT
*/
#if !defined(_WIN32) /* Windows: trace_none.c */

#include "trace_impl.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int fatal_signals[] =
    { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGINT, SIGTERM };
static struct sigaction old_actions[sizeof fatal_signals / sizeof fatal_signals[0]];

/* ---- exit, thread exit, signals, fork, exec ---------------------------------- */

NOINST void prof_impl_tr_at_exit(void)
{
    uint64_t lost;
    if (!prof_impl_tr_lock_api())
    {
        /* exit() from a handler that interrupted this thread's write: the
           file is left as the interrupted write leaves it, without its end
           (prof-trace reads it and says so) */
        prof_impl_warn("trace: exit while the trace was being written; %s "
                       "is left without its end", prof_impl_tr_shown_path());
        return;
    }
    (void) prof_impl_tr_flush_all_locked(0);
    prof_impl_tr_write_end(0);
    __atomic_store_n(&TR.finished, 1, __ATOMIC_RELAXED);
    /* later events of this thread (other atexit handlers) go to the slow
       path, which writes them one by one */
    prof_impl_trace_tls.cur = &prof_impl_trace_closed;
    prof_impl_tr_unlock();
    lost = __atomic_load_n(&TR.lost_total, __ATOMIC_RELAXED);
    if (lost > 0)
        prof_impl_warn("trace: %llu events lost (not written to %s)",
                       (unsigned long long) lost, prof_impl_tr_shown_path());
}

NOINST void prof_impl_tr_thread_exit(void * arg)
{
    trace_rec * r = (trace_rec *) arg;
    prof_impl_tr_lock();
    (void) prof_impl_tr_flush_locked(r, 0);
    r->at = NULL; /* free for the next thread */
    r->flushed = r->buf;
    prof_impl_tr_unlock();
    ME.rec = NULL;
    prof_impl_trace_tls.cur = &prof_impl_trace_closed;
    prof_impl_trace_tls.cache = prof_impl_trace_empty_cache;
}

/* The program's own action for sig, saved when ours was installed. */
static NOINST const struct sigaction * old_action(int sig)
{
    size_t i;
    for (i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        if (fatal_signals[i] == sig)
            return &old_actions[i];
    return NULL;
}

/* 1 if action o is the default one (the signal ends the process). */
static NOINST int is_default(const struct sigaction * o)
{
    return (o->sa_flags & SA_SIGINFO) ? o->sa_sigaction == NULL
                                      : o->sa_handler == SIG_DFL;
}

/* Call the program's own handler o (not SIG_DFL or SIG_IGN), with this
   thread's events going to the slow path while it runs. */
static NOINST void call_handler(const struct sigaction * o, int sig,
                                siginfo_t * info, void * ctx)
{
    int outer = !ME.in_handler;
    if (outer)
    {
        ME.handler_saved = prof_impl_trace_tls.cur;
        prof_impl_trace_tls.cur = &prof_impl_trace_closed;
        ME.handler_frame = __builtin_frame_address(0);
        ME.in_handler = 1;
    }
    if (o->sa_flags & SA_SIGINFO)
        o->sa_sigaction(sig, info, ctx);
    else
        o->sa_handler(sig);
    if (outer)
    {
        prof_impl_trace_tls.cur = ME.handler_saved;
        ME.in_handler = 0;
    }
}

/* 1 while the program's handler called by call_handler runs; a handler
   left by longjmp is noticed here (the stack is back above its frame) and
   recording goes on as before it. */
NOINST int prof_impl_tr_inside_handler(void)
{
    if (!ME.in_handler)
        return 0;
    if ((char *) __builtin_frame_address(0) < (char *) ME.handler_frame)
        return 1;
    prof_impl_trace_tls.cur = ME.handler_saved;
    ME.in_handler = 0;
    return 0;
}

/* Write what was recorded, and the end record when the signal ends the
   process; the program's own handler may go on instead, so nothing may be
   torn or written twice: everything is written under the lock, and not at
   all when this thread holds it (the interrupted code is writing, and goes
   on when the handler returns). */
static NOINST void on_signal(int sig, siginfo_t * info, void * ctx)
{
    int saved = errno;
    const struct sigaction * o = old_action(sig);
    int dies = is_default(o); /* o: on_signal is installed for these only */
    /* a fault or an abort ends the program even through its own handler
       (a sanitizer's, say); after SIGINT or SIGTERM a handler often goes
       on, and exit() writes the end record then (a later end record
       overrides an earlier one anyway) */
    int ends = dies || (sig != SIGINT && sig != SIGTERM);
    if (prof_impl_tr_lock_from_signal())
    {
        (void) prof_impl_tr_flush_all_locked(1);
        if (ends)
            prof_impl_tr_write_end(sig);
        prof_impl_tr_unlock();
    }
    errno = saved;
    if (dies)
    {
        /* the default action: die by this signal, as without us */
        sigaction(sig, o, NULL);
        raise(sig);
    }
    else
        call_handler(o, sig, info, ctx);
}

NOINST void prof_impl_tr_install_signals(void)
{
    const char * env = getenv("PROF_TRACE_SIGNALS");
    size_t i;
    if (env != NULL && strcmp(env, "0") == 0)
        return;
    for (i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
    {
        struct sigaction sa;
        if (sigaction(fatal_signals[i], NULL, &old_actions[i]) != 0)
            continue;
        if (!(old_actions[i].sa_flags & SA_SIGINFO)
            && old_actions[i].sa_handler == SIG_IGN)
            continue; /* the program ignores it: so do we */
        /* the program's flags and mask, which its handler (called from
           ours) was written for: SA_ONSTACK (a stack overflow's SIGSEGV
           runs on the alternate stack), SA_RESTART (interrupted system
           calls go on), the signals blocked while it runs */
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_signal;
        sa.sa_flags = old_actions[i].sa_flags | SA_SIGINFO;
        sa.sa_mask = old_actions[i].sa_mask;
        sigaction(fatal_signals[i], &sa, NULL);
    }
}

/* Registered at load time, so that a process forked before tracing
   started knows it (see choose_path). */
static NOINST void fork_prepare(void)
{
    while (__atomic_load_n(&TR.state, __ATOMIC_ACQUIRE) == 1)
        sched_yield(); /* another thread is starting: let it finish */
    if (__atomic_load_n(&TR.state, __ATOMIC_ACQUIRE) == 2)
    {
        prof_impl_tr_lock();
        TR.fork_locked = 1;
    }
}

static NOINST void fork_parent(void)
{
    if (TR.fork_locked)
    {
        TR.fork_locked = 0;
        prof_impl_tr_unlock();
    }
}

/* The child shares the parent's file offset: give it its own file,
   <path>.<pid> (refused if that does not fit, never cut back to the
   parent's), and leave the parent's unwritten events to the parent. */
static NOINST void fork_child(void)
{
    trace_rec * r;
    char p[PATH_BYTES];
    int nfd = -1, e = 0;
    if (!TR.fork_locked)
    {
        const char * env = getenv("PROF_TRACE_FILE");
        TR.forked_before_start = 1;
        prof_impl_copy(TR.env_at_fork, sizeof TR.env_at_fork, env != NULL ? env : "");
        return;
    }
    TR.fork_locked = 0;
    TR.pid = (long) getpid();
    TR.in_fork_child = 1;
    for (r = TR.records; r != NULL; r = r->next)
    {
        r->lost = 0; /* the parent's, told by the parent */
        if (r == ME.rec)
        {
            if (r->pending != NULL)
                (void) prof_impl_tr_advance_base(r, r->pending, r->pending_n);
            (void) prof_impl_tr_advance_base(r, r->flushed, (size_t) (r->at->pos - r->flushed));
            r->flushed = r->at->pos;
        }
        else
        {
            r->at = NULL;
            r->flushed = r->buf;
        }
        if (r->pending != NULL) /* the parent's to write */
            r->spare = r->pending_buf, r->pending = NULL;
    }
    __atomic_store_n(&TR.lost_total, 0, __ATOMIC_RELAXED);
    TR.writer_state = 0; /* not in the child: started again when needed */
    TR.writer_work = 0;
    pthread_mutex_init(&TR.writer_mutex, NULL);
    pthread_cond_init(&TR.writer_cond, NULL);
    if (ME.rec != NULL)
        ME.rec->tid = (uint32_t) getpid(), ME.rec->name_dirty = 1;
    if (TR.fd >= 0)
        close(TR.fd); /* the parent's: neither written nor removed here */
    TR.fd = -1;
    if (TR.file_path[0] == '\0'
        || prof_impl_tr_path_fits(snprintf(p, sizeof p, "%s.%ld", TR.file_path, (long) getpid())) != 0)
        p[0] = '\0', e = ENAMETOOLONG;
    else if ((nfd = prof_impl_tr_create_file(p)) < 0)
        prof_impl_warn("trace: cannot open %s for writing: %s; events are "
                       "counted as lost", p, strerror(e = errno));
    prof_impl_tr_switch_file(nfd, p);
    TR.file_errno = e;
    prof_impl_tr_unlock();
}

__attribute__((constructor)) static NOINST void register_fork(void)
{
    /* without them a child would write into the parent's file: the start
       says so and turns tracing off (trace.c) */
    if (pthread_atfork(fork_prepare, fork_parent, fork_child) != 0)
        TR.no_fork_handlers = 1;
}

/* exec replaces the process image: nothing runs at exit. Write every
   buffer and the end record now (src/trace/trace_exec.c calls this before each
   function of the exec family). Nothing when tracing is off, when this
   thread is inside the recorder (exec from a signal handler), or in a
   child made without fork()'s handlers (vfork, clone: its memory and lock
   are the parent's, or a copy of them taken at any moment; the buffers
   are the parent's to write). Only async-signal-safe work: it may run
   between fork and exec in a multi-threaded program; in a child of fork,
   no message either (a failed write is still counted in the end record). */
NOINST void prof_impl_trace_before_exec(void)
{
    if (__atomic_load_n(&TR.state, __ATOMIC_ACQUIRE) != 2 || ME.holds_lock
        || ME.in_slow_path || (long) getpid() != TR.pid)
        return;
    prof_impl_tr_lock();
    (void) prof_impl_tr_flush_all_locked(TR.in_fork_child);
    prof_impl_tr_write_end(0);
    prof_impl_tr_unlock();
}

#else
typedef int prof_impl_trace_signal_posix_only; /* ISO C: no empty translation unit */
#endif /* !_WIN32 */
