/* The counters on a system without perf events: built with __linux__
   undefined (tests/CMakeLists.txt compiles src/counters/counters.c that way into
   this program), the API works and every event is unavailable with ENOSYS
   and a reason, reading NaN. */
#include "check.h"
#include "profiler.h"

#include <errno.h>
#include <math.h>

int main(void)
{
    prof_counters c;
    prof_counter_value v[PROF_COUNTERS_MAX];
    char line[1024];
    int r, i;

    r = prof_counters_open(&c, NULL);
    CHECK(r == 0, "nothing counts: %d", r);
    CHECK(prof_counters_size(&c) == 7, "the default set: %d", prof_counters_size(&c));
    CHECK(prof_counters_start(&c) == 0 && prof_counters_stop(&c) == 0
          && prof_counters_read(&c, v) == 0 && prof_counters_overhead(&c, v) == 0,
          "start, stop, read, overhead work");
    CHECK(prof_counters_read(&c, v) == 0, "read");
    for (i = 0; i < prof_counters_size(&c); i++)
    {
        CHECK(isnan(v[i].value) && prof_counters_errno(&c, i) == ENOSYS
              && !prof_counters_available(&c, i), "%s", prof_counters_name(&c, i));
        CHECK(strstr(prof_counters_reason(&c, i), "only on Linux") != NULL, "reason: %s",
              prof_counters_reason(&c, i));
    }
    prof_counters_context(&c, line, sizeof line);
    printf("%s\n", line);
    CHECK(strstr(line, "none counting; cycles, instructions, branches, branch-misses, "
                 "task-clock, page-faults, context-switches n/a (ENOSYS): perf events "
                 "exist only on Linux") != NULL, "context: %s", line);
    prof_counters_close(&c);
    CHECK(prof_counters_size(&c) == 0, "closed");
    return check_report("test_counters_nonlinux");
}
