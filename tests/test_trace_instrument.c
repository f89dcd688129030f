/* The trace of trace_instrumented (argv[1]), a program built with
   -finstrument-functions: function addresses are named after the run from
   the executable's symbol table, static functions and PIE included; the
   calls nest (leaf in middle in main) and are counted exactly, as rows
   of their own kind ('i', not PROF_FUNC's 'f'). */
#include "trace_util.h"

int main(int argc, char ** argv)
{
    pt_trace t;
    const char * w;
    unsigned char * d;
    size_t n, i;
    if (argc < 2 || (d = pt_slurp(argv[1], &n)) == NULL)
    {
        fprintf(stderr, "usage: test_trace_instrument TRACE\n");
        return 1;
    }
    CHECK(read_trace(d, n, &t, 1, &w) == 0, "read failed");
    CHECK(w[0] == '\0', "warnings: %s", w);
    CHECK(count_zones(&t, "main", -1, 0) == 1, "main");
    CHECK(count_zones(&t, "middle", -1, 0) == 200, "middle");
    CHECK(count_zones(&t, "leaf", -1, 0) == 1000, "leaf");
    CHECK(t.nzones == 1201, "%zu zones", t.nzones);
    for (i = 0; i < t.nzones; i++)
    {
        const pt_zone * z = &t.zones[i];
        int func = strcmp(z->name, "middle") == 0 && z->depth == 2;
        CHECK(z->kind == (func ? PT_KIND_FUNC : PT_KIND_INSTRUMENT), "%s: kind %c",
              z->name, z->kind);
        if (strcmp(z->name, "leaf") == 0)
            CHECK(z->depth == 3, "leaf depth %u", z->depth);
    }
    {
        char * csv = report(&t, 'c');
        CHECK(strstr(csv, "\ni,leaf,1000,") != NULL && strstr(csv, "\ni,middle,100,") != NULL
              && strstr(csv, "\ni,main,1,") != NULL && strstr(csv, "\nf,middle,100,")
              != NULL, "csv:\n%s", csv);
        free(csv);
    }
    pt_free(&t);
    free(d);
    return check_report("test_trace_instrument");
}
