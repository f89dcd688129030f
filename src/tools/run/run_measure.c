/*
    prof-run's runs. First the shell's own cost (its runs of an empty
    command, whose median is subtracted from every run), then the warm-up
    runs and the rounds of src/tools/alternate/: by default every command
    that still needs runs runs once a round, in alternating order (A B, B
    A, A B, ...); --no-interleave runs all of A, then all of B (hyperfine's
    order). A command's setup command runs before its first run, its
    prepare command before each run and its conclude command after each
    (untimed). A command is done when it has its --min-runs (10) and 3 s
    of runs, or its --max-runs (--runs: both); its cleanup command then
    runs. A failure, or a signal held by the caller, stops the runs with
    what they have. With --counters, each timed run's events are counted
    in the child from its exec on.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "run.h"
#include "alternate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PROGRAM "prof-run"

/* The shell's cost is the median of this many empty runs (fewer if they
   take over a second). */
enum { SHELL_RUNS = 50 };

static double now_s(void)
{
    return prof_impl_now_ns() * 1e-9;
}

/* ---- the progress bar ------------------------------------------------------ */

static struct
{
    double drawn_s;             /* when last drawn */
    int shown;                  /* a bar is on the line now */
} bar;

static void progress_clear(void)
{
    if (!bar.shown)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    bar.shown = 0;
}

/* Runs c still needs by its stop rule, as far as its runs so far tell. */
static int runs_left(const prof_cmd_plan * plan, const prof_cmd * c)
{
    double need = plan->min_runs - c->nruns;
    if (c->done)
        return 0;
    if (c->nruns > 0 && c->measured_s < plan->min_time_s)
        need = fmax(need, ceil((plan->min_time_s - c->measured_s)
                               / (c->measured_s / c->nruns)));
    if (plan->max_runs > 0)
        need = fmin(need, plan->max_runs - c->nruns);
    return need >= 1.0 ? (int) fmin(need, 1e9) : 1;
}

/* "[#####.....] 12/30 runs, ETA 0:03, <name>" at most ten times a second. */
static void progress(const prof_cmd_plan * plan, const prof_cmd * current)
{
    double t = now_s(), eta = 0.0;
    long done = 0, left = 0;
    char fill[31];
    int i, w;
    if (!plan->progress || t - bar.drawn_s < 0.1)
        return;
    for (i = 0; i < plan->ncmds; i++)
    {
        const prof_cmd * c = &plan->cmds[i];
        int n = runs_left(plan, c);
        done += c->nruns;
        left += n;
        if (c->nruns > 0)
            eta += n * c->measured_s / c->nruns;
    }
    w = done + left > 0 ? (int) (30.0 * done / (done + left)) : 0;
    memset(fill, '#', (size_t) w);
    memset(fill + w, '.', (size_t) (30 - w));
    fill[30] = '\0';
    fprintf(stderr, "\r[%s] %ld/%ld runs, ETA %d:%02d, %.40s\033[K", fill,
            done, done + left, (int) (eta / 60), (int) fmod(eta, 60.0),
            current->name);
    fflush(stderr);
    bar.drawn_s = t;
    bar.shown = 1;
}

/* ---- one run -------------------------------------------------------------- */

/* The child's event counters, opened while it waits to exec. */
typedef struct
{
    prof_counters set;
    const char * list;
    int opened;
} counting;

static int open_counters(void * ctx, long pid)
{
    counting * k = (counting *) ctx;
    k->opened = prof_impl_counters_open_child(&k->set, k->list, pid) >= 0;
    return 0;
}

/* The counts of the run just made into ev (NaN where not counted); the
   first run that counts names the events and keeps the context line. */
static void read_counters(prof_cmd_plan * plan, counting * k, double * ev)
{
    prof_counter_value v[PROF_COUNTERS_MAX];
    int i, n = prof_counters_size(&k->set);
    if (!k->opened)
        return;
    if (prof_counters_read(&k->set, v) == 0)
        for (i = 0; i < n; i++)
            ev[i] = v[i].value;
    if (plan->nev == 0)
    {
        for (i = 0; i < n; i++)
            plan->ev_names[i] = prof_counters_name(&k->set, i);
        plan->nev = n;
        prof_counters_context(&k->set, plan->counters_line,
                              sizeof plan->counters_line);
    }
    prof_counters_close(&k->set);
}

/* Run argv (of c, or NULL: the shell's own runs); with ev (a timed run,
   --counters), its event counts too. Its input is --input's, its output
   c's --output (stdout to a file, stderr dropped), dropped, or shown. */
static int start(prof_cmd_plan * plan, const prof_cmd * c,
                 char * const * argv, prof_spawn_result * r, double * ev)
{
    const char * o = c != NULL ? c->output : NULL;
    prof_spawn_cmd cmd;
    counting k;
    int rc, i;
    for (i = 0; ev != NULL && i < PROF_COUNTERS_MAX; i++)
        ev[i] = NAN;
    memset(&cmd, 0, sizeof cmd);
    cmd.argv = argv;
    cmd.stdin_path = plan->input != NULL ? plan->input : "/dev/null";
    if (o == NULL || strcmp(o, "null") == 0)
        o = plan->show_output ? "inherit" : "/dev/null";
    if (strcmp(o, "inherit") != 0)
    {
        cmd.stdout_path = o;
        cmd.stderr_path = "/dev/null";
    }
    if (ev != NULL && plan->counters != NULL)
    {
        memset(&k, 0, sizeof k);
        k.list = plan->counters;
        cmd.before_exec = open_counters;
        cmd.ctx = &k;
    }
    rc = prof_spawn_run(&cmd, r);
    if (cmd.before_exec != NULL)
        read_counters(plan, &k, ev);
    return rc;
}

/* Whether a held signal came (during the run r, or before: r NULL); it
   then stops the runs. */
static int interrupted(prof_cmd_plan * plan, const prof_spawn_result * r)
{
    int sig = prof_impl_alt_signal(r);
    if (sig != 0)
    {
        plan->stop = PROF_CMD_INTERRUPTED;
        plan->signal = sig;
    }
    return sig != 0;
}

/* The runs stop at a failure: what (and of whom, if not NULL) ran text. */
static void failed(prof_cmd_plan * plan, const char * what, const char * of,
                   const char * text, const prof_spawn_result * r,
                   const char * advice)
{
    char how[160];
    progress_clear();
    prof_spawn_describe(r, how, sizeof how);
    prof_impl_warn(PROGRAM ": %s%s%s failed (%s): %s%s", what,
                   of != NULL ? " of " : "", of != NULL ? of : "", how, text,
                   advice);
    plan->stop = PROF_CMD_FAILED;
}

/* c's prepare or cleanup command: 0, or -1 when the runs stop. */
static int helper(prof_cmd_plan * plan, const prof_cmd * c,
                  char * const * argv, const char * text, const char * what)
{
    prof_spawn_result r;
    int rc;
    if (argv == NULL)
        return 0;
    if (interrupted(plan, NULL))
        return -1;
    rc = start(plan, c, argv, &r, NULL);
    if (interrupted(plan, &r))
        return -1;
    if (rc == 0 && r.end == PROF_SPAWN_EXITED && r.status == 0)
        return 0;
    failed(plan, what, c->name, text, &r, "");
    return -1;
}

/* Keep run r of c (its counts ev) in round. 0, or -1 out of memory. */
static int record(prof_cmd_plan * plan, prof_cmd * c,
                  const prof_spawn_result * r, const double * ev, int round)
{
    prof_cmd_run * k;
    int i;
    if (prof_impl_grow(&c->runs, &c->cap, (size_t) c->nruns + 1,
                       sizeof *c->runs) != 0)
    {
        prof_impl_warn(PROGRAM ": out of memory after %d runs", c->nruns);
        plan->stop = PROF_CMD_NO_MEMORY;
        return -1;
    }
    k = &c->runs[c->nruns++];
    k->wall_s = fmax(0.0, r->wall_s - plan->shell_cost.wall_s);
    k->user_s = fmax(0.0, r->user_s - plan->shell_cost.user_s);
    k->sys_s = fmax(0.0, r->sys_s - plan->shell_cost.sys_s);
    k->max_rss_kb = r->max_rss_kb;
    k->exit_code = r->end == PROF_SPAWN_EXITED ? r->status : 128 + r->status;
    k->signal = r->end == PROF_SPAWN_KILLED ? r->status : 0;
    k->round = round;
    k->load = prof_impl_load_now();
    for (i = 0; i < PROF_COUNTERS_MAX; i++)
        k->ev[i] = plan->shell != NULL && !isnan(plan->shell_cost.ev[i])
                 ? fmax(0.0, ev[i] - plan->shell_cost.ev[i]) : ev[i];
    c->measured_s += r->wall_s;
    return 0;
}

/* A run of command i in round (a warm-up run when round < 0), its
   prepare command first: 0, or -1 when the runs stop. */
static int timed(void * ctx, int i, int round)
{
    prof_cmd_plan * plan = (prof_cmd_plan *) ctx;
    prof_cmd * c = &plan->cmds[i];
    prof_spawn_result r;
    double ev[PROF_COUNTERS_MAX];
    char what[64];
    int rc, first = !c->started;
    c->started = 1;
    if (first && plan->show_output)     /* before its output, as hyperfine */
        prof_impl_cmd_heading(plan, i);
    if (first && helper(plan, c, c->setup, c->setup_text, "the setup command"))
        return -1;
    if (helper(plan, c, c->prepare, c->prepare_text, "the prepare command"))
        return -1;
    if (interrupted(plan, NULL))
        return -1;
    rc = start(plan, c, c->argv, &r, round >= 0 ? ev : NULL);
    if (interrupted(plan, &r))
        return -1;
    if (rc != 0 || (!plan->ignore_failure
                    && (r.end != PROF_SPAWN_EXITED || r.status != 0)))
    {
        if (round < 0)
            snprintf(what, sizeof what, "the command (warm-up run)");
        else
            snprintf(what, sizeof what, "the command (run %d)", c->nruns + 1);
        failed(plan, what, NULL, c->text, &r, rc != 0 ? ""
               : "\n  (--ignore-failure times it anyway; --show-output "
                 "shows its output)");
        return -1;
    }
    if (round >= 0 && record(plan, c, &r, ev, round) != 0)
        return -1;
    if (helper(plan, c, c->conclude, c->conclude_text, "the conclude command"))
        return -1;
    progress(plan, c);
    return 0;
}

int prof_impl_cmd_enough(const prof_cmd_plan * plan, const prof_cmd * c)
{
    if (plan->max_runs > 0 && c->nruns >= plan->max_runs)
        return 1;
    return c->nruns >= plan->min_runs && c->measured_s >= plan->min_time_s;
}

static int enough(void * ctx, int i)
{
    prof_cmd_plan * plan = (prof_cmd_plan *) ctx;
    return prof_impl_cmd_enough(plan, &plan->cmds[i]);
}

/* Command i is done: its cleanup, then the caller hears of it. 0, or -1
   when the runs stop. */
static int finish(void * ctx, int i)
{
    prof_cmd_plan * plan = (prof_cmd_plan *) ctx;
    prof_cmd * c = &plan->cmds[i];
    c->done = 1;
    c->cleaned = 1;
    if (helper(plan, c, c->cleanup, c->cleanup_text, "the cleanup command"))
        return -1;
    progress_clear();
    if (plan->on_done != NULL)
        plan->on_done(plan->ctx, i);
    return 0;
}

/* ---- the runs in order ------------------------------------------------------ */

/* The median of the shell runs' event counts into the shell's cost. */
static void shell_counts(prof_cmd_plan * plan, double (*ev)[PROF_COUNTERS_MAX],
                         int n)
{
    double v[SHELL_RUNS];
    int i, k, m;
    for (i = 0; i < PROF_COUNTERS_MAX; i++)
    {
        for (k = m = 0; k < n; k++)
            if (!isnan(ev[k][i]))
                v[m++] = ev[k][i];
        plan->shell_cost.ev[i] = m > 0 ? prof_impl_median(v, m) : NAN;
    }
}

/* The shell's cost: the median of its runs of an empty command. */
static void shell_cost(prof_cmd_plan * plan)
{
    double wall[SHELL_RUNS], user[SHELL_RUNS], sys[SHELL_RUNS], t0 = now_s();
    double ev[SHELL_RUNS][PROF_COUNTERS_MAX];
    char ** argv, empty[] = "";
    prof_spawn_result r;
    int n = 0, rc;
    if ((argv = prof_impl_cmd_shell_argv(plan, empty, NULL)) == NULL)
    {
        prof_impl_warn(PROGRAM ": out of memory");
        plan->stop = PROF_CMD_NO_MEMORY;
        return;
    }
    while (n < SHELL_RUNS && (n < 5 || now_s() - t0 < 1.0))
    {
        rc = start(plan, NULL, argv, &r, ev[n]);
        if (interrupted(plan, &r))
            break;
        if (rc != 0 || r.end != PROF_SPAWN_EXITED || r.status != 0)
        {
            failed(plan, "the shell", NULL, argv[0], &r, " -c ''");
            break;
        }
        wall[n] = r.wall_s;
        user[n] = r.user_s;
        sys[n++] = r.sys_s;
    }
    free(argv);
    if (plan->stop != PROF_CMD_COMPLETE)
        return;
    plan->shell_runs = n;
    plan->shell_cost.wall_s = prof_impl_median(wall, n);
    plan->shell_cost.user_s = prof_impl_median(user, n);
    plan->shell_cost.sys_s = prof_impl_median(sys, n);
    shell_counts(plan, ev, n);
}

/* The warm-up runs and the rounds (or each command's runs in turn). */
static void alternate(prof_cmd_plan * plan)
{
    prof_alternation a;
    memset(&a, 0, sizeof a);
    a.n = plan->ncmds;
    a.interleave = plan->interleave;
    a.warmup = plan->warmup;
    a.run = timed;
    a.enough = enough;
    a.leave = finish;
    a.ctx = plan;
    if (prof_impl_alternate(&a) != 0 && a.signal != 0)
    {
        plan->stop = PROF_CMD_INTERRUPTED;
        plan->signal = a.signal;
    }
}

void prof_impl_cmd_measure(prof_cmd_plan * plan)
{
    int i;
    plan->started_s = now_s();
    plan->stop = PROF_CMD_COMPLETE;
    for (i = 0; i < PROF_COUNTERS_MAX; i++)
        plan->shell_cost.ev[i] = NAN;
    bar.drawn_s = plan->started_s;      /* no bar in the first 0.1 s */
    if (plan->shell != NULL)
        shell_cost(plan);
    if (plan->stop == PROF_CMD_COMPLETE)
        alternate(plan);
    /* stopped by a failure: the commands that started still clean up (not
       after a signal: the user asked to stop) */
    for (i = 0; plan->stop == PROF_CMD_FAILED && i < plan->ncmds; i++)
    {
        prof_cmd * c = &plan->cmds[i];
        if (c->started && !c->cleaned)
        {
            c->cleaned = 1;
            helper(plan, c, c->cleanup, c->cleanup_text, "the cleanup command");
        }
    }
    progress_clear();
    plan->spent_s = now_s() - plan->started_s;
}
