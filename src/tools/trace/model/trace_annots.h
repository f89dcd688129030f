/*
    The annotations in prof-trace's reports (trace_annots.c): the summary's
    plots (samples, min, max, mean), frames (count, mean and percentiles of
    the time between marks) and counts; --by-value's row names; the raw
    lines and Chrome JSON events of each annotation and a zone's args.
    Internal to prof-trace.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_ANNOTS_H
#define PROF_TRACE_ANNOTS_H

#include "trace_read.h"
#include "trace_json.h"

#include <stdio.h>

typedef struct pt_annots pt_annots;

pt_annots * pt_annots_new(void);
void pt_annots_free(pt_annots * s);
/* An annotation the filters kept, for the summary. */
void pt_annots_add(pt_annots * s, const pt_trace * t, const pt_annot * a);
/* The summary's annotation tables (none if it has none): 0, or -1 if out
   of memory lost some. */
int pt_annots_write(pt_annots * s, FILE * out, const pt_trace * t, int csv);
/* --by-value: z's row name, "name [value]" when z has a value (owned by
   s), else its name; NULL if out of memory. */
const char * pt_annots_by_value(pt_annots * s, const pt_zone * z);

/* Zone z's value and text as members "value" and "text" of its args
   (open: the args object is open already, else it is opened); returns
   whether it is open now (the caller closes it). */
int pt_json_zone_args(FILE * out, const pt_zone * z, int open);
/* After zone z's X event: its value and text, if it has any, as the args
   of an "i" event of its own (category "value", the zone's name, at its
   end), since speedscope keys an X event's frame by its name and args: a
   value in them would split the zone's frames. */
void pt_json_zone_values(FILE * out, const pt_trace * t, const pt_zone * z);
/* The Chrome JSON event of a, after its separator (messages and frame
   marks: "i"; plots: "C", args {name: value}): 1, or 0 if it has none
   (zone values and texts go on their zone). */
int pt_json_annot(FILE * out, const pt_trace * t, const pt_annot * a,
                  int * first);
/* The raw line of a (thread, tick, ns, event, kind 'a', what; a lock's
   what: its name and address, an alloc's: address and size, a free's:
   address). */
void pt_raw_annot(FILE * out, const pt_trace * t, const pt_annot * a);

/* Text with control characters shown as '?'; a CSV field (quoted where
   it must be). */
void pt_put_text(FILE * out, const char * s);
void pt_put_csv(FILE * out, const char * s);

#endif
