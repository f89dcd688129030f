/*
    The parts of the debug-file lookup (trace_debug.c) at their edges, on
    ELF64 images made here: IEEE CRC-32 (its check value, empty input, in
    pieces), the GNU build-id note (found after another note, in a
    PT_NOTE segment when there are no sections, a note cut short, the
    wrong name or size, a section past the end), the .gnu_debuglink (its
    name and CRC, a name with no NUL or no room for the CRC), and the
    lookup itself: a file found by build-id under the root, a wrong one
    ignored and said.
    SPDX-License-Identifier: MIT
*/
#include "check.h"
#include "trace_debug.h"
#include "trace_crc.h"

#include <stdint.h>
#include <sys/stat.h>

static void put(unsigned char * p, uint64_t v, int bytes)
{
    int i;
    for (i = 0; i < bytes; i++)
        p[i] = (unsigned char) (v >> (8 * i));
}

/* An ELF64 image in img: a header, then at 64 the data `body` (n bytes),
   then sections 0 (null), 1 note or PROGBITS (type) over the body,
   2 .shstrtab; name1 is section 1's name. The image's size. */
static size_t image(unsigned char * img, const unsigned char * body, size_t n,
                    unsigned type, const char * name1)
{
    static const char str[] = "\0.shstrtab\0";
    size_t str_at = 64 + n, l1 = strlen(name1) + 1, sh = (str_at + sizeof str + l1 + 7) & ~7u;
    memset(img, 0, sh + 3 * 64);
    memcpy(img, "\177ELF\2\1\1", 7);
    memcpy(img + 64, body, n);
    memcpy(img + str_at, str, sizeof str);
    memcpy(img + str_at + sizeof str, name1, l1);
    put(img + 40, sh, 8);           /* e_shoff */
    put(img + 58, 64, 2);           /* e_shentsize */
    put(img + 60, 3, 2);            /* e_shnum */
    put(img + 62, 2, 2);            /* e_shstrndx */
    put(img + sh + 64, sizeof str, 4);
    put(img + sh + 64 + 4, type, 4);
    put(img + sh + 64 + 24, 64, 8);
    put(img + sh + 64 + 32, n, 8);
    put(img + sh + 128, 1, 4);
    put(img + sh + 128 + 4, 3, 4);  /* SHT_STRTAB */
    put(img + sh + 128 + 24, str_at, 8);
    put(img + sh + 128 + 32, sizeof str + l1, 8);
    return sh + 3 * 64;
}

/* A note: name (with its NUL), type, desc of n bytes; its size. */
static size_t note(unsigned char * p, const char * name, unsigned type,
                   const unsigned char * desc, size_t n)
{
    size_t nl = strlen(name) + 1, at = 12 + ((nl + 3) & ~3u);
    memset(p, 0, at + ((n + 3) & ~3u));
    put(p, nl, 4);
    put(p + 4, n, 4);
    put(p + 8, type, 4);
    memcpy(p + 12, name, nl);
    memcpy(p + at, desc, n);
    return at + ((n + 3) & ~3u);
}

static void test_crc(void)
{
    const unsigned char * s = (const unsigned char *) "123456789";
    CHECK(pt_crc32(0, s, 9) == 0xcbf43926u, "%08x", pt_crc32(0, s, 9));
    CHECK(pt_crc32(0, s, 0) == 0, "empty");
    CHECK(pt_crc32(pt_crc32(0, s, 4), s + 4, 5) == 0xcbf43926u, "in pieces");
    CHECK(pt_crc32(0, (const unsigned char *) "\0", 1) == 0xd202ef8du, "a 0 byte");
}

static const unsigned char id20[20] = { 0xab, 0xcd, 1, 2, 3, 4, 5, 6, 7, 8,
                                        9, 10, 11, 12, 13, 14, 15, 16, 17, 0xff };

static void test_build_id(void)
{
    unsigned char body[256], img[1024], id[PT_BUILD_ID_MAX];
    size_t n, len;
    /* another note first (the ABI tag), then the build-id */
    n = note(body, "GNU", 1, (const unsigned char *) "\0\0\0\0\3\0\0\0\2\0\0\0\0\0\0\0", 16);
    n += note(body + n, "GNU", 3, id20, 20);
    len = pt_elf_build_id(img, image(img, body, n, 7, ".notes"), id);
    CHECK(len == 20 && memcmp(id, id20, 20) == 0, "after another note: %zu", len);
    /* a one-byte build-id, an odd size padded */
    n = note(body, "GNU", 3, id20, 1);
    CHECK(pt_elf_build_id(img, image(img, body, n, 7, ".n"), id) == 1 && id[0] == 0xab,
          "one byte");
    /* the wrong name, the wrong type, an empty one: none */
    n = note(body, "GNV", 3, id20, 20);
    CHECK(pt_elf_build_id(img, image(img, body, n, 7, ".n"), id) == 0, "name GNV");
    n = note(body, "GNU", 4, id20, 20);
    CHECK(pt_elf_build_id(img, image(img, body, n, 7, ".n"), id) == 0, "type 4");
    n = note(body, "GNU", 3, id20, 0);
    CHECK(pt_elf_build_id(img, image(img, body, n, 7, ".n"), id) == 0, "empty");
    /* a note whose desc runs past its section, or one byte short */
    n = note(body, "GNU", 3, id20, 20);
    CHECK(pt_elf_build_id(img, image(img, body, n - 4, 7, ".n"), id) == 0, "cut");
    put(body + 4, 0xfffffff0u, 4); /* descsz: wraps nothing, runs past */
    CHECK(pt_elf_build_id(img, image(img, body, n, 7, ".n"), id) == 0, "huge descsz");
    /* longer than PT_BUILD_ID_MAX: not kept */
    {
        unsigned char big[PT_BUILD_ID_MAX + 4];
        memset(big, 7, sizeof big);
        n = note(body, "GNU", 3, big, sizeof big);
        CHECK(pt_elf_build_id(img, image(img, body, n, 7, ".n"), id) == 0, "too long");
    }
    /* not a note section: not read */
    n = note(body, "GNU", 3, id20, 20);
    CHECK(pt_elf_build_id(img, image(img, body, n, 1, ".n"), id) == 0, "PROGBITS");
    /* a note section past the end of the file */
    n = image(img, body, n, 7, ".n");
    CHECK(pt_elf_build_id(img, n - 64 * 3 + 8, id) == 0, "section table cut");
    /* no sections: the PT_NOTE segment */
    memset(img, 0, sizeof img);
    memcpy(img, "\177ELF\2\1\1", 7);
    n = note(img + 120, "GNU", 3, id20, 20);
    put(img + 32, 64, 8);           /* e_phoff */
    put(img + 54, 56, 2);           /* e_phentsize */
    put(img + 56, 1, 2);            /* e_phnum */
    put(img + 64, 4, 4);            /* PT_NOTE */
    put(img + 64 + 8, 120, 8);
    put(img + 64 + 32, n, 8);
    len = pt_elf_build_id(img, 120 + n, id);
    CHECK(len == 20 && id[19] == 0xff, "PT_NOTE: %zu", len);
    CHECK(pt_elf_build_id(img, 120 + n - 1, id) == 0, "PT_NOTE cut");
    CHECK(pt_elf_build_id(img, 63, id) == 0, "a header cut");
}

static void test_debuglink(void)
{
    unsigned char body[64], img[1024];
    char name[64];
    uint32_t crc = 0;
    /* "t.debug\0" is 8 bytes: the CRC at 8 */
    memcpy(body, "t.debug\0\x78\x56\x34\x12", 12);
    CHECK(pt_elf_debuglink(img, image(img, body, 12, 1, ".gnu_debuglink"), name,
                           sizeof name, &crc) == 0
          && strcmp(name, "t.debug") == 0 && crc == 0x12345678u, "%s %08x", name, crc);
    /* "ab\0" padded to 4, the CRC at 4 */
    memcpy(body, "ab\0\0\1\0\0\0", 8);
    CHECK(pt_elf_debuglink(img, image(img, body, 8, 1, ".gnu_debuglink"), name,
                           sizeof name, &crc) == 0 && crc == 1, "padded");
    CHECK(pt_elf_debuglink(img, image(img, body, 7, 1, ".gnu_debuglink"), name,
                           sizeof name, &crc) != 0, "no room for the CRC");
    memcpy(body, "abcdefgh", 8);
    CHECK(pt_elf_debuglink(img, image(img, body, 8, 1, ".gnu_debuglink"), name,
                           sizeof name, &crc) != 0, "no NUL");
    memcpy(body, "a/b\0\0\0\0\0", 8);
    CHECK(pt_elf_debuglink(img, image(img, body, 8, 1, ".gnu_debuglink"), name,
                           sizeof name, &crc) != 0, "a name with a slash");
    memcpy(body, "t.debug\0\0\0\0\0", 12);
    CHECK(pt_elf_debuglink(img, image(img, body, 12, 1, ".gnu_debuglinks"), name,
                           sizeof name, &crc) != 0, "another section's name");
    CHECK(pt_elf_debuglink(img, image(img, body, 12, 1, ".gnu_debuglink"), name,
                           4, &crc) != 0, "a name longer than the buffer");
}

static char said[1200];
static int nsaid;

static void warn(void * ctx, const char * message)
{
    (void) ctx;
    snprintf(said, sizeof said, "%s", message);
    nsaid++;
}

static void write_file(const char * path, const unsigned char * d, size_t n)
{
    FILE * f = fopen(path, "wb");
    CHECK(f != NULL && fwrite(d, 1, n, f) == n && fclose(f) == 0, "%s", path);
}

/* The build-id route, through files: the right one found, a wrong one
   ignored and said once. */
static void test_find(void)
{
    unsigned char body[256], img[1024], other[1024], * got;
    char root[] = "/tmp/test_debug_files.XXXXXX", path[256];
    size_t n, m, size = 0;
    if (mkdtemp(root) == NULL)
    {
        CHECK(0, "mkdtemp");
        return;
    }
    pt_debug_set_root(root);
    CHECK(strcmp(pt_debug_root(), root) == 0, "the root set");
    n = image(img, body, note(body, "GNU", 3, id20, 20), 7, ".n");
    snprintf(path, sizeof path, "%s/.build-id", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/.build-id/ab", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/.build-id/ab/cd0102030405060708090a0b0c0d0e0f1011ff.debug", root);
    write_file(path, img, n);
    got = pt_debug_find("/nonexistent/m.so", img, n, &size, warn, NULL);
    CHECK(got != NULL && size == n && nsaid == 0, "by build-id: %s", said);
    free(got);
    m = image(other, body, note(body, "GNU", 3, id20, 19), 7, ".n");
    write_file(path, other, m);
    got = pt_debug_find("/nonexistent/m.so", img, n, &size, warn, NULL);
    CHECK(got == NULL && nsaid == 1 && strstr(said, "another build-id") != NULL,
          "wrong build-id: %d %s", nsaid, said);
    got = pt_debug_find("/nonexistent/m.so", img, n, &size, warn, NULL);
    CHECK(got == NULL && nsaid == 1, "said once: %d", nsaid);
    remove(path);
    pt_debug_set_root(NULL);
    snprintf(path, sizeof path, "%s/.build-id/ab", root);
    rmdir(path);
    snprintf(path, sizeof path, "%s/.build-id", root);
    rmdir(path);
    rmdir(root);
}

int main(void)
{
    test_crc();
    test_build_id();
    test_debuglink();
    test_find();
    return check_report("test_debug_files");
}
