/* libFuzzer target for the trace reader and its three reports: any bytes
   must be read without a crash, a leak or undefined behaviour, in memory
   (pt_read) and from a file the way prof-trace reads one (pt_stream of a
   path: a window read a piece at a time, moved, sought back), with a window
   of 16 to 271 bytes chosen by the input's last byte so that it moves at
   every chunk. Both must read the same: the same result, events, zones and
   warnings (the fuzzer stops on a difference).
   Built by -DPROFILER_FUZZ=ON with clang (-fsanitize=fuzzer,address,
   undefined); .ci/run runs it for a bounded time on a seed corpus written
   by test_trace_read and the example traces. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trace_read.h"

int LLVMFuzzerTestOneInput(const uint8_t * data, size_t size);

/* What one reading gave. */
typedef struct
{
    int rc;
    uint64_t events;
    size_t nzones;
    unsigned long warnings;
    char * text;   /* the warnings */
    size_t len;
} outcome;

static void read_memory(const uint8_t * data, size_t size, FILE * sink,
                        outcome * out)
{
    pt_options o;
    pt_trace t;
    FILE * w = open_memstream(&out->text, &out->len);
    memset(&o, 0, sizeof o);
    o.warn = w;
    o.resolve_symbols = 0; /* names in the input must not make us read files */
    out->rc = pt_read(data, size, &o, &t);
    if (out->rc == 0)
    {
        pt_write_summary(sink, &t, PT_SUMMARY_TEXT);
        pt_write_summary(sink, &t, PT_SUMMARY_CSV);
        pt_write_json(sink, &t, PT_JSON_X);
        pt_write_json(sink, &t, PT_JSON_BE);
    }
    out->events = t.events;
    out->nzones = t.nzones;
    out->warnings = t.warnings;
    pt_free(&t);
    fclose(w);
}

/* The input as a file: a temporary file (unlinked at once), named by its
   /proc/self/fd path. NULL if it cannot be written. */
static const char * as_file(const uint8_t * data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0)
    {
        char tmpl[] = "/tmp/fuzz_trace_read.XXXXXX";
        if ((fd = mkstemp(tmpl)) < 0)
            return NULL;
        unlink(tmpl);
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0
        || (size > 0 && pwrite(fd, data, size, 0) != (ssize_t) size))
        return NULL;
    return path;
}

static void read_file(const char * path, size_t window, outcome * out)
{
    pt_options o;
    pt_trace t;
    FILE * w = open_memstream(&out->text, &out->len);
    memset(&o, 0, sizeof o);
    o.warn = w;
    o.window = window;
    out->rc = pt_stream(path, &o, NULL, &t);
    out->events = t.events;
    out->nzones = t.nzones;
    out->warnings = t.warnings;
    pt_free(&t);
    fclose(w);
}

int LLVMFuzzerTestOneInput(const uint8_t * data, size_t size)
{
    static FILE * sink;
    const char * path;
    outcome m, f;
    if (sink == NULL && (sink = fopen("/dev/null", "w")) == NULL)
        return 0;
    memset(&m, 0, sizeof m);
    memset(&f, 0, sizeof f);
    read_memory(data, size, sink, &m);
    if ((path = as_file(data, size)) != NULL)
    {
        read_file(path, 16 + (size > 0 ? data[size - 1] : 0), &f);
        if (f.rc != m.rc || f.events != m.events || f.nzones != m.nzones
            || f.warnings != m.warnings || strcmp(f.text, m.text) != 0)
        {
            fprintf(stderr, "file and memory differ: rc %d/%d, events %llu/%llu, "
                    "zones %zu/%zu, warnings %lu/%lu:\n%s---\n%s", f.rc, m.rc,
                    (unsigned long long) f.events, (unsigned long long) m.events,
                    f.nzones, m.nzones, f.warnings, m.warnings, f.text, m.text);
            abort();
        }
    }
    free(m.text);
    free(f.text);
    return 0;
}
