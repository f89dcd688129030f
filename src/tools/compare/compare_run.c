/*
    prof-compare --run: the old and the new command run alternately (old,
    new, new, old, old, new, ...: src/tools/alternate/, as prof-run's
    commands) so that slow and fast phases of the machine hit both sides
    alike; each run writes one result file into a fresh work directory,
    which prof-compare then compares as several files a side, paired by
    round. Commands run through /bin/sh -c with
    src/tools/common/spawn.c: their output is dropped, their stderr kept for
    the message when one fails.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "compare_run.h"
#include "alternate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char * side_name[2] = { "old", "new" };

/* From prof_impl_run_pairs to prof_impl_run_clean, the signals that end a
   run are held (prof_spawn_hold), so that the work directory is removed
   before the process ends by them. */

/* The core's monotonic clock, in seconds. */
static double now_s(void)
{
    return prof_impl_now_ns() * 1e-9;
}

static char * join(const char * a, const char * b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char * s = (char *) malloc(n);
    if (s != NULL)
        snprintf(s, n, "%s/%s", a, b);
    return s;
}

void prof_impl_run_kept_name(const char * keep_dir, int side, int pair,
                             char * buf, size_t size)
{
    snprintf(buf, size, "%s/%s-%02d.json", keep_dir, side_name[side], pair);
}

/* The command with each {out} replaced by path, quoted for the shell;
   *used says whether there was one. NULL when out of memory. */
static char * substitute(const char * cmd, const char * path, int * used)
{
    size_t n = strlen(cmd) + 1, q = 2, i;
    const char * p;
    char * out, * o;
    for (i = 0; path[i]; i++)
        q += path[i] == '\'' ? 4 : 1;
    for (p = cmd; (p = strstr(p, "{out}")) != NULL; p += 5)
        n += q;
    *used = n != strlen(cmd) + 1;
    if ((out = o = (char *) malloc(n)) == NULL)
        return NULL;
    for (p = cmd; *p; )
    {
        if (strncmp(p, "{out}", 5) != 0)
        {
            *o++ = *p++;
            continue;
        }
        *o++ = '\'';                 /* 'it'\''s': quotes inside quotes */
        for (i = 0; path[i]; i++)
            if (path[i] == '\'')
                memcpy(o, "'\\''", 4), o += 4;
            else
                *o++ = path[i];
        *o++ = '\'';
        p += 5;
    }
    *o = '\0';
    return out;
}

/* A fresh work directory: inside keep_dir (made if missing, so that kept
   files are renamed, never copied), else in $TMPDIR or /tmp. */
static char * make_work_dir(const char * keep_dir)
{
    const char * base = keep_dir ? keep_dir : getenv("TMPDIR");
    char * dir;
    if (base == NULL || *base == '\0')
        base = "/tmp";
    if (keep_dir != NULL && mkdir(keep_dir, 0777) != 0 && errno != EEXIST)
    {
        prof_impl_warn("prof-compare: --keep=%s: %s", keep_dir, strerror(errno));
        return NULL;
    }
    dir = join(base, ".prof-compare-XXXXXX");
    if (dir == NULL || mkdtemp(dir) == NULL)
    {
        prof_impl_warn("prof-compare: cannot make a work directory in %s: %s",
                       base, dir ? strerror(errno) : "out of memory");
        free(dir);
        return NULL;
    }
    return dir;
}

/* The last lines (at most about 2 KB) of the failed command's stderr. */
static void show_stderr(const char * path)
{
    char buf[2048];
    FILE * f = fopen(path, "r");
    long size;
    size_t n;
    if (f == NULL)
        return;
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, size > (long) sizeof buf - 1 ? size - (long) sizeof buf + 1 : 0,
          SEEK_SET);
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    if (n > 0)
        fprintf(stderr, "profiler: its stderr ended with:\n%s%s", buf,
                buf[n - 1] == '\n' ? "" : "\n");
}

static void progress(const prof_run_plan * plan, int done, int side,
                     double elapsed)
{
    if (plan->progress == PROF_PROGRESS_LINE)
        fprintf(stderr, "\rprof-compare: run %d of %d (%s), %.1f s ",
                done + 1, 2 * plan->pairs, side_name[side], elapsed);
}

/* 0 if the run went well and left a file; else -1 after a message. */
static int check_run(const prof_run_plan * plan, int side, int ran,
                     const prof_spawn_result * r, const char * path,
                     const char * err_path)
{
    struct stat st;
    char how[160];
    if (plan->progress == PROF_PROGRESS_LINE)
        fputs("\r\033[K", stderr);         /* the line goes before a message */
    if (r->interrupted)
        return -1;
    if (ran != 0 || r->end != PROF_SPAWN_EXITED || r->status != 0)
    {
        prof_spawn_describe(r, how, sizeof how);
        prof_impl_warn("prof-compare: the %s command failed (%s%s): %s",
                       side_name[side], how, r->end == PROF_SPAWN_EXITED
                       && r->status == 127 ? ": not found?" : "",
                       plan->commands[side]);
        show_stderr(err_path);
        return -1;
    }
    if (stat(path, &st) != 0 || st.st_size == 0)
    {
        prof_impl_warn("prof-compare: the %s command wrote no result file "
                       "(it is given as {out} in the command, else as "
                       "PROFILER_OUT): %s", side_name[side], plan->commands[side]);
        return -1;
    }
    return 0;
}

/* The runs of prof_impl_run_pairs as the alternation sees them. */
typedef struct
{
    const prof_run_plan * plan;
    prof_run_files * files;
    double start;
    int runs[2];                /* complete runs of each side */
} pairs_ctx;

/* Run side's command in round (from 0): 0, or -1 after a message. */
static int run_one(void * ctx, int side, int round)
{
    pairs_ctx * x = (pairs_ctx *) ctx;
    char name[32], env_out[4200], env_format[] = "PROFILER_FORMAT=json";
    char sh[] = "/bin/sh", dash_c[] = "-c", * argv[4], * env[3];
    char * path, * err_path = join(x->files->work, "stderr.txt"), * cmd = NULL;
    prof_spawn_cmd c;
    prof_spawn_result r;
    int used = 0, rc = -1;

    progress(x->plan, x->runs[0] + x->runs[1], side, now_s() - x->start);
    memset(&c, 0, sizeof c);
    snprintf(name, sizeof name, "%s-%02d.json", side_name[side], round + 1);
    path = join(x->files->work, name);
    if (path != NULL && err_path != NULL)
        cmd = substitute(x->plan->commands[side], path, &used);
    if (cmd == NULL)
        prof_impl_warn("prof-compare: out of memory");
    else
    {
        snprintf(env_out, sizeof env_out, "PROFILER_OUT=%s", path);
        env[0] = env_out;
        env[1] = env_format;
        env[2] = NULL;
        argv[0] = sh; argv[1] = dash_c; argv[2] = cmd; argv[3] = NULL;
        c.argv = argv;
        c.env = used ? NULL : env;
        c.stdout_path = "/dev/null";
        c.stderr_path = err_path;
        rc = check_run(x->plan, side, prof_spawn_run(&c, &r), &r, path,
                       err_path);
    }
    if (rc == 0)
        x->files->paths[side][x->runs[side]++] = path;
    else if (path != NULL)
    {
        remove(path);                   /* whatever the failed run left */
        free(path);
    }
    free(err_path);
    free(cmd);
    return rc;
}

static int enough(void * ctx, int side)
{
    pairs_ctx * x = (pairs_ctx *) ctx;
    return x->runs[side] >= x->plan->pairs;
}

/* No new pair after --max-time (the first always runs). */
static int next_pair(void * ctx, int round)
{
    pairs_ctx * x = (pairs_ctx *) ctx;
    (void) round;
    return x->plan->max_time_s <= 0.0
        || now_s() - x->start < x->plan->max_time_s;
}

int prof_impl_run_pairs(const prof_run_plan * plan, prof_run_files * files)
{
    prof_alternation a;
    pairs_ctx x;
    int rc;
    memset(files, 0, sizeof *files);
    memset(&x, 0, sizeof x);
    x.plan = plan;
    x.files = files;
    x.start = now_s();
    prof_spawn_hold();
    if ((files->work = make_work_dir(plan->keep_dir)) == NULL)
        return -1;
    memset(&a, 0, sizeof a);
    a.n = 2;
    a.interleave = 1;
    a.run = run_one;
    a.enough = enough;
    a.next_round = next_pair;
    a.ctx = &x;
    rc = prof_impl_alternate(&a);       /* old new, new old, ... */
    files->pairs = a.rounds;
    files->interrupted = a.signal;
    return rc;
}

int prof_impl_run_paired(const prof_run_files * files,
                         const char * paired[2][PROF_RUN_MAX_PAIRS])
{
    int rounds[2][PROF_RUN_MAX_PAIRS], at[2][PROF_RUN_MAX_PAIRS], n[2], k, side;
    for (side = 0; side < 2; side++)    /* run k of a side is of round k */
        for (n[side] = 0; n[side] < PROF_RUN_MAX_PAIRS
             && files->paths[side][n[side]] != NULL; n[side]++)
            rounds[side][n[side]] = n[side];
    n[0] = prof_impl_alt_pairs(rounds[0], n[0], rounds[1], n[1], at[0], at[1]);
    for (side = 0; side < 2; side++)
        for (k = 0; k < n[0]; k++)
            paired[side][k] = files->paths[side][at[side][k]];
    return n[0];
}

int prof_impl_run_keep(const prof_run_plan * plan, prof_run_files * files)
{
    char kept[4200];
    int side, p;
    for (side = 0; plan->keep_dir != NULL && side < 2; side++)
        for (p = 0; p < PROF_RUN_MAX_PAIRS && files->paths[side][p]; p++)
        {
            char * name;
            prof_impl_run_kept_name(plan->keep_dir, side, p + 1, kept,
                                    sizeof kept);
            if ((name = prof_impl_strdup(kept)) == NULL
                || rename(files->paths[side][p], kept) != 0)
            {
                prof_impl_warn("prof-compare: cannot keep %s as %s: %s",
                               files->paths[side][p], kept, strerror(errno));
                free(name);
                return -1;
            }
            free(files->paths[side][p]);
            files->paths[side][p] = name;
        }
    return 0;
}

void prof_impl_run_clean(prof_run_files * files)
{
    char * err_path;
    int side, p;
    for (side = 0; side < 2; side++)
        for (p = 0; p < PROF_RUN_MAX_PAIRS; p++)
        {
            const char * path = files->paths[side][p];
            if (path != NULL && files->work != NULL
                && strncmp(path, files->work, strlen(files->work)) == 0)
                remove(path);
            free(files->paths[side][p]);
            files->paths[side][p] = NULL;
        }
    if (files->work != NULL && (err_path = join(files->work, "stderr.txt")))
    {
        remove(err_path);
        free(err_path);
    }
    if (files->work != NULL)
        rmdir(files->work);
    free(files->work);
    files->work = NULL;
    prof_spawn_release(files->interrupted ? files->interrupted
                                          : prof_spawn_held());
}
