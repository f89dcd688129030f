/*
    The notes prof-compare prints under its table: how many samples or
    pairs the benchmarks without a verdict need, why rows say "(loaded)",
    and what one file a side can judge.
    SPDX-License-Identifier: MIT
*/
#include "compare.h"

/* How many samples (or pairs) a side alpha needs, for benchmarks that had
   too few. */
static void explain_unsure(FILE * out, const prof_compare_notes * n)
{
    int k;
    if (n->unsure == 0)
        return;
    if (n->paired)
    {
        k = prof_impl_gate_pairs_needed(n->gate->alpha);
        fprintf(out, "\n%d benchmark(s) have too few pairs of runs to tell at "
                "alpha %g: at least %d a side are needed\n", n->unsure,
                n->gate->alpha, k);
        return;
    }
    k = prof_impl_gate_samples_needed(n->gate->alpha);
    fprintf(out, "\n%d benchmark(s) have too few samples to tell at alpha "
            "%g: at least %d per side are needed (Google Benchmark: "
            "--benchmark_repetitions=%d)\n", n->unsure, n->gate->alpha, k, k);
}

/* Why rows say "(loaded)": the runner measured them under a load over
   the cores. */
static void explain_loaded(FILE * out, const prof_compare_notes * n)
{
    char most[48] = "";
    if (n->loaded[0] + n->loaded[1] == 0)
        return;
    if (n->max_load > 0.0)
        snprintf(most, sizeof most, ", a load average up to %.2f",
                 n->max_load);
    fprintf(out, "\n(loaded): measured while the load average exceeded the "
            "cores (old: %d benchmark(s), new: %d%s): their figures include "
            "other processes' time, so a change there may be the machine's, "
            "not the code's; rerun on a quiet machine (doc/runner.md, \"Quiet "
            "figures\")\n", n->loaded[0], n->loaded[1], most);
}

/* One file a side judges the epochs of two runs: a gate says so, and how
   to gate on runs instead (doc/compare.md, "How it works"); so does a
   report that called a benchmark faster or slower, since two runs of one
   program on a shared machine differ by more than either's epochs do. */
static void explain_one_file(FILE * out, const prof_compare_notes * n)
{
    int gate = n->gate->threshold >= 0;
    char t[48] = "";
    if (!n->one_file || n->common == 0 || (!gate && n->changed == 0))
        return;
    if (n->drift > 0)
        fprintf(out, "\n%d benchmark(s) cannot tell (drift): changed by more "
                "than the noise inside each run, but not by twice the "
                "next-run interval the files carry (or they carry none)\n",
                n->drift);
    if (gate)
        snprintf(t, sizeof t, "--threshold=%g ", 100.0 * n->gate->threshold);
    fprintf(out, "\none file a side: %s only the noise inside each run, not "
            "the drift between runs%s; to %s runs, run both alternately "
            "(prof-compare --run %s'OLD COMMAND' 'NEW COMMAND') or give files "
            "made alternately (prof-compare %sold1.json,old2.json,... "
            "new1.json,new2.json,...)\n", gate ? "this gate sees"
            : "faster and slower judge", gate ? "" : " (a shared machine's "
            "speed moves by several percent from one run to the next)",
            gate ? "gate on" : "compare", t, t);
}

void prof_impl_compare_notes(FILE * out, const prof_compare_notes * n)
{
    explain_unsure(out, n);
    explain_loaded(out, n);
    explain_one_file(out, n);
}
