/*
    What the runner's reporters share: the build warnings of the context,
    and a result's counts by event name.
    SPDX-License-Identifier: MIT
*/
#include "report.h"

#include <math.h>

int prof_impl_build_warnings(const prof_impl_report_ctx * c, const char * w[2])
{
    int n = 0;
    if (!c->optimized)
        w[n++] = "the benchmark was compiled without optimisation: timings "
                 "do not reflect optimised code";
    if (c->sanitized)
        w[n++] = "the benchmark was compiled with a sanitizer: timings are "
                 "inflated";
    return n;
}

double prof_impl_result_event(const prof_result * r, const char * name)
{
    int k = prof_impl_result_event_index(r, name);
    return k >= 0 ? r->counters[k] : NAN;
}
