/* timeit timers: units, monotonic wall time, the printed format, NULL. */
#include "check.h"
#include "profiler.h"

#include <math.h>

int main(void)
{
    timeit_t t, u;
    capture_t cap;
    const char * out;

    /* CPU-bound: about 150 ms of processor time. */
    timeit_start(t);
    spin_cpu_ms(150);
    timeit_stop(t);
    CHECK(t->cpu >= 145 && t->cpu <= 1000, "cpu %ld ms", (long) t->cpu);
    CHECK(t->wall >= 145 && t->wall <= 10000, "wall %ld ms", (long) t->wall);

    /* Sleeping: wall time passes, processor time hardly. */
    timeit_start(t);
    sleep_ms(120);
    CHECK(timeit_query_wall(t) >= 119, "query %ld ms", (long) timeit_query_wall(t));
    timeit_stop(t);
    CHECK(t->wall >= 119 && t->wall <= 5000, "wall %ld ms", (long) t->wall);
    CHECK(t->cpu >= 0 && t->cpu <= 60, "cpu %ld ms while sleeping", (long) t->cpu);

    /* Microsecond wall timer; cpu untouched. */
    u->cpu = 12345;
    timeit_start_us(u);
    sleep_ms(20);
    timeit_stop_us(u);
    CHECK(u->wall >= 19000 && u->wall <= 2000000, "wall %ld us", (long) u->wall);
    CHECK(u->cpu == 12345, "timeit_*_us changed cpu to %ld", (long) u->cpu);

    /* The printed format, byte for byte. */
    t->cpu = 1500; t->wall = 3000;
    capture_begin(&cap, 1);
    timeit_print(t, 1000);
    timeit_print(t, 1);
    out = capture_end(&cap);
    CHECK(strcmp(out, "cpu/wall(s): 0.0015 0.003\ncpu/wall(s): 1.5 3\n") == 0,
          "printed [%s]", out);

    /* reps == 0: a message, and the total. */
    capture_begin(&cap, 2);
    capture_t cap1;
    capture_begin(&cap1, 1);
    timeit_print(t, 0);
    out = capture_end(&cap1);
    CHECK(strcmp(out, "cpu/wall(s): 1.5 3\n") == 0, "printed [%s]", out);
    out = capture_end(&cap);
    CHECK(strstr(out, "profiler: timeit_print: reps is 0") != NULL, "stderr [%s]", out);

    /* NULL timers: a message, no crash. */
    capture_begin(&cap, 2);
    timeit_start(NULL);
    timeit_stop(NULL);
    timeit_start_us(NULL);
    timeit_stop_us(NULL);
    CHECK(timeit_query_wall(NULL) == 0, "query of NULL");
    timeit_print(NULL, 1);
    out = capture_end(&cap);
    CHECK(strstr(out, "profiler: timeit_start: timer is NULL") != NULL, "stderr [%s]", out);
    CHECK(strstr(out, "profiler: timeit_print: timer is NULL") != NULL, "stderr [%s]", out);

    /* Arrays of timers, as FLINT programs keep them. */
    {
        timeit_t ts[3];
        int i;
        for (i = 0; i < 3; i++)
        {
            timeit_start(ts[i]);
            sleep_ms(2 * (i + 1));
            timeit_stop(ts[i]);
        }
        /* Each holds its own interval: at least its sleep (load only adds
           time; comparing two of them failed on a loaded machine, where the
           2 ms sleep took 11 ms and the 6 ms one 6). */
        for (i = 0; i < 3; i++)
            CHECK(ts[i]->wall >= 2 * (i + 1) - 1 && ts[i]->wall < 10000,
                  "timer %d: %ld ms for a %d ms sleep", i, (long) ts[i]->wall, 2 * (i + 1));
    }
    return check_report("test_timeit");
}
