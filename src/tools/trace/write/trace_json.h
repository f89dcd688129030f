/*
    Internal to prof-trace's reports: what the Chrome JSON writers
    (trace_report.c: the zones; trace_annots.c: the annotations;
    trace_res.c: locks and live bytes) share (trace_json.c).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_JSON_H
#define PROF_TRACE_JSON_H

#include "trace_read.h"

#include <stdio.h>

/* Before an element of the array: "[" before the first (*first set,
   then cleared), else ",". */
void pt_json_sep(FILE * out, int * first);
/* A number in JSON: the shortest form that reads back, or the strings
   "NaN", "Infinity", "-Infinity" (JSON has no such numbers). */
void pt_json_number(FILE * out, double v);
/* Nanoseconds as microseconds with three decimals, exactly. */
void pt_json_us(FILE * out, int64_t ns);
/* The M events naming the process and the threads, and the closing ']'. */
void pt_json_tail(FILE * out, int * first, const pt_trace * t);

#endif
