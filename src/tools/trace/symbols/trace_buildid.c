/*
    The build-id of an ELF file: see trace_buildid.h. The program headers
    are read, then each PT_NOTE segment (at most NOTE_MAX bytes), whose
    notes are (namesz, descsz, type, name, desc), each part padded to 4
    bytes; the build-id is the desc of the note named "GNU" of type 3.
    SPDX-License-Identifier: MIT
*/
#include "trace_buildid.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NOTE_MAX 65536
#define PHDR_MAX 512
enum { PT_NOTE_SEG = 4, NT_GNU_BUILD_ID_TYPE = 3 };

typedef struct { FILE * f; int wide, big; } elf_in;

/* n bytes (1, 2, 4 or 8) at p in the file's byte order. */
static uint64_t get(const elf_in * e, const unsigned char * p, int n)
{
    uint64_t v = 0;
    int i;
    for (i = 0; i < n; i++)
        v |= (uint64_t) p[e->big ? n - 1 - i : i] << (8 * i);
    return v;
}

static int read_at(const elf_in * e, uint64_t off, void * buf, size_t n)
{
    return off > (uint64_t) 0x7fffffff || fseek(e->f, (long) off, SEEK_SET) != 0
           || fread(buf, 1, n, e->f) != n ? -1 : 0;
}

/* The build-id among the notes d[0..n), as hex: 0, or -1 if none. */
static int find_note(const elf_in * e, const unsigned char * d, size_t n,
                     char * hex, size_t size)
{
    size_t at = 0;
    while (n - at >= 12)
    {
        uint64_t nsz = get(e, d + at, 4), dsz = get(e, d + at + 4, 4);
        uint64_t type = get(e, d + at + 8, 4);
        uint64_t name = at + 12, desc = name + ((nsz + 3) & ~(uint64_t) 3);
        uint64_t next = desc + ((dsz + 3) & ~(uint64_t) 3);
        size_t i;
        if (nsz > n || dsz > n || next > n)
            return -1;
        if (type == NT_GNU_BUILD_ID_TYPE && nsz == 4
            && memcmp(d + name, "GNU", 4) == 0 && dsz > 0 && 2 * dsz < size)
        {
            for (i = 0; i < dsz; i++)
                snprintf(hex + 2 * i, 3, "%02x", d[desc + i]);
            return 0;
        }
        at = (size_t) next;
    }
    return -1;
}

static int scan(elf_in * e, char * hex, size_t size)
{
    unsigned char h[64], ph[56], * note;
    uint64_t phoff, phentsize, phnum, i;
    int rc = -1;
    if (fread(h, 1, sizeof h, e->f) < 52 || memcmp(h, "\177ELF", 4) != 0
        || (h[4] != 1 && h[4] != 2) || (h[5] != 1 && h[5] != 2))
        return -1;
    e->wide = h[4] == 2;
    e->big = h[5] == 2;
    phoff = get(e, h + (e->wide ? 32 : 28), e->wide ? 8 : 4);
    phentsize = get(e, h + (e->wide ? 54 : 42), 2);
    phnum = get(e, h + (e->wide ? 56 : 44), 2);
    if (phentsize < (e->wide ? 56u : 32u) || phnum > PHDR_MAX)
        return -1;
    for (i = 0; rc != 0 && i < phnum; i++)
    {
        uint64_t off, filesz;
        if (read_at(e, phoff + i * phentsize, ph, e->wide ? 56 : 32) != 0)
            return -1;
        if (get(e, ph, 4) != PT_NOTE_SEG)
            continue;
        off = get(e, ph + (e->wide ? 8 : 4), e->wide ? 8 : 4);
        filesz = get(e, ph + (e->wide ? 32 : 16), e->wide ? 8 : 4);
        if (filesz == 0 || filesz > NOTE_MAX
            || (note = (unsigned char *) malloc((size_t) filesz)) == NULL)
            continue;
        if (read_at(e, off, note, (size_t) filesz) == 0)
            rc = find_note(e, note, (size_t) filesz, hex, size);
        free(note);
    }
    return rc;
}

int pt_build_id(const char * path, char * hex, size_t size)
{
    elf_in e;
    struct stat sb;
    int rc;
    if (size > 0)
        hex[0] = '\0';
    if (size < 3 || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)
        || (e.f = fopen(path, "rb")) == NULL)
        return -1;
    rc = scan(&e, hex, size);
    fclose(e.f);
    if (rc != 0)
        hex[0] = '\0';
    return rc;
}
