/* p-trace-read: prof-trace on a large trace, streaming. A child process
   records a trace of SIZE MiB (default 2048: 2^28 events of 8 bytes, zones
   nested three deep over 16 labels), then prof-trace summarises it (its
   text report to /dev/null) and this program prints the throughput and
   prof-trace's peak memory (wait4's ru_maxrss), then deletes the trace.
   Targets: >= 300 MB/s and RSS <= 64 MB for a 2 GB trace. The
   file has just been written, so it is read from the page cache: this
   measures prof-trace, not the disk.
   With --record, it only records the trace, EVENTS events into FILE, and
   keeps it (p-speedscope.sh's input).
   Usage: p-trace-read [SIZE-MiB [PROF-TRACE]]
          p-trace-read --record EVENTS FILE */
#define PROF_TRACE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "profiler.h"

#ifndef PROF_TRACE_TOOL
# define PROF_TRACE_TOOL "prof-trace"
#endif

static const char * const labels[16] = {
    "parse", "lex", "token", "emit", "solve", "pivot", "row", "col",
    "load", "read", "decode", "store", "sort", "merge", "split", "swap" };

static volatile unsigned sink;

static void record(const char * path, unsigned long long events)
{
    unsigned long long i;
    if (prof_trace_open(path) != 0)
        _exit(1);
    for (i = 0; i < events / 6; i++)
    {
        const char * a = labels[i & 15], * b = labels[(i >> 4) & 15],
                   * c = labels[(i * 7) & 15];
        PROF_ZONE_BEGIN(a);
        PROF_ZONE_BEGIN(b);
        PROF_ZONE_BEGIN(c);
        sink += (unsigned) i;
        PROF_ZONE_END(c);
        PROF_ZONE_END(b);
        PROF_ZONE_END(a);
    }
    exit(prof_trace_lost() != 0);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* Run prof-trace on path; its wall time and peak RSS (KiB). */
static int summarise(const char * tool, const char * path, double * secs, long * rss)
{
    struct rusage ru;
    int st;
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0)
    {
        execl(tool, tool, "--text", "-o", "/dev/null", path, (char *) NULL);
        perror(tool);
        _exit(127);
    }
    if (pid < 0 || wait4(pid, &st, 0, &ru) != pid)
        return -1;
    *secs = now_s() - t0;
    *rss = ru.ru_maxrss;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int main(int argc, char ** argv)
{
    unsigned long long mib = argc > 1 ? strtoull(argv[1], NULL, 10) : 2048;
    const char * tool = argc > 2 ? argv[2] : PROF_TRACE_TOOL;
    char path[] = "/tmp/p-trace-read-XXXXXX";
    int fd, st;
    struct stat sb;
    double t0, rec, secs = 0;
    long rss = 0;
    pid_t pid;
    if (argc == 4 && strcmp(argv[1], "--record") == 0)
        record(argv[3], strtoull(argv[2], NULL, 10)); /* exits */
    fd = mkstemp(path);
    if (fd < 0 || mib == 0)
        return 1;
    close(fd);
    t0 = now_s();
    fflush(NULL);
    pid = fork();
    if (pid == 0)
        record(path, (mib << 20) / 8);
    waitpid(pid, &st, 0);
    rec = now_s() - t0;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || stat(path, &sb) != 0
        || summarise(tool, path, &secs, &rss) != 0)
    {
        fprintf(stderr, "p-trace-read: recording or reading failed\n");
        unlink(path);
        return 1;
    }
    unlink(path);
    printf("p-trace-read: a %.0f MiB trace (%.3g events, %.2f bytes an event), "
           "recorded in %.1f s\n", (double) sb.st_size / 1048576,
           (double) ((mib << 20) / 8 / 6 * 6), (double) sb.st_size
           / (double) ((mib << 20) / 8 / 6 * 6), rec);
    printf("prof-trace --text: %.2f s, %.0f MB/s (target >= 300), peak RSS "
           "%.1f MiB (target <= 64)\n", secs, (double) sb.st_size / 1e6 / secs,
           (double) rss / 1024);
    return 0;
}
