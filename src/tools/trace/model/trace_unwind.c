/*
    Each sample's chain: unwound by CFI from its stack copy, or its frame
    pointers. See trace_unwind.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_unwind.h"
#include "unwind.h"
#include "internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { UW_MAX_FRAMES = PROF_TF_MAX_FRAMES };

typedef struct
{
    char * path;
    uint64_t inode;
    unsigned char * map;    /* the file, mapped while its CFI is used */
    size_t size;
    pt_cfi * cfi;           /* NULL: none (said once) */
} uw_file;

typedef struct
{
    int done;               /* m is filled */
    pt_umap m;
} uw_umap;

struct pt_unwinder
{
    void (*warn)(void * ctx, const char * message);
    void * ctx;
    uw_file * files;
    size_t nfiles, filecap;
    uw_umap * umaps;        /* by index into the trace's vmas */
    size_t numaps;
    prof_impl_chains chains; /* the chains unwound (or cut), numbered */
    uint64_t pc[UW_MAX_FRAMES];
    /* counts, in samples (weighted) */
    uint64_t copies, by_cfi, by_fp, truncated;
    uint64_t depth[UW_MAX_FRAMES + 1];
};

pt_unwinder * pt_unwinder_new(void (*warn)(void * ctx, const char * message),
                              void * ctx)
{
    pt_unwinder * u = (pt_unwinder *) calloc(1, sizeof *u);
    if (u != NULL)
    {
        u->warn = warn;
        u->ctx = ctx;
    }
    return u;
}

void pt_unwinder_free(pt_unwinder * u)
{
    size_t i;
    if (u == NULL)
        return;
    for (i = 0; i < u->nfiles; i++)
    {
        pt_cfi_free(u->files[i].cfi);
        if (u->files[i].map != NULL)
            munmap(u->files[i].map, u->files[i].size);
        free(u->files[i].path);
    }
    free(u->files);
    free(u->umaps);
    prof_impl_chains_free(&u->chains);
    free(u);
}

static void say(pt_unwinder * u, const char * path, const char * why)
{
    char m[1200];
    snprintf(m, sizeof m, "%s: no CFI to unwind its frames by (%s): its "
             "samples use frame pointers", path, why);
    if (u->warn != NULL)
        u->warn(u->ctx, m);
}

/* ---- the ELF files --------------------------------------------------------- */

/* The file's CFI, opened on first use (the file mapped and kept while it
   is used); NULL if it has none, after saying why once. */
static uw_file * file_of(pt_unwinder * u, const char * path, uint64_t inode)
{
    uw_file * f;
    struct stat st;
    const char * why = NULL;
    size_t i;
    int fd;
    for (i = 0; i < u->nfiles; i++)
        if (u->files[i].inode == inode && strcmp(u->files[i].path, path) == 0)
            return &u->files[i];
    if (prof_impl_grow(&u->files, &u->filecap, u->nfiles + 1, sizeof *u->files) != 0)
        return NULL;
    f = &u->files[u->nfiles];
    memset(f, 0, sizeof *f);
    if ((f->path = prof_impl_strdup(path)) == NULL)
        return NULL;
    f->inode = inode;
    u->nfiles++;
    if (path[0] != '/' || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        why = path[0] != '/' ? "not a file" : "cannot be opened";
    else
    {
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 64)
            why = "not an ELF file";
        else if (inode != 0 && (uint64_t) st.st_ino != inode)
            why = "the file changed since the trace";
        else if ((f->map = (unsigned char *) mmap(NULL, (size_t) st.st_size, PROT_READ,
                                                  MAP_PRIVATE, fd, 0)) == MAP_FAILED)
            f->map = NULL, why = "cannot be mapped";
        else
            f->size = (size_t) st.st_size;
        close(fd);
    }
    if (why == NULL && (f->cfi = pt_cfi_open(f->map, f->size, &why)) == NULL)
    {
        munmap(f->map, f->size);
        f->map = NULL;
    }
    if (f->cfi == NULL && path[0] == '/')
        say(u, path, why != NULL ? why : "none");
    return f;
}

static uint64_t rd64(const unsigned char * p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The bias (address - ELF vaddr) of a mapping of f at start from file
   offset off: through the executable PT_LOAD that holds off; 0 if none
   does (the CFI is then not used). */
static int bias_of(const uw_file * f, uint64_t start, uint64_t off, uint64_t * bias)
{
    uint64_t phoff;
    uint16_t size, num, i;
    if (f->map == NULL || f->size < 64)
        return 0;
    phoff = rd64(f->map + 32);
    memcpy(&size, f->map + 54, 2);
    memcpy(&num, f->map + 56, 2);
    if (size < 56 || phoff > f->size || num > (f->size - phoff) / size)
        return 0;
    for (i = 0; i < num; i++)
    {
        const unsigned char * ph = f->map + phoff + (size_t) i * size;
        uint32_t type, flags;
        uint64_t offset, vaddr, filesz;
        memcpy(&type, ph, 4);
        memcpy(&flags, ph + 4, 4);
        offset = rd64(ph + 8);
        vaddr = rd64(ph + 16);
        filesz = rd64(ph + 32);
        if (type == 1 /* PT_LOAD */ && (flags & 1) /* PF_X */
            && (offset & ~(uint64_t) 0xffff) <= off && off < offset + filesz)
        {
            *bias = start - off - (vaddr - offset);
            return 1;
        }
    }
    return 0;
}

/* ---- the walk ------------------------------------------------------------ */

typedef struct
{
    pt_unwinder * u;
    const pt_trace * t;
    uint32_t pid;
    int64_t ticks;
} find_ctx;

/* Room for a pt_umap per mapping of the trace, made before a walk so that
   the pointers find hands out stay put during it. 0, or -1. */
static int room_for_maps(pt_unwinder * u, const pt_trace * t)
{
    size_t cap = u->numaps;
    if (t->nvmas <= u->numaps)
        return 0;
    if (prof_impl_grow(&u->umaps, &cap, t->nvmas, sizeof *u->umaps) != 0)
        return -1;
    memset(u->umaps + u->numaps, 0, (t->nvmas - u->numaps) * sizeof *u->umaps);
    u->numaps = t->nvmas;
    return 0;
}

/* The executable mapping that held address at the sample's time, with
   its CFI (NULL: none, the walk stops or steps by frame pointer). */
static const pt_umap * find(void * ctx, uint64_t address)
{
    find_ctx * c = (find_ctx *) ctx;
    const pt_vma * v = pt_vma_at(c->t, c->pid, address, c->ticks);
    uw_umap * m;
    if (v == NULL || (size_t) (v - c->t->vmas) >= c->u->numaps)
        return NULL;
    m = &c->u->umaps[v - c->t->vmas];
    if (!m->done)
    {
        const uw_file * f = file_of(c->u, v->path, v->inode);
        m->done = 1;
        m->m.start = v->start;
        m->m.end = v->end;
        m->m.cfi = f != NULL && bias_of(f, v->start, v->offset, &m->m.bias) ? f->cfi : NULL;
    }
    return &m->m;
}

/* Frames of ip[0..n) before the first outside every executable mapping
   (a frame-pointer chain's junk callers cut). */
static uint32_t reach(const pt_trace * t, uint32_t pid, int64_t ticks,
                      const uint64_t * ip, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        if (pt_vma_at(t, pid, i == 0 ? ip[i] : ip[i] - 1, ticks) == NULL)
            break;
    return i;
}

/* The CFI chain of s's copy into u->pc: its length, *stopped 1 if it
   ended before the outermost frame or the mappings' end. */
static uint32_t unwind_copy(pt_unwinder * u, const pt_trace * t, const pt_sample * s,
                            uint32_t pid, int * stopped)
{
    const pt_ucopy * c = s->copy;
    pt_uregs regs;
    pt_ustack stack;
    find_ctx f;
    enum pt_unwind_end end = PT_UNWIND_OUTERMOST;
    size_t n;
    memset(&regs, 0, sizeof regs);
    regs.arch = c->arch == PT_ARCH_ARM64 ? PT_ARCH_ARM64 : PT_ARCH_X86_64;
    regs.have = c->have;
    memcpy(regs.r, c->r, sizeof regs.r);
    stack.data = c->data;
    stack.size = c->size;
    stack.base = c->base;
    f.u = u;
    f.t = t;
    f.pid = pid;
    f.ticks = s->ticks;
    if (room_for_maps(u, t) != 0)
        return 0;
    n = pt_unwind(&regs, &stack, find, &f, u->pc, UW_MAX_FRAMES, 1, &end);
    *stopped = end != PT_UNWIND_OUTERMOST && end != PT_UNWIND_OUTSIDE;
    return (uint32_t) n;
}

int pt_unwinder_chain(pt_unwinder * u, const pt_trace * t, const pt_sample * s,
                      uint64_t * key, const uint64_t ** ip, uint32_t * n,
                      uint32_t * pid)
{
    uint32_t w = s->weight ? s->weight : 1, cfi_n = 0, fp_n;
    int stopped = 0;
    long c;
    *ip = pt_stack_frames(t, s->stack, n);
    *pid = *ip != NULL && s->stack < t->nstacks ? t->stacks[s->stack].pid : 0;
    *key = s->stack;
    if (s->copy == NULL)
        return 0;
    u->copies += w;
    if (*ip == NULL) /* the copy's process: the thread's */
        *pid = s->thread < t->nthreads && t->threads[s->thread].pid != 0
               ? t->threads[s->thread].pid : t->pid;
    fp_n = reach(t, *pid, s->ticks, *ip, *n);
    cfi_n = unwind_copy(u, t, s, *pid, &stopped);
    if (cfi_n >= fp_n && cfi_n > 0)
    {
        u->by_cfi += w;
        u->truncated += stopped ? w : 0;
        *ip = u->pc;
        *n = cfi_n;
    }
    else
    {
        u->by_fp += w;
        u->truncated += (s->flags & PT_SAMPLE_TRUNCATED) ? w : 0;
        if (fp_n == *n || fp_n == 0) /* whole, or not even its leaf mapped */
        {
            u->depth[*n] += w;
            return 0;
        }
        *n = fp_n; /* its junk callers cut */
    }
    u->depth[*n] += w;
    if ((c = prof_impl_chain_intern(&u->chains, *pid, *ip, *n, UINT32_MAX - 1)) < 0)
        return -1;
    *key = UINT64_C(1) << 32 | (uint64_t) c;
    return 0;
}

void pt_unwinder_summary(const pt_unwinder * u, FILE * out)
{
    uint64_t half, seen = 0;
    size_t d;
    if (u == NULL || u->copies == 0)
        return;
    half = (u->copies + 1) / 2;
    for (d = 0; d <= UW_MAX_FRAMES && seen + u->depth[d] < half; d++)
        seen += u->depth[d];
    fprintf(out, "stacks of the %llu samples with a stack copy: %llu unwound by CFI, "
            "%llu by frame pointers, %llu truncated; median depth %zu frames\n",
            (unsigned long long) u->copies, (unsigned long long) u->by_cfi,
            (unsigned long long) u->by_fp, (unsigned long long) u->truncated, d);
}
