/* For p-trace: the same loop of leaf calls with tracing markers and
   without, in a file built without PROFILE/PROF_TRACE (markers off). */
#include "profiler.h"

void p_trace_off_leaf(void);
void p_trace_off_markers(int n);
void p_trace_off_none(int n);

__attribute__((noinline)) void p_trace_off_leaf(void)
{
    __asm__ __volatile__ ("");
}

void p_trace_off_markers(int n)
{
    int i;
    for (i = 0; i < n; i++)
    {
        PROF_ZONE_BEGIN("leaf");
        p_trace_off_leaf();
        PROF_ZONE_END("leaf");
    }
}

void p_trace_off_none(int n)
{
    int i;
    for (i = 0; i < n; i++)
        p_trace_off_leaf();
}
