/* The trace that examples/trace_threads writes (path in argv[1]): three
   threads (main, worker-1, worker-2), no event lost, no unmatched zone;
   in each worker exactly the zones it recorded (100 round, 100 work,
   1000 step), each step inside a work inside a round (nesting and depth),
   zones in time order per thread, and main around everything. */
#include "trace_util.h"

enum { ROUNDS = 100, STEPS = 10 };

static int inside(const pt_zone * in, const pt_zone * out)
{
    return in->thread == out->thread && out->begin <= in->begin
           && in->end <= out->end;
}

int main(int argc, char ** argv)
{
    pt_trace t;
    const char * w;
    unsigned char * d;
    size_t n, i, th;
    const pt_zone * mainz = NULL;

    if (argc < 2 || (d = pt_slurp(argv[1], &n)) == NULL)
    {
        fprintf(stderr, "usage: test_trace_example TRACE (from trace_threads)\n");
        return 1;
    }
    CHECK(read_trace(d, n, &t, 1, &w) == 0, "read failed");
    CHECK(w[0] == '\0', "warnings: %s", w);
    CHECK(t.nthreads == 3, "%zu threads", t.nthreads);
    CHECK(t.lost == 0 && t.has_end && t.end_signal == 0, "lost %llu, end %d/%d",
          (unsigned long long) t.lost, t.has_end, t.end_signal);
    CHECK(t.events == 2 + 2 * 2 * (ROUNDS * 2 + ROUNDS * STEPS),
          "%llu events", (unsigned long long) t.events);
    for (th = 0; th < t.nthreads; th++)
    {
        const char * name = t.threads[th].name;
        if (strcmp(name, "worker-1") != 0 && strcmp(name, "worker-2") != 0)
        {
            CHECK(count_zones(&t, "main", (long) th, 0) == 1, "main in thread %zu", th);
            continue;
        }
        CHECK(count_zones(&t, "round", (long) th, 0) == ROUNDS, "%s rounds", name);
        CHECK(count_zones(&t, "work", (long) th, 0) == ROUNDS, "%s work", name);
        CHECK(count_zones(&t, "step", (long) th, 0) == ROUNDS * STEPS, "%s steps", name);
    }
    for (i = 0; i < t.nzones; i++)
        if (strcmp(t.zones[i].name, "main") == 0)
            mainz = &t.zones[i];
    CHECK(mainz != NULL && mainz->kind == 'f' && mainz->depth == 0, "main zone");
    for (i = 0; i < t.nzones; i++)
    {
        const pt_zone * z = &t.zones[i];
        CHECK(z->flags == 0, "zone %zu flagged %d", i, z->flags);
        CHECK(z->end >= z->begin, "zone %zu ends before it begins", i);
        if (mainz != NULL)
            CHECK(z->begin >= mainz->begin && z->end <= mainz->end,
                  "zone %zu (%s) outside main", i, z->name);
        if (strcmp(z->name, "round") == 0)
            CHECK(z->depth == 0, "round depth %u", z->depth);
        if (strcmp(z->name, "work") == 0)
            /* zones are stored in begin order per thread: work follows its round */
            CHECK(z->depth == 1 && i > 0 && strcmp(z[-1].name, "round") == 0
                  && inside(z, z - 1), "work %zu not in its round", i);
        if (strcmp(z->name, "step") == 0)
        {
            size_t j = i;
            while (j > 0 && strcmp(t.zones[j - 1].name, "work") != 0)
                j--;
            CHECK(z->depth == 2 && j > 0 && inside(z, &t.zones[j - 1]),
                  "step %zu not in a work zone", i);
        }
        /* per-thread order: begins never go back in time */
        {
            size_t j = i;
            while (j > 0 && t.zones[j - 1].thread != z->thread)
                j--;
            if (j > 0)
                CHECK(t.zones[j - 1].begin <= z->begin, "zone %zu out of order", i);
        }
    }
    pt_free(&t);
    free(d);
    return check_report("test_trace_example");
}
