/*
    User counters and user measures: amounts the benchmark counts itself,
    reported per unit beside the event counters.

    A user counter is a slot of the calling thread (thread-local, so that a
    target run on several threads adds without a lock and without a data
    race): prof_user_count is one addition into it. The runner sets every
    slot of each thread that runs the target to -0.0 before an epoch and
    reads them after: a slot still at -0.0 was not added to (any add of a
    number, 0 included, leaves +0.0 or another value), so a result shows
    exactly the counters its target used, zeros included. The registry of
    names (one per process, behind a lock; only the lookup uses it) gives
    each name its slot.

    A measure is a pair of callbacks of the suite, read before and after
    every epoch outside its timed interval.
    SPDX-License-Identifier: MIT
*/
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
# include <pthread.h>
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
# define LOCK() pthread_mutex_lock(&lock)
# define UNLOCK() pthread_mutex_unlock(&lock)
#else
# define LOCK() ((void) 0)      /* no threads run targets on Windows */
# define UNLOCK() ((void) 0)
#endif

PROF_IMPL_TLS double prof_impl_user_slots[PROF_USER_COUNTERS_MAX + 1];

/* Distinct measure names in the process (a user counter may not take
   one); the names of counters refused beyond the limit, said once each. */
#define MEASURE_NAMES 64
#define DROPPED_NAMES 64

static struct
{
    int n;
    prof_impl_user_col counter[PROF_USER_COUNTERS_MAX];
    int nmeasure;
    char measure[MEASURE_NAMES][PROF_IMPL_USER_NAME];
    int ndropped, more_said;
    char dropped[DROPPED_NAMES][PROF_IMPL_USER_NAME];
} reg;

/* ---- names -------------------------------------------------------------- */

/* The fields of the runner's CSV and JSON entries: a user figure of the
   same name would make a field twice. */
static const char * const reserved[] = {
    "name", "epochs", "iterations", "median", "mean", "min", "max",
    "err_pct", "ci_low", "ci_high", "ci_level", "ci_covers", "next_low",
    "next_high", "next_level", "next_runs", "cpu_time", "time_unit",
    "unit", "batch", "total_s", "overhead_ns", "complexity_n",
    "relative_pct", "flags", "warning", "samples", "processes",
    "between_pct", "within_pct", "ipc", "branch_miss_pct", "threads",
    "family_index", "per_family_instance_index", "run_name", "run_type",
    "repetitions", "repetition_index", "real_time", "process_index",
    "bytes_per_second", "items_per_second", "aggregate_name",
    "aggregate_unit", "process_medians", "cpu_coefficient",
    "real_coefficient", "big_o", "rms", "label", "error_occurred",
    "error_message", "stddev", "cv", "statistic", "percentiles",
    "epochs_real_time", "epochs_cpu_time", "epochs_iterations",
    "epochs_process", "complexity" };

/* The characters of a name or unit: printable ASCII but , " \ | (CSV,
   JSON and the markdown table keep their shape). */
static int good_chars(const char * s, size_t max)
{
    size_t n = strlen(s), i;
    if (n >= max || (n > 0 && (s[0] == ' ' || s[n - 1] == ' ')))
        return 0;
    for (i = 0; i < n; i++)
        if (s[i] < 0x20 || s[i] > 0x7E || strchr(",\"\\|", s[i]) != NULL)
            return 0;
    return 1;
}

int prof_impl_user_unit_ok(const char * unit, const char * func)
{
    if (good_chars(unit, PROF_IMPL_USER_UNIT))
        return 1;
    if (func != NULL)
        prof_impl_warn("%s: unit \"%s\": up to %d printable ASCII characters "
                       "without , \" \\ | are expected", func, unit,
                       PROF_IMPL_USER_UNIT - 1);
    return 0;
}

int prof_impl_user_name_ok(const char * name, const char * func)
{
    size_t i;
    const char * why = NULL;
    if (name == NULL || *name == '\0')
        why = "a name is needed";
    else if (!good_chars(name, PROF_IMPL_USER_NAME))
        why = "a name is up to 31 printable ASCII characters without , \" "
              "\\ |";
    else if (prof_impl_counters_canonical(name) != NULL)
        why = "that is an event counter's name";
    for (i = 0; why == NULL && i < sizeof reserved / sizeof reserved[0]; i++)
        if (strcmp(name, reserved[i]) == 0)
            why = "that is a field of the outputs";
    if (why != NULL && func != NULL)
        prof_impl_warn("%s(\"%s\"): %s", func, name ? name : "(null)", why);
    return why == NULL;
}

static int find(const char * name, char (*names)[PROF_IMPL_USER_NAME],
        int n)
{
    int k;
    for (k = 0; k < n; k++)
        if (strcmp(names[k], name) == 0)
            return k;
    return -1;
}

static int find_counter(const char * name)
{
    int k;
    for (k = 0; k < reg.n; k++)
        if (strcmp(reg.counter[k].name, name) == 0)
            return k;
    return -1;
}

/* A counter beyond the limit: said once per name, counted. */
static int dropped(const char * name)
{
    if (find(name, reg.dropped, reg.ndropped) >= 0)
        return PROF_USER_COUNTERS_MAX;
    if (reg.ndropped < DROPPED_NAMES)
    {
        prof_impl_copy(reg.dropped[reg.ndropped++], PROF_IMPL_USER_NAME, name);
        prof_impl_warn("prof_user_counter(\"%s\"): more than %d user counters "
                       "(PROF_USER_COUNTERS_MAX): its counts are dropped (%d "
                       "counter%s dropped so far)", name,
                       PROF_USER_COUNTERS_MAX, reg.ndropped,
                       reg.ndropped == 1 ? "" : "s");
    }
    else if (!reg.more_said)
    {
        prof_impl_warn("prof_user_counter(\"%s\"): more than %d counters "
                       "dropped: the others are not named", name,
                       DROPPED_NAMES);
        reg.more_said = 1;
    }
    return PROF_USER_COUNTERS_MAX;
}

int prof_user_counter(const char * name, int flags)
{
    int k;
    if (!prof_impl_user_name_ok(name, "prof_user_counter"))
        return -1;
    if (flags & ~PROF_USER_RATE)
    {
        prof_impl_warn("prof_user_counter(\"%s\"): flags %d: 0 or "
                       "PROF_USER_RATE is expected", name, flags);
        return -1;
    }
    LOCK();
    k = find_counter(name);
    if (k >= 0 && reg.counter[k].flags != flags)
        prof_impl_warn("prof_user_counter(\"%s\"): flags %d, but it was made "
                       "with %d: those stay", name, flags, reg.counter[k].flags);
    else if (k < 0 && find(name, reg.measure, reg.nmeasure) >= 0)
    {
        prof_impl_warn("prof_user_counter(\"%s\"): a measure has that name",
                       name);
        k = -1;
    }
    else if (k < 0 && reg.n == PROF_USER_COUNTERS_MAX)
        k = dropped(name);
    else if (k < 0)
    {
        k = reg.n++;
        prof_impl_copy(reg.counter[k].name, PROF_IMPL_USER_NAME, name);
        reg.counter[k].unit[0] = '\0';
        reg.counter[k].flags = flags;
    }
    UNLOCK();
    return k;
}

/* ---- measures ------------------------------------------------------------ */

/* name as a measure's in the registry (not a counter's): 0, or -1 after
   a message. */
static int claim_measure(const char * name, const char * func)
{
    int rc = 0;
    LOCK();
    if (find_counter(name) >= 0)
    {
        prof_impl_warn("%s(\"%s\"): a user counter has that name", func, name);
        rc = -1;
    }
    else if (find(name, reg.measure, reg.nmeasure) < 0)
    {
        if (reg.nmeasure < MEASURE_NAMES)
            prof_impl_copy(reg.measure[reg.nmeasure++], PROF_IMPL_USER_NAME,
                           name);
        else
        {
            prof_impl_warn("%s(\"%s\"): more than %d measure names in the "
                           "process", func, name, MEASURE_NAMES);
            rc = -1;
        }
    }
    UNLOCK();
    return rc;
}

int prof_bench_add_measure(prof_bench * b, const char * name,
        const char * unit, prof_measure_fn start, prof_measure_fn stop,
        void * arg)
{
    static const char func[] = "prof_bench_add_measure";
    prof_impl_measure * m;
    int k;
    if (b == NULL || start == NULL || stop == NULL)
    {
        prof_impl_warn("%s(\"%s\"): the %s is NULL; not added", func,
                       name ? name : "(null)", b == NULL ? "suite"
                       : start == NULL ? "start callback" : "stop callback");
        return -1;
    }
    if (unit == NULL)
        unit = "";
    if (!prof_impl_user_name_ok(name, func) || !prof_impl_user_unit_ok(unit, func))
        return -1;
    for (k = 0; k < b->s.nmeasures; k++)
        if (strcmp(b->measures[k].col.name, name) == 0)
        {
            prof_impl_warn("%s(\"%s\"): the suite has a measure of that name",
                           func, name);
            return -1;
        }
    if (b->s.nmeasures == PROF_MEASURES_MAX)
    {
        prof_impl_warn("%s(\"%s\"): more than %d measures (PROF_MEASURES_MAX)",
                       func, name, PROF_MEASURES_MAX);
        return -1;
    }
    if (claim_measure(name, func) != 0)
        return -1;
    m = &b->measures[b->s.nmeasures++];
    prof_impl_copy(m->col.name, sizeof m->col.name, name);
    prof_impl_copy(m->col.unit, sizeof m->col.unit, unit);
    m->col.flags = PROF_USER_MEASURE;
    m->start = start;
    m->stop = stop;
    m->arg = arg;
    b->s.measures = b->measures;
    return 0;
}

/* ---- per epoch ----------------------------------------------------------- */

void prof_impl_user_init(prof_impl_run_user * u, const prof_impl_settings * s)
{
    memset(u, 0, sizeof *u);
    u->nmeasures = s->measures != NULL ? s->nmeasures : 0;
    u->measures = s->measures;
}

void prof_impl_user_reset(void)
{
    int k;
    for (k = 0; k <= PROF_USER_COUNTERS_MAX; k++)
        prof_impl_user_slots[k] = -0.0;
}

void prof_impl_user_harvest(double * raw)
{
    int k;
    for (k = 0; k <= PROF_USER_COUNTERS_MAX; k++)
    {
        double v = prof_impl_user_slots[k];
        raw[k] = v == 0.0 && signbit(v) ? NAN : v;
    }
}

void prof_impl_user_sum(double * acc, const double * add)
{
    int k;
    for (k = 0; k <= PROF_USER_COUNTERS_MAX; k++)
        if (!isnan(add[k]))
            acc[k] = isnan(acc[k]) ? add[k] : acc[k] + add[k];
}

void prof_impl_measures_start(prof_impl_run_user * u)
{
    int m;
    for (m = 0; m < u->nmeasures; m++)
        u->started[m] = u->measures[m].start(u->measures[m].arg);
}

void prof_impl_measures_stop(prof_impl_run_user * u)
{
    int m;
    for (m = 0; m < u->nmeasures; m++)
        u->epoch[PROF_IMPL_USER_DROPPED + 1 + m] =
            u->measures[m].stop(u->measures[m].arg) - u->started[m];
}

/* ---- a run's columns ----------------------------------------------------- */

int prof_impl_user_take(const prof_impl_run_user * u, const double * raw,
        int got, prof_impl_epochs * e)
{
    int map[PROF_IMPL_USER_COLS], i, k, n = 0, known;
    for (k = 0; k < u->nmeasures; k++)
    {
        e->user_cols[n] = u->measures[k].col;
        map[n++] = PROF_IMPL_USER_DROPPED + 1 + k;
    }
    for (k = 0; k <= PROF_USER_COUNTERS_MAX; k++)
    {
        for (i = 0; i < got && isnan(raw[i * PROF_IMPL_USER_RAW + k]); i++)
            ;
        if (i == got)
            continue;
        /* the count read once, under the lock: another thread may be
           registering a name, and the column must be the one copied */
        LOCK();
        known = k < reg.n;
        if (known)
            e->user_cols[n] = reg.counter[k];
        UNLOCK();
        if (k == PROF_IMPL_USER_DROPPED || !known)
            e->user_dropped = 1;    /* refused, or a handle never given */
        else
            map[n++] = k;
    }
    e->nuser = n;
    e->user = NULL;
    if (n == 0 || got == 0)
        return 0;
    e->user = (double *) malloc((size_t) got * (size_t) n * sizeof *e->user);
    if (e->user == NULL)
    {
        e->nuser = 0;
        return -1;
    }
    for (i = 0; i < got; i++)
        for (k = 0; k < n; k++)
            e->user[i * n + k] = raw[i * PROF_IMPL_USER_RAW + map[k]];
    return 0;
}
