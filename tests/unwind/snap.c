/*
    The program of the unwinder's stored snapshots (make_snapshots.sh):
    main -> drive -> work -> leaf, built -O2 -fomit-frame-pointer, where
    leaf (frameless) loads through a bad pointer (snap_chain.h). The SIGSEGV handler
    writes what a sampler would take at that instant to stdout: the
    registers from the signal context (by DWARF number), the executable
    mappings (dl_iterate_phdr: start, end, load bias, file) and the top
    16 KiB of the stack (from the interrupted sp up), then exits 0.
    Async-signal-unsafe calls in the handler: this program runs once, by
    hand, never by CI.
    SPDX-License-Identifier: MIT
*/
#define _GNU_SOURCE
#include "snap_chain.h"

#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static void dump(int sig, siginfo_t * si, void * ctx)
{
    uint64_t r[33];
    int n, i, arm64;
    uintptr_t sp, top;
    (void) sig;
    (void) si;
    n = snap_regs((const ucontext_t *) ctx, r, &arm64);
    sp = (uintptr_t) r[arm64 ? 31 : 7];
    printf("arch %s\n", arm64 ? "arm64" : "x86_64");
    for (i = 0; i < n; i++)
        printf("reg %d 0x%llx\n", i, (unsigned long long) r[i]);
    dl_iterate_phdr(maps, NULL);
    top = snap_mapping_end(sp);
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
