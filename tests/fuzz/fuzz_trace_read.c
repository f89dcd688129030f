/* libFuzzer target for the trace reader and its three reports: any bytes
   must be read without a crash, a leak or undefined behaviour.
   Built by -DPROFILER_FUZZ=ON with clang (-fsanitize=fuzzer,address,
   undefined); .ci/run runs it for a bounded time on a seed corpus written
   by test_trace_read and the example traces. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "trace_read.h"

int LLVMFuzzerTestOneInput(const uint8_t * data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t * data, size_t size)
{
    static FILE * sink;
    pt_options o;
    pt_trace t;
    if (sink == NULL && (sink = fopen("/dev/null", "w")) == NULL)
        return 0;
    memset(&o, 0, sizeof o);
    o.warn = sink;
    o.resolve_symbols = 0; /* names in the input must not make us read files */
    if (pt_read(data, size, &o, &t) == 0)
    {
        pt_write_summary(sink, &t, PT_SUMMARY_TEXT);
        pt_write_summary(sink, &t, PT_SUMMARY_CSV);
        pt_write_json(sink, &t, PT_JSON_X);
        pt_write_json(sink, &t, PT_JSON_BE);
    }
    pt_free(&t);
    return 0;
}
