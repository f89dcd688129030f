/*
    The alternation of commands: the order of the runs (warm-up runs,
    then rounds in alternating order, or each command's runs in turn),
    the stop at a failed run or a held signal, and the pairing of two
    commands' runs by round. prof-run (src/tools/run/run_measure.c) and
    prof-compare --run (src/tools/compare/compare_run.c) run their
    commands through it; what a run is (prepare and conclude commands,
    timing, a result file) is theirs.
    SPDX-License-Identifier: MIT
*/
#include "alternate.h"

int prof_impl_alt_turn(int n, int round, int k)
{
    return round % 2 == 0 ? k : n - 1 - k;      /* A B C, C B A, ... */
}

int prof_impl_alt_signal(const prof_spawn_result * r)
{
    return r != NULL && r->interrupted ? r->interrupted : prof_spawn_held();
}

/* Command i's run in round (-1: warm-up): 0, or -1 when the runs stop. A
   held signal stops them before the run, and after it. */
static int one(prof_alternation * a, int i, int round)
{
    int rc;
    if ((a->signal = prof_spawn_held()) != 0)
        return -1;
    rc = a->run(a->ctx, i, round);
    a->signal = prof_spawn_held();
    return rc != 0 || a->signal != 0 ? -1 : 0;
}

/* Command i has its runs: 0, or -1 when the runs stop. */
static int leave(prof_alternation * a, int i)
{
    if (a->leave == NULL || a->leave(a->ctx, i) == 0)
        return 0;
    a->signal = prof_spawn_held();
    return -1;
}

static int warm_up(prof_alternation * a, int i)
{
    int k;
    for (k = 0; k < a->warmup; k++)
        if (one(a, i, -1) != 0)
            return -1;
    return 0;
}

/* Whether a command still needs runs. */
static int some_left(const prof_alternation * a)
{
    int i;
    for (i = 0; i < a->n; i++)
        if (!a->enough(a->ctx, i))
            return 1;
    return 0;
}

/* Every command in turn, in alternating order, until each has its runs. */
static int rounds(prof_alternation * a)
{
    int i, k, round;
    for (i = 0; i < a->n; i++)
        if (warm_up(a, i) != 0)
            return -1;
    for (round = 0; some_left(a); round++)
    {
        if (round > 0 && a->next_round != NULL
            && !a->next_round(a->ctx, round))
            return 0;
        for (k = 0; k < a->n; k++)
        {
            i = prof_impl_alt_turn(a->n, round, k);
            if (a->enough(a->ctx, i))
                continue;
            if (one(a, i, round) != 0)
                return -1;
            if (a->enough(a->ctx, i) && leave(a, i) != 0)
                return -1;
        }
        a->rounds = round + 1;
    }
    return 0;
}

/* All of each command's runs, one command after the other. */
static int each(prof_alternation * a)
{
    int i, k;
    for (i = 0; i < a->n; i++)
    {
        if (warm_up(a, i) != 0)
            return -1;
        for (k = 0; !a->enough(a->ctx, i); k++)
            if (one(a, i, k) != 0)
                return -1;
        if (leave(a, i) != 0)
            return -1;
    }
    return 0;
}

int prof_impl_alternate(prof_alternation * a)
{
    a->rounds = 0;
    a->signal = 0;
    return a->interleave ? rounds(a) : each(a);
}

int prof_impl_alt_pairs(const int * ra, int na, const int * rb, int nb,
                        int * ia, int * ib)
{
    int i = 0, j = 0, n = 0;
    while (i < na && j < nb)
    {
        if (ra[i] == rb[j])
        {
            ia[n] = i++;
            ib[n++] = j++;
        }
        else if (ra[i] < rb[j])
            i++;
        else
            j++;
    }
    return n;
}
