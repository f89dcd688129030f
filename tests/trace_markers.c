/* Code with every tracing marker and annotation, for check_trace_off.sh: built without
   PROFILE/PROF_TRACE it must give the same object code as with the markers
   deleted (PROF_TEST_NO_MARKERS); built with either switch it must record. */
#include "profiler.h"

#if defined(PROF_TEST_NO_MARKERS)
# define M(x)
#else
# define M(x) x
#endif

int traced_sum(int n);
int traced_sum(int n)
{
    M(PROF_FUNC();)
    int i, s = 0;
    M(PROF_FUNC_BEGIN();)
    for (i = 0; i < n; i++)
    {
        M(PROF_ZONE("body");)
        M(PROF_ZONE_BEGIN("square");)
        s += i * i;
        M(PROF_ZONE_VALUE(i);)
        M(PROF_ZONE_VALUE_F(i * 0.5);)
        M(PROF_ZONE_TEXT("text", 4);)
        M(PROF_PLOT("sum", s);)
        M(PROF_MESSAGE("line");)
        M(PROF_ZONE_END("square");)
        M(PROF_FRAME_MARK();)
        M(PROF_FRAME_MARK_NAMED("loop");)
    }
    M(PROF_FUNC_END();)
    return s;
}
