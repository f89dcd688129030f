/* exec() ends the process image without exit(): the recorder flushes every
   buffer before each function of the exec family.
   For each of execve, execv, execvp, execvpe, execl, execle, execlp and
   fexecve, a child records zones and execs /bin/true (or "true" through
   PATH): its trace holds every zone and an end record. An exec that fails
   returns its error and tracing goes on. Built twice: dynamically linked
   (the wrappers call the C library's functions) and, where the toolchain
   can, statically (they call the system call themselves).
   Usage: test_trace_exec PREFIX (its files are PREFIX-*.ptrace) */
#define PROF_TRACE 1
#include "trace_util.h"

#include <errno.h>
#include <fcntl.h>

extern char ** environ;

static const char * prefix;
static char path[512];

static void do_exec(int variant)
{
    char * argv[] = { (char *) "true", NULL };
    switch (variant)
    {
    case 0: execve("/bin/true", argv, environ); break;
    case 1: execv("/bin/true", argv); break;
    case 2: execvp("true", argv); break;
    case 3: execvpe("true", argv, environ); break;
    case 4: execl("/bin/true", "true", (char *) NULL); break;
    case 5: execle("/bin/true", "true", (char *) NULL, environ); break;
    case 6: execlp("true", "true", (char *) NULL); break;
    case 7:
    {
        int fd = open("/bin/true", O_RDONLY);
        fexecve(fd, argv, environ);
        break;
    }
    default: break;
    }
}

static int variant;

static void child_exec(void)
{
    CHECK(prof_trace_open(path) == 0, "open");
    zones(7);
    PROF_ZONE_BEGIN("open at exec");
    do_exec(variant);
    CHECK(0, "exec variant %d failed: %s", variant, strerror(errno));
}

static void child_failed_exec(void)
{
    char * argv[] = { (char *) "no-such-program", NULL };
    CHECK(prof_trace_open(path) == 0, "open");
    zones(2);
    errno = 0;
    CHECK(execvp("no-such-program-of-profiler", argv) == -1 && errno == ENOENT,
          "execvp of a missing program: errno %d", errno);
    CHECK(execv("/no/such/program", argv) == -1 && errno == ENOENT,
          "execv of a missing program: errno %d", errno);
    zones(3);
}

int main(int argc, char ** argv)
{
    pt_trace t;
    if (argc < 2)
        return 2;
    prefix = argv[1];
    for (variant = 0; variant < 8; variant++)
    {
        int st;
        snprintf(path, sizeof path, "%s-%d.ptrace", prefix, variant);
        st = run_child(child_exec);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "variant %d: status %d",
              variant, st);
        CHECK(load_trace(path, &t, NULL) == 0 && count_zones(&t, "z", -1, 0) == 7
              && count_zones(&t, "open at exec", -1, PT_NO_END) == 1 && t.has_end,
              "variant %d: %zu zones written before exec", variant,
              count_zones(&t, "z", -1, 0));
        pt_free(&t);
        remove(path);
    }
    snprintf(path, sizeof path, "%s-failed.ptrace", prefix);
    CHECK(run_child(child_failed_exec) == 0, "failed exec");
    CHECK(load_trace(path, &t, NULL) == 0 && count_zones(&t, "z", -1, 0) == 5
          && t.has_end, "after a failed exec: %zu zones", count_zones(&t, "z", -1, 0));
    pt_free(&t);
    remove(path);
    return check_report("test_trace_exec");
}
