/* libFuzzer target: the DWARF CFI unwinder (src/tools/trace/symbols/
   unwind*.c) over (CFI bytes, registers, stack bytes). The input: a flags
   byte (bit 0: ARM64, else x86-64; bit 1: the frame pointer fallback;
   bit 2: the bytes are .debug_frame, else .eh_frame at 0x800; bit 3: they
   are a whole ELF file), the CFI's length (2 bytes, little-endian) and
   bytes, then pc, sp, fp and lr as 2-byte offsets (pc and lr in the one
   executable mapping [0x1000, 0x11000), sp and fp from the stack's base
   0x7000), then the stack's bytes. The walk must end, within the frames
   asked, reading nothing outside what it was given (AddressSanitizer
   checks the reads). test_unwind_cfi writes seeds in this form. */
#include "unwind_cfi.h"

#include <stdlib.h>
#include <string.h>

static const pt_umap * find(void * ctx, uint64_t a)
{
    const pt_umap * m = (const pt_umap *) ctx;
    return a >= m->start && a < m->end ? m : NULL;
}

static unsigned at16(const unsigned char * p)
{
    return (unsigned) p[0] | (unsigned) p[1] << 8;
}

int LLVMFuzzerTestOneInput(const unsigned char * data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char * data, size_t size)
{
    static const pt_sect none = { NULL, 0, 0 };
    unsigned char * copy;
    uint64_t pc[64];
    size_t len, n;
    pt_sect s;
    pt_umap m;
    pt_uregs u;
    pt_ustack st;
    enum pt_unwind_end end;
    unsigned flags;
    if (size < 3)
        return 0;
    flags = data[0];
    len = at16(data + 1);
    if (len > size - 3)
        len = size - 3;
    /* a copy of its own, so that a read past the CFI is seen */
    copy = (unsigned char *) malloc(len ? len : 1);
    if (copy == NULL)
        return 0;
    memcpy(copy, data + 3, len);
    s.p = copy;
    s.n = len;
    s.vaddr = flags & 4 ? 0 : 0x800;
    m.start = 0x1000;
    m.end = 0x11000;
    m.bias = 0;
    m.cfi = flags & 8 ? pt_cfi_open(copy, len, NULL)
          : flags & 4 ? pt_cfi_sections(none, none, s) : pt_cfi_sections(s, none, none);
    data += 3 + len;
    size -= 3 + len;
    memset(&u, 0, sizeof u);
    u.arch = flags & 1 ? PT_ARCH_ARM64 : PT_ARCH_X86_64;
    if (size >= 8)
    {
        int arm = u.arch == PT_ARCH_ARM64;
        u.r[arm ? 32 : 16] = 0x1000 + at16(data);
        u.r[arm ? 31 : 7] = 0x7000 + at16(data + 2);
        u.r[arm ? 29 : 6] = 0x7000 + at16(data + 4);
        u.r[arm ? 30 : 0] = 0x1000 + at16(data + 6);
        u.have = arm ? (uint64_t) 0xf << 29 : (uint64_t) 1 << 16 | 1 << 7 | 1 << 6 | 1;
        data += 8;
        size -= 8;
    }
    st.data = data;
    st.size = size;
    st.base = 0x7000;
    n = pt_unwind(&u, &st, find, &m, pc, sizeof pc / sizeof *pc, (flags & 2) != 0, &end);
    if (n > sizeof pc / sizeof *pc || (unsigned) end > PT_UNWIND_LOOP)
        abort();
    pt_cfi_free((pt_cfi *) m.cfi);
    free(copy);
    return 0;
}
