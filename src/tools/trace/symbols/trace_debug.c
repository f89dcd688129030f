/*
    Separate debug files: see trace_debug.h. The ELF64 fields are read by
    offset, little-endian (x86-64, ARM64), so that this file needs no
    <elf.h> and the tests can hand it images made by hand.
    SPDX-License-Identifier: MIT
*/
#include "trace_debug.h"
#include "trace_crc.h"
#include "trace_input.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum
{
    SHT_NOTE_ = 7, PT_NOTE_ = 4, NT_GNU_BUILD_ID_ = 3,
    EHDR_SIZE = 64, SHDR_SIZE = 64, PHDR_SIZE = 56
};

static const char * root_set;  /* pt_debug_set_root's, NULL: none */

static uint64_t rd(const unsigned char * p, int bytes)
{
    uint64_t v = 0;
    while (bytes-- > 0)
        v = v << 8 | p[bytes];
    return v;
}

/* Whether [off, off + len) lies inside n bytes. */
static int inside(uint64_t off, uint64_t len, size_t n)
{
    return off <= n && len <= n - off;
}

/* The section table of image d, checked: 0 with its offset and count,
   else -1. */
static int sections(const unsigned char * d, size_t n, uint64_t * off,
                    unsigned * count)
{
    if (n < EHDR_SIZE || memcmp(d, "\177ELF", 4) != 0 || d[4] != 2
        || rd(d + 58, 2) != SHDR_SIZE)
        return -1;
    *off = rd(d + 40, 8);
    *count = (unsigned) rd(d + 60, 2);
    return inside(*off, (uint64_t) *count * SHDR_SIZE, n) ? 0 : -1;
}

/* The build-id among the notes at [off, off + len) of d, or 0. */
static size_t note_build_id(const unsigned char * d, size_t n, uint64_t off,
                            uint64_t len, unsigned char * id)
{
    uint64_t end;
    if (!inside(off, len, n))
        return 0;
    end = off + len;
    while (end - off >= 12)
    {
        uint64_t namesz = rd(d + off, 4), descsz = rd(d + off + 4, 4);
        uint64_t type = rd(d + off + 8, 4);
        uint64_t name = off + 12, desc = name + ((namesz + 3) & ~(uint64_t) 3);
        uint64_t next = desc + ((descsz + 3) & ~(uint64_t) 3);
        if (next > end || next < desc)
            return 0;    /* a note that runs past its section */
        if (type == NT_GNU_BUILD_ID_ && namesz == 4
            && memcmp(d + name, "GNU", 4) == 0 && descsz > 0
            && descsz <= PT_BUILD_ID_MAX)
        {
            memcpy(id, d + desc, (size_t) descsz);
            return (size_t) descsz;
        }
        off = next;
    }
    return 0;
}

size_t pt_elf_build_id(const unsigned char * d, size_t n, unsigned char * id)
{
    uint64_t off, ph;
    unsigned count, i;
    size_t len = 0;
    if (sections(d, n, &off, &count) == 0)
        for (i = 0; i < count && len == 0; i++)
        {
            const unsigned char * s = d + off + (uint64_t) i * SHDR_SIZE;
            if (rd(s + 4, 4) == SHT_NOTE_)
                len = note_build_id(d, n, rd(s + 24, 8), rd(s + 32, 8), id);
        }
    if (len > 0 || n < EHDR_SIZE || memcmp(d, "\177ELF", 4) != 0
        || d[4] != 2 || rd(d + 54, 2) != PHDR_SIZE)
        return len;
    ph = rd(d + 32, 8);
    count = (unsigned) rd(d + 56, 2);
    if (!inside(ph, (uint64_t) count * PHDR_SIZE, n))
        return 0;
    for (i = 0; i < count && len == 0; i++)
    {
        const unsigned char * p = d + ph + (uint64_t) i * PHDR_SIZE;
        if (rd(p, 4) == PT_NOTE_)
            len = note_build_id(d, n, rd(p + 8, 8), rd(p + 32, 8), id);
    }
    return len;
}

int pt_elf_debuglink(const unsigned char * d, size_t n, char * name,
                     size_t size, uint32_t * crc)
{
    uint64_t off, str_off, str_size;
    unsigned count, i, strndx;
    if (sections(d, n, &off, &count) != 0
        || (strndx = (unsigned) rd(d + 62, 2)) >= count)
        return -1;
    str_off = rd(d + off + (uint64_t) strndx * SHDR_SIZE + 24, 8);
    str_size = rd(d + off + (uint64_t) strndx * SHDR_SIZE + 32, 8);
    if (!inside(str_off, str_size, n))
        return -1;
    for (i = 0; i < count; i++)
    {
        const unsigned char * s = d + off + (uint64_t) i * SHDR_SIZE;
        uint64_t nm = rd(s, 4), at = rd(s + 24, 8), len = rd(s + 32, 8), k;
        if (nm >= str_size || str_size - nm < sizeof ".gnu_debuglink"
            || memcmp(d + str_off + nm, ".gnu_debuglink", sizeof ".gnu_debuglink") != 0)
            continue;
        if (!inside(at, len, n))
            return -1;
        for (k = 0; k < len && d[at + k] != '\0'; k++)
            ;
        /* the name, its NUL, padding to 4, then the CRC */
        if (k == 0 || k == len || k >= size || ((k + 4) & ~(uint64_t) 3) + 4 > len)
            return -1;
        memcpy(name, d + at, (size_t) k + 1);
        *crc = (uint32_t) rd(d + at + ((k + 4) & ~(uint64_t) 3), 4);
        return strchr(name, '/') == NULL ? 0 : -1;
    }
    return -1;
}

void pt_debug_set_root(const char * dir)
{
    root_set = dir;
}

const char * pt_debug_root(void)
{
    const char * env = getenv("PROFILER_DEBUG_ROOT");
    return root_set != NULL ? root_set : env != NULL && env[0] != '\0' ? env
           : "/usr/lib/debug";
}

/* Said once per process: a candidate that does not match (a few kept). */
static int said_before(const char * path)
{
    static uint32_t said[64];
    static size_t nsaid;
    uint32_t h = pt_crc32(0, (const unsigned char *) path, strlen(path));
    size_t i;
    for (i = 0; i < nsaid; i++)
        if (said[i] == h)
            return 1;
    if (nsaid < sizeof said / sizeof said[0])
        said[nsaid++] = h;
    return 0;
}

typedef struct
{
    const unsigned char * id;   /* the module's build-id, or NULL */
    size_t idlen;
    int check_crc;
    uint32_t crc;
    const char * module;
    void (*warn)(void * ctx, const char * message);
    void * ctx;
} want_t;

/* The file at path if it is the debug file w wants: read whole, or NULL. */
static unsigned char * try_file(const char * path, const want_t * w,
                                size_t * size)
{
    struct stat sb;
    unsigned char * d, id[PT_BUILD_ID_MAX];
    const char * wrong = NULL;
    size_t len;
    char msg[1200];
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)
        || (d = pt_slurp(path, size)) == NULL)
        return NULL;
    len = pt_elf_build_id(d, *size, id);
    if (*size < EHDR_SIZE || memcmp(d, "\177ELF", 4) != 0 || d[4] != 2)
        wrong = "is not a 64-bit ELF file";
    else if (w->id != NULL && (len != w->idlen || memcmp(id, w->id, len) != 0))
        wrong = "has another build-id";
    else if (w->check_crc && pt_crc32(0, d, *size) != w->crc)
        wrong = "does not have the CRC that its .gnu_debuglink expects";
    if (wrong == NULL)
        return d;
    free(d);
    if (!said_before(path))
    {
        snprintf(msg, sizeof msg, "debug file %s of %s %s: ignored", path,
                 w->module, wrong);
        w->warn(w->ctx, msg);
    }
    return NULL;
}

unsigned char * pt_debug_find(const char * path, const unsigned char * d,
                              size_t n, size_t * size,
                              void (*warn)(void * ctx, const char * message),
                              void * ctx)
{
    unsigned char id[PT_BUILD_ID_MAX], * found = NULL;
    char file[4096], link[256], dir[4096];
    const char * root = pt_debug_root(), * slash = strrchr(path, '/');
    want_t w;
    size_t i;
    memset(&w, 0, sizeof w);
    w.module = path;
    w.warn = warn;
    w.ctx = ctx;
    w.idlen = pt_elf_build_id(d, n, id);
    w.id = w.idlen > 0 ? id : NULL;
    if (w.idlen >= 2)
    {
        int k = snprintf(file, sizeof file, "%s/.build-id/%02x/", root, id[0]);
        for (i = 1; i < w.idlen && k > 0 && (size_t) k + 3 < sizeof file; i++)
            k += snprintf(file + k, sizeof file - (size_t) k, "%02x", id[i]);
        if (k > 0 && (size_t) k + 7 < sizeof file)
        {
            memcpy(file + k, ".debug", 7);
            found = try_file(file, &w, size);
        }
    }
    if (found != NULL || pt_elf_debuglink(d, n, link, sizeof link, &w.crc) != 0)
        return found;
    w.check_crc = 1;
    snprintf(dir, sizeof dir, "%.*s", slash != NULL ? (int) (slash - path) : 1,
             slash != NULL ? path : ".");
    for (i = 0; i < 3 && found == NULL; i++)
    {
        int k = i == 0 ? snprintf(file, sizeof file, "%s/%s", dir, link)
                : i == 1 ? snprintf(file, sizeof file, "%s/.debug/%s", dir, link)
                : snprintf(file, sizeof file, "%s%s%s/%s", root,
                           dir[0] == '/' ? "" : "/", dir, link);
        if (k > 0 && (size_t) k < sizeof file && strcmp(file, path) != 0)
            found = try_file(file, &w, size);
    }
    return found;
}
