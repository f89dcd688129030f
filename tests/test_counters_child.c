/* prof_impl_counters_open_child: a child process counted from its exec on,
   its own children included (inherit), for prof-run. The child is this
   program run again (/proc/self/exe) in a role: touch N fresh pages (page
   faults >= N), sleep (context switches), have a grandchild touch them
   (inherit), or do nothing after touching pages before its exec (not
   counted). Also: a refused perf_event_open gives n/a with the reason, and
   bad input a message. */
#include "check.h"
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <sys/wait.h>

enum { PAGES = 512, SLEEPS = 20, BEFORE_EXEC = 4096 };

/* What the child does once exec'd. */
static int child_role(const char * role)
{
    int k, status;
    pid_t pid;

    if (strcmp(role, "touch") == 0)
        return check_fault_pages(PAGES);
    if (strcmp(role, "sleep") == 0)
    {
        for (k = 0; k < SLEEPS; k++)
            sleep_ms(1);
        return 0;
    }
    if (strcmp(role, "grandchild") == 0)
    {
        if ((pid = fork()) == 0)
            _exit(check_fault_pages(PAGES));
        return waitpid(pid, &status, 0) == pid && status == 0 ? 0 : 1;
    }
    return strcmp(role, "nothing") == 0 ? 0 : 2;
}

/* Fork a child that waits on a pipe, open the set for it, let it exec
   argv (after touching `before` fresh pages, which must not count), wait
   for it and read. Returns what the open returned; *status gets the
   child's wait status. */
static int count_child(char * const * argv, int before, const char * events,
                       prof_counters * c, prof_counter_value * v, int * status)
{
    int fd[2], r;
    pid_t pid;
    char byte;

    if (pipe(fd) != 0 || (pid = fork()) < 0)
        return -100;
    if (pid == 0)
    {
        close(fd[1]);
        if (read(fd[0], &byte, 1) != 1)
            _exit(126);
        close(fd[0]);
        if (before > 0)
            check_fault_pages(before);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fd[0]);
    r = prof_impl_counters_open_child(c, events, (long) pid);
    if (write(fd[1], "x", 1) != 1)
        r = -101;
    close(fd[1]);
    waitpid(pid, status, 0);
    if (r >= 0)
        CHECK(prof_counters_read(c, v) == 0, "read after the child exited");
    return r;
}

static int value_of(const prof_counters * c, const prof_counter_value * v,
                    const char * name, double * x)
{
    int i = prof_counters_find(c, name);
    *x = i >= 0 ? v[i].value : NAN;
    return i >= 0 && prof_counters_available(c, i);
}

static void test_real(char * self)
{
    static const char * ev = "task-clock,page-faults,context-switches";
    char role[16];
    char * argv[] = { self, role, NULL };
    prof_counters c;
    prof_counter_value v[PROF_COUNTERS_MAX];
    double faults, switches, task;
    int r, status;
    capture_t cap;

    strcpy(role, "touch");
    r = count_child(argv, 0, ev, &c, v, &status);
    CHECK(r == 3, "three events for the child: %d", r);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    CHECK(value_of(&c, v, "page-faults", &faults) && faults >= PAGES,
          "child touching %d pages: %g page faults", PAGES, faults);
    CHECK(value_of(&c, v, "task-clock", &task) && task > 0, "task-clock %g", task);
    printf("child touching %d pages: %g page faults, task-clock %g ns\n", PAGES, faults, task);
    /* counting since the exec: a start is refused, a stop works */
    capture_begin(&cap, 2);
    r = prof_counters_start(&c);
    capture_end(&cap);
    CHECK(r == PROF_COUNTERS_ESTATE, "start on a child's set: %d", r);
    CHECK(prof_counters_stop(&c) == 0, "stop on a child's set");
    prof_counters_close(&c);

    strcpy(role, "sleep");
    r = count_child(argv, 0, ev, &c, v, &status);
    CHECK(value_of(&c, v, "context-switches", &switches) && switches >= SLEEPS,
          "child sleeping %d times: %g context switches", SLEEPS, switches);
    printf("child sleeping %d times: %g context switches\n", SLEEPS, switches);
    prof_counters_close(&c);

    strcpy(role, "grandchild");
    r = count_child(argv, 0, ev, &c, v, &status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    CHECK(value_of(&c, v, "page-faults", &faults) && faults >= PAGES,
          "grandchild touching %d pages: %g page faults (inherit)", PAGES, faults);
    printf("grandchild touching %d pages: %g page faults\n", PAGES, faults);
    prof_counters_close(&c);

    /* What the child does before its exec is not counted. */
    strcpy(role, "nothing");
    r = count_child(argv, BEFORE_EXEC, ev, &c, v, &status);
    CHECK(value_of(&c, v, "page-faults", &faults) && faults < BEFORE_EXEC,
          "%d pages touched before exec: %g page faults counted", BEFORE_EXEC, faults);
    printf("child touching %d pages before its exec, nothing after: %g page faults\n",
           BEFORE_EXEC, faults);
    prof_counters_close(&c);
}

static int refuse(void * attr, long pid, int group_fd)
{
    (void) attr; (void) pid; (void) group_fd;
    errno = EACCES;
    return -1;
}

/* perf_event_open refused: every event n/a with its reason, NaN values;
   the child still runs. Also bad input. */
static void test_refused(void)
{
    char true_path[] = "/bin/true";
    char * argv[] = { true_path, NULL };
    prof_counters c;
    prof_counter_value v[PROF_COUNTERS_MAX];
    char line[1024];
    capture_t cap;
    const char * out;
    int r, status, i;

    prof_impl_perf_open = refuse;
    r = count_child(argv, 0, "task-clock,page-faults", &c, v, &status);
    prof_impl_perf_open = prof_impl_perf_open_syscall;
    CHECK(r == 0, "nothing available: %d", r);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child ran: status %d", status);
    for (i = 0; i < 2; i++)
        CHECK(isnan(v[i].value) && prof_counters_errno(&c, i) == EACCES
              && strlen(prof_counters_reason(&c, i)) > 20, "%s: %g, errno %d, reason %s",
              prof_counters_name(&c, i), v[i].value, prof_counters_errno(&c, i),
              prof_counters_reason(&c, i));
    prof_counters_context(&c, line, sizeof line);
    CHECK(strstr(line, "none counting") != NULL && strstr(line, "n/a (EACCES)") != NULL,
          "context: %s", line);
    prof_counters_close(&c);

    capture_begin(&cap, 2);
    r = prof_impl_counters_open_child(&c, NULL, 0);
    out = capture_end(&cap);
    CHECK(r == PROF_COUNTERS_EINVAL && strstr(out, "profiler: ") != NULL,
          "pid 0: %d [%s]", r, out);
    capture_begin(&cap, 2);
    r = prof_impl_counters_open_child(NULL, NULL, 12345);
    out = capture_end(&cap);
    CHECK(r == PROF_COUNTERS_EINVAL && strstr(out, "NULL") != NULL, "NULL set: %d [%s]", r, out);
    capture_begin(&cap, 2);
    r = prof_impl_counters_open_child(&c, "bogus", 12345);
    out = capture_end(&cap);
    CHECK(r == PROF_COUNTERS_EINVAL && strstr(out, "unknown event") != NULL,
          "unknown event: %d [%s]", r, out);
}

int main(int argc, char ** argv)
{
    prof_counters probe;
    int real;

    if (argc > 1)
        return child_role(argv[1]);
    real = prof_counters_open(&probe, "task-clock,page-faults") == 2;
    prof_counters_close(&probe);
    if (real)
    {
        char self[4096];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        CHECK(n > 0, "readlink /proc/self/exe");
        self[n > 0 ? n : 0] = '\0';
        test_real(self);
    }
    else
        printf("SKIP counting a child: page-faults or task-clock unavailable here\n");
    test_refused();
    return check_report("test_counters_child");
}
