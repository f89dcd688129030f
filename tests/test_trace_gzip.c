/*
    The pieces of prof-trace --pprof, for check_gzip.py: "gzip" gzips
    stdin to stdout (trace_gzip.c); "varint" prints, a line each, the
    protobuf encodings (trace_pb.c) of varints and fields at the edges of
    their byte counts, in hex, for the script to compare with its own.
    SPDX-License-Identifier: MIT
*/
#include "trace_gzip.h"
#include "trace_pb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gzip_stdin(void)
{
    size_t n = 0, cap = 1 << 16, got, size;
    unsigned char * d = (unsigned char *) malloc(cap), * z;
    while (d != NULL && (got = fread(d + n, 1, cap - n, stdin)) > 0)
        if ((n += got) == cap)
            d = (unsigned char *) realloc(d, cap *= 2);
    if (d == NULL || (z = pt_gzip(d, n, &size)) == NULL)
        return fputs("test_trace_gzip: out of memory\n", stderr), 1;
    fwrite(z, 1, size, stdout);
    free(d);
    free(z);
    return fflush(stdout) != 0;
}

static void put_hex(const pb_buf * b)
{
    size_t i;
    for (i = 0; i < b->n; i++)
        printf("%02x", b->d[i]);
    putchar('\n');
}

static int varints(void)
{
    static const uint64_t v[] = { 0, 1, 127, 128, 16383, 16384, 2097151,
        2097152, UINT32_MAX, (uint64_t) 1 << 32, (uint64_t) 1 << 63,
        UINT64_MAX, (uint64_t) (int64_t) -1, (uint64_t) (int64_t) -2 };
    static char text[300];
    pb_buf b = { NULL, 0, 0, 0 }, inner = { NULL, 0, 0, 0 };
    size_t i;
    for (i = 0; i < sizeof v / sizeof v[0]; i++)
    {
        b.n = 0;
        pb_uint(&b, 1, v[i]);
        printf("uint %llu ", (unsigned long long) v[i]);
        put_hex(&b);
    }
    memset(text, 'x', sizeof text - 1);
    for (i = 0; i < 3; i++)     /* lengths 0, 127, 128 (one, two bytes) */
    {
        size_t len = i == 0 ? 0 : 126 + i;
        b.n = 0;
        pb_bytes(&b, 15, text, len);
        printf("bytes %zu ", len);
        put_hex(&b);
    }
    b.n = 0;
    pb_string(&b, 16, "");      /* field 16: a two-byte tag */
    printf("string16 ");
    put_hex(&b);
    b.n = 0;
    pb_uint(&inner, 2, 300);
    pb_nest(&b, 3, &inner);
    printf("nest ");
    put_hex(&b);
    free(b.d);
    free(inner.d);
    return b.oom || inner.oom || inner.n != 0;
}

int main(int argc, char ** argv)
{
    if (argc == 2 && strcmp(argv[1], "gzip") == 0)
        return gzip_stdin();
    if (argc == 2 && strcmp(argv[1], "varint") == 0)
        return varints();
    fputs("usage: test_trace_gzip gzip|varint\n", stderr);
    return 2;
}
