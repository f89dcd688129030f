/*
    prof-run: time whole commands as hyperfine does, with the runner's
    statistics: the commands alternate (A B B A ...), each command's
    median has its distribution-free interval, the ratio of two commands
    is also taken by round with its interval, and --threshold gates on
    prof-compare's rule. Takes hyperfine's options (long and short) and
    exports its JSON, CSV, markdown, AsciiDoc and org-mode tables, and the
    runner's formats (Google Benchmark's JSON for prof-compare).
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "paths.h"
#include "run.h"
#include "prof_spawn.h"

#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PROGRAM "prof-run"

/* The least time of runs of each command, unless --runs says how many. */
#define MIN_TIME_S 3

/* The head of --help: a format of the least runs, the least time and
   the interval's level. */
static const char usage_format[] =
"usage: prof-run [options] COMMAND...\n"
"Times each COMMAND (a shell command line, one argument each) as a whole:\n"
"a shell's own cost is measured first and subtracted. By default the\n"
"commands alternate, A B, B A, A B, ..., each running until it has at least\n"
"%g runs and %d s of runs; the output goes to /dev/null. Prints per command\n"
"the mean and standard deviation, the median with its %g%% interval, min and\n"
"max, user and system time and peak RSS, then how many times faster the\n"
"fastest ran, also as the median ratio by round with its interval.\n"
"Options (--flag=VALUE or --flag VALUE; -- ends the options):\n";
static char usage_head[sizeof usage_format + 32];

static const char usage_tail[] =
"hyperfine's short options: -w --warmup, -r --runs, -m --min-runs,\n"
"  -M --max-runs, -p --prepare, -c --cleanup, -s --setup, -C --conclude,\n"
"  -S --shell, -N --shell=none, -P --parameter-scan, -D --parameter-step\n"
"  (or --parameter-step-size), -L --parameter-list, -n --command-name,\n"
"  -i --ignore-failure, -u --time-unit; each alone, its value the next word.\n"
"Exit status:\n"
"  0  the commands ran (and with --threshold, none is slower)\n"
"  1  with --threshold: a command significantly slower than the first by\n"
"     more than the threshold\n"
"  2  bad options, a command not found, an output that cannot be written,\n"
"     a command that failed (unless --ignore-failure)\n"
"  3  with --threshold: too few runs to tell, and none slower\n"
"Interrupted (Ctrl-C), it prints and writes what it has, marked partial,\n"
"and ends by the signal.\n";

enum { MAX_GIVEN = 256 };

/* A list of an option's values, as given. */
typedef struct
{
    const char * v[MAX_GIVEN];
    int n;
} given;

typedef struct
{
    prof_gate gate;
    const char * shell, * progress, * out, * format, * counters;
    const char * time_unit, * sort, * style, * input;
    const char * exports[5];            /* in prof_export_kind's order */
    given prepare, cleanup, names, setup, conclude, outputs;
    prof_cmd_param params[PROF_CMD_MAX_PARAMS];
    int nparams, scans;
    double step;
    int warmup, runs, min_runs, max_runs;
    int ignore_failure, show_output, no_interleave;
} options;

/* ---- the command line ------------------------------------------------------ */

static int set_gate(void * ctx, const char * name, const char * v)
{
    return prof_impl_gate_option(&((options *) ctx)->gate, PROGRAM, name, v);
}

/* --warmup, --runs, --min-runs and --max-runs: defaults (0: not given)
   and bounds */
#define COUNT(def, lo) { def, lo, 1e7, 0, 0, 1, PROF_IMPL_PLAIN, \
                         "a whole number from {lo} to {hi}" }
static const prof_impl_range warmup_range = COUNT(0, 0),
    runs_range = COUNT(0, 1), min_runs_range = COUNT(10, 1),
    max_runs_range = COUNT(0, 1);

static int set_count(void * ctx, const char * name, const char * v)
{
    options * o = (options *) ctx;
    int warmup = strcmp(name, "--warmup") == 0;
    int * field = warmup ? &o->warmup
                : strcmp(name, "--runs") == 0 ? &o->runs
                : strcmp(name, "--min-runs") == 0 ? &o->min_runs : &o->max_runs;
    double n;
    if (prof_impl_option_number(PROGRAM, name, v, warmup ? &warmup_range
                                : &runs_range, &n) != 0)
        return -1;
    *field = (int) n;
    return 0;
}

static int set_given(void * ctx, const char * name, const char * v)
{
    options * o = (options *) ctx;
    given * g = strcmp(name, "--prepare") == 0 ? &o->prepare
              : strcmp(name, "--cleanup") == 0 ? &o->cleanup
              : strcmp(name, "--setup") == 0 ? &o->setup
              : strcmp(name, "--conclude") == 0 ? &o->conclude
              : strcmp(name, "--output") == 0 ? &o->outputs : &o->names;
    if (g == &o->outputs && strcmp(v, "pipe") == 0)
    {
        prof_impl_warn(PROGRAM ": --output=pipe is not taken (null, inherit "
                       "or a FILE)");
        return -1;
    }
    if (g->n == MAX_GIVEN)
    {
        prof_impl_warn(PROGRAM ": %s: more than %d given", name, MAX_GIVEN);
        return -1;
    }
    g->v[g->n++] = v;
    return 0;
}

/* A new parameter called name: NULL after a message if there are too
   many. */
static prof_cmd_param * new_param(options * o, const char * name)
{
    prof_cmd_param * p;
    if (o->nparams == PROF_CMD_MAX_PARAMS)
    {
        prof_impl_warn(PROGRAM ": more than %d parameters",
                       PROF_CMD_MAX_PARAMS);
        return NULL;
    }
    p = &o->params[o->nparams++];
    memset(p, 0, sizeof *p);
    p->name = name;
    return p;
}

static int set_scan(void * ctx, const char * name, const char * const * w)
{
    static const prof_impl_range r = { 0, -1e15, 1e15, 1, 1, 0,
                                       PROF_IMPL_PLAIN, "a number" };
    options * o = (options *) ctx;
    prof_cmd_param * p;
    if (o->scans++ > 0)
    {
        prof_impl_warn(PROGRAM ": %s is given once (--parameter-list may be "
                       "given several times)", name);
        return -1;
    }
    if ((p = new_param(o, w[0])) == NULL)
        return -1;
    p->is_scan = 1;
    return prof_impl_option_number(PROGRAM, name, w[1], &r, &p->lo) != 0
        || prof_impl_option_number(PROGRAM, name, w[2], &r, &p->hi) != 0
        ? -1 : 0;
}

static int set_list(void * ctx, const char * name, const char * const * w)
{
    prof_cmd_param * p;
    if (*w[1] == '\0')
    {
        prof_impl_warn(PROGRAM ": %s %s: no value given", name, w[0]);
        return -1;
    }
    if ((p = new_param((options *) ctx, w[0])) == NULL)
        return -1;
    p->list = w[1];
    return 0;
}

/* --parameter-step (0: not given) */
static const prof_impl_range step_range = { PROF_CMD_STEP, 0, 1e15, 1, 1, 0,
                                            PROF_IMPL_PLAIN, "a number > {lo}" };

static int set_step(void * ctx, const char * name, const char * v)
{
    return prof_impl_option_number(PROGRAM, name, v, &step_range,
                                   &((options *) ctx)->step);
}

/* The options whose value is one of a few words ("|a|b|c|"). */
static const struct
{
    const char * name, * choices;
    size_t field;
} choice_table[] = {
    { "--format", "|md|csv|json|", offsetof(options, format) },
    { "--progress", "|auto|always|never|", offsetof(options, progress) },
    { "--time-unit", "|microsecond|millisecond|second|",
      offsetof(options, time_unit) },
    { "--sort", "|auto|command|mean-time|", offsetof(options, sort) },
    { "--style", "|auto|basic|full|nocolor|color|none|",
      offsetof(options, style) },
};

/* A text option's value, one of the words of its choices. */
static int set_choice(void * ctx, const char * name, const char * v)
{
    const char * choices = NULL;
    char word[40];
    size_t k, field = 0;
    for (k = 0; k < sizeof choice_table / sizeof choice_table[0]; k++)
        if (strcmp(name, choice_table[k].name) == 0)
        {
            choices = choice_table[k].choices;
            field = choice_table[k].field;
        }
    snprintf(word, sizeof word, "|%s|", v);
    if (choices == NULL || strchr(v, '|') != NULL
        || strstr(choices, word) == NULL)
    {
        prof_impl_warn(PROGRAM ": %s=%s: one of %.*s is expected", name, v,
                       choices ? (int) strlen(choices) - 2 : 0,
                       choices ? choices + 1 : "");
        return -1;
    }
    *(const char **) ((char *) ctx + field) = v;
    return 0;
}

/* -N: hyperfine's --shell=none. */
static int set_no_shell(void * ctx, const char * name, const char * v)
{
    (void) name;
    (void) v;
    ((options *) ctx)->shell = "none";
    return 0;
}

static int set_counters(void * ctx, const char * name, const char * v)
{
    char what[64];
    snprintf(what, sizeof what, PROGRAM ": %s", name);
    if (v == NULL)
        v = PROF_COUNTERS_DEFAULT;
    if (prof_impl_counters_check(v, what) < 0)
        return -1;
    ((options *) ctx)->counters = v;
    return 0;
}

#define TEXT(field) PROF_IMPL_OPTION_TEXT(options, field)
#define SET(f) PROF_IMPL_OPTION_SET(f)
#define NUMBER(f, r) PROF_IMPL_OPTION_NUMBER(f, r)
/* with hyperfine's short name a */
#define SET_A(f, a) PROF_IMPL_OPTION_SET_ALIAS(f, a)
#define NUMBER_A(f, r, a) f, PROF_IMPL_NO_TEXT, 0, NULL, 0, NULL, a, r
#define TEXT_A(field, a) NULL, offsetof(options, field), 0, NULL, 0, NULL, a, \
    NULL
#define WORDS(n, f, a) NULL, PROF_IMPL_NO_TEXT, 0, NULL, n, f, a, NULL

static const prof_impl_option option_table[] = {
    { "--warmup", "N", "runs of each command before the timed ones "
      "(default: {default})", NUMBER_A(set_count, &warmup_range, "-w") },
    { "--runs", "N", "exactly N runs of each command (default: by --min-runs, "
      "--max-runs and " PROF_IMPL_STR(MIN_TIME_S) " s)",
      NUMBER_A(set_count, &runs_range, "-r") },
    { "--min-runs", "N", "at least N runs of each command, and at least "
      PROF_IMPL_STR(MIN_TIME_S) " s of runs ({default})",
      NUMBER_A(set_count, &min_runs_range, "-m") },
    { "--max-runs", "N", "at most N runs of each command (default: "
      "no limit)",
      NUMBER_A(set_count, &max_runs_range, "-M") },
    { "--setup", "CMD", "run CMD once before the runs (and warm-up runs) of "
      "each command, untimed; once for all or once per command (none)",
      SET_A(set_given, "-s") },
    { "--prepare", "CMD", "run CMD before each run, untimed; once for all "
      "commands or once per command (none)", SET_A(set_given, "-p") },
    { "--conclude", "CMD", "run CMD after each run, untimed; once for all or "
      "once per command (none)", SET_A(set_given, "-C") },
    { "--cleanup", "CMD", "run CMD after the last run of each command; once "
      "for all or once per command (none)", SET_A(set_given, "-c") },
    { "--shell", "SHELL", "none: run each command's words directly, else "
      "SHELL -c COMMAND with the shell's own cost subtracted (sh)",
      TEXT_A(shell, "-S") },
    { "-N", NULL, NULL, SET_A(set_no_shell, "-N") },
    { "--parameter-scan", "NAME LO HI", "a command for each value from LO to "
      "HI, {NAME} in the commands replaced by it (whole numbers, unless "
      "--parameter-step)", WORDS(3, set_scan, "-P") },
    { "--parameter-step", "STEP", "the step of --parameter-scan ({default})",
      NUMBER_A(set_step, &step_range, "-D") },
    { "--parameter-step-size", "STEP", NULL, NUMBER(set_step, &step_range) },
    { "--parameter-list", "NAME A,B,C", "a command for each value of the list "
      "(several lists: each combination, the first list varying fastest "
      "after the commands)", WORDS(2, set_list, "-L") },
    { "--command-name", "NAME", "the name shown and exported, once per command "
      "(the command line)", SET_A(set_given, "-n") },
    { "--ignore-failure", NULL, "time a command that exits non-zero, not "
      "stop, and say how many runs failed (default: stop)",
      TEXT_A(ignore_failure, "-i") },
    { "--input", "FILE", "the commands' stdin: null or a FILE (null)",
      TEXT(input) },
    { "--output", "WHERE", "the commands' output: null, inherit, or a FILE "
      "for their stdout; once for all or once per command (null)",
      SET(set_given) },
    { "--show-output", NULL, "let the commands' output through, no progress "
      "bar (default: to /dev/null)", PROF_IMPL_OPTION_FLAG(options, show_output) },
    { "--no-interleave", NULL, "all runs of a command, then the next "
      "(hyperfine's order; default: alternate A B B A ...)",
      PROF_IMPL_OPTION_FLAG(options, no_interleave) },
    { "--time-unit", "UNIT", "microsecond, millisecond or second: the unit of "
      "the figures and the markup tables (from each value, as hyperfine)",
      SET_A(set_choice, "-u") },
    { "--sort", "METHOD", "auto (the summary by mean time, the tables as "
      "given), command or mean-time (auto)", SET(set_choice) },
    { "--style", "TYPE", "auto, basic, full, nocolor, color or none: the "
      "progress bar never (basic, nocolor), always (full, color), no "
      "output at all (none) (auto)", SET(set_choice) },
    { "--counters", "LIST", "count the events of each run of the child "
      "(and its children), perf stat's names, comma-separated; alone: "
      PROF_COUNTERS_DEFAULT " (default: off)", set_counters,
      PROF_IMPL_NO_TEXT, 1, NULL, 0, NULL, NULL, NULL },
    PROF_GATE_OPTIONS(set_gate, "exit 1 if a command is significantly slower "
      "than the first by more than PCT percent, 3 if too few runs to tell "
      "(default: none)"),
    { "--export-json", "FILE", "hyperfine's JSON: figures and each run's time "
      "in seconds (none)", TEXT(exports[0]) },
    { "--export-markdown", "FILE", "hyperfine's markdown table (none)",
      TEXT(exports[1]) },
    { "--export-csv", "FILE", "hyperfine's CSV, in seconds (none)",
      TEXT(exports[2]) },
    { "--export-asciidoc", "FILE", "hyperfine's AsciiDoc table (none)",
      TEXT(exports[3]) },
    { "--export-orgmode", "FILE", "hyperfine's org-mode table (none)",
      TEXT(exports[4]) },
    { "--out", "FILE", "write the runner's --format to FILE (- or none: "
      "stdout, and the figures to stderr)", TEXT(out) },
    { "--format", "F", "md, csv or json: the runner's formats, json being "
      "Google Benchmark's, one iteration entry per run (json)",
      SET(set_choice) },
    { "--progress", "WHEN", "the progress bar on stderr: auto (at a "
      "terminal), always or never (auto)", SET(set_choice) },
    { "--help", NULL, "print this help and exit", SET(NULL) },
    { "--version", NULL, "print the version and exit", SET(NULL) },
};

static const prof_impl_options command_line = {
    PROGRAM, option_table, (int) (sizeof option_table / sizeof option_table[0]),
    usage_head, usage_tail, PROF_IMPL_UNKNOWN_ERROR, 1, 1
};

/* The defaults of what was not given, and options given together that do
   not go together: 0, or -1 after a message. */
static int check_options(options * o, int n, char ** commands)
{
    int i;
    for (i = 0; i < n; i++)
        if (commands[i][0] == '-')
        {
            prof_impl_warn(PROGRAM ": %s: a command cannot start with '-' "
                           "(see --help)", commands[i]);
            return -1;
        }
    if (n == 0)
        prof_impl_warn(PROGRAM ": no command given (see --help)");
    else if (o->runs > 0 && (o->min_runs > 0 || o->max_runs > 0))
        prof_impl_warn(PROGRAM ": --runs goes alone, without --min-runs or "
                       "--max-runs");
    else if (o->min_runs > 0 && o->max_runs > 0 && o->min_runs > o->max_runs)
        prof_impl_warn(PROGRAM ": --min-runs=%d is above --max-runs=%d",
                       o->min_runs, o->max_runs);
    else if (o->step > 0.0 && o->scans == 0)
        prof_impl_warn(PROGRAM ": --parameter-step goes with "
                       "--parameter-scan");
    else if (o->show_output && o->outputs.n > 0)
        prof_impl_warn(PROGRAM ": --show-output goes without --output "
                       "(--output=inherit is the same)");
    else if (o->input != NULL && strcmp(o->input, "null") != 0
             && access(o->input, R_OK) != 0)
        prof_impl_warn(PROGRAM ": --input=%s cannot be read", o->input);
    else
    {
        for (i = 0; i < o->nparams; i++)
            if (o->params[i].is_scan)
                o->params[i].step = o->step;
        return 0;
    }
    return -1;
}

/* Where --style=none prints the figures. */
static FILE * no_figures;

/* The plan's settings from the options. */
static void settings(const options * o, prof_cmd_plan * plan, FILE * summary)
{
    /* --style, hyperfine's, says when --progress does not */
    const char * when = strcmp(o->progress, "auto") != 0 ? o->progress
        : strcmp(o->style, "full") == 0 || strcmp(o->style, "color") == 0
        ? "always" : strcmp(o->style, "auto") == 0 ? "auto" : "never";
    plan->warmup = o->warmup;
    int least = (int) min_runs_range.def;
    plan->min_runs = o->runs > 0 ? o->runs : o->min_runs > 0 ? o->min_runs
                   : o->max_runs > 0 && o->max_runs < least ? o->max_runs
                   : least;
    plan->max_runs = o->runs > 0 ? o->runs : o->max_runs;
    plan->min_time_s = o->runs > 0 ? 0.0 : MIN_TIME_S;
    plan->interleave = !o->no_interleave;
    plan->ignore_failure = o->ignore_failure;
    plan->show_output = o->show_output;
    plan->progress = !o->show_output && (strcmp(when, "always") == 0
                     || (strcmp(when, "auto") == 0 && isatty(2)));
    /* --style=none: no figures (the messages and files as always) */
    if (strcmp(o->style, "none") == 0
        && (no_figures = fopen("/dev/null", "w")) != NULL)
        summary = no_figures;
    plan->summary = summary;
    plan->counters = o->counters;
    plan->input = o->input != NULL && strcmp(o->input, "null") != 0
                ? o->input : NULL;
    plan->unit_s = o->time_unit == NULL ? 0.0
                 : strcmp(o->time_unit, "second") == 0 ? 1.0
                 : strcmp(o->time_unit, "millisecond") == 0 ? 1e-3 : 1e-6;
    plan->sort = o->sort == NULL || strcmp(o->sort, "auto") == 0
               ? PROF_CMD_SORT_AUTO : strcmp(o->sort, "command") == 0
               ? PROF_CMD_SORT_COMMAND : PROF_CMD_SORT_MEAN;
}

/* ---- the outputs ------------------------------------------------------------- */

typedef struct
{
    const char * option, * path;
    prof_export_kind kind;
    prof_impl_outfile f;
} output;

/* Whether path is a file one of the commands names (it would be
   replaced): 1 after a message. */
static int is_input(const prof_cmd_plan * plan, const char * option,
                    const char * path)
{
    int i, k, w;
    for (i = 0; i < plan->ncmds; i++)
    {
        const prof_cmd * c = &plan->cmds[i];
        const char * texts[5];
        texts[0] = c->text;
        texts[1] = c->prepare_text;
        texts[2] = c->cleanup_text;
        texts[3] = c->setup_text;
        texts[4] = c->conclude_text;
        for (k = 0; k < 5; k++)
        {
            char ** words = texts[k] ? prof_impl_cmd_split(texts[k], NULL)
                                     : NULL;
            for (w = 0; words != NULL && words[w] != NULL; w++)
                if (prof_impl_same_file(path, words[w]))
                {
                    prof_impl_warn(PROGRAM ": %s=%s is %s, which a command "
                                   "names: refused (it would be replaced)",
                                   option, path, words[w]);
                    free(words);
                    return 1;
                }
            free(words);
        }
    }
    return 0;
}

/* The outputs asked for, checked and opened (nothing has run yet): their
   number, or -1 after a message (the opened ones are closed). */
static int open_outputs(const options * o, const prof_cmd_plan * plan,
                        output * outs)
{
    static const char * names[5] = { "--export-json", "--export-markdown",
                                     "--export-csv", "--export-asciidoc",
                                     "--export-orgmode" };
    const char * f = o->format != NULL ? o->format : "json";
    int i, j, n = 0;
    for (i = 0; i < 5; i++)
        if (o->exports[i] != NULL)
        {
            outs[n].option = names[i];
            outs[n].path = o->exports[i];
            outs[n++].kind = (prof_export_kind) i;
        }
    if (o->out != NULL || o->format != NULL)
    {
        outs[n].option = "--out";
        outs[n].path = o->out != NULL ? o->out : "-";
        outs[n++].kind = strcmp(f, "md") == 0 ? PROF_EXPORT_RUNNER_MD
                       : strcmp(f, "csv") == 0 ? PROF_EXPORT_RUNNER_CSV
                       : PROF_EXPORT_RUNNER_JSON;
    }
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            if (prof_impl_same_target(outs[i].path, outs[j].path))
            {
                prof_impl_warn(PROGRAM ": %s and %s name the same file %s",
                               outs[i].option, outs[j].option, outs[i].path);
                return -1;
            }
    for (i = 0; i < n; i++)
        if (is_input(plan, outs[i].option, outs[i].path)
            || prof_impl_outfile_open(&outs[i].f, outs[i].path) != 0)
        {
            while (i-- > 0)
                prof_impl_outfile_abort(&outs[i].f);
            return -1;
        }
    return n;
}

/* Write the outputs (none if no command ran: an older file is kept): 0,
   or -1 after a message. */
static int write_outputs(output * outs, int n, const prof_cmd_plan * plan)
{
    int i, ran = 0, rc = 0;
    for (i = 0; i < plan->ncmds; i++)
        ran |= plan->cmds[i].nruns > 0;
    for (i = 0; i < n; i++)
    {
        if (!ran)
        {
            prof_impl_outfile_abort(&outs[i].f);
            continue;
        }
        if (prof_impl_cmd_export(outs[i].f.f, outs[i].kind, plan) != 0)
        {
            /* incomplete: never committed as if whole */
            prof_impl_warn(PROGRAM ": %s not written (an older file is "
                           "kept)", outs[i].path);
            prof_impl_outfile_abort(&outs[i].f);
            rc = -1;
        }
        else if (prof_impl_outfile_commit(&outs[i].f) != 0)
            rc = -1;
    }
    if (!ran && n > 0)
        prof_impl_warn(PROGRAM ": no run completed: no file written");
    return rc;
}

/* ---- main ------------------------------------------------------------------- */

/* A command is done: print the blocks of the done commands in their
   order, as far as it goes (alternated, they end in any order). */
static void print_done(void * ctx, int index)
{
    prof_cmd_plan * plan = (prof_cmd_plan *) ctx;
    (void) index;
    while (plan->printed < plan->ncmds && plan->cmds[plan->printed].done)
        prof_impl_cmd_print(plan, plan->printed++);
}

/* The options into o, the commands into spec: 0, 1 (--help or --version
   printed), or -1 after a message. */
static int parse(int argc, char ** argv, options * o, prof_cmd_spec * spec)
{
    int n;
    memset(o, 0, sizeof *o);
    memset(spec, 0, sizeof *spec);
    snprintf(usage_head, sizeof usage_head, usage_format, min_runs_range.def,
             MIN_TIME_S, 100.0 * PROF_CI_LEVEL);
    prof_impl_gate_default(&o->gate);
    o->progress = o->style = "auto";
    o->shell = "sh";
    n = prof_impl_options_parse(&command_line, argc, argv, o);
    if (n == PROF_IMPL_OPTIONS_EXIT)
        return 1;
    if (n < 0 || check_options(o, n - 1, argv + 1) != 0)
        return -1;
    spec->texts = argv + 1;
    spec->ntexts = n - 1;
    /* each list given: spec->F and its count spec->nF */
#define GIVE(f) (spec->f = o->f.v, spec->n##f = o->f.n)
    GIVE(names);
    GIVE(prepare);
    GIVE(cleanup);
    GIVE(setup);
    GIVE(conclude);
    GIVE(outputs);
#undef GIVE
    spec->params = o->params;
    spec->nparams = o->nparams;
    spec->shell = o->shell;
    return 0;
}

/* After the runs: the summary, the files, the exit status. */
static int conclude(const options * o, prof_cmd_plan * plan, output * outs,
                    int nout)
{
    int rc = prof_impl_cmd_summary(plan, &o->gate);
    if (plan->stop == PROF_CMD_INTERRUPTED)
        prof_impl_warn(PROGRAM ": interrupted (signal %d): the results so far "
                       "are partial", plan->signal);
    if (plan->stop != PROF_CMD_COMPLETE)
        rc = PROF_EXIT_BAD_INPUT;
    if (write_outputs(outs, nout, plan) != 0)
        rc = PROF_EXIT_BAD_INPUT;
    if (fflush(plan->summary) != 0 || ferror(plan->summary))
    {
        prof_impl_warn(PROGRAM ": cannot write the figures");
        rc = PROF_EXIT_BAD_INPUT;
    }
    return rc;
}

int main(int argc, char ** argv)
{
    static options o;
    static prof_cmd_plan plan;
    prof_cmd_spec spec;
    output outs[6];
    int rc = parse(argc, argv, &o, &spec), nout = -1;
    if (rc != 0)
        return rc > 0 ? PROF_EXIT_PASS : PROF_EXIT_BAD_INPUT;
    /* from here a Ctrl-C is held: during the checks it ends prof-run
       before anything runs, during the runs once the results are out */
    prof_spawn_hold();
    settings(&o, &plan, (o.out == NULL && o.format != NULL)
             || (o.out != NULL && strcmp(o.out, "-") == 0) ? stderr : stdout);
    if (prof_impl_cmd_build(&plan, &spec) != 0)
        rc = -1;
    else if (o.gate.threshold >= 0.0 && plan.ncmds < 2)
    {
        prof_impl_warn(PROGRAM ": --threshold compares commands with the "
                       "first: give two or more");
        rc = -1;
    }
    if (rc == 0 && (nout = open_outputs(&o, &plan, outs)) >= 0
        && prof_impl_cmd_check(&plan) != 0)
    {
        while (nout-- > 0)
            prof_impl_outfile_abort(&outs[nout].f);
    }
    if (rc != 0 || nout < 0)
    {
        if (prof_spawn_held())
            prof_impl_warn(PROGRAM ": interrupted (signal %d) before any run",
                           prof_spawn_held());
        prof_impl_cmd_free(&plan);
        prof_spawn_release(prof_spawn_held());
        return PROF_EXIT_BAD_INPUT;
    }
    plan.on_done = print_done;
    plan.ctx = &plan;
    prof_impl_cmd_measure(&plan);
    rc = conclude(&o, &plan, outs, nout);
    prof_impl_cmd_free(&plan);
    if (no_figures != NULL)
        fclose(no_figures);
    prof_spawn_release(plan.signal);
    return rc;
}
