/*
    A tiny test harness: CHECK counts failures and says where; capture
    helpers read what a call printed on stdout or stderr.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TEST_CHECK_H
#define PROF_TEST_CHECK_H

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static int check_failures;

#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            check_failures++; \
            fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__); \
            fputc('\n', stderr); \
        } \
    } while (0)

static inline int check_report(const char * name)
{
    if (check_failures)
        fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures);
    else
        printf("%s: all checks passed\n", name);
    return check_failures ? 1 : 0;
}

/* All of f from its start, NUL-terminated, in *buf (of *cap bytes, grown
   as needed and kept between calls). Never cut: a test that compared a
   prefix would say less than it seems to; it exits when memory runs out. */
static inline char * check_read_all(FILE * f, char ** buf, size_t * cap)
{
    size_t n = 0, got;
    rewind(f);
    for (;;)
    {
        if (*cap - n < 2)
        {
            size_t bigger = *cap ? 2 * *cap : (size_t) 1 << 16;
            char * p = (char *) realloc(*buf, bigger);
            if (p == NULL)
            {
                fprintf(stderr, "check_read_all: out of memory\n");
                exit(1);
            }
            *buf = p;
            *cap = bigger;
        }
        got = fread(*buf + n, 1, *cap - n - 1, f);
        if (got == 0)
            break;
        n += got;
    }
    (*buf)[n] = '\0';
    return *buf;
}

/* Redirect file descriptor fd (1 or 2) into a temporary file until
   capture_end, which returns what was written (a buffer of its own, reused
   by the next call). */
typedef struct { int fd, saved; FILE * tmp; } capture_t;

static inline void capture_begin(capture_t * c, int fd)
{
    fflush(fd == 1 ? stdout : stderr);
    c->fd = fd;
    c->tmp = tmpfile();
    c->saved = dup(fd);
    dup2(fileno(c->tmp), fd);
}

static inline const char * capture_end(capture_t * c)
{
    static char * buf;
    static size_t cap;
    const char * s;
    fflush(c->fd == 1 ? stdout : stderr);
    dup2(c->saved, c->fd);
    close(c->saved);
    s = check_read_all(c->tmp, &buf, &cap);
    fclose(c->tmp);
    return s;
}

/* Everything written to f so far (a tmpfile), in a buffer of its own,
   reused by the next call. */
static inline char * check_slurp(FILE * f)
{
    static char * buf;
    static size_t cap;
    fflush(f);
    return check_read_all(f, &buf, &cap);
}

/* Write text to file path (replaced); nothing if it cannot be opened (the
   test's own checks then see what is missing). */
static inline void check_write_file(const char * path, const char * text)
{
    FILE * f = fopen(path, "w");
    if (f != NULL)
    {
        fputs(text, f);
        fclose(f);
    }
}

/* All of file path (a buffer of its own, reused by the next call), or
   NULL if it cannot be opened. */
static inline const char * check_file_text(const char * path)
{
    static char * buf;
    static size_t cap;
    const char * s;
    FILE * f = fopen(path, "r");
    if (f == NULL)
        return NULL;
    s = check_read_all(f, &buf, &cap);
    fclose(f);
    return s;
}

/* 1 if s matches the POSIX extended regular expression re. */
static inline int check_matches(const char * s, const char * re)
{
    regex_t r;
    int ok;
    if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB) != 0)
        return 0;
    ok = regexec(&r, s, 0, NULL, 0) == 0;
    regfree(&r);
    return ok;
}

/* How many times what occurs in s, not overlapping. */
static inline int check_count(const char * s, const char * what)
{
    int n = 0;
    size_t len = strlen(what);
    while ((s = strstr(s, what)) != NULL)
    {
        n++;
        s += len;
    }
    return n;
}

static inline double mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline void sleep_ms(double ms)
{
    struct timespec ts;
    ts.tv_sec = (time_t) (ms / 1000);
    ts.tv_nsec = (long) ((ms - ts.tv_sec * 1000.0) * 1e6);
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* Burn processor time for about ms milliseconds of CPU time. */
static volatile unsigned long check_sink;
static inline void spin_cpu_ms(double ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    do {
        int i;
        for (i = 0; i < 1000; i++)
            check_sink = check_sink * 6364136223846793005UL + 1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    } while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) * 1e-6 < ms);
}

/* Fresh pages, for the tests that count page faults. */
static inline size_t check_page_size(void)
{
    return (size_t) sysconf(_SC_PAGESIZE);
}

/* n fresh pages, mapped with no transparent huge pages so that the first
   write to each is one page fault; NULL if mmap fails. */
static inline char * check_fresh_pages(size_t n)
{
    void * p = mmap(NULL, n * check_page_size(), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#if defined(MADV_NOHUGEPAGE)
    madvise(p, n * check_page_size(), MADV_NOHUGEPAGE);
#endif
    return (char *) p;
}

/* Write one byte in each of the n pages at p. */
static inline void check_touch_pages(char * p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        ((volatile char *) p)[i * check_page_size()] = 1;
}

/* Map n fresh pages, touch each once and unmap them: n page faults.
   0, or 1 if mmap failed. */
static inline int check_fault_pages(size_t n)
{
    char * p = check_fresh_pages(n);
    if (p == NULL)
        return 1;
    check_touch_pages(p, n);
    munmap(p, n * check_page_size());
    return 0;
}

#endif
