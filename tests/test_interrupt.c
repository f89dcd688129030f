/* Ctrl-C and SIGTERM during a real tiny suite (this program run again as
   "child": two quick benchmarks, then a slow one that says when it has
   started): --out then holds the two that finished, marked partial, in
   JSON, CSV and markdown, and the program ends by the signal (a shell
   sees 130 for SIGINT); no temporary file is left. A second signal during
   the partial write leaves the old file whole. With worker processes:
   SIGINT to the parent while a worker runs ends both, reaped (no zombie
   reaches this process, made the subreaper of orphans): in the first
   worker the old file stays whole, in the second the file holds what the
   first finished, marked partial; SIGINT to a worker alone fails that
   worker, and the parent writes the others' results whole. */
#include "check.h"
#include "bench.h"
#include "compare.h"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void quick(void * arg, ulong count)
{
    ulong i, x = 0;
    (void) arg;
    for (i = 0; i < count; i++)
    {
        x += i;
        PROF_DO_NOT_OPTIMIZE(x);
    }
}

/* 20 ms an iteration; the first call says so in INTERRUPT_MARK (this
   process's pid and its worker number, -1 in no worker), and with
   INTERRUPT_SELF sends this process SIGINT. */
static void slow(void * arg, ulong count)
{
    static int started;
    const char * mark = getenv("INTERRUPT_MARK");
    ulong i;
    (void) arg;
    if (!started++)
    {
        char tmp[300], pid[32];
        if (mark != NULL)
        {
            snprintf(tmp, sizeof tmp, "%s.%ld", mark, (long) getpid());
            const char * w = getenv("PROFILER_WORKER");
            snprintf(pid, sizeof pid, "%ld %d\n", (long) getpid(),
                     w && strchr(w, ',') ? atoi(strchr(w, ',') + 1) : -1);
            check_write_file(tmp, pid);     /* whole, then renamed */
            rename(tmp, mark);
        }
        if (getenv("INTERRUPT_SELF") != NULL)
            kill(getpid(), SIGINT);
    }
    for (i = 0; i < count; i++)
        sleep_ms(20);
}

/* A second Ctrl-C in the middle of the partial write. */
static void second_signal(void)
{
    kill(getpid(), SIGINT);
}

static int child(int argc, char ** argv)
{
    prof_bench * b = prof_bench_new();
    int rc;
    if (prof_bench_args(b, argc, argv) != 0)
    {
        prof_bench_free(b);
        return 2;
    }
    if (getenv("INTERRUPT_TWICE") != NULL)
        prof_impl_partial_hook = second_signal;
    prof_bench_run(b, "a", quick, NULL);
    prof_bench_run(b, "b", quick, NULL);
    prof_bench_run(b, "slow", slow, NULL);
    rc = prof_bench_finish(b);
    prof_bench_free(b);
    return rc == 0 ? 0 : 1;
}

static char self[512], dir[64];

/* A fresh directory for a case, and the old file of --out in it. */
static void fresh(const char * name, const char * out, const char * old)
{
    char cmd[200], path[200];
    snprintf(dir, sizeof dir, "interrupt_%s", name);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s'", dir, dir);
    CHECK(system(cmd) == 0, "%s", cmd);
    snprintf(path, sizeof path, "%s/%s", dir, out);
    check_write_file(path, old);
}

/* Run the child with args (NULL-ended; stderr to dir/err), the
   environment's INTERRUPT_* as given. */
static pid_t start(const char * const * args, const char * env)
{
    char * argv[8], mark[100], err[100];
    int i;
    pid_t pid;
    snprintf(mark, sizeof mark, "%s/mark", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    fflush(NULL);
    pid = fork();
    if (pid == 0)
    {
        argv[0] = self;
        argv[1] = (char *) "child";
        for (i = 0; args[i] != NULL && i < 5; i++)
            argv[i + 2] = (char *) args[i];
        argv[i + 2] = NULL;
        setenv("INTERRUPT_MARK", mark, 1);
        if (env != NULL)
            putenv((char *) env);
        if (env != NULL && strcmp(env, "INTERRUPT_SELF=twice") == 0)
            putenv((char *) "INTERRUPT_TWICE=1");
        if (freopen(err, "w", stderr) == NULL)
            _exit(126);
        execv(self, argv);
        _exit(127);
    }
    return pid;
}

/* The pid in dir/mark once the slow benchmark started (in worker k, if k
   >= 0; 30 s at most). */
static long wait_mark(int k)
{
    char path[100];
    const char * s = NULL;
    int tries;
    snprintf(path, sizeof path, "%s/mark", dir);
    for (tries = 0; tries < 3000; tries++)
    {
        s = check_file_text(path);
        if (s != NULL && (k < 0 || (strchr(s, ' ') && atoi(strchr(s, ' ')) == k)))
            break;
        s = NULL;
        sleep_ms(10);
    }
    CHECK(s != NULL, "%s: the slow benchmark never started (worker %d)", dir,
          k);
    return s != NULL ? atol(s) : -1;
}

/* The files of dir other than those named: temporary ones left behind. */
static int strays(const char * keep)
{
    DIR * d = opendir(dir);
    struct dirent * e;
    int n = 0;
    while (d != NULL && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' || strstr(e->d_name, ".tmp") != NULL)
            n += strstr(keep, e->d_name) == NULL;
    if (d != NULL)
        closedir(d);
    return n;
}

static const char * text_of(const char * name)
{
    char path[200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return check_file_text(path);
}

/* No orphan reached this process (the subreaper) within a second: the
   suite's parent reaped its workers. */
static void no_orphans(const char * what)
{
    int tries, status;
    pid_t p = 0;
    for (tries = 0; tries < 20 && p <= 0; tries++)
    {
        p = waitpid(-1, &status, WNOHANG);
        if (p < 0)
            break;          /* ECHILD: none */
        sleep_ms(50);
    }
    CHECK(p < 0, "%s: an orphan (pid %ld) reached the subreaper", what,
          (long) p);
}

static void check_partial(const char * name, const char * ext, int sig)
{
    char out[32], arg[160];
    const char * args[3];
    const char * s;
    int status;
    pid_t pid;
    snprintf(out, sizeof out, "r.%s", ext);
    fresh(name, out, "the old file\n");
    snprintf(arg, sizeof arg, "--out=%s/%s", dir, out);
    args[0] = arg;
    args[1] = "--format=none";
    args[2] = NULL;
    pid = start(args, NULL);
    wait_mark(-1);
    kill(pid, sig);
    CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status)
          && WTERMSIG(status) == sig, "%s: status %d, wanted death by %d",
          name, status, sig);
    s = text_of(out);
    CHECK(s != NULL && strstr(s, "slow") == NULL, "%s: slow is in it", name);
    if (strcmp(ext, "json") == 0)
    {
        prof_result_file rf;
        char msg[200];
        CHECK(s && prof_impl_results_parse(s, strlen(s), &rf, msg, sizeof msg)
              == 0 && rf.count == 2 && strcmp(rf.series[0].name, "a") == 0
              && strcmp(rf.series[1].name, "b") == 0, "%s: %s", name, msg);
        prof_impl_results_free(&rf);
        CHECK(s && strstr(s, "\"profiler_partial\": true,\n    "
                          "\"profiler_partial_why\": \"interrupted by "), "%s: "
              "not marked partial:\n%.3000s", name, s ? s : "");
    }
    else if (strcmp(ext, "csv") == 0)
        CHECK(s && check_count(s, "\n") == 4 && strstr(s, "\n\"a\",")
              && strstr(s, "\n\"b\",") && strstr(s, "\n# partial: interrupted "
              "by SIGINT (Ctrl-C): the 2 benchmarks that finished\n"),
              "%s:\n%s", name, s ? s : "");
    else
        CHECK(s && strstr(s, "`a`") && strstr(s, "`b`") && strstr(s,
              "\n**partial**: interrupted by SIGTERM: the 2 benchmarks that "
              "finished\n"), "%s:\n%s", name, s ? s : "");
    s = text_of("err");
    CHECK(s && strstr(s, "the 2 benchmarks that finished written to \""),
          "%s: stderr: %s", name, s ? s : "");
    CHECK(strays("mark err r.json r.csv r.md") == 0, "%s: files left", name);
}

static void check_twice(void)
{
    const char * args[] = { "--out=interrupt_twice/r.json", "--format=none",
                            NULL };
    const char * s;
    int status;
    pid_t pid;
    fresh("twice", "r.json", "the old file, whole\n");
    pid = start(args, "INTERRUPT_SELF=twice");
    CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status)
          && WTERMSIG(status) == SIGINT, "twice: status %d", status);
    s = text_of("r.json");
    CHECK(s && strcmp(s, "the old file, whole\n") == 0, "twice: the old file "
          "is now: %.200s", s ? s : "(gone)");
    CHECK(strays("mark err r.json") == 0, "twice: files left");
}

/* Run the suite with 3 workers and --out in dir (made for name), and send
   SIGINT to the parent while worker k runs the slow benchmark: the parent
   ends by it, its workers reaped. */
static void stop_parent(const char * name, int k)
{
    char out[100];
    const char * args[4];
    int status;
    long worker;
    pid_t pid;
    fresh(name, "r.json", "the old file\n");
    snprintf(out, sizeof out, "--out=%s/r.json", dir);
    args[0] = out;
    args[1] = "--format=none";
    args[2] = "--processes=3";
    args[3] = NULL;
    pid = start(args, NULL);
    worker = wait_mark(k);
    CHECK(worker > 0 && worker != (long) pid, "%s: the mark is a worker's: "
          "%ld", name, worker);
    kill(pid, SIGINT);
    CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status)
          && WTERMSIG(status) == SIGINT, "%s: status %d", name, status);
    no_orphans(name);
    CHECK(worker > 0 && kill((pid_t) worker, 0) != 0, "%s: the worker %ld "
          "lives on", name, worker);
    CHECK(strays("mark err r.json") == 0, "%s: files left", name);
}

/* SIGINT to the parent in its first worker: nothing finished, the old
   file stays whole. */
static void check_parent(void)
{
    const char * s;
    stop_parent("parent", 0);
    s = text_of("r.json");
    CHECK(s && strcmp(s, "the old file\n") == 0, "parent: the old file is "
          "now: %.200s", s ? s : "(gone)");
    s = text_of("err");
    CHECK(s && strstr(s, ": no benchmark finished; \"interrupt_parent/r.json\""
          " is left as it was"), "parent: stderr: %s", s ? s : "");
}

/* SIGINT to the parent in its second worker: the first ran to the end, so
   the file holds what it finished, from one process, marked partial. */
static void check_salvage(void)
{
    prof_result_file rf;
    char msg[200];
    const char * s;
    stop_parent("salvage", 1);
    s = text_of("r.json");
    CHECK(s && prof_impl_results_parse(s, strlen(s), &rf, msg, sizeof msg) == 0
          && rf.count == 3 && strcmp(rf.series[2].name, "slow") == 0
          && rf.series[0].count >= 11 && rf.series[2].count >= 11,
          "salvage: %s: %.300s", msg, s ? s : "(gone)");
    if (s && rf.count > 0)
        prof_impl_results_free(&rf);
    CHECK(s && strstr(s, "\"profiler_partial\": true") && strstr(s,
          "\"profiler_processes\": 1,"), "salvage: not partial: %.1500s",
          s ? s : "");
    s = text_of("err");
    CHECK(s && strstr(s, "interrupted: the benchmarks the 1 worker process "
                      "that ran to the end finished go to the file")
          && strstr(s, "the 3 benchmarks that finished written to")
          && !strstr(s, "no worker process ran it"), "salvage: stderr: %s",
          s ? s : "");
}

/* SIGINT to a worker alone: that worker fails, the run goes on. */
static void check_worker(void)
{
    const char * args[] = { "--out=interrupt_worker/r.json", "--format=none",
                            "--processes=3", NULL };
    const char * s;
    int status;
    long worker;
    pid_t pid;
    fresh("worker", "r.json", "the old file\n");
    pid = start(args, NULL);
    worker = wait_mark(0);
    CHECK(worker > 0 && worker != (long) pid, "the mark is a worker's: %ld",
          worker);
    kill((pid_t) worker, SIGINT);
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status)
          && WEXITSTATUS(status) == 1, "worker: status %d", status);
    no_orphans("worker");
    s = text_of("err");
    CHECK(s && strstr(s, "was killed by signal 2 (Interrupt) while running "
          "\"slow\""), "worker: stderr: %s", s ? s : "");
    s = text_of("r.json");
    CHECK(s && strstr(s, "\"run_name\": \"slow\"") && strstr(s, "\"name\": \"a\"")
          && !strstr(s, "profiler_partial"), "worker: the file: %.300s",
          s ? s : "(gone)");
    CHECK(strays("mark err r.json") == 0, "worker: files left");
}

int main(int argc, char ** argv)
{
    ssize_t n;
    if (argc > 1 && strcmp(argv[1], "child") == 0)
        return child(argc, argv);   /* "child" is the program's own word:
                                       workers get it too */
    n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        prof_impl_copy(self, sizeof self, argv[0]);
    else
        self[n] = '\0';
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    check_partial("json", "json", SIGINT);
    check_partial("csv", "csv", SIGINT);
    check_partial("md", "md", SIGTERM);
    check_twice();
    check_parent();
    check_salvage();
    check_worker();
    CHECK(system("rm -rf interrupt_*") == 0, "clean up");
    return check_report("test_interrupt");
}
