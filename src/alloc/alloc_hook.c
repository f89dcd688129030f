/*
    libprofiler-alloc.a (CMake target profiler_alloc, pkg-config
    profiler-alloc): malloc, calloc, realloc, reallocarray, free,
    aligned_alloc, memalign, posix_memalign, valloc and pvalloc defined
    here, each calling the C library's own entry points (glibc's
    __libc_malloc family: no dlsym, which allocates) and recording the
    block as PROF_ALLOC / PROF_FREE do, for a whole program that traces.
    Its own archive, never libprofiler.a: a static link takes malloc from
    the first archive that defines it, so every program that calls malloc
    would get these. A program opts in by linking it before libprofiler.a
    (its pkg-config and CMake target add -u prof_impl_alloc_hook, so that
    the member is taken even when the program's own objects never call
    malloc, or a sanitizer's runtime defined it first).

    Safe as the recorder is: a thread-local flag sends the allocations
    made while this thread records one (the recorder's set-up, buffers,
    label tables, a signal handler's malloc in between) straight through,
    unrecorded; so do the recorder's own (prof_impl_trace_alloc_hook_ok:
    its slow path, its lock). A fork child records into its own file, as
    its zones do. A free is recorded
    before the block goes back (no other thread can have it yet), an
    allocation after it is made. Under AddressSanitizer or
    ThreadSanitizer, which replace the same functions (gcc's and clang's
    runtimes alike), it is refused: the first call says so and the program
    exits (status 127): the blocks of the two allocators would meet in the
    wrong free.
    SPDX-License-Identifier: MIT
*/
#define _GNU_SOURCE 1
#define PROF_IMPL_TRACE_INTERNAL 1
#include "internal.h"
#include "trace_impl.h"

#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* glibc's own allocator, which its malloc and free call. */
extern void * __libc_malloc(size_t n);
extern void * __libc_calloc(size_t k, size_t n);
extern void * __libc_realloc(void * p, size_t n);
extern void __libc_free(void * p);
extern void * __libc_memalign(size_t align, size_t n);
extern void * __libc_valloc(size_t n);
extern void * __libc_pvalloc(size_t n);

/* Defined by the sanitizers' runtimes when they are linked in. */
extern void __asan_init(void) __attribute__((weak));
extern void __tsan_init(void) __attribute__((weak));

/* What the link asks for (-u prof_impl_alloc_hook: pkg-config, CMake), so
   that this member is taken whatever defined malloc first: a sanitizer's
   runtime linked before it (its malloc then meets this one: refused). */
const int prof_impl_alloc_hook = 1;

static __thread int inside __attribute__((tls_model("initial-exec")));
static int checked; /* 1 once the sanitizers were looked for */

static NOINST void refuse(void)
{
    static const char msg[] = "profiler: libprofiler-alloc.a cannot record "
        "allocations under AddressSanitizer or ThreadSanitizer, which replace "
        "malloc and free too: link it into a build without them\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void) w;
    /* the system call itself: the sanitizers intercept _exit */
    syscall(SYS_exit_group, 127);
    _exit(127);
}

/* 1 if this call is to be recorded (then leave() after it). */
static NOINST int enter(void)
{
    if (!__atomic_load_n(&checked, __ATOMIC_RELAXED))
    {
        if (__asan_init != NULL || __tsan_init != NULL)
            refuse();
        __atomic_store_n(&checked, 1, __ATOMIC_RELAXED);
    }
    if (inside || !prof_impl_trace_alloc_hook_ok())
        return 0;
    inside = 1;
    return 1;
}

static NOINST void leave(void)
{
    inside = 0;
}

/* Record block p of n bytes (NULL: none) made by the call that entered,
   if it did. */
static NOINST void * made(void * p, size_t n, int rec)
{
    if (rec)
    {
        prof_impl_trace_alloc(p, n);
        leave();
    }
    return p;
}

NOINST void * malloc(size_t n)
{
    int rec = enter();
    return made(__libc_malloc(n), n, rec);
}

NOINST void * calloc(size_t k, size_t n)
{
    int rec = enter();
    return made(__libc_calloc(k, n), k * n, rec); /* no overflow: made */
}

NOINST void free(void * p)
{
    if (p != NULL && enter())
    {
        prof_impl_trace_free(p);
        leave();
    }
    __libc_free(p);
}

/* The old block is freed in the trace first; if the C library keeps it
   (out of memory), it is allocated again, at its usable size. */
NOINST void * realloc(void * p, size_t n)
{
    int rec = enter();
    void * q;
    if (rec && p != NULL)
        prof_impl_trace_free(p);
    q = __libc_realloc(p, n);
    if (rec && q == NULL && p != NULL && n != 0)
        prof_impl_trace_alloc(p, malloc_usable_size(p)); /* kept */
    return made(q, n, rec);
}

NOINST void * reallocarray(void * p, size_t k, size_t n)
{
    if (n != 0 && k > SIZE_MAX / n)
    {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, k * n);
}

NOINST void * memalign(size_t align, size_t n)
{
    int rec = enter();
    return made(__libc_memalign(align, n), n, rec);
}

NOINST void * aligned_alloc(size_t align, size_t n)
{
    return memalign(align, n);
}

NOINST int posix_memalign(void ** out, size_t align, size_t n)
{
    void * p;
    if (align == 0 || align % sizeof(void *) != 0 || (align & (align - 1)) != 0)
        return EINVAL;
    if ((p = memalign(align, n)) == NULL)
        return ENOMEM;
    *out = p;
    return 0;
}

NOINST void * valloc(size_t n)
{
    int rec = enter();
    return made(__libc_valloc(n), n, rec);
}

NOINST void * pvalloc(size_t n)
{
    int rec = enter();
    return made(__libc_pvalloc(n), n, rec);
}
