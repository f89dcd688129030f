/* p-trace: what tracing costs, single thread, measured side by side in one
   run (rounds of 1000 zones, each variant once per round, in turn; medians
   over 201 rounds, per zone = one begin + one end around a trivial leaf):

     raw      two raw counter reads around the leaf call (the floor)
     zone     PROF_ZONE_BEGIN / PROF_ZONE_END (recording to a file)
     fprintf  one fprintf line per event to a buffered file (Piyasa's way,
              at its cheapest)
     unbuf    the same, unbuffered (Piyasa's default stream, stderr)
     off      markers compiled out (no PROFILE/PROF_TRACE) vs no markers
     inst     -finstrument-functions (an entry and an exit event per call)

   The zone median leaves out the rounds in which a full buffer was written
   (1 in 32 with the default 1 MiB buffer); the mean includes them, and the
   "sustained" line times 2^21 zones in one go, every buffer write (and the
   memory traffic of filling buffers) included, against the raw loop.
   Targets: zone <= 1.05x raw; sustained <= 1.1x raw; fprintf >= 10x
   zone; off = no markers.
   Then the trace of the rounds (before the sustained zones) is converted by
   this build's prof-trace to --perfetto and --json, and the bytes per zone
   of each output are printed.
   Annotations: each of PROF_ZONE_VALUE, PROF_ZONE_TEXT (8 bytes),
   PROF_MESSAGE (16 bytes), PROF_PLOT and PROF_FRAME_MARK once per
   iteration around the leaf call, in turn with the zone and raw loops
   (medians of ANNOT_ROUNDS rounds of 1000); target: each <= a zone. The
   file's bytes per record of each kind: its growth over the flushed
   rounds (chunk headers included) over the records.
   Usage: p-trace [PROF-TRACE] */
#define PROF_TRACE 1
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "profiler.h"

extern char ** environ;

#ifndef PROF_TRACE_TOOL
# define PROF_TRACE_TOOL "prof-trace"
#endif

void p_trace_off_markers(int n);
void p_trace_off_none(int n);
void p_trace_inst_loop(int n);

enum { ZONES = 1000, ROUNDS = 201, VARIANTS = 7 };
static const char * const names[VARIANTS] =
    { "raw", "zone", "fprintf", "off", "none", "inst", "unbuf" };

static unsigned long long sink;

static __attribute__((noinline)) void leaf(void)
{
    __asm__ __volatile__ ("");
}

static inline unsigned long long ticks(void)
{
    return prof_impl_ticks();
}

static int cmp(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double run(int v, FILE * f, FILE * u)
{
    unsigned long long t0 = ticks(), t1;
    int i;
    switch (v)
    {
    case 0:
        for (i = 0; i < ZONES; i++)
        {
            unsigned long long a = ticks();
            leaf();
            sink += ticks() - a;
        }
        break;
    case 1:
        for (i = 0; i < ZONES; i++)
        {
            PROF_ZONE_BEGIN("leaf");
            leaf();
            PROF_ZONE_END("leaf");
        }
        break;
    case 2:
    case 6:
        if (v == 6)
            f = u;
        for (i = 0; i < ZONES; i++)
        {
            fprintf(f, "Su|%llu|leaf|%s\n", ticks(), __func__);
            leaf();
            fprintf(f, "Eu|%llu|leaf|%s\n", ticks(), __func__);
        }
        break;
    case 3:
        p_trace_off_markers(ZONES);
        break;
    case 4:
        p_trace_off_none(ZONES);
        break;
    case 5:
        p_trace_inst_loop(ZONES);
        break;
    }
    t1 = ticks();
    return (double) (t1 - t0) / ZONES;
}

/* ---- annotations ------------------------------------------------------------ */

enum { ANNOT_ROUNDS = 51, ANNOT_VARIANTS = 7 };
static const char * const annot_names[ANNOT_VARIANTS] =
    { "raw", "zone", "value", "text", "message", "plot", "frame" };

static double annot_run(int v)
{
    unsigned long long t0 = ticks(), t1;
    int i;
    if (v < 2)
        return run(v, NULL, NULL);
    for (i = 0; i < ZONES; i++)
    {
        switch (v)
        {
        case 2: PROF_ZONE_VALUE(i); break;
        case 3: PROF_ZONE_TEXT("file.txt", 8); break;
        case 4: PROF_MESSAGE("a message line.."); break;
        case 5: PROF_PLOT("queue", i); break;
        default: PROF_FRAME_MARK(); break;
        }
        leaf();
    }
    t1 = ticks();
    return (double) (t1 - t0) / ZONES;
}

static long file_size(const char * path)
{
    struct stat sb;
    prof_trace_flush();
    return stat(path, &sb) == 0 ? (long) sb.st_size : -1;
}

/* Each annotation's cost against a zone's and two raw reads', and its
   bytes in the file (path: the trace). */
static void annotations(const char * path, double ns)
{
    static double d[ANNOT_VARIANTS][ANNOT_ROUNDS];
    double bytes[ANNOT_VARIANTS], med[ANNOT_VARIANTS];
    int v, r;
    for (v = 0; v < ANNOT_VARIANTS; v++) /* warm up, and the bytes */
    {
        long s0 = file_size(path);
        for (r = 0; r < 5; r++)
            (void) annot_run(v);
        bytes[v] = (double) (file_size(path) - s0) / (5.0 * ZONES);
    }
    for (r = 0; r < ANNOT_ROUNDS; r++)
        for (v = 0; v < ANNOT_VARIANTS; v++)
            d[v][r] = annot_run(v);
    printf("annotations (per record around the leaf call, medians of %d rounds "
           "of %d; target <= zone):\n%-8s %10s %10s %10s %12s\n", ANNOT_ROUNDS,
           ZONES, "variant", "median_ns", "/ zone", "/ raw", "file_bytes");
    for (v = 0; v < ANNOT_VARIANTS; v++)
    {
        qsort(d[v], ANNOT_ROUNDS, sizeof d[v][0], cmp);
        med[v] = d[v][ANNOT_ROUNDS / 2];
    }
    for (v = 0; v < ANNOT_VARIANTS; v++)
        printf("%-8s %10.1f %9.2fx %9.2fx %12.2f%s\n", annot_names[v],
               med[v] * ns, med[v] / med[1], med[v] / med[0],
               v == 0 ? 0.0 : bytes[v], v == 1 ? " (a zone: 2 events)" : "");
}

/* Sustained recording: 2^21 zones in a row (every buffer write and the
   memory traffic included) against the same loop with two raw reads, in
   turn, SUSTAINED times: medians. */
static void sustained(double * zone, double * raw)
{
    enum { LONG = 1 << 21, SUSTAINED = 7 };
    double z[SUSTAINED], w[SUSTAINED];
    int i, k;
    for (k = 0; k < SUSTAINED; k++)
    {
        unsigned long long t0 = ticks(), t1, t2;
        for (i = 0; i < LONG; i++)
        {
            PROF_ZONE_BEGIN("leaf");
            leaf();
            PROF_ZONE_END("leaf");
        }
        prof_trace_flush();
        t1 = ticks();
        for (i = 0; i < LONG; i++)
        {
            unsigned long long a = ticks();
            leaf();
            sink += ticks() - a;
        }
        t2 = ticks();
        z[k] = (double) (t1 - t0) / LONG;
        w[k] = (double) (t2 - t1) / LONG;
    }
    qsort(z, SUSTAINED, sizeof z[0], cmp);
    qsort(w, SUSTAINED, sizeof w[0], cmp);
    *zone = z[SUSTAINED / 2];
    *raw = w[SUSTAINED / 2];
}

/* The size in bytes of prof-trace's output in format (e.g. "--perfetto")
   for the trace at path; -1 if the tool failed. posix_spawn, not fork: a
   forked child of a tracing process would start a trace file of its own
   (<path>.<pid>). The tool's stderr goes to /dev/null: the trace is still
   open, so it has no end record yet, which prof-trace would say there. */
static double exported_size(const char * tool, const char * format,
        const char * path)
{
    char out[] = "/tmp/p-trace-out-XXXXXX";
    char * args[6];
    int fd = mkstemp(out), st;
    struct stat sb;
    posix_spawn_file_actions_t fa;
    pid_t pid;
    double size = -1;
    if (fd < 0)
        return -1;
    close(fd);
    args[0] = (char *) tool;
    args[1] = (char *) format;
    args[2] = (char *) "-o";
    args[3] = out;
    args[4] = (char *) path;
    args[5] = NULL;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    if (posix_spawn(&pid, tool, &fa, NULL, args, environ) == 0
        && waitpid(pid, &st, 0) == pid && WIFEXITED(st)
        && WEXITSTATUS(st) == 0 && stat(out, &sb) == 0)
        size = (double) sb.st_size;
    posix_spawn_file_actions_destroy(&fa);
    unlink(out);
    return size;
}

int main(int argc, char ** argv)
{
    static double d[VARIANTS][ROUNDS];
    double med[VARIANTS], mean[VARIANTS], ns = 1e9 / prof_tick_rate();
    char trace[] = "/tmp/p-trace-XXXXXX", text[] = "/tmp/p-trace-piy-XXXXXX";
    int tfd = mkstemp(trace), pfd = mkstemp(text), v, r;
    FILE * f = pfd >= 0 ? fdopen(pfd, "w") : NULL;
    FILE * u = fopen(text, "a");
    struct stat sb;
    unsigned long long events;
    double sustained_zone, sustained_raw, perfetto, json;
    const char * tool = argc > 1 ? argv[1] : PROF_TRACE_TOOL;

    if (tfd < 0 || f == NULL || u == NULL || prof_trace_open(trace) != 0)
        return 1;
    setvbuf(u, NULL, _IONBF, 0);
    close(tfd);
    for (r = 0; r < 5; r++)                   /* warm up */
        for (v = 0; v < VARIANTS; v++)
            (void) run(v, f, u);
    for (r = 0; r < ROUNDS; r++)
        for (v = 0; v < VARIANTS; v++)
            d[v][r] = run(v, f, u);
    for (v = 0; v < VARIANTS; v++)
    {
        mean[v] = 0;
        for (r = 0; r < ROUNDS; r++)
            mean[v] += d[v][r] / ROUNDS;
        qsort(d[v], ROUNDS, sizeof d[v][0], cmp);
        med[v] = d[v][ROUNDS / 2];
    }
    prof_trace_flush();
    events = 2ull * ZONES * (ROUNDS + 5) * 2; /* zone and inst variants */
    stat(trace, &sb);
    /* the zones so far only: the sustained ones would make GBs of JSON */
    perfetto = exported_size(tool, "--perfetto", trace);
    json = exported_size(tool, "--json", trace);
    annotations(trace, ns);
    sustained(&sustained_zone, &sustained_raw);
    printf("p-trace: per zone (begin + end around a trivial leaf call), single "
           "thread, %d rounds of %d, tick rate %.4g/s\n", ROUNDS, ZONES,
           prof_tick_rate());
    printf("%-8s %10s %10s %10s\n", "variant", "median_ns", "mean_ns", "ticks");
    for (v = 0; v < VARIANTS; v++)
        printf("%-8s %10.1f %10.1f %10.1f\n", names[v], med[v] * ns,
               mean[v] * ns, med[v]);
    printf("zone / raw:        %.2fx  (target <= 1.05x; +%.1f ns per zone)\n",
           med[1] / med[0], (med[1] - med[0]) * ns);
    printf("fprintf / zone:    %.1fx  (target >= 10x; unbuffered, as Piyasa's "
           "default stderr: %.0fx)\n", med[2] / med[1], med[6] / med[1]);
    printf("sustained:         %.1f ns per zone vs %.1f raw (%.2fx; target <= "
           "1.1x): 2^21 zones in a row, writing 32 MiB of trace included, "
           "medians of 7\n", sustained_zone * ns, sustained_raw * ns,
           sustained_zone / sustained_raw);
    printf("off / none:        %.2fx  (markers compiled out; same object code "
           "is checked by the trace_markers_off test)\n", med[3] / med[4]);
    printf("inst / raw:        %.2fx  (-finstrument-functions, per call)\n",
           med[5] / med[0]);
    printf("bytes per event:   %u in memory, %.2f in the file (chunk headers "
           "and strings included)\n", (unsigned) sizeof(unsigned long long),
           (double) sb.st_size / (double) events);
    if (perfetto < 0 || json < 0)
        printf("exported:          n/a (%s failed)\n", tool);
    else
        printf("exported:          %.1f bytes per zone --perfetto, %.1f "
               "--json (prof-trace on the %llu zones of the rounds)\n",
               perfetto / (double) (events / 2), json / (double) (events / 2),
               events / 2);
    printf("events lost:       %llu\n", prof_trace_lost());
    fclose(f);
    fclose(u);
    unlink(text);
    unlink(trace);
    return (int) (sink & 0);
}
