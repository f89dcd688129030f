/*
    The alternation of commands under prof-run and prof-compare --run
    (internal: POSIX only, not installed). Each command first makes its
    warm-up runs, in the order given; then the commands take turns in
    rounds, A B C, C B A, A B C, ... (two: A B, B A, A B, ...), so that
    the machine's slow and fast phases hit them all alike, and a command
    leaves the rounds once it has its runs. Not interleaved, all runs of
    A come first, then all of B. A signal held by prof_spawn_hold (the
    caller holds them) stops the runs before the next one, as does a run
    that fails. Two commands are compared by round: a pair is the runs of
    one round that both ran in.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_ALTERNATE_H
#define PROF_ALTERNATE_H

#include "prof_spawn.h"

typedef struct
{
    int n;                      /* commands, 0 .. n-1 */
    int interleave;             /* rounds in alternating order; 0: all
                                   runs of each command in turn */
    int warmup;                 /* untimed runs of each command first */
    /* Run command i in round (from 0; -1: a warm-up run): 0, or -1 to
       stop the runs (after a message, or when a held signal came). */
    int (*run)(void * ctx, int i, int round);
    /* Whether command i has its runs (never before its first). */
    int (*enough)(void * ctx, int i);
    /* Command i has its runs: 0, or -1 to stop the runs. NULL: none. */
    int (*leave)(void * ctx, int i);
    /* Whether round (from 1) may start; NULL: every round starts. */
    int (*next_round)(void * ctx, int round);
    void * ctx;
    /* what the runs did */
    int rounds;                 /* rounds complete: each command in the
                                   round ran (interleaved only) */
    int signal;                 /* the held signal that stopped them, or 0 */
} prof_alternation;

/* The command that runs k-th (from 0) in round (from 0), of n. */
int prof_impl_alt_turn(int n, int round, int k);

/* Run the commands: 0 when each has its runs (or next_round said no),
   -1 when a run or leave said stop or a held signal came (a->signal; a
   signal held after a run that said stop is what stopped it). */
int prof_impl_alternate(prof_alternation * a);

/* The held signal that came during the run r (r->interrupted, passed on
   to its child) or, r NULL, since prof_spawn_hold; 0 if none. */
int prof_impl_alt_signal(const prof_spawn_result * r);

/* Two commands' runs paired by round: ra[0 .. na) and rb[0 .. nb) are
   the rounds their runs ran in, ascending. For each round both ran in,
   the index of a's run goes to ia, b's to ib (each with room for the
   smaller of na and nb). Returns the number of pairs. */
int prof_impl_alt_pairs(const int * ra, int na, const int * rb, int nb,
                        int * ia, int * ib);

#endif
