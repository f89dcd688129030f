/*
    What prof-trace's Chrome JSON writers share: see trace_json.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_json.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>

void pt_json_sep(FILE * out, int * first)
{
    fputs(*first ? "[\n" : ",\n", out);
    *first = 0;
}

void pt_json_number(FILE * out, double v)
{
    char buf[40];
    if (isnan(v) || isinf(v))
    {
        fputs(isnan(v) ? "\"NaN\"" : v > 0 ? "\"Infinity\"" : "\"-Infinity\"", out);
        return;
    }
    snprintf(buf, sizeof buf, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, sizeof buf, "%.17g", v);
    fputs(buf, out);
}

void pt_json_us(FILE * out, int64_t ns)
{
    fprintf(out, "%lld.%03lld", (long long) (ns / 1000), (long long) (ns % 1000));
}

/* A trace with samples: Chrome JSON carries none of them; said on stderr
   and in a metadata event. */
static void no_samples(FILE * out, const pt_trace * t)
{
    const char * what = t->nzones == 0 ? "holds only samples" : "holds samples";
    unsigned long long n = (unsigned long long) t->sampling.read;
    prof_impl_warn("prof-trace: this trace %s (%llu), which Chrome JSON does "
                   "not carry: --speedscope, --perfetto, --folded and the text "
                   "report show them", what, n);
    fprintf(out, "{\"name\":\"prof_trace_note\",\"ph\":\"M\",\"pid\":%u,"
            "\"tid\":0,\"args\":{\"samples_left_out\":%llu,\"note\":\"this "
            "trace %s; Chrome JSON carries none of them: see prof-trace "
            "--speedscope, --perfetto or --folded\"}},\n", t->pid, n, what);
}

void pt_json_tail(FILE * out, int * first, const pt_trace * t)
{
    size_t i;
    pt_json_sep(out, first);
    if (t->sampling.read > 0)
        no_samples(out, t);
    fprintf(out, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,"
            "\"args\":{\"name\":", t->pid);
    prof_impl_json_string(out, t->process[0] ? t->process : "traced program");
    fputs("}}", out);
    for (i = 0; i < t->nthreads; i++)
    {
        char def[32];
        snprintf(def, sizeof def, "thread %u", t->threads[i].tid);
        fprintf(out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,"
                "\"tid\":%u,\"args\":{\"name\":", t->pid, t->threads[i].tid);
        prof_impl_json_string(out, t->threads[i].name[0] ? t->threads[i].name : def);
        fputs("}}", out);
    }
    fputs("\n]\n", out);
}
