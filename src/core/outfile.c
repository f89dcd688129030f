/*
    Output files that never destroy what was there. Every file the library
    and its tools write (result files, reports, pictures, trace summaries)
    goes through here: the data is written to a temporary file beside the
    target (same directory, so that the final rename is atomic), which
    replaces the target only once it is complete and flushed. A run that
    fails half-way (bad arguments, a full disk, a crash) leaves the old file
    whole; abort removes the temporary file.

    Targets that are not regular files (/dev/null, /dev/full, a pipe, a
    terminal) are written in place: there is nothing to protect and
    nothing could be renamed over them. "-" is stdout.

    A symbolic link is written through: the file it points to is replaced
    (the temporary file goes beside that one), the link stays. A file the
    user could not write (read-only, as the shell's ">" would find) is
    refused, not replaced; a file that is replaced keeps its mode (and its
    owner, where the writer may set it).
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#if defined(_WIN32)
# include <io.h>
# include <process.h>
# include <windows.h>
# define prof_open _open
# define prof_fdopen _fdopen
# define prof_getpid _getpid
# define O_FLAGS (_O_CREAT | _O_EXCL | _O_WRONLY | _O_BINARY)
#else
# include <unistd.h>
# define prof_open open
# define prof_fdopen fdopen
# define prof_getpid getpid
# define O_FLAGS (O_CREAT | O_EXCL | O_WRONLY)
#endif

#if !defined(_WIN32)
/* The name that path's symbolic links lead to (where the last one points,
   whether or not it exists): malloc'd, or NULL (errno). */
static char * follow_links(const char * path)
{
    char * cur = prof_impl_strdup(path);
    int hops;
    for (hops = 0; cur != NULL && hops < 40; hops++)
    {
        struct stat st;
        char link[4096], * next;
        const char * slash;
        ssize_t n;
        size_t dir;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            break;
        link[n] = '\0';
        slash = strrchr(cur, '/');
        dir = link[0] == '/' || slash == NULL ? 0 : (size_t) (slash - cur) + 1;
        next = (char *) malloc(dir + (size_t) n + 1);
        if (next != NULL)
        {
            memcpy(next, cur, dir);
            memcpy(next + dir, link, (size_t) n + 1);
        }
        free(cur);
        cur = next;
        if (cur == NULL)
            errno = ENOMEM;
    }
    if (cur != NULL)
        errno = ELOOP;
    free(cur);
    return NULL;
}

/* The replaced file's owner and mode onto the temporary file (the owner
   only where the writer may give it: root). */
static void keep_mode(FILE * f, const struct stat * st)
{
    int fd = fileno(f);
    if ((st->st_uid != geteuid() || st->st_gid != getegid())
        && fchown(fd, st->st_uid, st->st_gid) != 0)
        errno = 0;      /* not permitted: the writer's own, as a new file */
    if (fchmod(fd, st->st_mode & 07777) != 0)
        errno = 0;
}
#else
static char * follow_links(const char * path)
{
    char * s = prof_impl_strdup(path);
    if (s == NULL)
        errno = ENOMEM;
    return s;
}

static void keep_mode(FILE * f, const struct stat * st)
{
    (void) f;
    (void) st;
}
#endif

/* Whether the existing file path may be written by this user (opened for
   writing, not truncated): 0, or -1 (errno). */
static int writable(const char * path)
{
    int fd = prof_open(path, O_WRONLY, 0);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

/* ---- the temporary files being written, removed by a signal ---------- */

#if !defined(_WIN32)
# include <signal.h>

/* SIGINT (Ctrl-C), SIGTERM (kill, timeout), SIGHUP: each ends the process
   by default; a temporary file being written then goes first. The
   handler goes only where the action is the default one (a program with
   its own handlers, or started with the signal ignored, keeps them: the
   runner's bench_signal.c calls prof_impl_outfile_remove_all itself), and
   only while a file is being written. */
static const int removing[] = { SIGINT, SIGTERM, SIGHUP };
enum { NREMOVING = 3, NLIVE = 32 };
static char * volatile live[NLIVE];
static int nlive, ours[NREMOVING];

void prof_impl_outfile_remove_all(void)
{
    int i;
    for (i = 0; i < NLIVE; i++)
    {
        char * p = live[i];
        if (p != NULL)
            unlink(p);
    }
}

static void on_signal(int sig)
{
    prof_impl_outfile_remove_all();
    signal(sig, SIG_DFL);
    raise(sig);     /* delivered as the handler returns: the end */
}

void prof_impl_handlers_set(const int * sigs, int n, int * ours,
                            void (*handler)(int), int flags, int on)
{
    struct sigaction sa, cur;
    int i;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on ? handler : SIG_DFL;
    sa.sa_flags = on ? flags : 0;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < n; i++)
        sigaddset(&sa.sa_mask, sigs[i]);    /* no handler inside another */
    for (i = 0; i < n; i++)
    {
        if (sigaction(sigs[i], NULL, &cur) != 0 || ours[i] == on
            || (cur.sa_flags & SA_SIGINFO)
            || cur.sa_handler != (on ? SIG_DFL : handler))
            continue;       /* someone else's: left as it is */
        if (sigaction(sigs[i], &sa, NULL) == 0)
            ours[i] = on;
    }
}

/* tmp is being written (on) or no longer (its file renamed or removed). */
static void guard(char * tmp, int on)
{
    int i;
    for (i = 0; i < NLIVE; i++)
        if (live[i] == (on ? NULL : tmp))
        {
            live[i] = on ? tmp : NULL;
            nlive += on ? 1 : -1;
            break;
        }
    if (nlive == (on ? 1 : 0) && i < NLIVE)
        prof_impl_handlers_set(removing, NREMOVING, ours, on_signal, 0, on);
}
#else
void prof_impl_outfile_remove_all(void)
{
}

static void guard(char * tmp, int on)
{
    (void) tmp;
    (void) on;
}
#endif

/* Create "<dir>/.<base>.<pid>-<k>.tmp", mode 0666 less the umask. */
static FILE * create_temporary(const char * path, char ** tmp_out)
{
    const char * slash = strrchr(path, '/');
    size_t dir = slash ? (size_t) (slash - path) + 1 : 0;
    size_t size = strlen(path) + 48;
    char * tmp = (char *) malloc(size);
    int k;
    if (tmp == NULL)
    {
        errno = ENOMEM;
        return NULL;
    }
    for (k = 0; k < 100; k++)
    {
        int fd;
        snprintf(tmp, size, "%.*s.%s.%ld-%d.tmp", (int) dir, path,
                 path + dir, (long) prof_getpid(), k);
        fd = prof_open(tmp, O_FLAGS, 0666);
        if (fd >= 0)
        {
            FILE * f = prof_fdopen(fd, "wb");
            if (f == NULL)
            {
                int e = errno;
                close(fd);
                remove(tmp);
                errno = e;
                break;
            }
            *tmp_out = tmp;
            guard(tmp, 1);
            return f;
        }
        if (errno != EEXIST)
            break;
    }
    free(tmp);
    return NULL;
}

/* o->path's file (its links followed, in o->target): a temporary file
   beside a regular one or a new name, the target itself otherwise. NULL
   on failure (errno). probe: a target that is not a regular file (a FIFO,
   a terminal) is only checked, never opened (a FIFO's reader would see
   its end); stdout, which abort leaves open, stands for it. */
static FILE * open_target(prof_impl_outfile * o, int probe)
{
    struct stat st;
    FILE * f;
    if ((o->target = follow_links(o->path)) == NULL)
        return NULL;
    if (stat(o->target, &st) != 0)
        return errno == ENOENT ? create_temporary(o->target, &o->tmp) : NULL;
    if (!S_ISREG(st.st_mode) && probe)
        return access(o->target, W_OK) == 0 ? stdout : NULL;
    if (!S_ISREG(st.st_mode))
        return fopen(o->target, "wb");
    if (writable(o->target) != 0)
        return NULL;        /* read-only: refused, as the shell would */
    if ((f = create_temporary(o->target, &o->tmp)) != NULL)
        keep_mode(f, &st);
    return f;
}

/* Open path, or only check it (probe). */
static int start(prof_impl_outfile * o, const char * path, int probe)
{
    memset(o, 0, sizeof *o);
    if (path == NULL || *path == '\0')
    {
        prof_impl_warn("no output file name given");
        return -1;
    }
    /* the name first, for stdout too: the commit's messages quote it */
    o->path = prof_impl_strdup(path);
    if (o->path == NULL)
    {
        prof_impl_warn("cannot write \"%s\": out of memory", path);
        return -1;
    }
    if (strcmp(path, "-") == 0)
        o->f = stdout;
    else
        o->f = open_target(o, probe);
    if (o->f == NULL)
    {
        prof_impl_warn("cannot open \"%s\" for writing: %s", path,
                       strerror(errno));
        free(o->target);
        free(o->path);
        o->path = o->target = NULL;
        return -1;
    }
    return 0;
}

int prof_impl_outfile_open(prof_impl_outfile * o, const char * path)
{
    return start(o, path, 0);
}

int prof_impl_outfile_check(const char * path)
{
    prof_impl_outfile o;
    if (start(&o, path, 1) != 0)
        return -1;
    prof_impl_outfile_abort(&o);
    return 0;
}

/* Replace the target with the temporary file. */
static int replace(const char * tmp, const char * path)
{
#if defined(_WIN32)
    return MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING) ? 0 : -1;
#else
    return rename(tmp, path);
#endif
}

int prof_impl_outfile_commit(prof_impl_outfile * o)
{
    int rc = 0, e = 0;
    if (o->f == NULL)
        return -1;
    if (fflush(o->f) != 0 || ferror(o->f))
    {
        rc = -1;
        e = errno;
    }
    if (o->f != stdout && fclose(o->f) != 0 && rc == 0)
    {
        rc = -1;
        e = errno;
    }
    o->f = NULL;
    if (rc == 0 && o->tmp != NULL && replace(o->tmp, o->target) != 0)
    {
        rc = -1;
        e = errno;
    }
    if (rc != 0)
    {
        prof_impl_warn("writing \"%s\" failed: %s%s", o->path, strerror(e),
                       o->tmp != NULL ? "; the file is unchanged" : "");
        if (o->tmp != NULL)
            remove(o->tmp);
    }
    if (o->tmp != NULL)
        guard(o->tmp, 0);
    free(o->tmp);
    free(o->target);
    free(o->path);
    o->tmp = o->path = o->target = NULL;
    return rc;
}

void prof_impl_outfile_abort(prof_impl_outfile * o)
{
    if (o->f != NULL && o->f != stdout)
        fclose(o->f);
    if (o->tmp != NULL)
    {
        remove(o->tmp);
        guard(o->tmp, 0);
    }
    free(o->tmp);
    free(o->target);
    free(o->path);
    memset(o, 0, sizeof *o);
}

int prof_impl_same_file(const char * a, const char * b)
{
    struct stat sa, sb;
    if (a == NULL || b == NULL || strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return 0;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return 0;
#if defined(_WIN32)
    /* no inode numbers: the same name is the best Windows offers here */
    return strcmp(a, b) == 0;
#else
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
#endif
}

int prof_impl_output_is_input(const char * out, const char * in)
{
#if !defined(_WIN32)
    struct stat so, si;
    if (in != NULL && strcmp(in, "-") == 0)
        return out != NULL && strcmp(out, "-") != 0 && fstat(0, &si) == 0
            && S_ISREG(si.st_mode) && stat(out, &so) == 0
            && so.st_dev == si.st_dev && so.st_ino == si.st_ino;
#endif
    return prof_impl_same_file(out, in);
}
