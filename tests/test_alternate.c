/* The alternation of commands (src/tools/alternate/) that prof-run and
   prof-compare --run share, driven by made-up runs: the order of a round
   for two and three commands, warm-up runs, a command that leaves the
   rounds early, --no-interleave's order, a round that may not start
   (--max-time), a failing run or cleanup, a held signal before and
   during a run, the pairing by round; then prof-compare --run's files
   when a signal interrupts it (real commands, in a child process, which
   ends by the signal). */
#include "check.h"
#include "alternate.h"
#include "compare_run.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* A made-up plan: each command needs need[i] runs; the runs are logged as
   "i/round" in order, and the commands that leave as "i". */
typedef struct
{
    int need[4], runs[4];
    int fail_at;                /* this run (from 1, over all) fails; 0: none */
    int signal_at;              /* this run raises SIGINT (held); 0: none */
    int leave_fails;            /* leaving fails */
    int max_rounds;             /* rounds that may start; 0: no limit */
    int count;
    char log[512], left[64];
} fake;

static int fake_run(void * ctx, int i, int round)
{
    fake * f = (fake *) ctx;
    size_t n = strlen(f->log);
    snprintf(f->log + n, sizeof f->log - n, "%s%d/%d", n ? " " : "", i, round);
    f->count++;
    if (f->signal_at == f->count)
        raise(SIGINT);
    if (f->fail_at == f->count)
        return -1;
    if (round >= 0)
        f->runs[i]++;
    return 0;
}

static int fake_enough(void * ctx, int i)
{
    fake * f = (fake *) ctx;
    return f->runs[i] >= f->need[i];
}

static int fake_leave(void * ctx, int i)
{
    fake * f = (fake *) ctx;
    size_t n = strlen(f->left);
    snprintf(f->left + n, sizeof f->left - n, "%s%d", n ? " " : "", i);
    return f->leave_fails ? -1 : 0;
}

static int fake_next(void * ctx, int round)
{
    fake * f = (fake *) ctx;
    return f->max_rounds == 0 || round < f->max_rounds;
}

/* Run n commands of f (need set): prof_impl_alternate's status. */
static int alternate(prof_alternation * a, fake * f, int n, int interleave,
                     int warmup)
{
    memset(a, 0, sizeof *a);
    a->n = n;
    a->interleave = interleave;
    a->warmup = warmup;
    a->run = fake_run;
    a->enough = fake_enough;
    a->leave = fake_leave;
    a->next_round = fake_next;
    a->ctx = f;
    return prof_impl_alternate(a);
}

static void init(fake * f, int n, int need)
{
    int i;
    memset(f, 0, sizeof *f);
    for (i = 0; i < n; i++)
        f->need[i] = need;
}

/* Run f's n commands: the runs and the commands that left (unless NULL)
   must be as said. prof_impl_alternate's status. */
static int expect(prof_alternation * a, fake * f, int n, int interleave,
                  int warmup, const char * log, const char * left)
{
    int rc = alternate(a, f, n, interleave, warmup);
    CHECK(strcmp(f->log, log) == 0, "runs %s, want %s", f->log, log);
    CHECK(left == NULL || strcmp(f->left, left) == 0, "left %s, want %s (%s)",
          f->left, left, log);
    return rc;
}

static void test_order(void)
{
    prof_alternation a;
    fake f;
    init(&f, 2, 4);
    CHECK(expect(&a, &f, 2, 1, 0, "0/0 1/0 1/1 0/1 0/2 1/2 1/3 0/3", "1 0")
          == 0 && a.rounds == 4 && a.signal == 0, "two: %d rounds", a.rounds);
    init(&f, 3, 3);
    CHECK(expect(&a, &f, 3, 1, 0, "0/0 1/0 2/0 2/1 1/1 0/1 0/2 1/2 2/2",
                 "0 1 2") == 0 && a.rounds == 3, "three: %d rounds", a.rounds);
    CHECK(prof_impl_alt_turn(3, 0, 0) == 0 && prof_impl_alt_turn(3, 1, 0) == 2
          && prof_impl_alt_turn(3, 1, 2) == 0 && prof_impl_alt_turn(2, 2, 1)
          == 1 && prof_impl_alt_turn(2, 3, 1) == 0, "turns");
    /* B leaves after one run, A after 3: the rounds go on without B */
    init(&f, 3, 3);
    f.need[1] = 1;
    CHECK(expect(&a, &f, 3, 1, 0, "0/0 1/0 2/0 2/1 0/1 0/2 2/2", "1 0 2") == 0,
          "one leaves");
    /* the warm-up runs first, each command's in turn */
    init(&f, 2, 2);
    CHECK(expect(&a, &f, 2, 1, 2, "0/-1 0/-1 1/-1 1/-1 0/0 1/0 1/1 0/1", NULL)
          == 0, "warm-up");
    /* not interleaved: all of A (warm-up first), then all of B */
    init(&f, 2, 2);
    f.need[0] = 1;
    CHECK(expect(&a, &f, 2, 0, 1, "0/-1 0/0 1/-1 1/0 1/1", "0 1") == 0, "each");
    /* no round after the second (prof-compare's --max-time); the first
       always runs */
    init(&f, 2, 12);
    f.max_rounds = 2;
    CHECK(expect(&a, &f, 2, 1, 0, "0/0 1/0 1/1 0/1", NULL) == 0
          && a.rounds == 2, "max time: %d rounds", a.rounds);
    init(&f, 2, 12);
    f.max_rounds = 1;
    CHECK(expect(&a, &f, 2, 1, 0, "0/0 1/0", NULL) == 0 && a.rounds == 1,
          "max time, one round: %d rounds", a.rounds);
}

static void test_stops(void)
{
    prof_alternation a;
    fake f;
    /* the 4th run fails: round 1 is not complete, nothing runs after */
    init(&f, 2, 4);
    f.fail_at = 4;
    CHECK(expect(&a, &f, 2, 1, 0, "0/0 1/0 1/1 0/1", "") == -1
          && a.rounds == 1 && a.signal == 0, "a failed run: %d rounds, "
          "signal %d", a.rounds, a.signal);
    init(&f, 2, 2);
    f.fail_at = 2;
    CHECK(expect(&a, &f, 2, 0, 0, "0/0 0/1", "") == -1, "not interleaved");
    init(&f, 2, 1);
    f.leave_fails = 1;                  /* prof-run's cleanup */
    CHECK(expect(&a, &f, 2, 1, 0, "0/0", "0") == -1, "leave fails");
    /* a held signal during the 3rd run: that run ends, no other starts */
    prof_spawn_hold();
    init(&f, 2, 4);
    f.signal_at = 3;
    CHECK(expect(&a, &f, 2, 1, 0, "0/0 1/0 1/1", NULL) == -1
          && a.signal == SIGINT && a.rounds == 1, "signal %d, %d rounds",
          a.signal, a.rounds);
    CHECK(prof_impl_alt_signal(NULL) == SIGINT, "held");
    /* held before anything runs: nothing runs */
    init(&f, 2, 4);
    CHECK(expect(&a, &f, 2, 1, 1, "", NULL) == -1 && a.signal == SIGINT,
          "held before");
    /* during the last run: the runs did not all end well */
    prof_spawn_release(0);
    prof_spawn_hold();
    init(&f, 2, 2);
    f.signal_at = 4;
    CHECK(expect(&a, &f, 2, 1, 0, "0/0 1/0 1/1 0/1", "1") == -1
          && a.signal == SIGINT && a.rounds == 1, "signal %d, %d rounds",
          a.signal, a.rounds);
    prof_spawn_release(0);
}

static void test_pairs(void)
{
    int ra[] = { 0, 1, 2, 4, 5 }, rb[] = { 0, 2, 3, 4 }, ia[5], ib[5];
    int all[] = { 0, 1, 2 };
    prof_spawn_result r;
    CHECK(prof_impl_alt_pairs(ra, 5, rb, 4, ia, ib) == 3, "pairs");
    CHECK(ia[0] == 0 && ib[0] == 0 && ia[1] == 2 && ib[1] == 1 && ia[2] == 3
          && ib[2] == 3, "%d-%d %d-%d %d-%d", ia[0], ib[0], ia[1], ib[1],
          ia[2], ib[2]);
    CHECK(prof_impl_alt_pairs(rb, 4, ra, 5, ia, ib) == 3 && ia[1] == 1
          && ib[1] == 2, "the other way");
    CHECK(prof_impl_alt_pairs(all, 3, all, 3, ia, ib) == 3 && ia[2] == 2
          && ib[2] == 2, "every round");
    CHECK(prof_impl_alt_pairs(all, 3, rb, 0, ia, ib) == 0, "none");
    memset(&r, 0, sizeof r);
    r.interrupted = SIGTERM;
    CHECK(prof_impl_alt_signal(&r) == SIGTERM, "during a run");
}

/* The names in dir, sorted, space-separated, in buf. */
static void listing(const char * dir, char * buf, size_t size)
{
    struct dirent ** names;
    int i, n = scandir(dir, &names, NULL, alphasort);
    buf[0] = '\0';
    for (i = 0; i < n; i++)
    {
        if (names[i]->d_name[0] != '.' || strlen(names[i]->d_name) > 2)
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
                     buf[0] ? " " : "", names[i]->d_name);
        free(names[i]);
    }
    if (n >= 0)
        free(names);
}

/* prof-compare --run, 3 pairs: the new command's 2nd run (round 1, where
   new runs first) sends prof-compare SIGINT. Pair 1 is kept, the run
   interrupted is not; the work directory goes and the process ends by the
   signal. */
static void test_interrupted_files(void)
{
    char dir[64], keep[96], count[128], cmd[512], names[256];
    pid_t pid;
    int status, failures = check_failures;
    snprintf(dir, sizeof dir, "/tmp/test_alternate.%ld", (long) getpid());
    snprintf(keep, sizeof keep, "%s/keep", dir);
    snprintf(count, sizeof count, "%s/count", dir);
    mkdir(dir, 0777);
    snprintf(cmd, sizeof cmd, "echo '{}' >\"$PROFILER_OUT\"; echo x >>%s; "
             "[ $(wc -l <%s) -lt 2 ] || kill -INT $PPID; sleep 1", count,
             count);
    fflush(NULL);
    pid = fork();
    if (pid == 0)
    {
        static prof_run_files files;
        prof_run_plan plan;
        memset(&plan, 0, sizeof plan);
        plan.commands[PROF_OLD] = "echo '{}' >\"$PROFILER_OUT\"";
        plan.commands[PROF_NEW] = cmd;
        plan.pairs = 3;
        plan.keep_dir = keep;
        CHECK(prof_impl_run_pairs(&plan, &files) == -1, "interrupted");
        CHECK(files.interrupted == SIGINT && files.pairs == 1,
              "signal %d, %d pairs", files.interrupted, files.pairs);
        CHECK(files.paths[0][0] != NULL && files.paths[1][0] != NULL
              && files.paths[0][1] == NULL && files.paths[1][1] == NULL,
              "the files of pair 1 only");
        CHECK(prof_impl_run_keep(&plan, &files) == 0, "kept");
        if (check_failures > failures)
            _exit(1);
        prof_impl_run_clean(&files);    /* ends by SIGINT */
        _exit(3);
    }
    CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status)
          && WTERMSIG(status) == SIGINT, "the child's end: status %#x",
          status);
    listing(keep, names, sizeof names);
    CHECK(strcmp(names, "new-01.json old-01.json") == 0, "kept: %s", names);
    remove(count);
    snprintf(cmd, sizeof cmd, "%s/new-01.json", keep);
    remove(cmd);
    snprintf(cmd, sizeof cmd, "%s/old-01.json", keep);
    remove(cmd);
    rmdir(keep);
    CHECK(rmdir(dir) == 0, "%s left non-empty", dir);
}

int main(void)
{
    test_order();
    test_stops();
    test_pairs();
    test_interrupted_files();
    return check_report("test_alternate");
}
