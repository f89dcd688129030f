/*
    prof-compare --run: run an old and a new command alternately, each run
    writing one result file (internal: used by prof-compare, not installed).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_COMPARE_RUN_H
#define PROF_COMPARE_RUN_H

/* The sides of a comparison. */
enum { PROF_OLD = 0, PROF_NEW = 1 };

/* Whether a progress line is drawn (at a terminal) or not. */
typedef enum { PROF_PROGRESS_OFF, PROF_PROGRESS_LINE } prof_progress;

typedef struct
{
    const char * commands[2];   /* shell command lines, old and new; "{out}"
                                   is replaced by the result file's path,
                                   else PROFILER_OUT and PROFILER_FORMAT=json
                                   are set in the command's environment */
    int pairs;                  /* pairs of runs (old, new, new, old, ...) */
    double max_time_s;          /* no new pair starts after this; <= 0: none */
    const char * keep_dir;      /* keep the result files here, or NULL */
    prof_progress progress;
} prof_run_plan;

/* The result files of the runs made. */
typedef struct
{
    char * work;                /* where the runs write (a fresh directory) */
    char * paths[2][256];       /* per side, in the order run: in work, or in
                                   keep_dir after prof_impl_run_keep */
    int pairs;                  /* complete pairs */
    int interrupted;            /* the signal that stopped the runs, or 0 */
} prof_run_files;

/* The most pairs a plan may ask for. */
enum { PROF_RUN_MAX_PAIRS = 256 };

/* The path a kept result file gets: "<keep_dir>/old-07.json" (pair 7,
   counted from 1), in buf. */
void prof_impl_run_kept_name(const char * keep_dir, int side, int pair,
                             char * buf, size_t size);

/* Run the plan: 0 when the pairs (or those that fit in max_time) ran and
   each wrote its file; -1 after a profiler: message naming the command
   that failed, was not found or wrote no file, or when a signal
   interrupted the runs (files->interrupted). files holds what completed
   either way; give it to prof_impl_run_keep, then prof_impl_run_clean.
   SIGINT, SIGTERM, SIGHUP and SIGQUIT are held from here to
   prof_impl_run_clean (passed on to a running command), so that the work
   directory is always removed first. */
int prof_impl_run_pairs(const prof_run_plan * plan, prof_run_files * files);
/* The result files of the rounds both sides ran in, paired by round as
   prof-run pairs its runs (prof_impl_alt_pairs): paired[side][k] is the
   k-th pair's file, pointing into files. Returns the number of pairs. */
int prof_impl_run_paired(const prof_run_files * files,
                         const char * paired[2][PROF_RUN_MAX_PAIRS]);
/* Move the complete result files into plan->keep_dir (each replaces an
   existing file of its name only now that it is whole): 0, or -1 after a
   message. Nothing to do without keep_dir. */
int prof_impl_run_keep(const prof_run_plan * plan, prof_run_files * files);
/* Remove the work directory and what is left in it; free files. Then, if
   one of the held signals came since prof_impl_run_pairs, end the process
   by it (as it would have without the hold). */
void prof_impl_run_clean(prof_run_files * files);

#endif
