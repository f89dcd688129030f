/* p-repeat: prof_repeat on fixed-cost kernels (kernels.c: dependent chains
   of multiply-adds, array sums, timed around the loop as FLINT's targets
   are). Prints min/max per run, the ticks per run, what FLINT's fixed
   3.1 GHz conversion would have printed, and how long each prof_repeat
   call took. */
#include <time.h>
#include "kernels.h"

static double mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(void)
{
    double rate = prof_tick_rate();
    int i;

    if (kernels_init() != 0)
        return 1;
    printf("tick rate %.6g ticks/s\n", rate);
    printf("%-16s %12s %12s %12s %14s %10s\n", "kernel", "min us", "max us",
           "ticks/run", "FLINT 3.1GHz", "call ms");
    for (i = 1; i < NKERNELS; i++)      /* all but the empty function */
    {
        double mn, mx, t0 = mono_ns(), took;
        prof_repeat(&mn, &mx, kernel_timed_target, (void *) &kernels[i]);
        took = (mono_ns() - t0) * 1e-6;
        printf("%-16s %12.5g %12.5g %12.0f %14.5g %10.1f\n", kernels[i].name,
               mn, mx, mn / FLINT_CLOCK_SCALE_FACTOR, mn * rate / 3.1e9, took);
    }
    return 0;
}
