/*
    The sampler's perf events: one per online CPU, inherited by the threads
    the calling thread creates, each with a ring buffer the reader thread
    drains (head/tail protocol of linux/perf_event.h). See sample_impl.h.
    In process on x86-64 each sample also carries the user stack pointer
    and the word it points at: a leaf without a frame of its own (gcc -O2
    gives one none even with -mno-omit-leaf-frame-pointer) leaves its
    caller out of the kernel's frame-pointer chain, and that word, when it
    is a return address (in an executable segment of a loaded object,
    just after a call instruction) that the chain does not hold next, is
    the caller: it is put in as the second frame (PROF_TF_SAMPLE_LEAF_FIXED).
    With stack_bytes (dwarf; x86-64, ARM64) each sample carries instead the
    registers a DWARF unwinder needs (x86-64: ip, sp, bp, rbx, r12-r15;
    ARM64: x19-x30, sp, pc) and that many bytes of the user stack from
    sp, which the reader hands on as a sample_copy, the kernel's frame-
    pointer chain beside it.
    SPDX-License-Identifier: MIT
*/
#include "sample_impl.h"
#include "internal.h"
#include "trace_format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
# include <link.h>
# include <linux/perf_event.h>
# include <sys/ioctl.h>
# include <sys/mman.h>
# include <sys/syscall.h>
#endif
#if defined(__linux__) && defined(__x86_64__)
# include <asm/perf_regs.h>
# define SAMPLE_LEAF_FIX 1 /* the word at the user stack pointer */
#else
# define SAMPLE_LEAF_FIX 0
#endif
#include <stdlib.h>

/* The perf registers a copy carries, by perf number (the order a sample
   holds them in), and their DWARF numbers. */
#if defined(__linux__) && defined(__x86_64__)
# define SAMPLE_ARCH PROF_TF_ARCH_X86_64
/* bx, bp, sp, ip, r12-r15 (perf_regs.h's numbers) */
static const unsigned char perf_reg[] = { 1, 6, 7, 8, 20, 21, 22, 23 };
static const unsigned char dwarf_reg[] = { 3, 6, 7, 16, 12, 13, 14, 15 };
#elif defined(__linux__) && defined(__aarch64__)
# define SAMPLE_ARCH PROF_TF_ARCH_ARM64
/* x19-x30, sp, pc: the same numbers in both */
static const unsigned char perf_reg[] = { 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
                                          30, 31, 32 };
static const unsigned char dwarf_reg[] = { 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                                           29, 30, 31, 32 };
#else
# define SAMPLE_ARCH 0
static const unsigned char perf_reg[] = { 0 };
static const unsigned char dwarf_reg[] = { 0 };
#endif
#define SAMPLE_NREGS (SAMPLE_ARCH != 0 ? sizeof perf_reg : 0)
enum { SAMPLE_REC_BYTES = 65536 }; /* a perf record's size is 16 bits */

int prof_impl_sample_open_syscall(void * attr, long pid, int cpu)
{
    return prof_impl_perf_event_open(attr, pid, cpu, -1 /* no group */);
}

int (*prof_impl_sample_open)(void * attr, long pid, int cpu)
    = prof_impl_sample_open_syscall;

#if defined(__linux__)

/* rings_open's attributes fit in sample_rings.attr */
typedef char sample_attr_fits[sizeof(struct perf_event_attr)
                              <= sizeof(((sample_rings *) 0)->attr) ? 1 : -1];

static unsigned read_max_stack(void)
{
    unsigned v = 127;
    FILE * f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
    if (f != NULL)
    {
        if (fscanf(f, "%u", &v) != 1)
            v = 127;
        fclose(f);
    }
    return v;
}

static uint64_t regs_mask(void)
{
    uint64_t m = 0;
    size_t i;
    for (i = 0; i < SAMPLE_NREGS; i++)
        m |= UINT64_C(1) << perf_reg[i];
    return m;
}

static void attr_for(struct perf_event_attr * a, double hz, int record, int children,
                     unsigned stack_bytes)
{
    memset(a, 0, sizeof *a);
    a->size = sizeof *a;
    a->type = PERF_TYPE_SOFTWARE;
    a->config = PERF_COUNT_SW_TASK_CLOCK;
    a->freq = 1;
    a->sample_freq = (uint64_t) (hz + 0.5);
    a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME
                     | PERF_SAMPLE_CALLCHAIN;
    a->disabled = 1;
    a->inherit = 1;
    a->inherit_thread = !children; /* threads only */
    a->exclude_kernel = 1;
    a->exclude_hv = 1;
    a->exclude_callchain_kernel = 1;
    a->sample_id_all = 1;
    a->use_clockid = 1;
    a->clockid = CLOCK_MONOTONIC_RAW;
    a->watermark = 1;
    a->wakeup_watermark = (uint32_t) ((record ? SAMPLE_RECORD_PAGES : SAMPLE_RING_PAGES)
                                      * (size_t) sysconf(_SC_PAGESIZE) / 2);
    if (stack_bytes > 0 && SAMPLE_ARCH != 0)
    {
        a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
        a->sample_regs_user = regs_mask();
        a->sample_stack_user = stack_bytes;
    }
#if SAMPLE_LEAF_FIX
    else if (!record) /* the leaf's return address (this process's: its code is read) */
    {
        a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
        a->sample_regs_user = 1u << PERF_REG_X86_SP;
        a->sample_stack_user = 8;
    }
#endif
    if (record) /* another process, from its exec on: its mappings too */
    {
        a->enable_on_exec = 1;
        a->mmap = 1;
        a->mmap2 = 1;
        a->comm = 1;
        a->comm_exec = 1;
        a->task = 1;
    }
}

/* rings_open's events: on process pid from its exec on, or (attach) on
   thread pid at once. */
static int open_rings(sample_rings * r, double hz, long pid, int children,
                      unsigned stack_bytes, int attach)
{
    struct perf_event_attr a;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN), page = sysconf(_SC_PAGESIZE);
    int c;
    memset(r, 0, sizeof *r);
    if (ncpu < 1)
        ncpu = 1;
    if (ncpu > SAMPLE_MAX_CPUS)
        ncpu = SAMPLE_MAX_CPUS;
    r->ring_bytes = (size_t) (stack_bytes > 0 ? SAMPLE_DWARF_PAGES
                              : pid != 0 ? SAMPLE_RECORD_PAGES : SAMPLE_RING_PAGES)
                    * (size_t) page;
    r->max_stack = read_max_stack();
    if ((r->rec = (unsigned char *) malloc(SAMPLE_REC_BYTES)) == NULL)
        return ENOMEM;
    attr_for(&a, hz, pid != 0, children, stack_bytes);
    if (attach)
        a.enable_on_exec = 0; /* running already: enabled once all are open */
    for (c = 0; c < ncpu; c++)
    {
        int fd = prof_impl_sample_open(&a, pid, c), e;
        void * m;
        if (fd < 0 && c == 0 && errno == EINVAL && (a.sample_type & PERF_SAMPLE_STACK_USER))
        {   /* no user stack dumps here: the chains alone */
            if (stack_bytes > 0)
                prof_impl_warn("sampling: this kernel gives no user stack copies "
                               "(PERF_SAMPLE_STACK_USER): frame pointers only");
            a.sample_type &= ~(uint64_t) (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
            a.sample_regs_user = 0;
            a.sample_stack_user = 0;
            fd = prof_impl_sample_open(&a, pid, c);
        }
        if (fd < 0 && c == 0 && errno == EINVAL && a.inherit_thread)
        {
            a.inherit_thread = 0;
            if ((fd = prof_impl_sample_open(&a, pid, c)) >= 0)
                prof_impl_warn("sampling: this kernel cannot leave child processes "
                               "out (inherit_thread, Linux 5.13): they are sampled too");
            else
                errno = EINVAL;
        }
        if (fd < 0)
        {
            e = errno;
            if (e == ENODEV || e == EINVAL) /* an offline CPU in the range */
                if (c > 0)
                    continue;
            prof_impl_sample_rings_close(r);
            return e != 0 ? e : EINVAL;
        }
        m = mmap(NULL, r->ring_bytes + (size_t) page, PROT_READ | PROT_WRITE,
                 MAP_SHARED, fd, 0);
        if (m == MAP_FAILED)
        {
            e = errno;
            close(fd);
            prof_impl_sample_rings_close(r);
            return e;
        }
        r->cpu[r->n] = c;
        r->fd[r->n] = fd;
        r->ring[r->n++] = m;
    }
    r->leaf_word = (a.sample_type & PERF_SAMPLE_STACK_USER) != 0
                   && a.sample_stack_user == 8;
    r->stack_bytes = (a.sample_type & PERF_SAMPLE_STACK_USER) != 0
                     && a.sample_stack_user > 8 ? (unsigned) a.sample_stack_user : 0;
    r->regs_mask = a.sample_regs_user;
    memcpy(r->attr, &a, sizeof a); /* with the fallbacks taken: for follow */
    return 0;
}

int prof_impl_sample_rings_open(sample_rings * r, double hz, long pid, int children,
                                unsigned stack_bytes)
{
    return open_rings(r, hz, pid, children, stack_bytes, 0);
}

int prof_impl_sample_rings_attach(sample_rings * r, double hz, long tid, int children,
                                  unsigned stack_bytes)
{
    return open_rings(r, hz, tid, children, stack_bytes, 1);
}

/* Thread tid's events, one per ring's CPU, each writing into that ring
   (as perf record -p: the kernel forbids mapping an inherited event that
   follows a task on every CPU), enabled if the rings are. */
int prof_impl_sample_rings_follow(sample_rings * r, long tid)
{
    size_t first = r->nmore;
    int i, e = 0;
    for (i = 0; i < r->n && e == 0; i++)
    {
        int fd;
        if (prof_impl_grow(&r->more, &r->morecap, r->nmore + 1, sizeof *r->more) != 0)
            e = ENOMEM;
        else if ((fd = prof_impl_sample_open(r->attr, tid, r->cpu[i])) < 0)
            e = errno != 0 ? errno : EINVAL;
        else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd[i]) != 0
                 || (r->on && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0))
        {
            e = errno;
            close(fd);
        }
        else
            r->more[r->nmore++] = fd;
    }
    if (e != 0) /* all of its CPUs or none */
        while (r->nmore > first)
            close(r->more[--r->nmore]);
    return e;
}

void prof_impl_sample_rings_enable(sample_rings * r, int on)
{
    unsigned long req = on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE;
    size_t k;
    int i;
    for (i = 0; i < r->n; i++)
        ioctl(r->fd[i], req, 0);
    for (k = 0; k < r->nmore; k++)
        ioctl(r->more[k], req, 0);
    r->on = on;
}

/* Is a a return address: in an executable segment of a loaded object,
   after a call instruction (E8 rel32, or FF /2: register, [reg], disp8,
   disp32 or SIB forms)? Read under the loader's lock (dl_iterate_phdr),
   so no dlclose unmaps the bytes read. */
typedef struct
{
    uint64_t a;
    int yes;
} ret_check;

static int is_call_before(const unsigned char * p)
{
    static const int len[] = { 2, 3, 4, 6, 7 };
    size_t i;
    if (!SAMPLE_LEAF_FIX)
        return 0; /* x86-64's encodings */
    if (p[-5] == 0xE8)
        return 1;
    for (i = 0; i < sizeof len / sizeof len[0]; i++)
        if (p[-len[i]] == 0xFF && (p[-len[i] + 1] & 0x38) == 0x10)
            return 1;
    return 0;
}

static int check_object(struct dl_phdr_info * info, size_t size, void * ctx)
{
    ret_check * c = (ret_check *) ctx;
    int i;
    (void) size;
    for (i = 0; i < info->dlpi_phnum; i++)
    {
        const ElfW(Phdr) * ph = &info->dlpi_phdr[i];
        uint64_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && (ph->p_flags & PF_R)
            && c->a >= start + 8 && c->a < start + ph->p_memsz)
        {
            c->yes = is_call_before((const unsigned char *) (uintptr_t) c->a);
            return 1;
        }
    }
    return 0;
}

static int is_return(uint64_t a)
{
    ret_check c;
    c.a = a;
    c.yes = 0;
    if (a >= 4096)
        dl_iterate_phdr(check_object, &c);
    return c.yes;
}

int prof_impl_sample_leaf_caller(uint64_t * ip, size_t * n, size_t cap,
                                 uint64_t word)
{
    if (word == 0 || *n == 0 || *n >= cap || (*n > 1 && ip[1] == word)
        || !is_return(word))
        return 0;
    memmove(ip + 2, ip + 1, (*n - 1) * sizeof *ip);
    ip[1] = word;
    ++*n;
    return PROF_TF_SAMPLE_LEAF_FIXED;
}

/* The user registers and stack copy at p[at..len) of a sample (abi, the
   registers if abi, size, the bytes and dyn_size if size) into c; 1 if
   they are whole (and of a 64-bit process), else 0. */
static int read_copy(const sample_rings * r, const unsigned char * p, size_t at,
                     size_t len, sample_copy * c)
{
    uint64_t abi = 0, size = 0, dyn = 0;
    size_t i;
    memset(c, 0, sizeof *c);
    if (at + 8 > len)
        return 0;
    memcpy(&abi, p + at, 8);
    at += 8;
    /* a 32-bit process's registers are not these: its copy is left out */
    if (abi == PERF_SAMPLE_REGS_ABI_64 && at + 8 * SAMPLE_NREGS <= len
        && r->regs_mask == regs_mask())
        for (i = 0; i < SAMPLE_NREGS; i++)
        {
            memcpy(&c->r[dwarf_reg[i]], p + at + 8 * i, 8);
            c->have |= UINT64_C(1) << dwarf_reg[i];
        }
    if (abi != 0)
        at += 8 * (size_t) __builtin_popcountll(r->regs_mask);
    if (at + 8 > len)
        return 0;
    memcpy(&size, p + at, 8);
    at += 8;
    if (size > len - at || (size > 0 && len - at - size < 8))
        return 0;
    if (size > 0)
        memcpy(&dyn, p + at + size, 8);
    c->arch = SAMPLE_ARCH;
    c->data = p + at;
    c->size = (size_t) (dyn < size ? dyn : size);
#if defined(__x86_64__)
    c->base = c->r[7];
#elif defined(__aarch64__)
    c->base = c->r[31];
#endif
    return c->have != 0;
}

/* One PERF_RECORD_SAMPLE (ip, pid/tid, time, callchain, and with
   leaf_word the user regs' abi and sp and an 8-byte stack dump, or with
   stack_bytes the registers and a copy) of len bytes. */
static void on_sample(sample_rings * r, const unsigned char * p, size_t len,
                      sample_sink sink, void * ctx)
{
    uint64_t ip[SAMPLE_MAX_FRAMES], nr, v, t;
    uint32_t pid, tid;
    size_t i, k = 0, user = 0;
    sample_copy copy;
    int flags, has_copy = 0;
    if (len < 32)
        return;
    memcpy(&pid, p + 8, 4);
    memcpy(&tid, p + 12, 4);
    memcpy(&t, p + 16, 8);
    memcpy(&nr, p + 24, 8);
    if (nr > (len - 32) / 8)
        return;
    for (i = 0; i < nr; i++)
    {
        memcpy(&v, p + 32 + 8 * i, 8);
        if (v >= (uint64_t) PERF_CONTEXT_MAX)
            continue; /* a context marker (PERF_CONTEXT_USER), not a frame */
        user++;
        if (k < SAMPLE_MAX_FRAMES && !(k > 0 && v == 0))
            ip[k++] = v;
    }
    if (k == 0)
        memcpy(&ip[k++], p + 0, 8); /* no chain: the sampled ip */
    flags = user >= r->max_stack || user > k ? PROF_TF_SAMPLE_TRUNCATED : 0;
    if (r->stack_bytes > 0)
        has_copy = read_copy(r, p, 32 + 8 * (size_t) nr, len, &copy);
    else if (r->leaf_word)
    {
        /* abi, sp (if abi), size, the word (if size), dyn_size */
        size_t at = 32 + 8 * (size_t) nr;
        uint64_t abi = 0, size = 0, word = 0, dyn = 0;
        if (at + 8 <= len)
            memcpy(&abi, p + at, 8);
        at += abi != 0 ? 16 : 8;
        if (at + 8 <= len)
            memcpy(&size, p + at, 8);
        if (abi != 0 && size == 8 && at + 24 <= len)
        {
            memcpy(&word, p + at + 8, 8);
            memcpy(&dyn, p + at + 16, 8);
        }
        if (dyn == 8)
            flags |= prof_impl_sample_leaf_caller(ip, &k, SAMPLE_MAX_FRAMES,
                                                  word);
    }
    sink(ctx, pid, tid, t, ip, k, flags, has_copy ? &copy : NULL);
}

/* The records of ring i, from tail to head (wrapping), into sink. */
static void drain_one(sample_rings * r, int i, sample_sink sink, record_sink other,
                      void * ctx)
{
    struct perf_event_mmap_page * m = (struct perf_event_mmap_page *) r->ring[i];
    const unsigned char * data = (const unsigned char *) r->ring[i] + sysconf(_SC_PAGESIZE);
    uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE), tail = m->data_tail;
    size_t size = r->ring_bytes;
    unsigned char * rec = r->rec;
    while (tail + sizeof(struct perf_event_header) <= head)
    {
        struct perf_event_header h;
        size_t off = (size_t) (tail % size), j;
        for (j = 0; j < sizeof h; j++)
            ((unsigned char *) &h)[j] = data[(off + j) % size];
        if (h.size < sizeof h || tail + h.size > head)
            break;
        if (rec != NULL)
        {
            for (j = 0; j < h.size; j++)
                rec[j] = data[(off + j) % size];
            if (h.type == PERF_RECORD_SAMPLE)
                on_sample(r, rec + sizeof h, h.size - sizeof h, sink, ctx);
            else if (h.type == PERF_RECORD_LOST && h.size >= sizeof h + 16)
            {
                uint64_t lost;
                memcpy(&lost, rec + sizeof h + 8, 8);
                r->lost += lost;
            }
            else if (other != NULL && h.size >= sizeof h + 16)
            {
                uint64_t ns; /* sample_id_all: pid, tid, time at the end */
                memcpy(&ns, rec + h.size - 8, 8);
                other(ctx, h.type | (unsigned) h.misc << 16, rec + sizeof h,
                      h.size - sizeof h - 16, ns);
            }
        }
        tail += h.size;
    }
    __atomic_store_n(&m->data_tail, tail, __ATOMIC_RELEASE);
}

void prof_impl_sample_rings_drain(sample_rings * r, sample_sink sink,
                                  record_sink other, void * ctx)
{
    int i;
    for (i = 0; i < r->n; i++)
        drain_one(r, i, sink, other, ctx);
}

uint64_t prof_impl_sample_rings_close(sample_rings * r)
{
    uint64_t total = 0, v;
    long page = sysconf(_SC_PAGESIZE);
    size_t k;
    int i;
    for (k = 0; k < r->nmore; k++) /* before the rings they write into */
    {
        if (read(r->more[k], &v, sizeof v) == (ssize_t) sizeof v)
            total += v;
        close(r->more[k]);
    }
    free(r->more);
    r->more = NULL;
    r->nmore = r->morecap = 0;
    for (i = 0; i < r->n; i++)
    {
        if (read(r->fd[i], &v, sizeof v) == (ssize_t) sizeof v)
            total += v;
        munmap(r->ring[i], r->ring_bytes + (size_t) page);
        close(r->fd[i]);
    }
    r->n = 0;
    free(r->rec);
    r->rec = NULL;
    return total;
}

#else /* not Linux: no perf events */

int prof_impl_sample_rings_open(sample_rings * r, double hz, long pid, int children,
                                unsigned stack_bytes)
{
    (void) hz; (void) pid; (void) children; (void) stack_bytes;
    memset(r, 0, sizeof *r);
    return ENOSYS;
}
int prof_impl_sample_rings_attach(sample_rings * r, double hz, long tid, int children,
                                  unsigned stack_bytes)
{
    return prof_impl_sample_rings_open(r, hz, tid, children, stack_bytes);
}
int prof_impl_sample_rings_follow(sample_rings * r, long tid)
{
    (void) r; (void) tid;
    return ENOSYS;
}
void prof_impl_sample_rings_enable(sample_rings * r, int on) { (void) r; (void) on; }
void prof_impl_sample_rings_drain(sample_rings * r, sample_sink sink,
                                  record_sink other, void * ctx)
{
    (void) r; (void) sink; (void) other; (void) ctx;
}
uint64_t prof_impl_sample_rings_close(sample_rings * r) { (void) r; return 0; }
int prof_impl_sample_leaf_caller(uint64_t * ip, size_t * n, size_t cap,
                                 uint64_t word)
{
    (void) ip; (void) n; (void) cap; (void) word;
    return 0;
}

#endif
