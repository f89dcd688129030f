/*
    The unwinder on this process, with the system's own libc: main ->
    drive -> work -> leaf (unwind/snap_chain.h, built -O2
    -fomit-frame-pointer: tests/CMakeLists.txt) stopped in leaf; the SIGSEGV
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

#include "unwind/snap_chain.h"

#include <dlfcn.h>
#include <link.h>

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
    pt_uregs u;
    pt_ustack st;
    uint64_t pc[64];
    enum pt_unwind_end end;
    uintptr_t sp, top;
    size_t n, i;
    int k, arm64;
    (void) sig;
    (void) si;
    memset(&u, 0, sizeof u);
    k = snap_regs((const ucontext_t *) ctx, u.r, &arm64);
    u.arch = arm64 ? PT_ARCH_ARM64 : PT_ARCH_X86_64;
    u.have = ((uint64_t) 1 << k) - 1;
    sp = (uintptr_t) u.r[arm64 ? 31 : 7];
    top = snap_mapping_end(sp);
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
