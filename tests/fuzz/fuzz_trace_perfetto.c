/* libFuzzer target: the Perfetto writer's round trip. Any input the reader
   takes is written as Perfetto's protobuf and decoded again by the test
   decoder (tests/perfetto_decode.h, against the public .proto field
   numbers): it must be well formed, with one slice per zone, nested per
   track; and as pprof's profile, which must be a gzip file. */
#include "trace_read.h"
#include "../perfetto_decode.h"

#include <stdlib.h>
#include <string.h>

static pf_trace dec;

int LLVMFuzzerTestOneInput(const unsigned char * data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char * data, size_t size)
{
    pt_options o;
    pt_trace t;
    char * buf = NULL;
    size_t len = 0, i, begins = 0, instants = 0, deep = 0;
    FILE * f;
    memset(&o, 0, sizeof o);
    if (pt_read(data, size, &o, &t) != 0 || t.nthreads > 250 || t.nzones > 4000)
    {
        pt_free(&t);
        return 0;
    }
    for (i = 0; i < t.nzones; i++)
    {
        begins += !(t.zones[i].flags & PT_NO_BEGIN);
        instants += (t.zones[i].flags & PT_NO_BEGIN) != 0;
        deep |= t.zones[i].depth >= PF_MAX_DEPTH;
    }
    f = open_memstream(&buf, &len);
    if (f != NULL)
    {
        pt_write_report(f, &t, PT_OUT_PERFETTO);
        fclose(f);
        if (!deep && (pf_decode((const unsigned char *) buf, len, &dec) != 0
                      || dec.begins != begins || dec.ends != begins
                      || dec.instants != instants))
        {
            fprintf(stderr, "round trip: %s (%zu/%zu slices, %zu/%zu instants)\n",
                    dec.error, dec.begins, begins, dec.instants, instants);
            abort();
        }
    }
    free(buf);
    buf = NULL;
    /* and pprof's gzipped profile (trace_pprof.c): whole, gzip's magic */
    if ((f = open_memstream(&buf, &len)) != NULL)
    {
        int rc = pt_write_report(f, &t, PT_OUT_PPROF);
        fclose(f);
        if (rc == 0 && (len < 18 || (unsigned char) buf[0] != 0x1f
                        || (unsigned char) buf[1] != 0x8b))
        {
            fprintf(stderr, "pprof: %zu bytes, not gzip\n", len);
            abort();
        }
    }
    free(buf);
    pt_free(&t);
    return 0;
}
