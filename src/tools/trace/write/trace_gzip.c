/*
    gzip with fixed-Huffman DEFLATE: see trace_gzip.h.

    The whole input is one final block (BTYPE 01: a block of the fixed
    codes may be any length). LZ77: a hash of the next 3 bytes heads a
    chain of the earlier positions with that hash within the 32 KiB
    window; the longest match among the first GZ_CHAIN of them (3 to 258
    bytes) is taken greedily, else a literal. Every position enters the
    chains, those inside a match too. A profile.proto, with its repeated
    tags and small varints, comes out at about a third of its size.
    SPDX-License-Identifier: MIT
*/
#include "trace_gzip.h"
#include "trace_crc.h"

#include <stdlib.h>
#include <string.h>

#define GZ_WINDOW 32768
#define GZ_HASH_BITS 15
#define GZ_CHAIN 48
#define GZ_MIN 3
#define GZ_MAX 258

typedef struct
{
    unsigned char * d;
    size_t n, cap;
    uint64_t bits;          /* pending bits, the first at bit 0 */
    unsigned nbits;
    int oom;
} gz_out;

static void put_byte(gz_out * o, unsigned char c)
{
    if (o->n == o->cap)
    {
        size_t cap = o->cap ? o->cap * 2 : 4096;
        unsigned char * d = (unsigned char *) realloc(o->d, cap);
        if (d == NULL)
        {
            o->oom = 1;
            return;
        }
        o->d = d;
        o->cap = cap;
    }
    o->d[o->n++] = c;
}

/* n bits of v (n <= 32), least significant first, as DEFLATE packs them. */
static void put_bits(gz_out * o, uint32_t v, unsigned n)
{
    o->bits |= (uint64_t) v << o->nbits;
    o->nbits += n;
    while (o->nbits >= 8)
    {
        put_byte(o, (unsigned char) o->bits);
        o->bits >>= 8;
        o->nbits -= 8;
    }
}

/* A Huffman code of n bits: sent most significant bit first. */
static void put_code(gz_out * o, uint32_t code, unsigned n)
{
    uint32_t r = 0;
    unsigned i;
    for (i = 0; i < n; i++)
        r |= ((code >> i) & 1u) << (n - 1 - i);
    put_bits(o, r, n);
}

/* Literal/length symbol s (0..287) in the fixed code. */
static void put_symbol(gz_out * o, unsigned s)
{
    if (s < 144)
        put_code(o, 0x30 + s, 8);
    else if (s < 256)
        put_code(o, 0x190 + (s - 144), 9);
    else if (s < 280)
        put_code(o, s - 256, 7);
    else
        put_code(o, 0xC0 + (s - 280), 8);
}

static const uint16_t len_base[29] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15,
    17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
    258 };
static const uint8_t len_extra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2,
    2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33,
    49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
    6145, 8193, 12289, 16385, 24577 };
static const uint8_t dist_extra[30] = { 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4,
    5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

/* A match of len (3..258) bytes dist (1..32768) back. */
static void put_match(gz_out * o, unsigned len, unsigned dist)
{
    unsigned i = 28, k = 30;
    while (len_base[i] > len)
        i--;
    put_symbol(o, 257 + i);
    put_bits(o, len - len_base[i], len_extra[i]);
    while (dist_base[--k] > dist)
        ;
    put_code(o, k, 5);
    put_bits(o, dist - dist_base[k], dist_extra[k]);
}

static uint32_t hash3(const unsigned char * p)
{
    uint32_t v = (uint32_t) p[0] << 16 | (uint32_t) p[1] << 8 | p[2];
    return (v * 2654435761u) >> (32 - GZ_HASH_BITS);
}

/* The longest match for d[i..n) among the chain of earlier positions
   (head, prev: position + 1, 0 for none); its distance at *dist. */
static unsigned longest(const unsigned char * d, size_t n, size_t i,
                        const uint32_t * head, const uint32_t * prev,
                        unsigned * dist)
{
    size_t max = n - i < GZ_MAX ? n - i : GZ_MAX, best = 0;
    uint32_t c = head[hash3(d + i)];
    int steps;
    for (steps = 0; c != 0 && steps < GZ_CHAIN; steps++)
    {
        size_t j = c - 1, k = 0;
        if (i - j > GZ_WINDOW)
            break;
        while (k < max && d[j + k] == d[i + k])
            k++;
        if (k > best)
        {
            best = k;
            *dist = (unsigned) (i - j);
            if (k == max)
                break;
        }
        c = prev[j % GZ_WINDOW];
    }
    return best >= GZ_MIN ? (unsigned) best : 0;
}

/* The DEFLATE stream of d[0..n): one final fixed-code block. */
static void deflate_fixed(gz_out * o, const unsigned char * d, size_t n)
{
    uint32_t * head = (uint32_t *) calloc((size_t) 1 << GZ_HASH_BITS, sizeof *head);
    uint32_t * prev = (uint32_t *) calloc(GZ_WINDOW, sizeof *prev);
    size_t i = 0;
    if (head == NULL || prev == NULL || n >= UINT32_MAX)
        o->oom = 1;
    put_bits(o, 1, 1);      /* BFINAL */
    put_bits(o, 1, 2);      /* BTYPE 01: fixed Huffman codes */
    while (!o->oom && i < n)
    {
        unsigned dist = 0, step;
        unsigned len = n - i >= GZ_MIN ? longest(d, n, i, head, prev, &dist) : 0;
        if (len == 0)
            put_symbol(o, d[i]);
        else
            put_match(o, len, dist);
        for (step = len ? len : 1; step > 0; step--, i++)
            if (i + GZ_MIN <= n)
            {
                uint32_t h = hash3(d + i);
                prev[i % GZ_WINDOW] = head[h];
                head[h] = (uint32_t) i + 1;
            }
    }
    put_symbol(o, 256);     /* end of block */
    if (o->nbits > 0)
        put_bits(o, 0, 8 - o->nbits);
    free(head);
    free(prev);
}

static void put_le32(gz_out * o, uint32_t v)
{
    int i;
    for (i = 0; i < 4; i++)
        put_byte(o, (unsigned char) (v >> (8 * i)));
}

unsigned char * pt_gzip(const void * d, size_t n, size_t * size)
{
    /* ID1 ID2, CM 8 (deflate), no flags, no time, XFL 0, OS 3 (Unix) */
    static const unsigned char head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
    gz_out o;
    size_t i;
    memset(&o, 0, sizeof o);
    for (i = 0; i < sizeof head; i++)
        put_byte(&o, head[i]);
    deflate_fixed(&o, (const unsigned char *) d, n);
    put_le32(&o, pt_crc32(0, d, n));
    put_le32(&o, (uint32_t) n);     /* ISIZE: the size modulo 2^32 */
    if (o.oom)
    {
        free(o.d);
        return NULL;
    }
    *size = o.n;
    return o.d;
}
