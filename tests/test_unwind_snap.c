/*
    The unwinder on stored snapshots (tests/unwind/, made by
    make_snapshots.sh): the registers, executable mappings and top of the
    stack of a program (main -> drive -> work -> leaf, -O2
    -fomit-frame-pointer, leaf frameless) stopped in leaf, with its ELF
    file and its functions (nm -S). The chain must read leaf, work, drive,
    main, then end at libc (whose CFI the test does not give); a stack cut
    short, a depth limit and the frame pointer fallback end as they say.
    Usage: test_unwind_snap SNAPSHOT ELF NM-OUTPUT (one architecture a run)
    SPDX-License-Identifier: MIT
*/
#include "check.h"
#include "unwind.h"

#include <stdint.h>

enum { MAXMAPS = 16 };
typedef struct
{
    pt_umap maps[MAXMAPS];
    char names[MAXMAPS][64];
    int n, only_main;
} snap_maps;

typedef struct { char name[64]; uint64_t lo, hi; } snap_func;

static pt_uregs regs;
static pt_ustack stack;
static unsigned char * stack_bytes;
static snap_maps maps;
static snap_func funcs[4];

static const pt_umap * find(void * ctx, uint64_t a)
{
    snap_maps * m = (snap_maps *) ctx;
    int i;
    for (i = 0; i < m->n; i++)
        if (a >= m->maps[i].start && a < m->maps[i].end
            && (!m->only_main || strcmp(m->names[i], "main") == 0))
            return &m->maps[i];
    return NULL;
}

static unsigned char * slurp(const char * path, size_t * size)
{
    FILE * f = fopen(path, "rb");
    unsigned char * p;
    long n;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0)
    {
        fprintf(stderr, "test_unwind_snap: cannot read %s\n", path);
        exit(1);
    }
    rewind(f);
    p = (unsigned char *) malloc((size_t) n + 1);
    if (p == NULL || fread(p, 1, (size_t) n, f) != (size_t) n)
        exit(1);
    fclose(f);
    *size = (size_t) n;
    return p;
}

static void read_snapshot(const char * path)
{
    FILE * f = fopen(path, "r");
    char line[256], arch[16], name[64];
    unsigned long long a, b, c;
    int reg;
    size_t have = 0;
    if (f == NULL)
        exit(1);
    while (fgets(line, sizeof line, f) != NULL)
    {
        if (sscanf(line, "arch %15s", arch) == 1)
            regs.arch = strcmp(arch, "arm64") == 0 ? PT_ARCH_ARM64 : PT_ARCH_X86_64;
        else if (sscanf(line, "reg %d %llx", &reg, &a) == 2 && reg >= 0 && reg < PT_UREGS)
        {
            regs.r[reg] = a;
            regs.have |= (uint64_t) 1 << reg;
        }
        else if (sscanf(line, "map %llx %llx %llx %63s", &a, &b, &c, name) == 4
                 && maps.n < MAXMAPS)
        {
            maps.maps[maps.n].start = a;
            maps.maps[maps.n].end = b;
            maps.maps[maps.n].bias = c;
            strcpy(maps.names[maps.n++], name);
        }
        else if (sscanf(line, "stack %llx %llu", &a, &b) == 2)
        {
            stack.base = a;
            stack.size = (size_t) b;
            stack_bytes = (unsigned char *) calloc(1, (size_t) b + 1);
        }
        else if (stack_bytes != NULL && strncmp(line, "end", 3) != 0)
        {
            const char * p = line;
            unsigned x;
            while (have < stack.size && sscanf(p, "%2x", &x) == 1)
            {
                stack_bytes[have++] = (unsigned char) x;
                p += 2;
            }
        }
    }
    fclose(f);
    stack.data = stack_bytes;
    CHECK(stack_bytes != NULL && have == stack.size && stack.size >= 256,
          "%s: %zu of %zu stack bytes", path, have, stack.size);
}

static void read_nm(const char * path)
{
    static const char * const want[4] = { "leaf", "work", "drive", "main" };
    FILE * f = fopen(path, "r");
    char line[256], name[64], type;
    unsigned long long a, s;
    int i;
    if (f == NULL)
        exit(1);
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "%llx %llx %c %63s", &a, &s, &type, name) == 4)
            for (i = 0; i < 4; i++)
                if (strcmp(name, want[i]) == 0)
                {
                    strcpy(funcs[i].name, name);
                    funcs[i].lo = a;
                    funcs[i].hi = a + s;
                }
    fclose(f);
    for (i = 0; i < 4; i++)
        CHECK(funcs[i].hi > funcs[i].lo, "%s: no %s", path, want[i]);
}

/* The function of main's address a (a return address if caller: a - 1). */
static const char * func(uint64_t a, int caller)
{
    const pt_umap * m = find(&maps, a - (caller ? 1 : 0));
    int i;
    if (m == NULL || strcmp(maps.names[m - maps.maps], "main") != 0)
        return "?";
    a -= m->bias + (caller ? 1 : 0);
    for (i = 0; i < 4; i++)
        if (a >= funcs[i].lo && a < funcs[i].hi)
            return funcs[i].name;
    return "?";
}

static void check_chain(const char * what, const uint64_t * pc, size_t n, size_t at_least)
{
    static const char * const want[4] = { "leaf", "work", "drive", "main" };
    size_t i;
    CHECK(n >= at_least, "%s: %zu frames", what, n);
    for (i = 0; i < n && i < 4; i++)
        CHECK(strcmp(func(pc[i], i > 0), want[i]) == 0, "%s: frame %zu at 0x%llx is %s, not %s",
              what, i, (unsigned long long) pc[i], func(pc[i], i > 0), want[i]);
}

int main(int argc, char ** argv)
{
    uint64_t pc[64];
    size_t n, size, i;
    enum pt_unwind_end end;
    unsigned char * elf;
    const char * why = NULL;
    pt_cfi * cfi;
    pt_ustack shorter;
    if (argc != 4)
    {
        fprintf(stderr, "usage: test_unwind_snap SNAPSHOT ELF NM-OUTPUT\n");
        return 2;
    }
    read_snapshot(argv[1]);
    read_nm(argv[3]);
    elf = slurp(argv[2], &size);
    cfi = pt_cfi_open(elf, size, &why);
    CHECK(cfi != NULL, "pt_cfi_open: %s", why ? why : "?");
    for (i = 0; i < (size_t) maps.n; i++)
        if (strcmp(maps.names[i], "main") == 0)
            maps.maps[i].cfi = cfi;
    if (check_failures)
        return check_report("test_unwind_snap");

    /* every mapping: main's CFI, then libc's frame (no CFI given) */
    n = pt_unwind(&regs, &stack, find, &maps, pc, 64, 0, &end);
    check_chain("all mappings", pc, n, 5);
    CHECK(n == 5 && end == PT_UNWIND_NO_CFI, "all mappings: %zu frames, end %s", n,
          pt_unwind_end_name(end));
    CHECK(n < 5 || strcmp(maps.names[find(&maps, pc[4] - 1) - maps.maps], "libc.so.6") == 0,
          "main's caller is not in libc");
    if (regs.arch == PT_ARCH_ARM64)   /* the frameless leaf's caller: lr */
        CHECK(n > 1 && pc[1] == regs.r[30], "leaf's caller 0x%llx, lr 0x%llx",
              (unsigned long long) pc[1], (unsigned long long) regs.r[30]);

    /* main's mapping only: main's caller is outside, never a junk frame */
    maps.only_main = 1;
    n = pt_unwind(&regs, &stack, find, &maps, pc, 64, 0, &end);
    check_chain("main only", pc, n, 4);
    CHECK(n == 4 && end == PT_UNWIND_OUTSIDE, "main only: %zu frames, end %s", n,
          pt_unwind_end_name(end));
    n = pt_unwind(&regs, &stack, find, &maps, pc, 2, 0, &end);
    check_chain("depth 2", pc, n, 2);
    CHECK(n == 2 && end == PT_UNWIND_DEPTH, "depth 2: %zu frames, end %s", n,
          pt_unwind_end_name(end));
    maps.only_main = 0;

    /* the frame pointer fallback changes nothing where CFI covers */
    n = pt_unwind(&regs, &stack, find, &maps, pc, 64, 1, &end);
    check_chain("fp fallback", pc, n, 4);

    /* a stack copy cut short: the walk stops there, at most one frame in */
    shorter = stack;
    shorter.size = 8;
    n = pt_unwind(&regs, &shorter, find, &maps, pc, 64, 0, &end);
    CHECK(n >= 1 && n < 4 && end == PT_UNWIND_STACK_SHORT, "cut: %zu frames, end %s", n,
          pt_unwind_end_name(end));
    check_chain("cut", pc, n, 1);
    shorter.size = 0;
    n = pt_unwind(&regs, &shorter, find, &maps, pc, 64, 0, &end);
    CHECK(n >= 1 && end == PT_UNWIND_STACK_SHORT, "empty: %zu frames, end %s", n,
          pt_unwind_end_name(end));

    printf("%s: %s chain of %zu\n", argv[1], regs.arch == PT_ARCH_ARM64 ? "arm64" : "x86-64", n);
    pt_cfi_free(cfi);
    free(elf);
    free(stack_bytes);
    return check_report("test_unwind_snap");
}
