/* The reference kernels: an empty function; a dependent chain of n 64-bit
   multiply-adds; the sum of an array of n uint64_t. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
# include <sys/prctl.h>
#endif
#include "kernels.h"

const kernel_t kernels[NKERNELS] = {
    { "empty", 0, 0 },
    { "chain 10", 1, 10 }, { "chain 100", 1, 100 },
    { "chain 1000", 1, 1000 }, { "chain 10000", 1, 10000 },
    { "sum 2^10", 2, 1 << 10 }, { "sum 2^20", 2, 1 << 20 } };

uint64_t * kernel_array;

__attribute__((noinline)) void kernel_empty(void)
{
    __asm__ __volatile__ ("");
}

__attribute__((noinline)) uint64_t kernel_chain(uint64_t x, long n)
{
    long i;
    for (i = 0; i < n; i++)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x;
}

__attribute__((noinline)) uint64_t kernel_sum(const uint64_t * a, long n)
{
    uint64_t s = 0;
    long i;
    for (i = 0; i < n; i++)
        s += a[i];
    return s;
}

int kernels_init(void)
{
    long i;
    kernel_array = (uint64_t *) malloc(((size_t) 1 << 20) * sizeof *kernel_array);
    if (kernel_array == NULL)
        return -1;
    for (i = 0; i < 1 << 20; i++)
        kernel_array[i] = (uint64_t) i;
    return 0;
}

static void empty_target(void * arg, ulong count)
{
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
        kernel_empty();
}

static void chain_target(void * arg, ulong count)
{
    long n = ((const kernel_t *) arg)->n;
    uint64_t x = 1;
    ulong i;
    for (i = 0; i < count; i++)
        x = kernel_chain(x, n);
    PROF_DO_NOT_OPTIMIZE(x);
}

static void sum_target(void * arg, ulong count)
{
    long n = ((const kernel_t *) arg)->n;
    uint64_t s = 0;
    ulong i;
    for (i = 0; i < count; i++)
    {
        s += kernel_sum(kernel_array, n);
        PROF_CLOBBER();
    }
    PROF_DO_NOT_OPTIMIZE(s);
}

profile_target_t kernel_target(const kernel_t * k)
{
    return k->kind == 0 ? empty_target : k->kind == 1 ? chain_target
                                                      : sum_target;
}

void kernel_timed_target(void * arg, ulong count)
{
    profile_target_t t = kernel_target((const kernel_t *) arg);
    prof_start();
    t(arg, count);
    prof_stop();
}

enum { MAX_LOAD = 16 };
static pid_t load_pids[MAX_LOAD];
static volatile uint64_t load_sink;

void kernels_load_start(int n, unsigned seconds)
{
    int i;
    for (i = 0; i < n && i < MAX_LOAD; i++)
        if ((load_pids[i] = fork()) == 0)
        {
#if defined(__linux__)
            prctl(PR_SET_PDEATHSIG, SIGKILL);   /* ends with its parent */
#endif
            alarm(seconds);                     /* bounded, whatever happens */
            for (;;)
                load_sink = load_sink * 6364136223846793005ULL + 1;
        }
}

void kernels_load_stop(void)
{
    int i;
    for (i = 0; i < MAX_LOAD; i++)
        if (load_pids[i] > 0)
        {
            kill(load_pids[i], SIGKILL);
            waitpid(load_pids[i], NULL, 0);
            load_pids[i] = 0;
        }
}

int kernels_runnable(void)
{
    int running = 0;
    FILE * f = fopen("/proc/loadavg", "r");
    if (f != NULL)
    {
        if (fscanf(f, "%*f %*f %*f %d", &running) != 1)
            running = 0;
        fclose(f);
    }
    return running;
}

static int cmp_double(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

double kernels_median(double * v, int n)
{
    qsort(v, (size_t) n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
