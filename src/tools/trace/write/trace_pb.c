/*
    Protobuf's wire format: see trace_pb.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_pb.h"
#include "internal.h"

#include <string.h>

void pb_raw(pb_buf * b, const void * p, size_t n)
{
    if (b->oom || prof_impl_grow(&b->d, &b->cap, b->n + n, 1) != 0)
    {
        b->oom = 1;
        return;
    }
    if (n == 0)
        return;     /* an empty nested message: its d may be NULL */
    memcpy(b->d + b->n, p, n);
    b->n += n;
}

void pb_varint(pb_buf * b, uint64_t v)
{
    unsigned char t[10];
    size_t n = 0;
    do
    {
        t[n++] = (unsigned char) ((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v != 0);
    pb_raw(b, t, n);
}

void pb_uint(pb_buf * b, unsigned field, uint64_t v)
{
    pb_varint(b, (uint64_t) field << 3 | WIRE_VARINT);
    pb_varint(b, v);
}

void pb_bytes(pb_buf * b, unsigned field, const void * p, size_t n)
{
    pb_varint(b, (uint64_t) field << 3 | WIRE_BYTES);
    pb_varint(b, n);
    pb_raw(b, p, n);
}

void pb_string(pb_buf * b, unsigned field, const char * s)
{
    pb_bytes(b, field, s, strlen(s));
}

void pb_nest(pb_buf * b, unsigned field, pb_buf * inner)
{
    pb_bytes(b, field, inner->d, inner->n);
    b->oom |= inner->oom;
    inner->n = 0;
}
