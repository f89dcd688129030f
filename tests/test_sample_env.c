/*
    PROF_SAMPLE_HZ in the environment of a program that traces: "run"
    records zones around the sampling workload and never calls
    prof_sample_*; linked with -Wl,-u,prof_sample_start (the documented way
    to link the sampler in), it samples from the trace's open. "check
    FILE HZ" reads that trace back: samples present (perf events or the
    timer fallback), in hot for over half, at the rate asked; HZ 0: the
    variable was unset, and the trace must hold no samples. "first" calls
    prof_sample_start(997) as the program's first event: PROF_SAMPLE_HZ
    wins, as it does when a zone opened the trace, and nothing is said.
    SPDX-License-Identifier: MIT
*/
#define PROF_TRACE 1
#include "check.h"
#include "profiler.h"
#include "internal.h"
#include "trace_read.h"

#include "sample_work.h"

typedef struct
{
    unsigned long all, named;
} tally;

static void on_sample(void * ctx, const pt_trace * t, const pt_sample * s)
{
    uint32_t n;
    (void) pt_stack_frames(t, s->stack, &n);
    ((tally *) ctx)->all += s->weight;
    ((tally *) ctx)->named += n > 0;
}

static int check(const char * path, double hz)
{
    pt_handler h;
    pt_options o;
    pt_trace t;
    tally c = { 0, 0 };
    memset(&o, 0, sizeof o);
    o.warn = stderr;
    pt_handler_init(&h, &c);
    h.sample = on_sample;
    CHECK(pt_stream(path, &o, &h, &t) == 0, "read %s", path);
    printf("%lu samples (%lu with a stack), method %d, %g Hz asked, %zu zones\n",
           c.all, c.named, t.sampling.method, t.sampling.hz, t.nzones);
    CHECK(t.nzones > 10, "%zu zones", t.nzones);
    if (hz == 0)
        CHECK(c.all == 0 && t.sampling.method == PT_SAMPLING_NONE,
              "sampled without PROF_SAMPLE_HZ: %lu", c.all);
    else
        CHECK(c.all > 10 && c.named == c.all && t.sampling.hz == hz
              && t.sampling.method != PT_SAMPLING_NONE, "%lu samples at %g Hz",
              c.all, t.sampling.hz);
    pt_free(&t);
    return check_report("test_sample_env");
}

int main(int argc, char ** argv)
{
    double end = prof_impl_now_ns() + 1e9;
    if (argc > 3 && strcmp(argv[1], "check") == 0)
        return check(argv[2], atof(argv[3]));
    if (argc > 1 && strcmp(argv[1], "first") == 0)
    {
        /* prof_sample_start as the first event: the trace's open starts
           PROF_SAMPLE_HZ's sampling, and this call joins it, quietly */
        capture_t cap;
        const char * said;
        int rc;
        capture_begin(&cap, 2);
        rc = prof_sample_start(997);
        said = capture_end(&cap);
        CHECK(rc == 0 && strstr(said, "not sampled") == NULL
              && strstr(said, "already") == NULL, "%d, said: %s", rc, said);
        if (check_failures)
            return check_report("test_sample_env first");
    }
    while (prof_impl_now_ns() < end)
    {
        PROF_ZONE("round");
        hot(400000);
        cold(100000);
    }
    return 0;
}
