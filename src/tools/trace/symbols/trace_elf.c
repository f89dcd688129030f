/*
    Function names for code addresses: see trace_elf.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_elf.h"
#include "trace_debug.h"
#include "trace_input.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(__linux__)
# include <elf.h>
#endif

typedef struct { uint64_t lo, hi; const char * name; } pt_sym;

typedef struct
{
    char * path;
    unsigned char * data; /* the whole file; symbol names point into it */
    unsigned char * debug; /* its separate debug file, or NULL: the same */
    pt_sym * syms;
    size_t nsyms, symcap;
    struct { uint64_t off, vaddr, filesz; } load[16];
    int nload;
    pt_file_info info;
} pt_elf;

typedef struct
{
    uint64_t start, end, offset, inode;
    char * path;
    long elf;            /* index into elfs, -1 before the first lookup */
} pt_mapping;

struct pt_symbols
{
    const char * const * binaries;
    void (*warn)(void * ctx, const char * message);
    void * ctx;
    pt_mapping * maps;
    size_t nmaps, mapcap;
    pt_elf * elfs;
    size_t nelfs, elfcap;
};

pt_symbols * pt_symbols_new(const char * const * binaries,
                            void (*warn)(void * ctx, const char * message),
                            void * ctx)
{
    pt_symbols * s = (pt_symbols *) calloc(1, sizeof *s);
    if (s != NULL)
    {
        s->binaries = binaries;
        s->warn = warn;
        s->ctx = ctx;
    }
    return s;
}

void pt_symbols_free(pt_symbols * s)
{
    size_t i;
    if (s == NULL)
        return;
    for (i = 0; i < s->nmaps; i++)
        free(s->maps[i].path);
    free(s->maps);
    for (i = 0; i < s->nelfs; i++)
    {
        free(s->elfs[i].path);
        free(s->elfs[i].data);
        free(s->elfs[i].debug);
        free(s->elfs[i].syms);
    }
    free(s->elfs);
    free(s);
}

static void say(pt_symbols * s, const char * fmt, const char * a)
{
    char msg[1200];
    snprintf(msg, sizeof msg, fmt, a);
    s->warn(s->ctx, msg);
}

/* Whether a mapping of s has the file name of path. */
static int has_mapping(const pt_symbols * s, const char * path)
{
    const char * b = strrchr(path, '/');
    size_t i;
    b = b != NULL ? b + 1 : path;
    for (i = 0; i < s->nmaps; i++)
    {
        const char * m = strrchr(s->maps[i].path, '/');
        if (strcmp(m != NULL ? m + 1 : s->maps[i].path, b) == 0)
            return 1;
    }
    return 0;
}

void pt_symbols_finish(pt_symbols * s)
{
    size_t i;
    for (i = 0; s != NULL && s->binaries != NULL && s->binaries[i] != NULL; i++)
        if (!has_mapping(s, s->binaries[i]))
            say(s, "--binary=%s: no executable of the trace has that file "
                "name; not used", s->binaries[i]);
}

/* One line of /proc/self/maps: an executable mapping of a file is kept. */
static void parse_map_line(pt_symbols * s, const char * line, char * process,
                           size_t size)
{
    unsigned long long a, b, off, inode;
    char perms[8];
    int used = 0;
    pt_mapping * m;
    if (sscanf(line, "%llx-%llx %7s %llx %*s %llu %n", &a, &b, perms, &off,
               &inode, &used) < 5 || used == 0 || line[used] != '/'
        || strchr(perms, 'x') == NULL || b <= a
        || prof_impl_grow(&s->maps, &s->mapcap, s->nmaps + 1, sizeof *s->maps) != 0)
        return;
    m = &s->maps[s->nmaps];
    m->start = a;
    m->end = b;
    m->offset = off;
    m->inode = inode;
    m->elf = -1;
    m->path = prof_impl_strdup(line + used);
    if (m->path == NULL)
        return;
    if (process[0] == '\0')
        snprintf(process, size, "%s", line + used);
    s->nmaps++;
}

typedef struct { pt_symbols * s; char * process; size_t size; } maps_ctx;

static void map_line(void * ctx, const char * line)
{
    maps_ctx * m = (maps_ctx *) ctx;
    parse_map_line(m->s, line, m->process, m->size);
}

void pt_symbols_maps(pt_symbols * s, const unsigned char * p, size_t n,
                     char * process, size_t size)
{
    maps_ctx m;
    m.s = s;
    m.process = process;
    m.size = size;
    pt_each_line(p, n, map_line, &m);
}

#if defined(__linux__)
static int cmp_sym(const void * a, const void * b)
{
    const pt_sym * x = (const pt_sym *) a, * y = (const pt_sym *) b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The function symbols of section i of the ELF image d (n bytes, header
   h), if it is a symbol table of the given type. */
static void elf_symbols(pt_elf * e, const unsigned char * d, size_t n,
                        size_t i, unsigned type)
{
    const Elf64_Ehdr * h = (const Elf64_Ehdr *) (const void *) d;
    Elf64_Shdr sh, str;
    size_t k, cnt;
    memcpy(&sh, d + h->e_shoff + i * sizeof sh, sizeof sh);
    if (sh.sh_type != type || sh.sh_link >= h->e_shnum || sh.sh_offset > n
        || sh.sh_size > n - sh.sh_offset)
        return;
    memcpy(&str, d + h->e_shoff + sh.sh_link * sizeof str, sizeof str);
    if (str.sh_offset > n || str.sh_size > n - str.sh_offset
        || str.sh_size == 0 || d[str.sh_offset + str.sh_size - 1] != '\0')
        return;
    cnt = sh.sh_size / sizeof(Elf64_Sym);
    for (k = 0; k < cnt; k++)
    {
        Elf64_Sym sym;
        memcpy(&sym, d + sh.sh_offset + k * sizeof sym, sizeof sym);
        if ((ELF64_ST_TYPE(sym.st_info) != STT_FUNC
             && ELF64_ST_TYPE(sym.st_info) != STT_GNU_IFUNC)
            || sym.st_shndx == SHN_UNDEF || sym.st_value == 0
            || sym.st_name >= str.sh_size)
            continue;
        if (prof_impl_grow(&e->syms, &e->symcap, e->nsyms + 1, sizeof *e->syms) != 0)
            return;
        e->syms[e->nsyms].lo = sym.st_value;
        e->syms[e->nsyms].hi = sym.st_value + (sym.st_size ? sym.st_size : 1);
        e->syms[e->nsyms].name = (const char *) d + str.sh_offset + sym.st_name;
        e->nsyms++;
    }
}

/* The loadable segments (file offset -> address) of the image h. */
static void elf_segments(pt_elf * e, const Elf64_Ehdr * h, size_t n)
{
    size_t i;
    if (h->e_phentsize != sizeof(Elf64_Phdr) || h->e_phoff > n
        || (uint64_t) h->e_phnum * sizeof(Elf64_Phdr) > n - h->e_phoff)
        return;
    for (i = 0; i < h->e_phnum && e->nload < 16; i++)
    {
        Elf64_Phdr ph;
        memcpy(&ph, e->data + h->e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) && !e->info.has_bias)
        {
            e->info.load_bias = ph.p_vaddr - ph.p_offset;
            e->info.has_bias = 1;
        }
        if (ph.p_type == PT_LOAD)
        {
            e->load[e->nload].off = ph.p_offset;
            e->load[e->nload].vaddr = ph.p_vaddr;
            e->load[e->nload].filesz = ph.p_filesz;
            e->nload++;
        }
    }
}

/* NULL if the n bytes at d are an ELF64 image with its section table,
   else what is wrong with it. */
static const char * elf_check(const unsigned char * d, size_t n)
{
    const Elf64_Ehdr * h = (const Elf64_Ehdr *) (const void *) d;
    if (n < sizeof(Elf64_Ehdr) || memcmp(h->e_ident, ELFMAG, SELFMAG) != 0
        || h->e_ident[EI_CLASS] != ELFCLASS64)
        return "is not a 64-bit ELF file";
    if (h->e_shentsize != sizeof(Elf64_Shdr)
        || h->e_shoff > n || (uint64_t) h->e_shnum * sizeof(Elf64_Shdr) > n - h->e_shoff)
        return "is cut short or damaged (its section table is not in it)";
    return NULL;
}

/* The symbol tables of type in image d (n bytes, checked). */
static void elf_tables(pt_elf * e, const unsigned char * d, size_t n,
                       unsigned type)
{
    size_t i, count = ((const Elf64_Ehdr *) (const void *) d)->e_shnum;
    for (i = 0; i < count; i++)
        elf_symbols(e, d, n, i, type);
}

/* e's symbols; NULL, or what is wrong with the file. .symtab has the
   static functions too; else the separate debug file's; else .dynsym. */
static const char * elf_load(pt_elf * e, const char * file, pt_symbols * s)
{
    size_t n, dn;
    const char * wrong;
    e->data = pt_slurp(file, &n);
    if (e->data == NULL)
        return "cannot be read";
    if ((wrong = elf_check(e->data, n)) != NULL)
        return wrong;
    elf_segments(e, (const Elf64_Ehdr *) (const void *) e->data, n);
    e->info.build_id_len = pt_elf_build_id(e->data, n, e->info.build_id);
    elf_tables(e, e->data, n, SHT_SYMTAB);
    if (e->nsyms == 0
        && (e->debug = pt_debug_find(file, e->data, n, &dn, s->warn, s->ctx)) != NULL)
    {
        if (elf_check(e->debug, dn) == NULL)
            elf_tables(e, e->debug, dn, SHT_SYMTAB);
        if (e->nsyms == 0)
            free(e->debug), e->debug = NULL;
    }
    if (e->nsyms == 0)
        elf_tables(e, e->data, n, SHT_DYNSYM);
    if (e->nsyms > 1) /* none in a stripped executable: no qsort(NULL) */
        qsort(e->syms, e->nsyms, sizeof *e->syms, cmp_sym);
    return NULL;
}
#endif

static const char * elf_lookup(const pt_elf * e, uint64_t file_off)
{
    int i;
    for (i = 0; i < e->nload; i++)
        if (file_off >= e->load[i].off && file_off - e->load[i].off < e->load[i].filesz)
        {
            uint64_t va = file_off - e->load[i].off + e->load[i].vaddr;
            size_t lo = 0, hi = e->nsyms;
            while (lo < hi)
            {
                size_t mid = lo + (hi - lo) / 2;
                if (e->syms[mid].lo <= va)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            /* the last symbols at or below va: the first that covers it */
            for (; lo > 0; lo--)
                if (va < e->syms[lo - 1].hi)
                    return e->syms[lo - 1].name;
                else if (va - e->syms[lo - 1].lo > (UINT64_C(1) << 24))
                    break;
            return NULL;
        }
    return NULL;
}

/* The file to read for mapping m: a --binary of the same file name, else
   its own path, checked against the run's inode (said when it moved or
   changed). NULL if none can be read. */
static char * binary_for(pt_symbols * s, const pt_mapping * m)
{
    const char * base = strrchr(m->path, '/');
    struct stat sb;
    size_t i;
    base = base != NULL ? base + 1 : m->path;
    for (i = 0; s->binaries != NULL && s->binaries[i] != NULL; i++)
    {
        const char * b = strrchr(s->binaries[i], '/');
        if (strcmp(b != NULL ? b + 1 : s->binaries[i], base) == 0)
            return prof_impl_strdup(s->binaries[i]);
    }
    if (stat(m->path, &sb) != 0 || !S_ISREG(sb.st_mode))
    {
        say(s, "%s is not there (moved?): its functions are shown as "
            "addresses; name it with --binary=PATH", m->path);
        return NULL;
    }
    if (m->inode != 0 && (uint64_t) sb.st_ino != m->inode)
        say(s, "%s has changed since the run (rebuilt?): function names may "
            "be wrong; give the executable of the run with --binary=PATH",
            m->path);
    return prof_impl_strdup(m->path);
}

/* The ELF index for mapping m, loading it on first use; -1 if none. */
static long elf_of(pt_symbols * s, pt_mapping * m)
{
    size_t j;
    for (j = 0; j < s->nelfs; j++)
        if (strcmp(s->elfs[j].path, m->path) == 0)
            return (long) j;
    if (prof_impl_grow(&s->elfs, &s->elfcap, s->nelfs + 1, sizeof *s->elfs) != 0)
        return -1;
    memset(&s->elfs[j], 0, sizeof s->elfs[j]);
    s->elfs[j].path = prof_impl_strdup(m->path);
    if (s->elfs[j].path == NULL)
        return -1;
    s->nelfs++;
#if defined(__linux__)
    {
        char * file = binary_for(s, m);
        if (file != NULL)
        {
            const char * wrong = elf_load(&s->elfs[j], file, s);
            s->elfs[j].info.read = wrong == NULL;
            if (wrong != NULL)
            {
                char what[1100];
                snprintf(what, sizeof what, "%s %s: its functions are shown "
                         "as addresses", file, wrong);
                say(s, "%s", what);
            }
            free(file);
        }
    }
#endif
    return (long) j;
}

void pt_module_offset(char * buf, size_t size, const char * path, uint64_t off)
{
    const char * base = strrchr(path, '/');
    snprintf(buf, size, "%s+0x%llx", base != NULL ? base + 1 : path,
             (unsigned long long) off);
}

int pt_symbols_place(const pt_symbols * s, uint64_t addr, char * buf,
                     size_t size)
{
    size_t i;
    for (i = 0; s != NULL && i < s->nmaps; i++)
        if (addr >= s->maps[i].start && addr < s->maps[i].end)
        {
            pt_module_offset(buf, size, s->maps[i].path,
                             addr - s->maps[i].start + s->maps[i].offset);
            return 0;
        }
    return -1;
}

const char * pt_symbols_name(pt_symbols * s, uint64_t addr)
{
    size_t i;
    for (i = 0; i < s->nmaps; i++)
    {
        pt_mapping * m = &s->maps[i];
        if (addr < m->start || addr >= m->end)
            continue;
        if (m->elf < 0)
            m->elf = elf_of(s, m);
        if (m->elf < 0)
            return NULL;
        return elf_lookup(&s->elfs[m->elf], addr - m->start + m->offset);
    }
    return NULL;
}

/* The ELF index of the file path (inode: the run's), or -1. */
static long elf_of_file(pt_symbols * s, const char * path, uint64_t inode)
{
    pt_mapping m;
    memset(&m, 0, sizeof m);
    m.path = (char *) path;    /* elf_of copies what it keeps */
    m.inode = inode;
    return path[0] == '/' ? elf_of(s, &m) : -1;
}

const char * pt_symbols_file_name(pt_symbols * s, const char * path,
                                  uint64_t inode, uint64_t off)
{
    long e = elf_of_file(s, path, inode);
    return e < 0 ? NULL : elf_lookup(&s->elfs[e], off);
}

const pt_file_info * pt_symbols_file_info(pt_symbols * s, const char * path,
                                          uint64_t inode)
{
    long e = elf_of_file(s, path, inode);
    return e < 0 || !s->elfs[e].info.read ? NULL : &s->elfs[e].info;
}
