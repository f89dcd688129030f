/*
    CRC-32: see trace_crc.h. A table of the 256 byte values, made on first
    use.
    SPDX-License-Identifier: MIT
*/
#include "trace_crc.h"

uint32_t pt_crc32(uint32_t crc, const void * d, size_t n)
{
    static uint32_t table[256];
    static int ready;
    const unsigned char * p = (const unsigned char *) d;
    size_t i;
    if (!ready)
    {
        uint32_t k, c;
        int b;
        for (k = 0; k < 256; k++)
        {
            for (c = k, b = 0; b < 8; b++)
                c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[k] = c;
        }
        ready = 1;
    }
    crc = ~crc;
    for (i = 0; i < n; i++)
        crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}
