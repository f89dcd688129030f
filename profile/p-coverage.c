/* p-coverage: does the interval the runner prints cover the next run's median?
   Runs a suite of four kernels as separate invocations of this program
   (the default run, --processes=5 and --processes=10, or the counts
   given), each printed interval (the next-run interval where the run has
   one, else its own) checked against the next invocation's median of the
   same kernel, quiet and under a load it makes itself (two busy
   processes, ended when done). Each setting starts with a history of its
   own (--history, a fresh file), as a new build does: its first run has
   only its own epochs, the later ones learn the changes between runs.
   Prints the coverage over all pairs and over the pairs from the sixth
   run on, the median width of the intervals relative to the median, the
   spread of the runs' medians and between processes, and the runner's
   wall time per benchmark (its total_s, calibration included). Widths and
   spreads are medians over the invocations and kernels, in percent of the
   median.
       p-coverage [RUNS [P...]]   RUNS invocations per setting (default 31:
                                  120 pairs, at least 3), P processes (up
                                  to 3 counts, default 1 5 10); "3 1 2" is
                                  CI's quick run
       p-coverage --suite ...     the suite itself (runner options follow) */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "profiler.h"
#include "kernels.h"

enum { NK = 4, MAXRUNS = 64 };
static const char * const picks[NK] = { "chain 100", "chain 1000", "sum 2^10",
                                        "sum 2^20" };

static int suite(int argc, char ** argv)
{
    prof_bench * b;
    int i, k, rc;
    /* the runner's flags; --suite stays ours (and in the workers' argv) */
    if (kernels_init() != 0 || (b = prof_bench_new()) == NULL
        || prof_bench_init(b, &argc, argv) != 0)
        return 2;
    for (k = 0; k < NK; k++)
        for (i = 0; i < NKERNELS; i++)
            if (strcmp(kernels[i].name, picks[k]) == 0)
                prof_bench_run(b, kernels[i].name, kernel_target(&kernels[i]),
                               (void *) &kernels[i]);
    rc = prof_bench_finish(b);
    prof_bench_free(b);
    return rc == 0 ? 0 : 1;
}

typedef struct { double med, lo, hi, between, total_s; } figure;

/* Split a CSV line into fields (quotes removed, "" kept as "); n fields. */
static int split(char * line, char ** field, int max)
{
    int n = 0;
    char * w = line, * r = line;
    while (n < max)
    {
        int quoted = *r == '"';
        field[n++] = w;
        r += quoted;
        while (*r && (quoted ? !(r[0] == '"' && r[1] != '"') : *r != ','
                              && *r != '\n'))
        {
            if (quoted && r[0] == '"')
                r++;
            *w++ = *r++;
        }
        r += quoted && *r == '"';
        if (*r != ',')
            break;
        *w++ = '\0';
        r++;
    }
    *w = '\0';
    return n;
}

/* The index of column name in the header fields, or -1. */
static int column(char ** head, int n, const char * name)
{
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(head[i], name) == 0)
            return i;
    return -1;
}

/* Run the suite once with p processes; its figures per kernel. */
static int invoke(const char * self, int p, const char * history, figure * f)
{
    char procs[32], out[96], hist[160];
    static char line[1 << 20];  /* a row holds every epoch's sample */
    FILE * in;
    pid_t pid;
    int status, k, got = 0;
    snprintf(procs, sizeof procs, "--processes=%d", p);
    snprintf(out, sizeof out, "--out=/tmp/p-coverage.%ld.csv", (long) getpid());
    snprintf(hist, sizeof hist, "--history=%s", history);
    pid = fork();
    if (pid == 0)
    {
        /* the suites' own warnings (unstable, few processes) are noise here */
        if (freopen("/dev/null", "w", stderr) == NULL)
            _exit(126);
        execl(self, self, "--suite", procs, "--format=none", "--out-format=csv",
              out, hist, (char *) NULL);
        _exit(127);
    }
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || status != 0
        || (in = fopen(out + 6, "r")) == NULL)
        return -1;
    {
        static char head_line[1 << 16];
        char * head[64], * field[64];
        int nh, n, cm, cl, ch, cb, nl, nx, ct;
        if (fgets(head_line, sizeof head_line, in) == NULL)
        {
            fclose(in);
            return -1;
        }
        nh = split(head_line, head, 64);
        cm = column(head, nh, "median");
        cl = column(head, nh, "ci_low");
        ch = column(head, nh, "ci_high");
        cb = column(head, nh, "between_pct");
        nl = column(head, nh, "next_low");
        nx = column(head, nh, "next_high");
        ct = column(head, nh, "total_s");
        while (fgets(line, sizeof line, in) != NULL)
        {
            n = split(line, field, 64);
            for (k = 0; k < NK && n == nh && cm >= 0 && cl >= 0 && ch >= 0; k++)
                if (strcmp(field[0], picks[k]) == 0)
                {
                    f[k].med = atof(field[cm]);
                    /* what the table prints: the next run's, else
                       this process's */
                    if (nl >= 0 && nx >= 0 && *field[nl])
                        cl = nl, ch = nx;
                    f[k].lo = *field[cl] ? atof(field[cl]) : NAN;
                    f[k].hi = *field[ch] ? atof(field[ch]) : NAN;
                    cl = column(head, nh, "ci_low");
                    ch = column(head, nh, "ci_high");
                    f[k].between = cb >= 0 ? atof(field[cb]) : 0.0;
                    f[k].total_s = ct >= 0 ? atof(field[ct]) : NAN;
                    got++;
                }
        }
    }
    fclose(in);
    remove(out + 6);
    return got == NK ? 0 : -1;
}

static int cmp(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median(double * v, int n)
{
    qsort(v, (size_t) n, sizeof v[0], cmp);
    return n ? (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2])) : NAN;
}

/* The runs from this one on count as "learned" (the history holds at
   least 4 runs' changes). */
#define LEARNED_FROM 5

/* runs invocations with p processes, from a fresh history: covered/checked
   intervals (all, and from run LEARNED_FROM on), their median width, the
   median spread of the medians between runs, the wall time a benchmark. */
static void setting(const char * self, const char * label, int p, int runs)
{
    static figure f[MAXRUNS][NK];
    double width[MAXRUNS * NK], dev[MAXRUNS * NK], between[MAXRUNS * NK],
           total[MAXRUNS * NK];
    int r, k, ok = 0, checked = 0, ok_late = 0, late = 0, nw = 0, done = 0;
    int per[NK] = { 0 }, nk[NK] = { 0 };
    double kw[NK][MAXRUNS];
    char history[96];
    snprintf(history, sizeof history, "/tmp/p-coverage.%ld.history",
             (long) getpid());
    remove(history);
    for (r = 0; r < runs; r++)
        done += invoke(self, p, history, f[r]) == 0;
    remove(history);
    if (done < runs)
    {
        printf("%-6s %2d processes: %d of %d invocations failed\n", label, p,
               runs - done, runs);
        return;
    }
    for (r = 0; r + 1 < runs; r++)
        for (k = 0; k < NK; k++)
        {
            double next = f[r + 1][k].med;
            int in = f[r][k].lo <= next && next <= f[r][k].hi;
            if (f[r][k].lo == f[r][k].lo)      /* NaN: no interval */
            {
                checked++;
                ok += in;
                per[k] += in;
                late += r + 1 >= LEARNED_FROM;
                ok_late += in && r + 1 >= LEARNED_FROM;
                width[nw++] = 100.0 * (f[r][k].hi - f[r][k].lo) / f[r][k].med;
                kw[k][nk[k]++] = width[nw - 1];
            }
        }
    for (r = 0; r < runs; r++)
        for (k = 0; k < NK; k++)
        {
            between[r * NK + k] = f[r][k].between;
            total[r * NK + k] = 1e3 * f[r][k].total_s;
        }
    for (k = 0; k < NK; k++)
    {
        double m[MAXRUNS];
        for (r = 0; r < runs; r++)
            m[r] = f[r][k].med;
        {
            double c = median(m, runs);
            for (r = 0; r < runs; r++)
                dev[k * runs + r] = 100.0 * fabs(f[r][k].med - c) / c;
        }
    }
    printf("%-6s %2d processes: covered %3d of %3d (%5.1f%%), from run %d "
           "%5.1f%%, width %5.2f%%, medians spread %5.2f%%, between "
           "processes %5.2f%%, %.2f ms a benchmark\n", label, p, ok, checked,
           checked ? 100.0 * ok / checked : NAN, LEARNED_FROM,
           late ? 100.0 * ok_late / late : NAN, nw ? median(width, nw) : NAN,
           median(dev, NK * runs), median(between, NK * runs),
           median(total, NK * runs));
    printf("%27s per kernel:", "");
    for (k = 0; k < NK; k++)
        printf(" %s %d/%d (width %.1f%%)%s", picks[k], per[k], runs - 1,
               nk[k] ? median(kw[k], nk[k]) : NAN, k + 1 < NK ? "," : "\n");
    fflush(stdout);
}

int main(int argc, char ** argv)
{
    int procs[3] = { 1, 5, 10 }, nprocs = 3, runs = 31, i, bad = 0;
    if (argc > 1 && strcmp(argv[1], "--suite") == 0)
        return suite(argc, argv);   /* all of argv: workers run it again */
    if (argc > 1)
        runs = atoi(argv[1]);
    if (argc > 2)
        nprocs = argc - 2;
    for (i = 2; i < argc && i < 5; i++)
        bad |= (procs[i - 2] = atoi(argv[i])) < 1
               || procs[i - 2] > PROF_PROCESSES_MAX;
    if (runs < 3 || runs > MAXRUNS || nprocs > 3 || bad)
    {
        fprintf(stderr, "usage: p-coverage [RUNS: 3..%d [PROCESSES: 1..%d, "
                "at most 3 counts]]\n", MAXRUNS, PROF_PROCESSES_MAX);
        return 2;
    }
    printf("interval coverage over %d invocations of 4 kernels (%s), each "
           "interval against the next invocation's median\n", runs,
           "chain 100, chain 1000, sum 2^10, sum 2^20");
    for (i = 0; i < nprocs; i++)
        setting(argv[0], "quiet", procs[i], runs);
    kernels_load_start(2, 600);     /* bounded, whatever happens */
    for (i = 0; i < nprocs; i++)
        setting(argv[0], "loaded", procs[i], runs);
    kernels_load_stop();
    return 0;
}
