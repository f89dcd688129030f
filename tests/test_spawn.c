/* The command runner (src/tools/common/spawn.c) that prof-compare --run
   uses and a prof-run tool is to reuse: exit status, a command not found told apart
   from one that exits 127, a signal that ended it, extra environment
   (added and replacing), output files, stdin from a file, resource usage,
   the hold of the ending signals between runs, a call before the exec
   (the counters' hook), and a signal the
   caller receives during a run: passed on to the child, the child reaped
   (no zombie), the caller's own handler restored. */
#include "check.h"
#include "internal.h"
#include "../src/tools/common/prof_spawn.h"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

static int sh(const char * script, char * const * env, const char * out,
              prof_spawn_result * r)
{
    char a0[] = "sh", a1[] = "-c", * argv[4];
    prof_spawn_cmd cmd;
    memset(&cmd, 0, sizeof cmd);
    argv[0] = a0; argv[1] = a1; argv[2] = (char *) script; argv[3] = NULL;
    cmd.argv = argv;
    cmd.env = env;
    cmd.stdout_path = out;
    cmd.stderr_path = NULL;
    return prof_spawn_run(&cmd, r);
}

static volatile sig_atomic_t own_handler_ran;
static void own_handler(int sig) { (void) sig; own_handler_ran = 1; }

static void test_interrupt(void)
{
    struct sigaction sa, now;
    prof_spawn_result r;
    char flag[64], script[128];
    pid_t helper;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = own_handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    snprintf(flag, sizeof flag, "/tmp/test_spawn_started.%ld", (long) getpid());
    snprintf(script, sizeof script, ": >%s; exec sleep 30", flag);
    helper = fork();
    if (helper == 0)        /* once the child runs, the caller gets SIGTERM */
    {
        int i;
        for (i = 0; i < 1000 && access(flag, F_OK) != 0; i++)
            usleep(10000);
        kill(getppid(), SIGTERM);
        _exit(0);
    }
    CHECK(sh(script, NULL, NULL, &r) == 0, "ran");
    remove(flag);
    waitpid(helper, NULL, 0);
    CHECK(r.interrupted == SIGTERM && r.end == PROF_SPAWN_KILLED
          && r.status == SIGTERM, "interrupted %d, end %d, status %d",
          r.interrupted, (int) r.end, r.status);
    CHECK(r.wall_s < 25.0, "the child was not ended: %g s", r.wall_s);
    CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "a zombie");
    sigaction(SIGTERM, NULL, &now);
    CHECK(now.sa_handler == own_handler, "the caller's handler not restored");
    CHECK(!own_handler_ran, "the caller's handler ran during the run");
    signal(SIGTERM, SIG_DFL);
}

/* stdin from a file; the hold: signals noted between runs, the caller's
   handler back after the release, and the release ending the process by a
   signal it is given. */
static void test_stdin_and_hold(void)
{
    char in[64], out[64], a0[] = "cat", * argv[2], buf[16] = "";
    prof_spawn_cmd cmd;
    prof_spawn_result r;
    struct sigaction now;
    FILE * f;
    pid_t pid;
    int status;

    snprintf(in, sizeof in, "/tmp/test_spawn_in.%ld", (long) getpid());
    snprintf(out, sizeof out, "/tmp/test_spawn_out.%ld", (long) getpid());
    f = fopen(in, "w");
    CHECK(f != NULL, "cannot write %s", in);
    if (f != NULL)
    {
        fputs("from stdin\n", f);
        fclose(f);
    }
    memset(&cmd, 0, sizeof cmd);
    argv[0] = a0; argv[1] = NULL;
    cmd.argv = argv;
    cmd.stdin_path = in;
    cmd.stdout_path = out;
    CHECK(prof_spawn_run(&cmd, &r) == 0 && r.status == 0, "cat ran");
    f = fopen(out, "r");
    CHECK(f != NULL && fgets(buf, sizeof buf, f) != NULL
          && strcmp(buf, "from stdin\n") == 0, "stdin: \"%s\"", buf);
    if (f != NULL)
        fclose(f);
    remove(in);
    remove(out);

    signal(SIGINT, own_handler);
    prof_spawn_hold();
    CHECK(prof_spawn_held() == 0, "nothing held yet");
    raise(SIGINT);
    CHECK(prof_spawn_held() == SIGINT && !own_handler_ran, "held %d",
          prof_spawn_held());
    prof_spawn_release(0);
    sigaction(SIGINT, NULL, &now);
    CHECK(now.sa_handler == own_handler, "handler not restored");
    signal(SIGINT, SIG_DFL);

    pid = fork();
    if (pid == 0)
    {
        prof_spawn_hold();
        raise(SIGTERM);
        prof_spawn_release(prof_spawn_held());
        _exit(0);       /* not reached */
    }
    CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status)
          && WTERMSIG(status) == SIGTERM, "release did not end by the signal");
}

static long hook_pid;
static int hook_refuses;

static int hook(void * ctx, long pid)
{
    hook_pid = pid;
    *(int *) ctx += 1;
    if (!hook_refuses)
        usleep(1000000);        /* not in the child's wall time */
    return hook_refuses ? -1 : 0;
}

/* before_exec: called once with the child's pid, its time left out of the
   wall time; refusing, the command never runs. */
static void test_before_exec(void)
{
    char flag[64], script[128];
    prof_spawn_cmd cmd;
    prof_spawn_result r;
    char a0[] = "sh", a1[] = "-c", * argv[4];
    int calls = 0;
    snprintf(flag, sizeof flag, "/tmp/test_spawn_hook.%ld", (long) getpid());
    snprintf(script, sizeof script, ": >%s", flag);
    argv[0] = a0; argv[1] = a1; argv[2] = script; argv[3] = NULL;
    memset(&cmd, 0, sizeof cmd);
    cmd.argv = argv;
    cmd.before_exec = hook;
    cmd.ctx = &calls;
    CHECK(prof_spawn_run(&cmd, &r) == 0 && r.end == PROF_SPAWN_EXITED
          && r.status == 0 && calls == 1 && hook_pid > 0, "hook ran");
    CHECK(r.wall_s < 0.9, "the hook's second is in the wall time: %g s",
          r.wall_s);
    CHECK(access(flag, F_OK) == 0, "the command ran");
    remove(flag);
    hook_refuses = 1;
    CHECK(prof_spawn_run(&cmd, &r) == -1 && r.end == PROF_SPAWN_NOT_STARTED
          && r.status == ECANCELED && calls == 2, "refused: end %d status %d",
          (int) r.end, r.status);
    CHECK(access(flag, F_OK) != 0, "the command ran although refused");
    CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "a zombie");
}

int main(void)
{
    char foo[] = "PROF_SPAWN_FOO=bar", bar[] = "PROF_SPAWN_NEW=1", path[64];
    char * env[3], a0[] = "/nonexistent/prog", * argv[2], how[128];
    prof_spawn_cmd cmd;
    prof_spawn_result r;
    FILE * f;

    CHECK(sh("exit 3", NULL, NULL, &r) == 0 && r.end == PROF_SPAWN_EXITED
          && r.status == 3, "exit 3: end %d status %d", (int) r.end, r.status);
    prof_spawn_describe(&r, how, sizeof how);
    CHECK(strcmp(how, "exit status 3") == 0, "%s", how);
    CHECK(sh("exit 127", NULL, NULL, &r) == 0 && r.end == PROF_SPAWN_EXITED
          && r.status == 127, "exit 127 is an exit");
    CHECK(sh("kill -9 $$", NULL, NULL, &r) == 0 && r.end == PROF_SPAWN_KILLED
          && r.status == 9, "killed: end %d status %d", (int) r.end, r.status);
    prof_spawn_describe(&r, how, sizeof how);
    CHECK(strncmp(how, "killed by signal 9", 18) == 0, "%s", how);

    argv[0] = a0; argv[1] = NULL;
    memset(&cmd, 0, sizeof cmd);
    cmd.argv = argv;
    CHECK(prof_spawn_run(&cmd, &r) == -1 && r.end == PROF_SPAWN_NOT_STARTED
          && r.status == ENOENT, "not found: end %d status %d", (int) r.end,
          r.status);
    prof_spawn_describe(&r, how, sizeof how);
    CHECK(strcmp(how, "not found") == 0, "%s", how);

    /* environment: replaced and added; the caller's own is unchanged */
    setenv("PROF_SPAWN_FOO", "old", 1);
    env[0] = foo; env[1] = bar; env[2] = NULL;
    CHECK(sh("test \"$PROF_SPAWN_FOO\" = bar && test \"$PROF_SPAWN_NEW\" = 1"
             " && test -n \"$PATH\"", env, NULL, &r) == 0 && r.status == 0,
          "environment: status %d", r.status);
    CHECK(strcmp(getenv("PROF_SPAWN_FOO"), "old") == 0, "caller's environment");

    /* output to a file; resource usage of the child */
    snprintf(path, sizeof path, "/tmp/test_spawn.%ld", (long) getpid());
    CHECK(sh("echo hello; i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done",
             NULL, path, &r) == 0 && r.status == 0, "output");
    f = fopen(path, "r");
    CHECK(f != NULL && fgets(how, sizeof how, f) && strcmp(how, "hello\n") == 0,
          "stdout file: %s", how);
    if (f != NULL)
        fclose(f);
    remove(path);
    CHECK(r.wall_s > 0.0 && r.max_rss_kb > 0 && r.user_s >= 0.0
          && r.sys_s >= 0.0 && r.minor_faults > 0, "usage: %g s, %ld kB, %ld faults",
          r.wall_s, r.max_rss_kb, r.minor_faults);
    CHECK(sh("true", NULL, "/nonexistent/dir/out", &r) == -1
          && r.end == PROF_SPAWN_NOT_STARTED && r.status == ENOENT,
          "unwritable output: end %d status %d", (int) r.end, r.status);

    /* a script without #!: run by sh, as execvp does */
    snprintf(path, sizeof path, "/tmp/test_spawn_script.%ld", (long) getpid());
    f = fopen(path, "w");
    if (f != NULL)
    {
        fputs("exit 7\n", f);
        fclose(f);
    }
    chmod(path, 0755);
    argv[0] = path; argv[1] = NULL;
    memset(&cmd, 0, sizeof cmd);
    cmd.argv = argv;
    CHECK(prof_spawn_run(&cmd, &r) == 0 && r.end == PROF_SPAWN_EXITED
          && r.status == 7, "a script without #!: end %d status %d",
          (int) r.end, r.status);
    remove(path);

    test_interrupt();
    test_stdin_and_hold();
    test_before_exec();
    return check_report("test_spawn");
}
