/*
    The axes of prof-compare's pictures: where they end and where their
    ticks go (internal: used by plot.c, not installed).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_PLOT_AXIS_H
#define PROF_PLOT_AXIS_H

#include <stddef.h>

enum { PROF_AXIS_MAX_TICKS = 8 };

/* An axis from lo to hi with its ticks v[0..n-1], in increasing order. */
typedef struct
{
    double lo, hi;
    int n;
    double v[PROF_AXIS_MAX_TICKS];
} prof_axis;

/* A linear axis of changes (fractions: 0.1 is +10%) holding the data
   range [lo, hi] and 0 with a little room at both ends, never below -1
   (-100%, which a ratio of times cannot go under): 3 to 6 ticks 1, 2, 2.5
   or 5 x 10^k apart, 0 among them. A range under 2% is widened to 2%. */
void prof_impl_axis_change(prof_axis * a, double lo, double hi);

/* A log axis holding the data range [lo, hi] (0 < lo <= hi) with a little
   room at both ends and 3 to 5 ticks: powers of 10, of 2 (with
   powers_of_two, for N), 1-3 or 1-2-5 per decade, or evenly spaced for a
   narrow range. */
void prof_impl_axis_log(prof_axis * a, double lo, double hi,
                        int powers_of_two);

/* The time unit of an axis in ns, the one of its largest tick ("ns",
   "us", "ms", "s"), and how many ns it is, so that every label of the axis
   is in one unit. */
const char * prof_impl_axis_time_unit(const prof_axis * a, double * unit_ns);

/* A tick's label: a change as "+25%" or "-2.5%"; an N as a whole number
   where it is one; a time as "0.3 us" in the given unit. */
void prof_impl_axis_change_label(char * buf, size_t len, double change);
void prof_impl_axis_n_label(char * buf, size_t len, double n);
void prof_impl_axis_time_label(char * buf, size_t len, double ns,
                               const char * unit, double unit_ns);

#endif
