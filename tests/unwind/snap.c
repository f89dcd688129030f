/*
    The program of the unwinder's stored snapshots (make_snapshots.sh):
    main -> drive -> work -> leaf, built -O2 -fomit-frame-pointer, where
    leaf (frameless) loads through a null pointer. The SIGSEGV handler
    writes what a sampler would take at that instant to stdout: the
    registers from the signal context (by DWARF number), the executable
    mappings (dl_iterate_phdr: start, end, load bias, file) and the top
    16 KiB of the stack (from the interrupted sp up), then exits 0.
    Async-signal-unsafe calls in the handler: this program runs once, by
    hand, never by CI.
    SPDX-License-Identifier: MIT
*/
#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

int * volatile null_pointer;
volatile int seed = 3;

__attribute__((noinline)) int leaf(int * p, int x)
{
    return *p + x * 3;
}

__attribute__((noinline)) int work(int n)
{
    int s = 0, i;
    for (i = 0; i < n; i++)
        s += leaf(null_pointer, i + seed) * (i | 1);
    return s + 1;
}

__attribute__((noinline)) int drive(int n)
{
    return work(n + seed) * 7 + work(n);
}

static int maps(struct dl_phdr_info * info, size_t size, void * data)
{
    const char * name = info->dlpi_name[0] ? strrchr(info->dlpi_name, '/') : NULL;
    int i;
    (void) size;
    (void) data;
    name = name ? name + 1 : info->dlpi_name[0] ? info->dlpi_name : "main";
    for (i = 0; i < info->dlpi_phnum; i++)
    {
        const ElfW(Phdr) * ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
            printf("map 0x%llx 0x%llx 0x%llx %s\n",
                   (unsigned long long) (info->dlpi_addr + ph->p_vaddr),
                   (unsigned long long) (info->dlpi_addr + ph->p_vaddr + ph->p_memsz),
                   (unsigned long long) info->dlpi_addr, name);
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

static void dump(int sig, siginfo_t * si, void * ctx)
{
    ucontext_t * uc = (ucontext_t *) ctx;
    uint64_t r[33];
    int n, i;
    uintptr_t sp, top;
    (void) sig;
    (void) si;
#if defined(__x86_64__)
    static const int g[17] = { REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI,
                               REG_RBP, REG_RSP, REG_R8, REG_R9, REG_R10, REG_R11,
                               REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP };
    for (n = 0; n < 17; n++)
        r[n] = (uint64_t) uc->uc_mcontext.gregs[g[n]];
    sp = (uintptr_t) r[7];
    printf("arch x86_64\n");
#elif defined(__aarch64__)
    for (n = 0; n < 31; n++)
        r[n] = uc->uc_mcontext.regs[n];
    r[n++] = uc->uc_mcontext.sp;
    r[n++] = uc->uc_mcontext.pc;
    sp = (uintptr_t) r[31];
    printf("arch arm64\n");
#endif
    for (i = 0; i < n; i++)
        printf("reg %d 0x%llx\n", i, (unsigned long long) r[i]);
    dl_iterate_phdr(maps, NULL);
    top = mapping_end(sp);
    if (top - sp > 16384)
        top = sp + 16384;
    printf("stack 0x%llx %llu\n", (unsigned long long) sp, (unsigned long long) (top - sp));
    for (i = 0; sp + (uintptr_t) i < top; i++)
        printf("%02x%s", ((const unsigned char *) sp)[i], i % 32 == 31 ? "\n" : "");
    printf("\nend\n");
    fflush(stdout);
    _exit(0);
}

int main(int argc, char ** argv)
{
    struct sigaction sa;
    (void) argv;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = dump;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    return drive(argc + 10) & 1;
}
