/*
    Pictures of a comparison, as SVG or a self-contained HTML page
    (internal: used by prof-compare, not installed).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_PLOT_H
#define PROF_PLOT_H

#include "compare.h"

typedef struct
{
    const prof_series * old, * new_;
    prof_verdict verdict;
} prof_plot_row;

/* A side as the pictures' title names it: its result files, or with
   --run its command (not NULL) and how many runs it made. */
typedef struct
{
    const char * const * paths;
    int count;
    const char * command;
} prof_plot_side;

/* What prof_impl_plot_write writes: an SVG picture, or the same picture in
   a self-contained HTML page. */
typedef enum { PROF_PLOT_SVG, PROF_PLOT_HTML } prof_plot_format;

/* Write rows[0..n-1] to path under a title naming both sides (old, new),
   with a strip plot of each benchmark's samples
   relative to the old median, and the change of the median as a bar with
   its PROF_CI_LEVEL interval; then, for each family of benchmarks run with a
   complexity N in old or new (NULL: none), time against N on log-log axes
   with each file's fitted curve. The file is written through outfile.c: a
   failure leaves an existing file whole. Returns 0, or -1 with a profiler:
   message (unwritable path, full disk). */
int prof_impl_plot_write(const char * path, prof_plot_format format,
                         const prof_plot_row * rows, int n,
                         const prof_result_file * old,
                         const prof_result_file * new_,
                         const prof_plot_side sides[2]);

#endif
