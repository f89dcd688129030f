/*
    The chain that the unwinder's snapshots (snap.c) and test_unwind_live.c
    stop in: main -> drive -> work -> leaf, leaf frameless when built -O2
    -fomit-frame-pointer -fno-inline, and loading through a bad pointer
    (not null: that would be undefined behaviour) at a known instruction;
    and what a SIGSEGV handler takes from there as a sampler would. Included
    once, by the program's main file (_GNU_SOURCE defined first).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TEST_SNAP_CHAIN_H
#define PROF_TEST_SNAP_CHAIN_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <ucontext.h>

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

/* The end of the mapping that holds address a (/proc/self/maps). */
static uintptr_t snap_mapping_end(uintptr_t a)
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

/* The registers of the signal context by DWARF number (x86-64 0-16,
   ARM64 0-32) into r: how many, and *arm64 set on ARM64. */
static int snap_regs(const ucontext_t * uc, uint64_t r[33], int * arm64)
{
    int n;
#if defined(__x86_64__)
    static const int g[17] = { REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI,
                               REG_RBP, REG_RSP, REG_R8, REG_R9, REG_R10, REG_R11,
                               REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP };
    for (n = 0; n < 17; n++)
        r[n] = (uint64_t) uc->uc_mcontext.gregs[g[n]];
    *arm64 = 0;
#elif defined(__aarch64__)
    for (n = 0; n < 31; n++)
        r[n] = uc->uc_mcontext.regs[n];
    r[n++] = uc->uc_mcontext.sp;
    r[n++] = uc->uc_mcontext.pc;
    *arm64 = 1;
#else
# error "x86-64 or ARM64 only"
#endif
    return n;
}

#endif
