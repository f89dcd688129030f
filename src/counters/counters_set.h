/*
    What the counters' files share: the set behind prof_counters's opaque
    storage, its states and groups, and the events the library knows.
    counters.c opens, starts, stops and reads a set (the system calls);
    counters_events.c holds the events' table, parses an event list and
    does the pure logic (scaling, group reads, reasons); counters_report.c
    says what a set holds and reports it. The arrows point that way:
    counters.c and counters_report.c use counters_events.c, never back.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_COUNTERS_SET_H
#define PROF_COUNTERS_SET_H

#include "internal.h"

#include <stddef.h>

#define MAGIC_OPEN   0x50524f46u
#define MAGIC_CLOSED 0x434c5344u
#define PARANOID_UNKNOWN (-1000)
#define OVERHEAD_PAIRS 101

enum { STATE_FRESH, STATE_RUNNING, STATE_STOPPED };
enum { GROUP_HW = 0, GROUP_SW = 1, GROUP_NONE = -1 };

/* The set behind prof_counters's opaque storage. may_alias: the storage
   is declared as the header's union and only ever read through this type. */
typedef struct
#if defined(__GNUC__)
    __attribute__((may_alias))
#endif
counter_set
{
    unsigned int magic;
    int n, state, paranoid;
    long pid;                               /* 0: the opening thread; or a
                                               child counted from its exec */
    int leader[2];                          /* hardware, software group */
    int kind[PROF_COUNTERS_MAX];
    int group[PROF_COUNTERS_MAX];
    int fd[PROF_COUNTERS_MAX];
    int err[PROF_COUNTERS_MAX];
    int user_only[PROF_COUNTERS_MAX];
    unsigned long long id[PROF_COUNTERS_MAX];
    double base_raw[PROF_COUNTERS_MAX];
    double base_enabled[2], base_running[2];
    char reason[PROF_COUNTERS_MAX][160];
} counter_set;

/* The set must fit the storage the header gives it, at an alignment the
   storage has: a compile-time check (the array size is -1 otherwise). */
struct counters_align_set { char c; counter_set s; };
struct counters_align_storage { char c; prof_counters s; };
typedef char prof_impl_counters_fit[
    sizeof(counter_set) <= sizeof(prof_counters)
    && offsetof(struct counters_align_set, s)
       <= offsetof(struct counters_align_storage, s) ? 1 : -1];

static inline counter_set * set_of(prof_counters * set)
{
    return (counter_set *) (void *) set;
}

static inline const counter_set * cset_of(const prof_counters * set)
{
    return (const counter_set *) (const void *) set;
}

typedef struct
{
    const char * name;       /* as perf stat spells it */
    const char * alias;      /* perf's other name, or NULL */
    int hw;                  /* hardware (PMU) event: counted in user space only */
    int kernel_only;         /* only ever happens in kernel mode */
    unsigned int type;
    unsigned long long config;
    const char * unit;
} event_info;

/* The events by kind (counter_set.kind[i] indexes it). */
extern const event_info prof_impl_known_events[];
/* The kind of the event named by the first len bytes of name (perf's
   name or its alias), or -1. */
int prof_impl_counters_lookup(const char * name, size_t len);
/* Fill kinds[] from the comma-separated list; the count, or -1 after a
   message that starts with func. */
int prof_impl_counters_parse(const char * list, int * kinds,
                             const char * func);
/* "ENOENT", "EACCES", ...: the name of a perf_event_open errno. */
const char * prof_impl_counters_errno_name(int err);
/* The message for a set that is NULL, closed or never opened:
   PROF_COUNTERS_EINVAL. */
PROF_IMPL_COLD int prof_impl_counters_not_open(const counter_set * c,
                                               const char * func);

static inline int is_open(const counter_set * c)
{
    return c != NULL && c->magic == MAGIC_OPEN;
}

static inline int valid_index(const counter_set * c, int i)
{
    return is_open(c) && i >= 0 && i < c->n;
}

#endif
