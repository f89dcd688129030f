/*
    prof-run: timing whole commands (internal: the tool's files share
    these; POSIX only, not installed).

        prof-run.c     the command line, the outputs, the exit status
        run_plan.c     the commands: words, parameters, the checks made
                       before anything starts
        run_measure.c  the runs: warm-up, prepare, rounds in alternating
                       order, the stop rule, failures, signals, progress
        run_report.c   each command's figures as a runner result, the
                       summary, the ratios by round and the gate
        run_export.c   hyperfine's JSON, CSV, markdown, AsciiDoc and
                       org-mode; the runner's
                       formats through its reporters
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_RUN_H
#define PROF_RUN_H

#include "report.h"
#include "compare.h"

#include <stdio.h>

enum { PROF_CMD_MAX_PARAMS = 8 };

/* One timed run of a command, the shell's share subtracted (never below
   0). */
typedef struct
{
    double wall_s, user_s, sys_s;
    long max_rss_kb;            /* the child's peak resident set */
    int exit_code;              /* its exit status, or 128 + the signal
                                   that killed it (as hyperfine, and the
                                   shell's $?) */
    int signal;                 /* the signal that ended it, or 0 */
    int round;                  /* the round it ran in, from 0 */
    double load;                /* the 1-minute load average as it ended
                                   (NaN: unknown) */
    double ev[PROF_COUNTERS_MAX];   /* the child's event counts (--counters):
                                   plan->ev_names; NaN: not counted */
} prof_cmd_run;

/* One command to time: a command line given, with one set of parameter
   values substituted. */
typedef struct
{
    char * name;                /* --command-name, else the command line */
    char * text;                /* the command line */
    char ** argv;               /* what runs: the shell's words, "-c" and
                                   the text, or the text's words */
    char ** prepare, ** cleanup;    /* the same for those, or NULL */
    char ** setup, ** conclude;
    char * prepare_text, * cleanup_text, * setup_text, * conclude_text;
    const char * output;        /* --output: NULL or "null" (/dev/null),
                                   "inherit", or a file for its stdout */
    int nparams;
    const char * param_names[PROF_CMD_MAX_PARAMS];
    char * param_values[PROF_CMD_MAX_PARAMS];
    prof_cmd_run * runs;        /* in the order run */
    int nruns;
    size_t cap;
    double measured_s;          /* wall time of the timed runs, shell in */
    int started;                /* a run (or warm-up run) of it began */
    int done;                   /* its runs are over (stop rule met) */
    int cleaned;                /* its cleanup ran */
    prof_impl_result * result;  /* made by prof_impl_cmd_result */
} prof_cmd;

/* Why the runs stopped before every command was done. */
typedef enum
{
    PROF_CMD_COMPLETE = 0,
    PROF_CMD_INTERRUPTED,       /* a signal: plan->signal */
    PROF_CMD_FAILED,            /* a command, prepare or cleanup failed */
    PROF_CMD_NO_MEMORY
} prof_cmd_stop;

/* --sort: hyperfine's auto (the summary by mean time, the tables in the
   order given), command (both in the order given), mean-time (both by
   mean time). */
enum { PROF_CMD_SORT_AUTO, PROF_CMD_SORT_COMMAND, PROF_CMD_SORT_MEAN };

/* The commands and how they run. */
typedef struct
{
    prof_cmd * cmds;
    int ncmds;
    char ** shell;              /* the shell's words, or NULL: argv direct */
    int warmup;
    int min_runs, max_runs;     /* max_runs 0: no limit */
    double min_time_s;          /* and at least this much per command */
    int interleave;             /* A B B A ... (else all of A, then B) */
    int ignore_failure, show_output;
    const char * input;         /* --input: the commands' stdin (NULL:
                                   /dev/null) */
    double unit_s;              /* --time-unit: seconds in it (0: chosen
                                   from each value, as hyperfine) */
    int sort;                   /* --sort: PROF_CMD_SORT_* */
    int progress;               /* draw the progress bar on stderr */
    const char * counters;      /* the events to count in each run, or
                                   NULL: none */
    FILE * summary;             /* where the figures are printed */
    void (*on_done)(void * ctx, int index);     /* a command is done */
    void * ctx;
    int printed;                /* the blocks of cmds[0 .. printed) are out */
    char ** values[PROF_CMD_MAX_PARAMS];    /* each parameter's values */
    int nvalues[PROF_CMD_MAX_PARAMS], nparams;
    /* what the runs found */
    prof_cmd_run shell_cost;    /* median of the shell's empty runs */
    int shell_runs;             /* how many (0: no shell) */
    int nev;                    /* events counted (0: none yet) */
    const char * ev_names[PROF_COUNTERS_MAX];   /* perf stat names */
    char counters_line[1024];   /* which count, why the others are n/a */
    int counters_said;          /* that line is printed */
    prof_cmd_stop stop;
    int signal;                 /* the signal that interrupted, or 0 */
    double started_s, spent_s;  /* when the runs began; their wall time */
} prof_cmd_plan;

/* ---- run_plan.c ---------------------------------------------------------- */

/* The words of a command line as the shell would split it (blanks;
   'single', "double" quotes and backslashes; no expansion): a malloc'd
   NULL-terminated array, freed with one free(); NULL after a message
   (unterminated quote, nothing but blanks, out of memory). */
char ** prof_impl_cmd_split(const char * text, const char * what);

/* A parameter: --parameter-scan (lo, hi, step) or --parameter-list
   (values, comma-separated, as given). */
#define PROF_CMD_STEP 1.0       /* a scan's step when none is given */
typedef struct
{
    const char * name;
    int is_scan;
    double lo, hi, step;        /* step 0: whole numbers, PROF_CMD_STEP */
    const char * list;
} prof_cmd_param;

/* What the command line gives for the commands. */
typedef struct
{
    char * const * texts;       /* the command lines */
    int ntexts;
    const char * const * names; /* --command-name, or NULL */
    int nnames;
    const char * const * prepare, * const * cleanup;
    int nprepare, ncleanup;
    const char * const * setup, * const * conclude, * const * outputs;
    int nsetup, nconclude, noutputs;
    const prof_cmd_param * params;
    int nparams;
    const char * shell;         /* "none", or the shell's command line */
} prof_cmd_spec;

/* Make plan->cmds (and plan->shell) from spec: every parameter value
   substituted for {NAME}. 0, or -1 after a message (bad parameter, a
   count of names, prepare or cleanup commands that fits nothing, a
   parameter used nowhere). */
int prof_impl_cmd_build(prof_cmd_plan * plan, const prof_cmd_spec * spec);
/* That every command, prepare and cleanup can start (its program is found
   in PATH, or by the shell): 0, or -1 after a message naming it, or
   (quietly) when a signal held by prof_spawn_hold came meanwhile. */
int prof_impl_cmd_check(const prof_cmd_plan * plan);
/* Free what build and the runs made. */
void prof_impl_cmd_free(prof_cmd_plan * plan);

/* The words to run text with through plan's shell: its words, "-c",
   text, then the words of args (NULL-ended, or NULL); malloc'd (the words
   themselves are not copied), or NULL if out of memory. */
char ** prof_impl_cmd_shell_argv(const prof_cmd_plan * plan, char * text,
                                 char * const * args);

/* ---- run_measure.c ------------------------------------------------------- */

/* Run the plan: the shell's cost, the warm-up runs, then rounds until
   every command is done, or until a failure (message printed) or a held
   signal (prof_spawn_hold: the caller holds them) stops them: plan->stop.
   Calls plan->on_done as each command is done. */
void prof_impl_cmd_measure(prof_cmd_plan * plan);
/* Whether the command's stop rule is met with the runs it has. */
int prof_impl_cmd_enough(const prof_cmd_plan * plan, const prof_cmd * c);

/* ---- run_report.c -------------------------------------------------------- */

/* A time unit for seconds s: "s", "ms", "µs" (ascii: "us"), and the
   seconds in one; hyperfine's choice from s, or the unit of fixed_s (1,
   1e-3, 1e-6: --time-unit) when it is not 0. */
void prof_impl_cmd_unit(double s, double fixed_s, int ascii,
                        const char ** name, double * unit_s);
/* c's runs as a runner result (c->result), kept for the outputs; partial
   (stopped before its stop rule) is said in its flags and warning. 0, or
   -1 (no run, or out of memory). */
int prof_impl_cmd_result(const prof_cmd_plan * plan, prof_cmd * c);
/* "Benchmark N: NAME" on plan->summary (index from 0). */
void prof_impl_cmd_heading(const prof_cmd_plan * plan, int index);
/* The commands that have a result, by_mean: by mean time (ties in the
   order given), else in the order given: their indexes in *order
   (malloc'd) and their number, or -1 after a message (out of memory). */
int prof_impl_cmd_order(const prof_cmd_plan * plan, int by_mean, int ** order);
/* c's block of figures on plan->summary. */
void prof_impl_cmd_print(prof_cmd_plan * plan, int index);
/* The summary: the blocks not printed yet (from plan->printed on), the
   fastest and the others relative to it, the ratios by round; with a
   threshold, the gate against the first command. Returns the gate's exit
   status (PROF_EXIT_*). */
int prof_impl_cmd_summary(prof_cmd_plan * plan, const prof_gate * g);
/* The mean user and system time of c's runs [s]. */
void prof_impl_cmd_cpu(const prof_cmd * c, double * user, double * sys);
/* The command with the least mean time (hyperfine's fastest), its result
   made, or -1 if none ran. */
int prof_impl_cmd_fastest(const prof_cmd_plan * plan);
/* The mean and the sample standard deviation (0 for one run) of c's wall
   times [s], as prof_impl_sample_moments has them; zeros with no run.
   Nothing allocated, so nothing can fail on the way to an export. */
void prof_impl_cmd_wall(const prof_cmd * c, double * mean, double * sd);
/* hyperfine's ratio of b's mean wall time to a's, and its standard
   deviation propagated from theirs (NaN when either has one run: no
   deviation). */
void prof_impl_cmd_ratio(const prof_cmd * a, const prof_cmd * b,
                         double * ratio, double * sd);

/* ---- run_export.c -------------------------------------------------------- */

typedef enum
{
    PROF_EXPORT_JSON,           /* hyperfine's --export-json */
    PROF_EXPORT_MARKDOWN,       /* hyperfine's --export-markdown */
    PROF_EXPORT_CSV,            /* hyperfine's --export-csv */
    PROF_EXPORT_ASCIIDOC,       /* hyperfine's --export-asciidoc */
    PROF_EXPORT_ORGMODE,        /* hyperfine's --export-orgmode */
    PROF_EXPORT_RUNNER_JSON,    /* the runner's --format=json (Google
                                   Benchmark's schema) */
    PROF_EXPORT_RUNNER_CSV,
    PROF_EXPORT_RUNNER_MD
} prof_export_kind;

/* Write the results of plan's commands that ran in kind to out: 0, or
   -1 after a message when out of memory left the export incomplete (the
   caller then throws the file away). */
int prof_impl_cmd_export(FILE * out, prof_export_kind kind,
                         const prof_cmd_plan * plan);

#endif
