/* A program built against an installed profiler. */
#include <profiler.h>

int main(void)
{
    timeit_t t;
    timeit_start(t);
    start_clock(0);
    stop_clock(0);
    timeit_stop(t);
    printf("consumer: tick rate %g, clock 0 %g us\n", prof_tick_rate(), get_clock(0));
    return !(prof_tick_rate() > 0 && get_clock(0) >= 0);
}
