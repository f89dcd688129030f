/*
    Trace reader and reports: see trace_read.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_read.h"
#include "../internal.h"
#include "../trace_format.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(__linux__)
# include <elf.h>
#endif

/* ---- small containers ------------------------------------------------------ */

/* uint64 key -> non-NULL value, open addressing. */
typedef struct { uint64_t * k; void ** v; size_t cap, n; } pt_map;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return x;
}

static void ** map_find(pt_map * m, uint64_t key, int create)
{
    size_t i;
    if (create && (m->n + 1) * 2 > m->cap)
    {
        pt_map g;
        size_t j;
        g.cap = m->cap ? m->cap * 2 : 64;
        g.n = 0;
        g.k = (uint64_t *) calloc(g.cap, sizeof *g.k);
        g.v = (void **) calloc(g.cap, sizeof *g.v);
        if (g.k == NULL || g.v == NULL)
        {
            free(g.k);
            free(g.v);
            return NULL;
        }
        for (j = 0; j < m->cap; j++)
            if (m->v[j] != NULL)
                *map_find(&g, m->k[j], 1) = m->v[j], g.n++;
        free(m->k);
        free(m->v);
        *m = g;
    }
    if (m->cap == 0)
        return NULL;
    for (i = mix(key) & (m->cap - 1); m->v[i] != NULL; i = (i + 1) & (m->cap - 1))
        if (m->k[i] == key)
            return &m->v[i];
    if (!create)
        return NULL;
    m->k[i] = key;
    return &m->v[i];
}

static void map_free(pt_map * m, int free_values)
{
    size_t i;
    if (free_values)
        for (i = 0; i < m->cap; i++)
            free(m->v[i]);
    free(m->k);
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* ---- state ----------------------------------------------------------------- */

typedef struct
{
    size_t * stack;     /* indices of the open zones, innermost last */
    size_t depth, cap;
    int64_t last;       /* time of the thread's last event */
} pt_tstate;

typedef struct { uint64_t lo, hi; const char * name; } pt_sym;

typedef struct
{
    char * path;
    unsigned char * data; /* the whole file; symbol names point into it */
    pt_sym * syms;
    size_t nsyms, symcap;
    struct { uint64_t off, vaddr, filesz; } load[16];
    int nload;
} pt_elf;

typedef struct { uint64_t start, end, offset, inode; char * path; long elf; } pt_mapping;

enum { W_CORRUPT, W_TRUNC, W_MATCH, W_ORDER, W_STRING, W_EVENT, W_KINDS };

struct pt_state
{
    const pt_options * o;
    uint64_t start61;
    pt_map strings;     /* label address -> char * */
    pt_map names;       /* code address -> char * */
    pt_map tids;        /* tid -> thread index + 1 */
    pt_tstate * ts;
    size_t zcap, tcap;
    uint64_t * zkey;    /* per zone: label or code address */
    uint8_t * zclass;   /* per zone: 0 label, 1 __func__, 2 code address */
    size_t zkcap, zccap;
    pt_mapping * maps;
    size_t nmaps, mapcap;
    pt_elf * elfs;
    size_t nelfs, elfcap;
    unsigned long wcount[W_KINDS];
    char * unknown;     /* owned names made up for unknown keys */
    pt_map made;        /* key*4+class -> owned made-up name */
};

static void warn(pt_trace * t, int kind, const char * fmt, ...)
{
    pt_state * s = t->st;
    unsigned max = s->o->max_warnings_per_kind ? s->o->max_warnings_per_kind : 10;
    va_list ap;
    t->warnings++;
    if (++s->wcount[kind] > max || s->o->warn == NULL)
        return;
    fputs("prof-trace: ", s->o->warn);
    va_start(ap, fmt);
    vfprintf(s->o->warn, fmt, ap);
    va_end(ap);
    fputc('\n', s->o->warn);
}

static int64_t rel_ticks(const pt_state * s, uint64_t ticks61)
{
    uint64_t d = (ticks61 - s->start61) & PROF_TF_TICK_MASK;
    /* a little before the start (another core's counter): clamp to 0 */
    return d >= (UINT64_C(1) << (PROF_TF_TICK_BITS - 1)) ? 0 : (int64_t) d;
}

static uint64_t rd64(const unsigned char * p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t rd32(const unsigned char * p) { uint32_t v; memcpy(&v, p, 4); return v; }

/* ---- ELF symbols (for -finstrument-functions addresses) -------------------- */

static int cmp_sym(const void * a, const void * b)
{
    const pt_sym * x = (const pt_sym *) a, * y = (const pt_sym *) b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

#if defined(__linux__)
/* The function symbols of section i of the ELF image h (n bytes), if it is
   a symbol table of the given type. */
static void elf_symbols(pt_elf * e, const Elf64_Ehdr * h, size_t n, size_t i,
                        unsigned type)
{
    const unsigned char * d = e->data;
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

static void elf_load(pt_elf * e, pt_trace * t, uint64_t inode)
{
    size_t n, i;
    struct stat sb;
    const Elf64_Ehdr * h;
    const unsigned char * d;
    int pass;

    if (stat(e->path, &sb) != 0 || !S_ISREG(sb.st_mode)
        || sb.st_size > (off_t) 1 << 30)
        return;
    if (inode != 0 && (uint64_t) sb.st_ino != inode)
        warn(t, W_STRING, "%s has changed since the run: function names "
             "may be wrong", e->path);
    e->data = pt_slurp(e->path, &n);
    if (e->data == NULL || n < sizeof(Elf64_Ehdr))
        return;
    d = e->data;
    h = (const Elf64_Ehdr *) (const void *) d;
    if (memcmp(h->e_ident, ELFMAG, SELFMAG) != 0
        || h->e_ident[EI_CLASS] != ELFCLASS64
        || h->e_shentsize != sizeof(Elf64_Shdr)
        || h->e_shoff > n || (uint64_t) h->e_shnum * sizeof(Elf64_Shdr) > n - h->e_shoff)
        return;
    if (h->e_phentsize == sizeof(Elf64_Phdr) && h->e_phoff <= n
        && (uint64_t) h->e_phnum * sizeof(Elf64_Phdr) <= n - h->e_phoff)
        for (i = 0; i < h->e_phnum && e->nload < 16; i++)
        {
            Elf64_Phdr ph;
            memcpy(&ph, d + h->e_phoff + i * sizeof ph, sizeof ph);
            if (ph.p_type == PT_LOAD)
            {
                e->load[e->nload].off = ph.p_offset;
                e->load[e->nload].vaddr = ph.p_vaddr;
                e->load[e->nload].filesz = ph.p_filesz;
                e->nload++;
            }
        }
    /* .symtab has the static functions too; .dynsym if stripped */
    for (pass = 0; pass < 2 && e->nsyms == 0; pass++)
        for (i = 0; i < h->e_shnum; i++)
            elf_symbols(e, h, n, i, pass == 0 ? SHT_SYMTAB : SHT_DYNSYM);
    if (e->nsyms > 1) /* none in a stripped executable: no qsort(NULL) */
        qsort(e->syms, e->nsyms, sizeof *e->syms, cmp_sym);
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

static void parse_maps(pt_trace * t, const unsigned char * p, size_t n)
{
    pt_state * s = t->st;
    size_t i = 0;
    while (i < n && p[i] != '\0')
    {
        char line[4096 + 256];
        size_t len = 0;
        unsigned long long a, b, off, inode;
        char perms[8];
        int used = 0;
        while (i < n && p[i] != '\n' && p[i] != '\0')
        {
            if (len + 1 < sizeof line)
                line[len++] = (char) p[i];
            i++;
        }
        if (i < n && p[i] == '\n')
            i++;
        line[len] = '\0';
        if (sscanf(line, "%llx-%llx %7s %llx %*s %llu %n", &a, &b, perms, &off,
                   &inode, &used) < 5 || used == 0 || line[used] != '/'
            || strchr(perms, 'x') == NULL || b <= a)
            continue;
        if (prof_impl_grow(&s->maps, &s->mapcap, s->nmaps + 1, sizeof *s->maps) != 0)
            return;
        s->maps[s->nmaps].start = a;
        s->maps[s->nmaps].end = b;
        s->maps[s->nmaps].offset = off;
        s->maps[s->nmaps].inode = inode;
        s->maps[s->nmaps].path = strdup(line + used);
        s->maps[s->nmaps].elf = -1;
        if (s->maps[s->nmaps].path == NULL)
            return;
        if (t->process[0] == '\0')
            snprintf(t->process, sizeof t->process, "%s", line + used);
        s->nmaps++;
    }
}

static const char * code_name(pt_trace * t, uint64_t addr)
{
    pt_state * s = t->st;
    size_t i;
#if defined(__linux__)
    if (!s->o->resolve_symbols)
        return NULL;
    for (i = 0; i < s->nmaps; i++)
    {
        pt_mapping * m = &s->maps[i];
        if (addr < m->start || addr >= m->end)
            continue;
        if (m->elf < 0)
        {
            size_t j;
            for (j = 0; j < s->nelfs; j++)
                if (strcmp(s->elfs[j].path, m->path) == 0)
                    break;
            if (j == s->nelfs)
            {
                if (prof_impl_grow(&s->elfs, &s->elfcap, s->nelfs + 1, sizeof *s->elfs) != 0)
                    return NULL;
                memset(&s->elfs[j], 0, sizeof s->elfs[j]);
                s->elfs[j].path = m->path;
                s->nelfs++;
                elf_load(&s->elfs[j], t, m->inode);
            }
            m->elf = (long) j;
        }
        return elf_lookup(&s->elfs[m->elf], addr - m->start + m->offset);
    }
#else
    (void) i; (void) addr; (void) s;
#endif
    return NULL;
}

/* ---- names ----------------------------------------------------------------- */

static const char * made_name(pt_state * s, uint64_t key, unsigned cls,
                              const char * fmt)
{
    void ** slot = map_find(&s->made, key * 4 + cls, 1);
    if (slot == NULL)
        return "?";
    if (*slot == NULL)
    {
        char buf[64];
        snprintf(buf, sizeof buf, fmt, (unsigned long long) key);
        *slot = strdup(buf);
        if (*slot == NULL)
            return "?";
        s->made.n++;
    }
    return (const char *) *slot;
}

/* The label string of key, or NULL if the file has none. */
static const char * label_of(pt_state * s, uint64_t key)
{
    void ** v = map_find(&s->strings, key, 0);
    return v != NULL ? (const char *) *v : NULL;
}

static const char * zone_name(pt_trace * t, uint64_t key, unsigned cls)
{
    pt_state * s = t->st;
    const char * name;
    void ** slot;
    if (cls < 2)
    {
        if (key == 0)
            return "(null)";
        name = label_of(s, key);
        if (name == NULL)
        {
            warn(t, W_STRING, "no string for the label at 0x%llx (its chunk is "
                 "lost); named by its address", (unsigned long long) key);
            return made_name(s, key, cls, "label@0x%llx");
        }
        return name;
    }
    slot = map_find(&s->names, key, 0);
    if (slot != NULL)
        return (const char *) *slot;
    name = code_name(t, key);
    if (name == NULL)
        name = made_name(s, key, cls, "0x%llx");
    slot = map_find(&s->names, key, 1);
    if (slot != NULL)
    {
        *slot = (void *) name;
        s->names.n++;
    }
    return name;
}

/* ---- chunks ------------------------------------------------------------------ */

static pt_tstate * thread_of(pt_trace * t, uint32_t tid, size_t * index)
{
    pt_state * s = t->st;
    void ** slot = map_find(&s->tids, tid, 1);
    size_t i;
    if (slot == NULL)
        return NULL;
    if (*slot == NULL)
    {
        if (prof_impl_grow(&t->threads, &s->tcap, t->nthreads + 1, sizeof *t->threads) != 0)
            return NULL;
        {
            /* ts grows in step with threads */
            void * q = realloc(s->ts, s->tcap * sizeof *s->ts);
            if (q == NULL)
                return NULL;
            s->ts = (pt_tstate *) q;
        }
        i = t->nthreads++;
        memset(&t->threads[i], 0, sizeof t->threads[i]);
        memset(&s->ts[i], 0, sizeof s->ts[i]);
        t->threads[i].tid = tid;
        *slot = (void *) (size_t) (i + 1);
        s->tids.n++;
    }
    i = (size_t) *slot - 1;
    *index = i;
    return &s->ts[i];
}

static int zone_push(pt_trace * t, size_t thread, char kind, unsigned cls,
                     uint64_t key, int64_t begin, uint8_t flags, size_t depth)
{
    pt_state * s = t->st;
    size_t zc = s->zcap, kc = s->zkcap, cc = s->zccap;
    pt_zone * z;
    if (prof_impl_grow(&t->zones, &zc, t->nzones + 1, sizeof *t->zones) != 0
        || prof_impl_grow(&s->zkey, &kc, t->nzones + 1, sizeof *s->zkey) != 0
        || prof_impl_grow(&s->zclass, &cc, t->nzones + 1, 1) != 0)
        return -1;
    s->zcap = zc, s->zkcap = kc, s->zccap = cc;
    z = &t->zones[t->nzones];
    z->thread = (uint32_t) thread;
    z->kind = kind;
    z->flags = flags;
    z->depth = (uint16_t) (depth > 65535 ? 65535 : depth);
    z->name = NULL;
    z->begin = z->end = begin;
    z->child = 0;
    s->zkey[t->nzones] = key;
    s->zclass[t->nzones] = (uint8_t) cls;
    t->nzones++;
    return 0;
}

static int same_zone(pt_state * s, size_t z, unsigned cls, uint64_t key)
{
    const char * a, * b;
    if (s->zclass[z] != cls)
        return 0;
    if (s->zkey[z] == key)
        return 1;
    if (cls == 2)
        return 0;
    /* the same text at two addresses (two translation units) */
    a = label_of(s, s->zkey[z]);
    b = label_of(s, key);
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* Close the innermost open zone of thread ts at time `end`. */
static void zone_pop(pt_trace * t, pt_tstate * ts, int64_t end, uint8_t flag)
{
    pt_zone * z = &t->zones[ts->stack[--ts->depth]];
    z->end = end < z->begin ? z->begin : end;
    z->flags |= flag;
    if (ts->depth > 0)
        t->zones[ts->stack[ts->depth - 1]].child += z->end - z->begin;
}

static void on_event(pt_trace * t, uint32_t tid, uint64_t word, uint64_t key)
{
    pt_state * s = t->st;
    unsigned type = (unsigned) (word & 7), cls = type / 2;
    int64_t now = rel_ticks(s, word >> 3);
    size_t ti, i, lim;
    pt_tstate * ts;

    if (type > 5)
    {
        warn(t, W_EVENT, "thread %u: event of unknown type %u ignored", tid, type);
        return;
    }
    if ((ts = thread_of(t, tid, &ti)) == NULL)
        return;
    t->events++;
    t->threads[ti].events++;
    if (now < ts->last)
    {
        warn(t, W_ORDER, "thread %u: time goes back by %lld ticks", tid,
             (long long) (ts->last - now));
        now = ts->last; /* keep the zones well formed */
    }
    ts->last = now;
    if (now > t->span)
        t->span = now;
    if (type % 2 == 0) /* a begin */
    {
        if (prof_impl_grow(&ts->stack, &ts->cap, ts->depth + 1, sizeof *ts->stack) != 0
            || zone_push(t, ti, cls == 0 ? 'u' : 'f', cls, key, now, 0, ts->depth) != 0)
            return;
        ts->stack[ts->depth++] = t->nzones - 1;
        return;
    }
    /* an end: the innermost open zone of that name (a few levels down) */
    lim = ts->depth > 256 ? ts->depth - 256 : 0;
    for (i = ts->depth; i > lim; i--)
        if (same_zone(s, ts->stack[i - 1], cls, key))
            break;
    if (i > lim)
    {
        while (ts->depth > i)
        {
            size_t z = ts->stack[ts->depth - 1];
            warn(t, W_MATCH, "thread %u: '%s' has no end; closed at the end of "
                 "'%s' (marked *)", tid, zone_name(t, s->zkey[z], s->zclass[z]),
                 zone_name(t, key, cls));
            zone_pop(t, ts, now, PT_NO_END);
        }
        zone_pop(t, ts, now, 0);
        return;
    }
    warn(t, W_MATCH, "thread %u: end of '%s' without a begin%s%s%s (marked *)",
         tid, zone_name(t, key, cls), ts->depth ? " (innermost open: '" : "",
         ts->depth ? zone_name(t, s->zkey[ts->stack[ts->depth - 1]],
                               s->zclass[ts->stack[ts->depth - 1]]) : "",
         ts->depth ? "')" : "");
    zone_push(t, ti, cls == 0 ? 'u' : 'f', cls, key, now, PT_NO_BEGIN, ts->depth);
}

static void on_strings(pt_trace * t, const unsigned char * p, size_t n, size_t at)
{
    pt_state * s = t->st;
    size_t i = 0;
    while (i + 16 <= n)
    {
        uint64_t key = rd64(p + i);
        uint32_t len = rd32(p + i + 8);
        size_t need = 16 + ((size_t) len + 7) / 8 * 8;
        void ** slot;
        char * str;
        if (len > PROF_TF_MAX_STRING || need > n - i)
        {
            warn(t, W_CORRUPT, "bad string entry at offset %zu: rest of the "
                 "chunk ignored", at + i);
            return;
        }
        slot = map_find(&s->strings, key, 1);
        if (slot != NULL && *slot == NULL && (str = (char *) malloc(len + 1)) != NULL)
        {
            memcpy(str, p + i + 16, len);
            str[len] = '\0';
            *slot = str;
            s->strings.n++;
        }
        i += need;
    }
}

static int valid_chunk(const prof_tf_chunk * c)
{
    return c->magic == PROF_TF_CHUNK_MAGIC && c->type >= PROF_TF_EVENTS
           && c->type <= PROF_TF_END && c->size % 8 == 0
           && c->size <= PROF_TF_MAX_CHUNK;
}

/* Offset of the next plausible chunk header after pos, or n. */
static size_t resync(const unsigned char * d, size_t n, size_t pos)
{
    for (pos += 8; pos + sizeof(prof_tf_chunk) <= n; pos += 8)
    {
        prof_tf_chunk c;
        memcpy(&c, d + pos, sizeof c);
        if (valid_chunk(&c) && c.size <= n - pos - sizeof c)
            return pos;
    }
    return n;
}

static void on_chunk(pt_trace * t, const prof_tf_chunk * c,
                     const unsigned char * p, size_t at)
{
    size_t i, ti;
    switch (c->type)
    {
    case PROF_TF_EVENTS:
        if (c->size % 16 != 0)
            warn(t, W_CORRUPT, "events chunk at offset %zu has %u bytes, not a "
                 "multiple of 16: the last 8 ignored", at, c->size);
        for (i = 0; i + 16 <= c->size; i += 16)
            on_event(t, c->tid, rd64(p + i), rd64(p + i + 8));
        break;
    case PROF_TF_STRINGS:
        on_strings(t, p, c->size, at + sizeof *c);
        break;
    case PROF_TF_THREAD:
        if (thread_of(t, c->tid, &ti) != NULL)
        {
            size_t len = c->size < sizeof t->threads[ti].name - 1
                         ? c->size : sizeof t->threads[ti].name - 1;
            memcpy(t->threads[ti].name, p, len);
            t->threads[ti].name[len] = '\0';
        }
        break;
    case PROF_TF_MAPS:
        parse_maps(t, p, c->size);
        break;
    case PROF_TF_LOST:
        if (c->size >= 8 && thread_of(t, c->tid, &ti) != NULL)
        {
            uint64_t n = rd64(p);
            t->threads[ti].lost += n;
            t->lost += n;
            warn(t, W_TRUNC, "thread %u: the recorder could not write %llu "
                 "events (see its profiler: message)", c->tid, (unsigned long long) n);
        }
        break;
    case PROF_TF_END:
        if (c->size >= 24)
        {
            int64_t end = rel_ticks(t->st, rd64(p) & PROF_TF_TICK_MASK);
            uint64_t lost = rd64(p + 8);
            t->has_end = 1;
            t->end_signal = (int) (rd64(p + 16) & 0xff);
            if (end > t->span)
                t->span = end;
            if (lost > t->lost)
                t->lost = lost;
        }
        break;
    default:
        break;
    }
}

/* ---- pt_read ----------------------------------------------------------------- */

/* The file header: 0, or -1 (after a warning) if this is not a trace file
   that can be read. */
static int read_header(pt_trace * t, const unsigned char * d, size_t n,
                       size_t * first_chunk)
{
    prof_tf_header h;
    if (d == NULL || n < sizeof h)
    {
        warn(t, W_CORRUPT, "not a trace file: %zu bytes, shorter than the "
             "header", n);
        return -1;
    }
    memcpy(&h, d, sizeof h);
    if (memcmp(h.magic, PROF_TF_MAGIC, 8) != 0)
    {
        warn(t, W_CORRUPT, "not a trace file (no %.8s header)", PROF_TF_MAGIC);
        return -1;
    }
    if (h.bom != PROF_TF_BOM || h.version != PROF_TF_VERSION
        || h.header_size < sizeof h || h.header_size > n || h.header_size % 8 != 0)
    {
        warn(t, W_CORRUPT, "trace file of another byte order or version "
             "(bom %08x, version %u, header %u bytes): not read",
             h.bom, h.version, h.header_size);
        return -1;
    }
    t->tick_rate = h.tick_rate;
    if (!(h.tick_rate >= 1e3 && h.tick_rate <= 1e12))
    {
        warn(t, W_CORRUPT, "implausible tick rate %g/s in the header: "
             "using 1e9 (times may be wrong)", h.tick_rate);
        t->tick_rate = 1e9;
    }
    t->pid = h.pid;
    t->start_unix_ns = h.start_unix_ns;
    t->st->start61 = h.start_ticks & PROF_TF_TICK_MASK;
    *first_chunk = h.header_size;
    return 0;
}

/* The last record, cut by the end of the file at pos: its whole events are
   kept. */
static void read_cut_chunk(pt_trace * t, prof_tf_chunk * c,
                           const unsigned char * d, size_t n, size_t pos)
{
    if (c->type == PROF_TF_EVENTS)
    {
        size_t have = (n - pos - sizeof *c) / 16 * 16;
        warn(t, W_TRUNC, "the file is cut: last record has %zu of %u "
             "bytes; its %zu whole events kept", n - pos - sizeof *c,
             c->size, have / 16);
        c->size = (uint32_t) have;
        on_chunk(t, c, d + pos + sizeof *c, pos);
    }
    else
        warn(t, W_TRUNC, "the file is cut: last record (type %u) has "
             "%zu of %u bytes: ignored", c->type, n - pos - sizeof *c, c->size);
}

/* Every chunk from pos on; returns where reading stopped. */
static size_t read_chunks(pt_trace * t, const unsigned char * d, size_t n,
                          size_t pos)
{
    while (pos + sizeof(prof_tf_chunk) <= n)
    {
        prof_tf_chunk c;
        size_t next;
        memcpy(&c, d + pos, sizeof c);
        if (valid_chunk(&c) && c.size <= n - pos - sizeof c)
        {
            on_chunk(t, &c, d + pos + sizeof c, pos);
            pos += sizeof c + c.size;
            continue;
        }
        next = resync(d, n, pos);
        if (!valid_chunk(&c))
            warn(t, W_CORRUPT, "unreadable record at offset %zu: %zu bytes "
                 "skipped", pos, next - pos);
        else if (next < n)
            warn(t, W_CORRUPT, "record at offset %zu runs past the end of "
                 "the file: %zu bytes skipped", pos, next - pos);
        else
        {
            /* the file is cut inside its last record: keep what is whole */
            read_cut_chunk(t, &c, d, n, pos);
            return n;
        }
        pos = next;
    }
    return pos;
}

/* After the last chunk: how the trace ended, the zones still open. */
static void finish_trace(pt_trace * t)
{
    pt_state * s = t->st;
    size_t i;
    if (!t->has_end)
        warn(t, W_TRUNC, "no end record: the program did not finish normally "
             "(killed, or exec without this library's exec wrappers) or the "
             "file is cut; what was written is shown");
    else if (t->end_signal != 0)
        warn(t, W_TRUNC, "the program was ended by signal %d; events recorded "
             "until then are shown", t->end_signal);
    for (i = 0; i < t->nthreads; i++)
    {
        pt_tstate * ts = &s->ts[i];
        while (ts->depth > 0)
        {
            size_t z = ts->stack[ts->depth - 1];
            warn(t, W_MATCH, "thread %u: '%s' still open at the end of the "
                 "trace (marked *)", t->threads[i].tid,
                 zone_name(t, s->zkey[z], s->zclass[z]));
            zone_pop(t, ts, t->span, PT_NO_END);
        }
    }
    for (i = 0; i < t->nzones; i++)
        t->zones[i].name = zone_name(t, s->zkey[i], s->zclass[i]);
}

/* "... and N more" for each kind of warning past the limit, and the loss. */
static void warning_totals(const pt_trace * t)
{
    const pt_state * s = t->st;
    unsigned max = s->o->max_warnings_per_kind ? s->o->max_warnings_per_kind : 10;
    size_t i;
    if (s->o->warn == NULL)
        return;
    for (i = 0; i < W_KINDS; i++)
        if (s->wcount[i] > max)
            fprintf(s->o->warn, "prof-trace: ... and %lu more warnings like "
                    "these\n", s->wcount[i] - max);
    if (t->lost > 0)
        fprintf(s->o->warn, "prof-trace: %llu events were lost by the "
                "recorder: zones around them may be marked unmatched\n",
                (unsigned long long) t->lost);
}

int pt_read(const unsigned char * d, size_t n, const pt_options * o, pt_trace * t)
{
    static const pt_options defaults = { NULL, 0, 0 };
    size_t pos;
    memset(t, 0, sizeof *t);
    t->st = (pt_state *) calloc(1, sizeof *t->st);
    if (t->st == NULL)
        return -1;
    t->st->o = o != NULL ? o : &defaults;
    if (read_header(t, d, n, &pos) != 0)
        return -1;
    pos = read_chunks(t, d, n, pos);
    if (pos < n)
        warn(t, W_TRUNC, "the file is cut: %zu bytes after the last record "
             "ignored", n - pos);
    finish_trace(t);
    warning_totals(t);
    return 0;
}

void pt_free(pt_trace * t)
{
    pt_state * s = t->st;
    size_t i;
    if (s != NULL)
    {
        for (i = 0; i < t->nthreads; i++)
            free(s->ts[i].stack);
        free(s->ts);
        map_free(&s->strings, 1);
        map_free(&s->names, 0);
        map_free(&s->made, 1);
        map_free(&s->tids, 0);
        free(s->zkey);
        free(s->zclass);
        for (i = 0; i < s->nmaps; i++)
            free(s->maps[i].path);
        free(s->maps);
        for (i = 0; i < s->nelfs; i++)
        {
            free(s->elfs[i].data);
            free(s->elfs[i].syms);
        }
        free(s->elfs);
        free(s);
    }
    free(t->zones);
    free(t->threads);
    memset(t, 0, sizeof *t);
}

unsigned char * pt_slurp(const char * path, size_t * n)
{
    FILE * f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    unsigned char * d = NULL;
    size_t cap = 0, len = 0;
    if (f == NULL)
        return NULL;
    for (;;)
    {
        size_t k;
        if (prof_impl_grow(&d, &cap, len + 65536, 1) != 0)
        {
            free(d);
            d = NULL;
            errno = ENOMEM;
            break;
        }
        k = fread(d + len, 1, cap - len, f);
        len += k;
        if (k == 0)
        {
            if (ferror(f))
            {
                free(d);
                d = NULL;
            }
            break;
        }
    }
    if (f != stdin)
        fclose(f);
    *n = len;
    return d;
}

/* ---- reports ------------------------------------------------------------------ */

typedef struct
{
    char kind;
    const char * name;
    uint64_t calls, unmatched;
    int64_t total, min, max, self;
} pt_row;

static int cmp_zone_name(const void * a, const void * b)
{
    const pt_zone * x = *(const pt_zone * const *) a, * y = *(const pt_zone * const *) b;
    int c = strcmp(x->name, y->name);
    return c != 0 ? c : (x->kind > y->kind) - (x->kind < y->kind);
}

static int cmp_row(const void * a, const void * b)
{
    const pt_row * x = (const pt_row *) a, * y = (const pt_row *) b;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    return strcmp(x->name, y->name);
}

static void put_text(FILE * out, const char * s)
{
    for (; *s; s++)
        fputc((unsigned char) *s < 32 || *s == 127 ? '?' : *s, out);
}

static void put_csv(FILE * out, const char * s)
{
    if (strpbrk(s, ",\"\r\n") == NULL)
    {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++)
    {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* Length of the UTF-8 sequence at s, or 0 if it is not valid UTF-8. */
static int utf8_len(const unsigned char * s)
{
    unsigned c = *s;
    int len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2
            : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    int k;
    for (k = 1; k < len; k++)
        if ((s[k] & 0xc0) != 0x80)
            return 0;
    if (len == 3 && ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0)))
        return 0;
    if (len == 4 && ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90)))
        return 0;
    return len;
}

/* A JSON string: escapes, and U+FFFD for bytes that are not UTF-8. */
static void put_json(FILE * out, const char * str)
{
    const unsigned char * s = (const unsigned char *) str;
    fputc('"', out);
    while (*s)
    {
        int len = utf8_len(s);
        if (len == 0)
            fputs("\\ufffd", out), s++;
        else if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s), s++;
        else if (*s < 0x20)
            fprintf(out, "\\u%04x", *s), s++;
        else
        {
            fwrite(s, 1, (size_t) len, out);
            s += len;
        }
    }
    fputc('"', out);
}

/* The zones of t as pointers sorted by cmp; NULL (after a message) if out
   of memory or there are none. */
static const pt_zone ** sorted_zones(const pt_trace * t,
                                     int (*cmp)(const void *, const void *))
{
    const pt_zone ** z;
    size_t i;
    if (t->nzones == 0)
        return NULL;
    z = (const pt_zone **) malloc(t->nzones * sizeof *z);
    if (z == NULL)
    {
        fprintf(stderr, "prof-trace: out of memory\n");
        return NULL;
    }
    for (i = 0; i < t->nzones; i++)
        z[i] = &t->zones[i];
    qsort(z, t->nzones, sizeof *z, cmp);
    return z;
}

/* One row per (name, kind), sorted by total time; *nrows of them. */
static pt_row * summary_rows(const pt_trace * t, size_t * nrows)
{
    const pt_zone ** z = sorted_zones(t, cmp_zone_name);
    pt_row * rows = z != NULL ? (pt_row *) calloc(t->nzones, sizeof *rows) : NULL;
    size_t i, n = 0;
    for (i = 0; rows != NULL && i < t->nzones; i++)
    {
        pt_row * r;
        int64_t d = z[i]->end - z[i]->begin;
        if (i == 0 || cmp_zone_name(&z[i - 1], &z[i]) != 0)
        {
            r = &rows[n++];
            r->kind = z[i]->kind;
            r->name = z[i]->name;
            r->min = INT64_MAX;
        }
        r = &rows[n - 1];
        if (z[i]->flags)
        {
            r->unmatched++;
            continue;
        }
        r->calls++;
        r->total += d;
        r->self += d - z[i]->child;
        r->min = d < r->min ? d : r->min;
        r->max = d > r->max ? d : r->max;
    }
    free(z);
    if (rows != NULL)
        qsort(rows, n, sizeof *rows, cmp_row);
    *nrows = n;
    return rows;
}

static void put_row(FILE * out, const pt_row * r, double ns, pt_summary_format f)
{
    double avg = r->calls ? (double) r->total * ns / (double) r->calls : 0;
    double mn = r->calls ? (double) r->min * ns : 0, mx = (double) r->max * ns;
    if (f == PT_SUMMARY_CSV)
    {
        fprintf(out, "%c,", r->kind);
        put_csv(out, r->name);
        fprintf(out, "%s,%llu,%.0f,%.1f,%.0f,%.0f,%.0f,%llu\n",
                r->unmatched ? "*" : "", (unsigned long long) r->calls,
                (double) r->total * ns, avg, mn, mx, (double) r->self * ns,
                (unsigned long long) r->unmatched);
        return;
    }
    fprintf(out, "%-4c %10llu %14.0f %12.1f %12.0f %12.0f %14.0f %9llu  ",
            r->kind, (unsigned long long) r->calls, (double) r->total * ns,
            avg, mn, mx, (double) r->self * ns, (unsigned long long) r->unmatched);
    put_text(out, r->name);
    fputs(r->unmatched ? " *\n" : "\n", out);
}

void pt_write_summary(FILE * out, const pt_trace * t, pt_summary_format f)
{
    size_t nrows = 0, i;
    pt_row * rows = summary_rows(t, &nrows);
    if (f == PT_SUMMARY_CSV)
        fprintf(out, "kind,name,calls,total_ns,avg_ns,min_ns,max_ns,self_ns,unmatched\n");
    else
    {
        fprintf(out, "%zu zones in %zu threads, %llu events, %.6g s traced "
                "(%.6g ticks/s)%s\n", t->nzones, t->nthreads,
                (unsigned long long) t->events, (double) t->span / t->tick_rate,
                t->tick_rate, t->lost ? ", EVENTS LOST" : "");
        fprintf(out, "%-4s %10s %14s %12s %12s %12s %14s %9s  %s\n", "kind",
                "calls", "total_ns", "avg_ns", "min_ns", "max_ns", "self_ns",
                "unmatched", "name (* = has unmatched begin/end)");
    }
    for (i = 0; i < nrows; i++)
        put_row(out, &rows[i], 1e9 / t->tick_rate, f);
    free(rows);
}

/* By thread, then in the order the zones began (their order in the
   array: exact even where times are equal). */
static int cmp_zone_time(const void * a, const void * b)
{
    const pt_zone * x = *(const pt_zone * const *) a, * y = *(const pt_zone * const *) b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    return (x > y) - (x < y);
}

/* Ticks since the start as whole nanoseconds: rounding each instant once
   (a monotonic function) keeps every child inside its parent. */
static int64_t whole_ns(const pt_trace * t, int64_t ticks)
{
    double ns = (double) ticks * (1e9 / t->tick_rate);
    return ns < 0.5 ? 0 : (int64_t) (ns + 0.5);
}

/* Nanoseconds as microseconds with three decimals, exactly. */
static void put_us(FILE * out, int64_t ns)
{
    fprintf(out, "%lld.%03lld", (long long) (ns / 1000), (long long) (ns % 1000));
}

static void json_head(FILE * out, const pt_trace * t)
{
    size_t i;
    fputs("[\n", out);
    fprintf(out, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,"
            "\"args\":{\"name\":", t->pid);
    put_json(out, t->process[0] ? t->process : "traced program");
    fputs("}}", out);
    for (i = 0; i < t->nthreads; i++)
    {
        char def[32];
        snprintf(def, sizeof def, "thread %u", t->threads[i].tid);
        fprintf(out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,"
                "\"tid\":%u,\"args\":{\"name\":", t->pid, t->threads[i].tid);
        put_json(out, t->threads[i].name[0] ? t->threads[i].name : def);
        fputs("}}", out);
    }
}

/* One event of zone x: ph is 'X' (with dur), 'B', 'E' or 'i'. */
static void json_event(FILE * out, const pt_trace * t, const pt_zone * x, char ph)
{
    int64_t b = whole_ns(t, x->begin), e = whole_ns(t, x->end);
    fputs(",\n{\"name\":", out);
    put_json(out, x->name);
    fprintf(out, ",\"cat\":\"%s\",\"ph\":\"%c\",", x->kind == 'u' ? "zone"
            : "function", ph);
    if (ph == 'i')
        fputs("\"s\":\"t\",", out);
    fputs("\"ts\":", out);
    put_us(out, ph == 'E' ? e : b);
    if (ph == 'X')
    {
        fputs(",\"dur\":", out);
        put_us(out, e - b);
    }
    fprintf(out, ",\"pid\":%u,\"tid\":%u", t->pid, t->threads[x->thread].tid);
    if (ph == 'i')
        fputs(",\"args\":{\"unmatched\":\"end without begin\"}", out);
    else if ((x->flags & PT_NO_END) && ph != 'B')
        fputs(",\"args\":{\"unmatched\":\"begin without end\"}", out);
    fputc('}', out);
}

/* B/E pairs from zones in time order: a zone's E comes before the B of
   the next zone at its depth or above (on its thread). */
static void json_be(FILE * out, const pt_trace * t, const pt_zone ** z)
{
    const pt_zone ** open = (const pt_zone **) malloc(t->nzones * sizeof *open);
    size_t i, n = 0;
    if (open == NULL)
    {
        fprintf(stderr, "prof-trace: out of memory\n");
        return;
    }
    for (i = 0; i < t->nzones; i++)
    {
        while (n > 0 && (open[n - 1]->thread != z[i]->thread
                         || open[n - 1]->depth >= z[i]->depth))
            json_event(out, t, open[--n], 'E');
        if (z[i]->flags & PT_NO_BEGIN)
            json_event(out, t, z[i], 'i');
        else
        {
            json_event(out, t, z[i], 'B');
            open[n++] = z[i];
        }
    }
    while (n > 0)
        json_event(out, t, open[--n], 'E');
    free(open);
}

void pt_write_json(FILE * out, const pt_trace * t, pt_json_format f)
{
    const pt_zone ** z = sorted_zones(t, cmp_zone_time);
    size_t i;
    json_head(out, t);
    if (z != NULL && f == PT_JSON_BE)
        json_be(out, t, z);
    for (i = 0; z != NULL && f == PT_JSON_X && i < t->nzones; i++)
        json_event(out, t, z[i], z[i]->flags & PT_NO_BEGIN ? 'i' : 'X');
    free(z);
    fputs("\n]\n", out);
}
