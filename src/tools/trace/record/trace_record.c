/*
    prof-trace record [--hz=N] [--children] [--call-graph=fp|dwarf[,BYTES]]
    [-o FILE] -- COMMAND ARGS... (or -p PID[,PID...] [--duration=T]:
    trace_attach.c):
    runs COMMAND and samples it and its threads, and with --children its
    child processes too (perf events per CPU on the child, enabled at its
    exec, inherited), the way perf record does,
    into a trace file of format version 4 (ticks are CLOCK_MONOTONIC_RAW
    nanoseconds: rate 1e9). The kernel's MMAP2, COMM, FORK and EXIT records
    become MAPS2 and PROCESS chunks, so that samples of code unmapped since
    and of processes gone still name their functions. The rings and the
    chains are the in-process sampler's (src/sample).
    The trace goes to a temporary file that replaces -o's file only when
    the command ran (src/core/outfile.c); a file the command names is
    refused. The command runs in this process's group (the terminal's ^C
    reaches it) with SIGINT, SIGTERM and SIGHUP at their default action;
    one of them sent to prof-trace alone is passed on to it. Either way,
    once the command has ended and the trace is written, the same signal
    ends prof-trace (a shell sees 128 + N).
    Exit status: the command's; 128 + N if signal N killed it; 127 if it
    could not be run; 1 if sampling was refused or the file not written;
    2 for bad usage or an output the command names.
    With -p (trace_attach.c) the statuses are prof-run's: 0 sampled; 2 bad
    usage, a process that does not exist or may not be sampled, none that
    could be (each ended as it was attached), the file not written; 128 + N
    after signal N.
    SPDX-License-Identifier: MIT
*/
#include "trace_record.h"
#include "record_impl.h"
#include "trace_attach.h"
#include "internal.h"
#include "trace_format.h"
#include "prof_spawn.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Before the command's exec (prof_spawn_cmd.before_exec): the events
   opened on it, the file's header. 0, or -1 after a message (refused). */
static int open_events(void * ctx, long pid)
{
    recorder * r = (recorder *) ctx;
    int rc;
    r->ns0 = pt_rec_now_ns();
    if ((rc = prof_impl_sample_rings_open(&r->rings, r->hz, (pid_t) pid,
                                          r->children, r->cg)) != 0)
    {
        char why[512];
        prof_impl_counters_reason(why, sizeof why, rc, prof_impl_why_process(),
                                  prof_impl_perf_paranoid());
        prof_impl_warn(PROGRAM ": perf events refused (%s): %s; another process "
                       "cannot be sampled without them (no fallback): not run",
                       strerror(rc), why);
        return -1;
    }
    r->opened = 1;
    pt_rec_header(r, (uint32_t) pid, r->ns0);
    pt_rec_process(r, (uint32_t) pid, r->ns0, (uint32_t) pid, (uint32_t) getpid(),
                PROF_TF_PROC_START, r->cmd[0]);
    pt_rec_process(r, (uint32_t) pid, r->ns0, (uint32_t) pid, 0, PROF_TF_PROC_THREAD, "");
    return 0;
}

/* While the command runs (prof_spawn_cmd.while_running): a poll of the
   rings, then what they hold drained. */
static void sample_some(void * ctx)
{
    pt_rec_poll((recorder *) ctx, SAMPLE_POLL_MS);
}

/* Run the command (stopped before its exec while its events open), sample
   it (and its child processes if r->children) until it ends, write the
   trace. It stays in this process's group (the terminal's ^C reaches it);
   a SIGINT, SIGTERM or SIGHUP sent to this process alone is passed on to
   it, and noted in *sig. Returns the exit status (see the top); r->keep
   says whether the command ran (the trace is worth keeping). */
static int record(recorder * r, int * sig)
{
    prof_spawn_cmd cmd;
    prof_spawn_result res;
    int rc;
    memset(&cmd, 0, sizeof cmd);
    cmd.argv = r->cmd;
    cmd.before_exec = open_events;
    cmd.while_running = sample_some;
    cmd.ctx = r;
    cmd.same_group = 1;
    rc = prof_spawn_run(&cmd, &res);
    *sig = res.interrupted;
    if (r->opened)
    {
        prof_impl_sample_rings_enable(&r->rings, 0);
        if (rc == 0)
            pt_rec_drain(r, 1);
        pt_rec_end(r, prof_impl_sample_rings_close(&r->rings),
                res.end == PROF_SPAWN_KILLED ? res.status : 0);
    }
    r->keep = rc == 0; /* else the command did not run: nothing to keep */
    if (rc != 0 && (r->opened || res.status != ECANCELED)) /* else refused, said */
        prof_impl_warn(PROGRAM ": %s: %s", r->cmd[0], strerror(res.status));
    if (rc != 0)
        return r->opened ? 127 : 1;
    return res.end == PROF_SPAWN_KILLED ? 128 + res.status : res.status;
}

static int usage(void)
{
    fprintf(stderr, "usage: prof-trace record [--hz=N] [--children] "
            "[--call-graph=fp|dwarf[,BYTES]] [-o FILE] -- COMMAND [ARGS...]\n"
            "       prof-trace record -p PID[,PID...] [--duration=T] [--hz=N] "
            "[--children] [--call-graph=...] [-o FILE]\n"
            "  --hz=N       samples per CPU second, (0, %d] (default %d)\n"
            "  --call-graph=fp|dwarf[,BYTES]  stacks by frame pointers alone, or\n"
            "               also the registers and BYTES of stack a sample\n"
            "               (default %d), unwound by the binaries' CFI when\n"
            "               reported (default %s)\n"
            "  --children   sample the command's child processes too (default:\n"
            "               the command and its threads); with -p, those the\n"
            "               processes start from then on\n"
            "  -o FILE      the trace file (default prof-trace.record.PID.ptrace)\n"
            "  -p PIDS      (or --pid=PIDS) sample these running processes and\n"
            "               their threads instead of a command, until Ctrl-C,\n"
            "               --duration or their end\n"
            "  --duration=T with -p: stop after T seconds (default: no limit)\n",
            SAMPLE_MAX_HZ, SAMPLE_DEFAULT_HZ, SAMPLE_STACK_BYTES,
            SAMPLE_RECORD_CG_DEFAULT > 0 ? "dwarf" : "fp");
    return 2;
}

/* 1 if out names a file of the command (its program, an argument): it
   would be replaced; after a message. */
static int out_is_input(const char * out, char ** cmd)
{
    int i;
    for (i = 0; cmd[i] != NULL; i++)
        if (prof_impl_same_file(out, cmd[i]))
        {
            prof_impl_warn(PROGRAM ": -o %s is %s, which the command names: "
                           "refused (it would be replaced)", out, cmd[i]);
            return 1;
        }
    return 0;
}

/* --duration's seconds */
static const prof_impl_range duration_range = { 0, 0, 1e9, 1, 1, 0,
    PROF_IMPL_PLAIN, "a number of seconds > {lo}" };

typedef struct
{
    const char * out, * pids;   /* -o, -p */
    double duration_s;          /* --duration (0: none) */
    int cmd;                    /* the command's first word in argv, or 0 */
} record_args;

/* The options into r and o: 0, or the exit status after a message. */
static int parse_args(int argc, char ** argv, recorder * r, record_args * o)
{
    int i;
    for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
    {
        if (strncmp(argv[i], "--hz=", 5) == 0)
        {
            if ((r->hz = prof_impl_sample_rate(argv[i] + 5)) == 0)
                return prof_impl_warn(PROGRAM ": --hz=%s: not a rate in (0, %d]",
                                      argv[i] + 5, SAMPLE_MAX_HZ), 2;
        }
        else if (strncmp(argv[i], "--duration=", 11) == 0)
        {
            if (prof_impl_option_number(PROGRAM, "--duration", argv[i] + 11,
                                        &duration_range, &o->duration_s) != 0)
                return 2;
        }
        else if (strcmp(argv[i], "--children") == 0)
            r->children = 1;
        else if (strncmp(argv[i], "--call-graph=", 13) == 0)
        {
            long cg = prof_impl_sample_cg(argv[i] + 13);
            if (cg < 0)
                return prof_impl_warn(PROGRAM ": --call-graph=%s: not fp, dwarf or "
                                      "dwarf,BYTES (%d to %d)", argv[i] + 13,
                                      SAMPLE_MIN_STACK, SAMPLE_MAX_STACK), 2;
            r->cg = (unsigned) cg;
        }
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            o->out = argv[++i];
        else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
            o->pids = argv[++i];
        else if (strncmp(argv[i], "--pid=", 6) == 0)
            o->pids = argv[i] + 6;
        else
            return usage();
    }
    o->cmd = i + 1 < argc ? i + 1 : 0;
    if (o->pids != NULL && i < argc)
        return prof_impl_warn(PROGRAM ": -p and a command: one or the other"), usage();
    if (o->pids == NULL && o->duration_s > 0)
        return prof_impl_warn(PROGRAM ": --duration needs -p (a command ends by "
                              "itself)"), usage();
    return o->pids == NULL && o->cmd == 0 ? usage() : 0;
}

int pt_record_main(int argc, char ** argv)
{
    char path[64];
    prof_impl_outfile of;
    recorder r;
    record_args o;
    pt_attach_plan plan;
    int rc, sig = 0;
    memset(&r, 0, sizeof r);
    memset(&o, 0, sizeof o);
    memset(&plan, 0, sizeof plan);
    r.hz = SAMPLE_DEFAULT_HZ;
    r.cg = SAMPLE_RECORD_CG_DEFAULT;
    if ((rc = parse_args(argc, argv, &r, &o)) != 0)
        return rc;
    r.cmd = o.cmd > 0 ? argv + o.cmd : NULL;
    if (o.out == NULL)
    {
        snprintf(path, sizeof path, "prof-trace.record.%ld.ptrace", (long) getpid());
        o.out = path;
    }
    if (r.cmd != NULL && out_is_input(o.out, r.cmd))
        return 2;
    if (o.pids != NULL && pt_attach_parse(&plan, o.pids) != 0)
        return 2; /* before any file is touched, as prof-run */
    plan.duration_s = o.duration_s;
    /* a temporary file, which replaces out only once the trace is whole */
    if (prof_impl_outfile_open(&of, o.out) != 0)
    {
        pt_attach_plan_free(&plan);
        return o.pids != NULL ? 2 : 1;
    }
    r.f = of.f;
    pt_rec_writer_init(&r);
    rc = o.pids != NULL ? pt_attach_run(&r, &plan, &sig) : record(&r, &sig);
    if (!r.keep)
        prof_impl_outfile_abort(&of);      /* not run: out as it was */
    else if (prof_impl_outfile_commit(&of) != 0) /* a write failed: said */
        rc = rc != 0 ? rc : o.pids != NULL ? 2 : 1;
    else
        fprintf(stderr, PROGRAM ": %llu samples (%llu lost, %llu chains "
                "truncated) written to %s\n", (unsigned long long) r.w.samples,
                (unsigned long long) r.rings.lost, (unsigned long long) r.w.truncated,
                o.out);
    prof_impl_sw_free(&r.w);
    pt_attach_plan_free(&plan);
    /* a SIGINT, SIGTERM or SIGHUP ended the command (or the sampling of
       -p): now the trace is written, the same signal ends this process (a
       shell sees 128 + N) */
    prof_spawn_release(sig);
    return rc;
}
