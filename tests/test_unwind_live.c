/*
    The unwinder on this process, with the system's own libc: main ->
    drive -> work -> leaf (built -O2 -fomit-frame-pointer: tests/
    CMakeLists.txt), leaf loading through a bad pointer; the SIGSEGV
    handler takes what a sampler takes (the registers from the signal
    context, the top of the stack, the executable mappings), opens the CFI
    of each mapped file (this program's, libc's, the loader's) and unwinds:
    the chain must name leaf, work, drive and main (dladdr: the program is
    linked with its symbols exported), go on through libc and end at the
    outermost frame (_start's return address is undefined), within a few
    frames. On x86-64 and, in the ARM64 build, under qemu-user.
    SPDX-License-Identifier: MIT
*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* REG_RIP, dladdr, dl_iterate_phdr */
#endif
#include "check.h"
#include "unwind.h"

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>

/* not null: a null load would be undefined behaviour (UBSan) */
int * volatile bad_pointer = (int *) 16;
volatile int seed = 3;

int leaf(int * p, int x);
int work(int n);
int drive(int n);

__attribute__((noinline)) int leaf(int * p, int x)
{
    return *p + x * 3;
}

__attribute__((noinline)) int work(int n)
{
    int s = 0, i;
    for (i = 0; i < n; i++)
        s += leaf(bad_pointer, i + seed) * (i | 1);
    return s + 1;
}

__attribute__((noinline)) int drive(int n)
{
    return work(n + seed) * 7 + work(n);
}

enum { MAXMAPS = 32, STACK_BYTES = 16384 };
typedef struct
{
    pt_umap m[MAXMAPS];
    unsigned char * file[MAXMAPS];
    int n;
} live_maps;
static live_maps maps;
static unsigned char stack_copy[STACK_BYTES];

static const pt_umap * find(void * ctx, uint64_t a)
{
    live_maps * w = (live_maps *) ctx;
    int i;
    for (i = 0; i < w->n; i++)
        if (a >= w->m[i].start && a < w->m[i].end)
            return &w->m[i];
    return NULL;
}

/* The whole file at path (malloc'd), or NULL. */
static unsigned char * slurp(const char * path, size_t * size)
{
    FILE * f = fopen(path, "rb");
    unsigned char * p = NULL;
    long n;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0)
    {
        rewind(f);
        p = (unsigned char *) malloc((size_t) n);
        if (p != NULL && fread(p, 1, (size_t) n, f) != (size_t) n)
        {
            free(p);
            p = NULL;
        }
        *size = (size_t) n;
    }
    if (f != NULL)
        fclose(f);
    return p;
}

static int add_maps(struct dl_phdr_info * info, size_t size, void * data)
{
    const char * path = info->dlpi_name[0] ? info->dlpi_name : "/proc/self/exe";
    unsigned char * elf = NULL;
    const pt_cfi * cfi = NULL;
    size_t n = 0;
    int i;
    (void) size;
    (void) data;
    for (i = 0; i < info->dlpi_phnum && maps.n < MAXMAPS; i++)
    {
        const ElfW(Phdr) * ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        if (elf == NULL && (elf = slurp(path, &n)) != NULL)
            cfi = pt_cfi_open(elf, n, NULL);
        maps.m[maps.n].start = info->dlpi_addr + ph->p_vaddr;
        maps.m[maps.n].end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
        maps.m[maps.n].bias = info->dlpi_addr;
        maps.m[maps.n].cfi = cfi;
        maps.file[maps.n++] = elf;
        elf = NULL;   /* freed with its first mapping's entry */
    }
    return 0;
}

/* The end of the mapping that holds address a (/proc/self/maps). */
static uintptr_t mapping_end(uintptr_t a)
{
    FILE * f = fopen("/proc/self/maps", "r");
    unsigned long long lo, hi;
    char line[512];
    uintptr_t end = a;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "%llx-%llx", &lo, &hi) == 2 && a >= lo && a < hi)
            end = (uintptr_t) hi;
    if (f != NULL)
        fclose(f);
    return end;
}

/* n bytes of the stack from sp: byte by byte, and unseen by
   AddressSanitizer, whose redzones lie in the frames copied. */
__attribute__((no_sanitize_address)) static void copy_stack(uintptr_t sp, size_t n)
{
    const volatile unsigned char * p = (const volatile unsigned char *) sp;
    size_t i;
    for (i = 0; i < n; i++)
        stack_copy[i] = p[i];
}

static const char * name_of(uint64_t pc)
{
    Dl_info d;
    if (dladdr((void *) (uintptr_t) pc, &d) != 0 && d.dli_sname != NULL)
        return d.dli_sname;
    return "?";
}

static void on_segv(int sig, siginfo_t * si, void * ctx)
{
    static const char * const want[4] = { "leaf", "work", "drive", "main" };
    ucontext_t * uc = (ucontext_t *) ctx;
    pt_uregs u;
    pt_ustack st;
    uint64_t pc[64];
    enum pt_unwind_end end;
    uintptr_t sp, top;
    size_t n, i;
    int k;
    (void) sig;
    (void) si;
    memset(&u, 0, sizeof u);
#if defined(__x86_64__)
    {
        static const int g[17] = { REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI,
                                   REG_RBP, REG_RSP, REG_R8, REG_R9, REG_R10, REG_R11,
                                   REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP };
        u.arch = PT_ARCH_X86_64;
        for (k = 0; k < 17; k++)
            u.r[k] = (uint64_t) uc->uc_mcontext.gregs[g[k]];
        u.have = ((uint64_t) 1 << 17) - 1;
        sp = (uintptr_t) u.r[7];
    }
#else
    u.arch = PT_ARCH_ARM64;
    for (k = 0; k < 31; k++)
        u.r[k] = uc->uc_mcontext.regs[k];
    u.r[31] = uc->uc_mcontext.sp;
    u.r[32] = uc->uc_mcontext.pc;
    u.have = ((uint64_t) 1 << 33) - 1;
    sp = (uintptr_t) u.r[31];
#endif
    top = mapping_end(sp);
    st.size = top - sp < STACK_BYTES ? top - sp : STACK_BYTES;
    copy_stack(sp, st.size);
    st.data = stack_copy;
    st.base = sp;
    dl_iterate_phdr(add_maps, NULL);

    n = pt_unwind(&u, &st, find, &maps, pc, 64, 0, &end);
    for (i = 0; i < n; i++)
    {
        const pt_umap * m = find(&maps, pc[i] - (i > 0));
        printf("  #%zu 0x%llx %s (CFI %s)\n", i, (unsigned long long) pc[i],
               name_of(pc[i] - (i > 0)), m != NULL && m->cfi != NULL ? "yes" : "no");
    }
    printf("test_unwind_live: %zu frames, end %s\n", n, pt_unwind_end_name(end));
    for (i = 0; i < 4; i++)
        CHECK(i < n && strcmp(name_of(pc[i] - (i > 0)), want[i]) == 0, "frame %zu is not %s", i,
              want[i]);
    CHECK(n > 4 && n <= 12 && end == PT_UNWIND_OUTERMOST, "%zu frames, end %s", n,
          pt_unwind_end_name(end));
    for (k = 0; k < maps.n; k++)
    {
        pt_cfi_free((pt_cfi *) maps.m[k].cfi);
        free(maps.file[k]);
    }
    fflush(stdout);
    _exit(check_report("test_unwind_live"));
}

int main(int argc, char ** argv)
{
    struct sigaction sa;
    (void) argv;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    drive(argc + 10);
    fprintf(stderr, "test_unwind_live: no SIGSEGV\n");
    return 1;
}
