/* libFuzzer target: the 8-byte event encoding (format 2). The input is
   read as events (type, label, tick gap; some gaps need a SYNC word), which
   are written both as format 1 (16-byte events, label addresses) and as
   format 2 (deltas, per-thread label ids, LABELS chunks), the way the
   recorder writes them; both files must read as the same zones. */
#include "../trace_util.h"

static const uint64_t keys[8] = { 0x1000, 0x2000, 0x3000, 0x4000, 0x5000,
                                  0x6000, 0x7000, 0x8000 };

static int same(const pt_trace * a, const pt_trace * b)
{
    size_t i;
    if (a->nzones != b->nzones || a->events != b->events || a->span != b->span)
        return 0;
    for (i = 0; i < a->nzones; i++)
    {
        const pt_zone * x = &a->zones[i], * y = &b->zones[i];
        if (x->begin != y->begin || x->end != y->end || x->flags != y->flags
            || x->depth != y->depth || x->kind != y->kind || x->child != y->child
            || strcmp(x->name, y->name) != 0)
            return 0;
    }
    return 1;
}

static int load(const tbuf * b, pt_trace * t)
{
    pt_options o;
    memset(&o, 0, sizeof o); /* no warnings, no symbols */
    return pt_read(b->d, b->n, &o, t);
}

int LLVMFuzzerTestOneInput(const unsigned char * data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char * data, size_t size)
{
    size_t n = size / 2, i;
    tev * e1 = (tev *) calloc(n + 1, sizeof *e1), * e2 = (tev *) calloc(n + 1, sizeof *e2);
    uint64_t t = 1000;
    tbuf b1 = { 0, 0, 0 }, b2 = { 0, 0, 0 };
    pt_trace x, y;
    for (i = 0; i < n; i++)
    {
        unsigned char c = data[2 * i], g = data[2 * i + 1];
        t += g < 250 ? g : (uint64_t) g << (g - 210); /* up to 2^45: SYNCs */
        e1[i].ticks = e2[i].ticks = t;
        e1[i].type = e2[i].type = c % 6;
        e1[i].key = keys[(c / 6) % 8];
        e2[i].key = (c / 6) % 8;                      /* the id of keys[] */
    }
    tb_header(&b1, 1e9, 500);
    tb_header(&b2, 1e9, 500);
    for (i = 0; i < 8; i++)
    {
        char s[4] = { 'l', (char) ('0' + i), 0, 0 };
        tb_string(&b1, keys[i], s);
        tb_string(&b2, keys[i], s);
    }
    tb_labels(&b2, 1, 0, keys, 8);
    tb_events(&b1, 1, e1, n);
    tb_events2(&b2, 1, 0, e2, n);
    tb_end(&b1, t + 1, 0);
    tb_end(&b2, t + 1, 0);
    if (load(&b1, &x) != 0 || load(&b2, &y) != 0 || !same(&x, &y))
    {
        fprintf(stderr, "formats 1 and 2 differ: %zu / %zu zones\n", x.nzones, y.nzones);
        abort();
    }
    pt_free(&x);
    pt_free(&y);
    free(b1.d);
    free(b2.d);
    free(e1);
    free(e2);
    return 0;
}
