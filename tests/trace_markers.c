/* Code with every tracing marker and annotation, for check_trace_off.sh: built without
   PROFILE/PROF_TRACE it must give the same object code as with the markers
   deleted (PROF_TEST_NO_MARKERS); built with either switch it must record. */
#include "profiler.h"

#include <pthread.h>
#include <stdlib.h>

#if defined(PROF_TEST_NO_MARKERS)
# define M(x)
# define LOCK(m) pthread_mutex_lock(m)
# define UNLOCK(m) pthread_mutex_unlock(m)
#else
# define M(x) x
# define LOCK(m) prof_mutex_lock(m)
# define UNLOCK(m) prof_mutex_unlock(m)
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

/* The lock and allocation markers, and the mutex wrappers (compiled out:
   pthread's own calls). */
int locked_copy(pthread_mutex_t * m, int * shared, size_t n);
int locked_copy(pthread_mutex_t * m, int * shared, size_t n)
{
    int * p = (int *) malloc(n * sizeof *p);
    int rc;
    M(PROF_ALLOC(p, n * sizeof *p);)
    M(PROF_LOCK_NAME(m, "shared");)
    if ((rc = LOCK(m)) != 0)
        return rc;
    *shared += p != NULL;
    rc = UNLOCK(m);
    M(PROF_LOCK_WAIT(shared);)
    M(PROF_LOCK_ACQUIRED(shared);)
    M(PROF_LOCK_RELEASED(shared);)
    M(PROF_FREE(p);)
    free(p);
    return rc;
}
