/* p-counters: what counting costs, and what it shows. Medians, side by side
   in one run:
   - the cost of a prof_counters_start/stop pair around nothing, next to the
     bare ioctl(ENABLE)/ioctl(DISABLE) pair on the group leader (with and
     without PERF_IOC_FLAG_GROUP), and of prof_counters_read and _reset;
   - the counts an empty start/stop pair reports (prof_counters_overhead:
     what a runner subtracts once per pair);
   - two workloads, timed with and without counters around them, with the
     counts of one run next to its time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"     /* profiler.h, and the accessor of a set's leader */
#if defined(__linux__)
# include <linux/perf_event.h>
# include <sys/ioctl.h>
# include <sys/mman.h>
# include <unistd.h>
#endif

enum { PAIRS = 20001, RUNS = 21, PAGES = 256, N = 1 << 16 };

static int cmp(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median(double * d, int n)
{
    qsort(d, (size_t) n, sizeof d[0], cmp);
    return d[n / 2];
}

static double ns_per_tick;
static double * d;

/* Median ns of one call of f over PAIRS calls. */
#define TIME_MEDIAN(result, code) \
    do { \
        int i_; \
        for (i_ = 0; i_ < PAIRS; i_++) \
        { \
            double t0_ = get_cycle_counter(); \
            code; \
            d[i_] = get_cycle_counter() - t0_; \
        } \
        result = median(d, PAIRS) * ns_per_tick; \
    } while (0)

static volatile double sink;
static double * array;

static void sum_array(void)
{
    double s = 0.0;
    int i;
    for (i = 0; i < N; i++)
        s += array[i];
    sink = s;
}

static void touch_pages(void)
{
#if defined(__linux__)
    size_t page = (size_t) sysconf(_SC_PAGESIZE), i;
    char * p = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
# if defined(MADV_NOHUGEPAGE)
    madvise(p, PAGES * page, MADV_NOHUGEPAGE);
# endif
    for (i = 0; i < PAGES; i++)
        ((volatile char *) p)[i * page] = 1;
    munmap(p, PAGES * page);
#endif
}

static void workload(prof_counters * c, const char * name, void (*f)(void))
{
    double off[RUNS], on[RUNS], counts[PROF_COUNTERS_MAX][RUNS];
    prof_counter_value v[PROF_COUNTERS_MAX];
    int r, e, n = prof_counters_size(c);

    f();                                       /* warm-up */
    for (r = 0; r < RUNS; r++)
    {
        double t0 = get_cycle_counter();
        f();
        off[r] = (get_cycle_counter() - t0) * ns_per_tick;

        prof_counters_reset(c);
        prof_counters_start(c);
        t0 = get_cycle_counter();
        f();
        on[r] = (get_cycle_counter() - t0) * ns_per_tick;
        prof_counters_stop(c);
        prof_counters_read(c, v);
        for (e = 0; e < n; e++)
            counts[e][r] = v[e].value;
    }
    printf("\n%s: %.0f ns without counters, %.0f ns counted (ratio %.3f); one run counts:\n",
           name, median(off, RUNS), median(on, RUNS), median(on, RUNS) / median(off, RUNS));
    for (e = 0; e < n; e++)
    {
        double m = median(counts[e], RUNS);
        if (m == m)
            printf("  %-17s %12.0f%s%s\n", prof_counters_name(c, e), m,
                   *prof_counters_unit(c, e) ? " " : "", prof_counters_unit(c, e));
        else
            printf("  %-17s %12s\n", prof_counters_name(c, e), "n/a");
    }
}

int main(void)
{
    prof_counters c;
    prof_counter_value v[PROF_COUNTERS_MAX], o[PROF_COUNTERS_MAX];
    char line[2048];
    double pair, read_ns, reset_ns, ioctl_leader = NAN, ioctl_group = NAN;
    int e, i;

    d = malloc(PAIRS * sizeof d[0]);
    array = malloc(N * sizeof array[0]);
    if (d == NULL || array == NULL)
        return 1;
    for (i = 0; i < N; i++)
        array[i] = i;
    ns_per_tick = 1e9 / prof_tick_rate();

    if (prof_counters_open(&c, NULL) < 0)
        return 1;
    prof_counters_context(&c, line, sizeof line);
    printf("%s\n", line);
    prof_counters_fprint(stdout, &c);

    for (i = 0; i < 1000; i++)
        prof_counters_start(&c), prof_counters_stop(&c);
    TIME_MEDIAN(pair, (prof_counters_start(&c), prof_counters_stop(&c)));
    TIME_MEDIAN(read_ns, prof_counters_read(&c, v));
    TIME_MEDIAN(reset_ns, prof_counters_reset(&c));
#if defined(__linux__)
    /* The bare system calls on the software group's leader (private: read
       through an internal accessor, only to compare). */
    if (prof_impl_counters_leader(&c, 1) >= 0)
    {
        int fd = prof_impl_counters_leader(&c, 1);
        TIME_MEDIAN(ioctl_leader, (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0),
                                   ioctl(fd, PERF_EVENT_IOC_DISABLE, 0)));
        TIME_MEDIAN(ioctl_group, (ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP),
                                  ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP)));
        /* That switched the members off too: the library keeps them on
           and switches the leader only. Restore that. */
        ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
        ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
    }
#endif
    printf("\nmedians of %d calls, ns (tick rate %.6g/s)\n", PAIRS, prof_tick_rate());
    printf("  %-52s %8.0f\n", "prof_counters_start + prof_counters_stop", pair);
    printf("  %-52s %8.0f\n", "bare ioctl ENABLE + DISABLE on the leader", ioctl_leader);
    printf("  %-52s %8.0f\n", "same with PERF_IOC_FLAG_GROUP", ioctl_group);
    printf("  %-52s %8.0f\n", "prof_counters_read (one read() per group)", read_ns);
    printf("  %-52s %8.0f\n", "prof_counters_reset (one read() per group)", reset_ns);
    printf("  start/stop pair vs bare ioctl pair: %+.0f ns (ratio %.3f)\n",
           pair - ioctl_leader, pair / ioctl_leader);

    prof_counters_reset(&c);
    if (prof_counters_overhead(&c, o) == 0)
    {
        printf("\nan empty start/stop pair counts (medians of 101; subtract once per pair):\n");
        for (e = 0; e < prof_counters_size(&c); e++)
            if (o[e].value == o[e].value)
                printf("  %-17s %12.0f%s%s\n", prof_counters_name(&c, e), o[e].value,
                       *prof_counters_unit(&c, e) ? " " : "", prof_counters_unit(&c, e));
            else
                printf("  %-17s %12s\n", prof_counters_name(&c, e), "n/a");
    }

    workload(&c, "sum of 65536 doubles", sum_array);
    workload(&c, "mmap, touch 256 fresh pages, munmap", touch_pages);
    prof_counters_close(&c);
    free(d);
    free(array);
    return 0;
}
