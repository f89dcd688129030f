/* The reference kernels of the runner's profile programs (kernels.c,
   compiled with -O2, each kernel noinline so that every run is a call). */
#ifndef PROF_KERNELS_H
#define PROF_KERNELS_H

#include <stdint.h>
#include "profiler.h"

#ifdef __cplusplus
extern "C" {
#endif

void kernel_empty(void);
uint64_t kernel_chain(uint64_t x, long n);       /* n multiply-adds */
uint64_t kernel_sum(const uint64_t * a, long n); /* sum of a[0..n) */

typedef struct
{
    const char * name;
    int kind;               /* 0 empty, 1 chain, 2 sum */
    long n;
} kernel_t;

enum { NKERNELS = 7 };
extern const kernel_t kernels[NKERNELS];
/* The array summed (2^20 elements), allocated by kernels_init. */
extern uint64_t * kernel_array;
int kernels_init(void);

/* prof_bench targets: run *(const kernel_t *) arg count times, one call of
   the kernel per run. kernel_target picks the one for the kernel's kind. */
profile_target_t kernel_target(const kernel_t * k);
/* prof_repeat's style of target (FLINT's): the kernel's loop of count runs
   between prof_start() and prof_stop(). */
void kernel_timed_target(void * arg, ulong count);

/* A load beside the measurement (POSIX): n busy-loop child processes,
   each bounded (it ends after seconds, or with this process), until
   kernels_load_stop kills and reaps them. kernels_runnable: the tasks
   runnable on the machine now, this one included (/proc/loadavg's 4th
   field; 0 if unknown). */
void kernels_load_start(int n, unsigned seconds);
void kernels_load_stop(void);
int kernels_runnable(void);
/* The median of v[0..n) (sorts v), n >= 1. */
double kernels_median(double * v, int n);

#ifdef __cplusplus
}
#endif

#endif
