/*
    The trace reader's input: a window over a file (or stdin) that moves
    on as the reader asks for bytes, or the whole input when it is in
    memory; and pt_slurp, a whole file read at once (the ELF files, the
    tests). Internal to the trace reader; calls no other file of it.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_INPUT_H
#define PROF_TRACE_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The window's size when the caller names none: 1 MiB. */
enum { PT_WINDOW = 1 << 20 };

typedef struct
{
    FILE * f;                 /* NULL: all of it is in memory */
    const unsigned char * p;  /* the window */
    size_t len, pos;          /* bytes in the window, read position */
    unsigned char * buf;      /* the window's storage (reading a FILE) */
    size_t cap;
    uint64_t off;             /* input offset of p[0] */
    uint64_t total;           /* input size, UINT64_MAX if unknown (a pipe) */
    size_t window;            /* bytes read at a time */
    int eof;
    int oom;                  /* the window could not grow: input unread */
} pt_src;

/* Open path ("-": stdin) to be read window bytes at a time (0:
   PT_WINDOW). 0; -2 if it cannot be opened (errno); -3 if the window
   could not be allocated (s->oom). Close it with pt_src_close either way. */
int pt_src_open(pt_src * s, const char * path, size_t window);
/* The n bytes at d (NULL: none) as the whole input. */
void pt_src_memory(pt_src * s, const unsigned char * d, size_t n);
void pt_src_close(pt_src * s);
/* Bytes available at pos after making at least k available if the input
   has them (fewer only at its end). */
size_t pt_src_need(pt_src * s, size_t k);
/* The input offset of the read position. */
uint64_t pt_src_offset(const pt_src * s);
/* Skip n bytes (fewer at the end of the input). */
void pt_src_skip(pt_src * s, uint64_t n);
/* Go back (or on) to input offset `to`, with k bytes from there in the
   window. 0, or -1 if the input cannot go there or has fewer bytes. */
int pt_src_seek(pt_src * s, uint64_t to, size_t k);

/* Read a whole file (or stdin for "-") into memory. NULL on error (errno). */
unsigned char * pt_slurp(const char * path, size_t * n);
/* Each line of text p (n bytes, up to a 0 byte; a line cut at 4 KiB and a
   bit) to fn(ctx, line), NUL-terminated without its newline. */
void pt_each_line(const unsigned char * p, size_t n,
                  void (*fn)(void * ctx, const char * line), void * ctx);

#endif
