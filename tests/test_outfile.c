/* Output files (src/core/outfile.c): a new file appears only when complete; an
   existing one survives an abort, a full disk (RLIMIT_FSIZE) and an
   unwritable directory; special files are written in place; no temporary
   file is left behind; out of memory is a message, for stdout too; the
   same-file test sees through other names; and the whole-file reader
   (src/core/grow.c) with its limit, on a file and on a pipe. */
#include "check.h"
#include "internal.h"
#include "fail_alloc.h"

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char dir[256];

/* The whole file, or "(missing)". */
static const char * get(const char * path)
{
    const char * s = check_file_text(path);
    return s != NULL ? s : "(missing)";
}

/* Number of entries in the test directory (temporary files included). */
static int entries(void)
{
    DIR * d = opendir(dir);
    struct dirent * e;
    int n = 0;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void test_new_and_replace(void)
{
    prof_impl_outfile o;
    char path[300];
    snprintf(path, sizeof path, "%s/new.txt", dir);
    CHECK(prof_impl_outfile_open(&o, path) == 0, "open");
    fputs("half", o.f);
    fflush(o.f);
    CHECK(strcmp(get(path), "(missing)") == 0, "visible before commit: %s",
          get(path));
    fputs(" and whole", o.f);
    CHECK(prof_impl_outfile_commit(&o) == 0, "commit");
    CHECK(strcmp(get(path), "half and whole") == 0, "content: %s", get(path));
    CHECK(entries() == 1, "%d entries", entries());

    /* replacing keeps nothing of the old */
    CHECK(prof_impl_outfile_open(&o, path) == 0, "reopen");
    fputs("second", o.f);
    CHECK(strcmp(get(path), "half and whole") == 0, "old kept while writing");
    CHECK(prof_impl_outfile_commit(&o) == 0, "commit");
    CHECK(strcmp(get(path), "second") == 0, "content: %s", get(path));

    /* abort: the old file stays, the temporary goes */
    CHECK(prof_impl_outfile_open(&o, path) == 0, "reopen");
    fputs("never", o.f);
    prof_impl_outfile_abort(&o);
    CHECK(strcmp(get(path), "second") == 0, "after abort: %s", get(path));
    CHECK(entries() == 1, "%d entries after abort", entries());
    remove(path);
}

/* A full disk, made with RLIMIT_FSIZE in a child: writes past 64 bytes
   fail with EFBIG. The old file must come through whole. */
static void test_full_disk(void)
{
    char path[300];
    pid_t pid;
    int status;
    snprintf(path, sizeof path, "%s/kept.json", dir);
    check_write_file(path, "{\"old\": true}\n");
    fflush(NULL);
    pid = fork();
    if (pid == 0)
    {
        struct rlimit rl = { 64, 64 };
        prof_impl_outfile o;
        int i, rc;
        signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &rl);
        if (prof_impl_outfile_open(&o, path) != 0)
            _exit(3);
        for (i = 0; i < 1000; i++)
            fputs("0123456789", o.f);
        rc = prof_impl_outfile_commit(&o);
        _exit(rc == -1 ? 0 : 4);
    }
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d",
          status);
    CHECK(strcmp(get(path), "{\"old\": true}\n") == 0, "old file: %s",
          get(path));
    CHECK(entries() == 1, "%d entries after a full disk", entries());
    remove(path);
}

/* A read-only directory: the open fails with the reason and the file in
   it is kept. Root ignores the mode, so the child that tries drops to
   nobody (65534) first when it is root, as CI is. */
static void test_read_only_dir(void)
{
    char ro[300], path[300];
    pid_t pid;
    int status;
    snprintf(ro, sizeof ro, "%s/ro", dir);
    snprintf(path, sizeof path, "%s/ro/x", dir);
    mkdir(ro, 0755);
    check_write_file(path, "KEEP");
    chmod(ro, 0555);
    fflush(NULL);
    pid = fork();
    if (pid == 0)
    {
        prof_impl_outfile o;
        capture_t cap;
        const char * err;
        int rc;
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0
                               || setuid(65534) != 0))
            _exit(5);
        capture_begin(&cap, 2);
        rc = prof_impl_outfile_open(&o, path);
        err = capture_end(&cap);
        if (rc == 0)
        {
            prof_impl_outfile_abort(&o);
            _exit(3);
        }
        _exit(strstr(err, "profiler: cannot open \"") && strstr(err,
              "Permission denied") ? 0 : 4);
    }
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "read-only directory: "
          "child exit %d (3: opened, 4: wrong message, 5: cannot drop root), "
          "status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1, status);
    CHECK(strcmp(get(path), "KEEP") == 0, "read-only directory: %s", get(path));
    chmod(ro, 0755);
    remove(path);
    rmdir(ro);
}

static void test_errors(void)
{
    prof_impl_outfile o;
    capture_t cap;
    const char * err;

    capture_begin(&cap, 2);
    CHECK(prof_impl_outfile_open(&o, "/nonexistent-dir/x.json") == -1,
          "unwritable directory");
    CHECK(prof_impl_outfile_open(&o, "") == -1, "empty name");
    CHECK(prof_impl_outfile_open(&o, NULL) == -1, "NULL name");
    err = capture_end(&cap);
    CHECK(strstr(err, "profiler: cannot open \"/nonexistent-dir/x.json\" for "
                      "writing: No such file or directory\n"), "%s", err);
    CHECK(strstr(err, "profiler: no output file name given\n"), "%s", err);

    /* special files are written in place: /dev/full reports the error */
    if (access("/dev/full", W_OK) == 0)
    {
        CHECK(prof_impl_outfile_open(&o, "/dev/full") == 0 && o.tmp == NULL,
              "/dev/full in place");
        fputs("x", o.f);
        capture_begin(&cap, 2);
        CHECK(prof_impl_outfile_commit(&o) == -1, "/dev/full commit");
        err = capture_end(&cap);
        CHECK(strstr(err, "profiler: writing \"/dev/full\" failed: No space "
                          "left on device\n"), "%s", err);
    }
    CHECK(prof_impl_outfile_open(&o, "/dev/null") == 0 && o.tmp == NULL,
          "/dev/null in place");
    CHECK(prof_impl_outfile_commit(&o) == 0, "/dev/null commit");
    CHECK(access("/dev/null", W_OK) == 0, "/dev/null still there");
}

/* Out of memory when opening: a message and -1, nothing to write to,
   for stdout ("-") as for a file. */
static void test_out_of_memory(void)
{
    static const char * names[2] = { "-", "/tmp/never-written.json" };
    prof_impl_outfile o;
    capture_t cap;
    const char * err;
    char want[128];
    int k, rc;
    for (k = 0; k < 2; k++)
    {
        capture_begin(&cap, 2);
        fail_alloc_after(0);
        rc = prof_impl_outfile_open(&o, names[k]);
        fail_alloc_after(-1);
        err = capture_end(&cap);
        snprintf(want, sizeof want, "profiler: cannot write \"%s\": out of "
                 "memory\n", names[k]);
        CHECK(rc == -1 && o.f == NULL && o.path == NULL, "%s: rc %d",
              names[k], rc);
        CHECK(strstr(err, want) != NULL, "%s: message [%s]", names[k], err);
    }
}

static void test_same_file(void)
{
    char a[300], b[300], c[300], d[300];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/./a", dir);
    snprintf(c, sizeof c, "%s/link", dir);
    snprintf(d, sizeof d, "%s/other", dir);
    check_write_file(a, "a");
    check_write_file(d, "d");
    CHECK(link(a, c) == 0, "link: %s", strerror(errno));
    CHECK(prof_impl_same_file(a, a) == 1, "same name");
    CHECK(prof_impl_same_file(a, b) == 1, "another spelling");
    CHECK(prof_impl_same_file(a, c) == 1, "a hard link");
    CHECK(prof_impl_same_file(a, d) == 0, "another file");
    CHECK(prof_impl_same_file(a, "/nonexistent") == 0, "missing");
    CHECK(prof_impl_same_file("-", "-") == 0, "stdout/stdin are not files");
    remove(a); remove(c); remove(d);
}

/* prof_impl_read_all: every byte and a 0 after them, a file of exactly
   max bytes taken and one more refused (EFBIG), from a file or a pipe,
   and out of memory said (ENOMEM). */
static void test_read_all(void)
{
    char path[300], * got;
    size_t len = 0;
    int k;
    FILE * f;
    snprintf(path, sizeof path, "%s/in.txt", dir);
    check_write_file(path, "0123456789");
    for (k = 0; k < 2; k++)    /* 0: the file, 1: through a pipe */
    {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "cat %s", path);
#define OPEN() (k == 0 ? fopen(path, "rb") : popen(cmd, "r"))
#define CLOSE(f) (k == 0 ? fclose(f) : pclose(f))
        f = OPEN();
        got = f ? prof_impl_read_all(f, &len, 10) : NULL;
        CHECK(got != NULL && len == 10 && strcmp(got, "0123456789") == 0,
              "%s: 10 bytes at max 10: [%s]", k ? "pipe" : "file",
              got ? got : "(null)");
        free(got);
        if (f)
            CLOSE(f);
        f = OPEN();
        errno = 0;
        got = f ? prof_impl_read_all(f, &len, 9) : NULL;
        CHECK(got == NULL && errno == EFBIG, "%s: 10 bytes at max 9: %s",
              k ? "pipe" : "file", strerror(errno));
        free(got);
        if (f)
            CLOSE(f);
#undef OPEN
#undef CLOSE
    }
    f = fopen(path, "rb");
    fail_alloc_after(0);
    got = f ? prof_impl_read_all(f, &len, 100) : NULL;
    k = errno;
    fail_alloc_after(-1);
    CHECK(got == NULL && k == ENOMEM, "out of memory: %s", strerror(k));
    if (f)
        fclose(f);
    check_write_file(path, "");
    f = fopen(path, "rb");
    got = f ? prof_impl_read_all(f, &len, 100) : NULL;
    CHECK(got != NULL && len == 0 && got[0] == '\0', "an empty file");
    free(got);
    if (f)
        fclose(f);
    remove(path);
}

/* A signal mid-write (SIGINT, SIGTERM, SIGHUP) in a child: it dies by
   the signal, the old file whole and no temporary file left;
   the default action is back once the file is committed. A program's own
   handler (here SIG_IGN) is left alone. */
static void test_signal(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    char path[300];
    size_t k;
    snprintf(path, sizeof path, "%s/signal.txt", dir);
    for (k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
    {
        int status = 0;
        pid_t pid;
        FILE * f = fopen(path, "w");
        fputs("old", f);
        fclose(f);
        pid = fork();
        if (pid == 0)
        {
            prof_impl_outfile o, p;
            struct sigaction sa;
            if (prof_impl_outfile_open(&o, path) != 0)
                _exit(3);
            fputs("half", o.f);
            if (prof_impl_outfile_commit(&o) != 0
                || sigaction(sigs[k], NULL, &sa) != 0
                || sa.sa_handler != SIG_DFL)
                _exit(4);       /* the default action is back */
            if (prof_impl_outfile_open(&o, path) != 0
                || prof_impl_outfile_open(&p, path) != 0)
                _exit(3);
            fputs("never", o.f);
            fflush(o.f);
            raise(sigs[k]);
            _exit(5);
        }
        CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status)
              && WTERMSIG(status) == sigs[k], "signal %d: status %#x", sigs[k],
              status);
        CHECK(strcmp(get(path), "half") == 0, "signal %d: %s", sigs[k],
              get(path));
        CHECK(entries() == 1, "signal %d: %d entries", sigs[k], entries());
    }
    /* ignored by the program: ignored still, the file written */
    signal(SIGTERM, SIG_IGN);
    {
        prof_impl_outfile o;
        CHECK(prof_impl_outfile_open(&o, path) == 0, "open");
        fputs("whole", o.f);
        raise(SIGTERM);
        CHECK(prof_impl_outfile_commit(&o) == 0
              && strcmp(get(path), "whole") == 0, "SIGTERM ignored: %s",
              get(path));
    }
    signal(SIGTERM, SIG_DFL);
    remove(path);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/prof-outfile-%ld", (long) getpid());
    mkdir(dir, 0755);
    test_new_and_replace();
    test_full_disk();
    test_errors();
    test_out_of_memory();
    test_read_only_dir();
    test_same_file();
    test_read_all();
    test_signal();
    CHECK(entries() == 0, "%d entries left", entries());
    rmdir(dir);
    return check_report("test_outfile");
}
