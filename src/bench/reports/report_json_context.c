/*
    The JSON's "context" (Google Benchmark's fields, then the profiler's:
    the tick rate, the compiler, the processes, the counters, the user
    measures' units, the machine check, --benchmark_context's pairs and
    the build warnings), for report_json.c.
    SPDX-License-Identifier: MIT
*/
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The units of the user measures that have one, once per name:
   "profiler_user_units": {"heap": "B"}. */
static void json_user_units(FILE * out, prof_impl_result * const * results,
        int n)
{
    const char * seen[PROF_IMPL_USER_COLS];
    int i, k, j, nseen = 0;
    for (i = 0; i < n; i++)
        for (k = 0; k < results[i]->nuser; k++)
        {
            const char * name = results[i]->user_names[k];
            if (results[i]->user_units[k][0] == '\0')
                continue;
            for (j = 0; j < nseen && strcmp(seen[j], name) != 0; j++)
                ;
            if (j < nseen || nseen == PROF_IMPL_USER_COLS)
                continue;
            fputs(nseen ? ", " : ",\n    \"profiler_user_units\": {", out);
            seen[nseen++] = name;
            prof_impl_json_string(out, name);
            fputs(": ", out);
            prof_impl_json_string(out, results[i]->user_units[k]);
        }
    if (nseen > 0)
        fputc('}', out);
}

/* The machine check: "profiler_machine": {"loaded": false, "governor":
   "unknown", ..., "findings": [...]} (null / "unknown" where unknown). */
static void json_machine(FILE * out)
{
    prof_impl_machine m;
    char text[PROF_IMPL_FINDINGS][PROF_IMPL_FINDING];
    int i, n;
    prof_impl_machine_read(&m);
    n = prof_impl_machine_findings(&m, text, PROF_IMPL_FINDINGS);
    fprintf(out, ",\n    \"profiler_machine\": {\"loaded\": %s, "
            "\"governor\": ", isnan(m.load[0]) ? "null"
            : prof_impl_machine_loaded(m.load[0], m.cores) ? "true" : "false");
    prof_impl_json_string(out, m.governor[0] ? m.governor : "unknown");
    fprintf(out, ", \"turbo\": \"%s\", \"aslr\": \"%s\", "
            "\"virtual_machine\": \"%s\", \"pmu\": \"%s\", \"findings\": [",
            prof_impl_machine_word(PROF_IMPL_WORD_TURBO, m.turbo),
            prof_impl_machine_word(PROF_IMPL_WORD_ASLR, m.aslr),
            prof_impl_machine_word(PROF_IMPL_WORD_YES, m.vm),
            prof_impl_machine_word(PROF_IMPL_WORD_YES, m.pmu));
    for (i = 0; i < n; i++)
    {
        fputs(i ? ", " : "", out);
        prof_impl_json_string(out, text[i]);
    }
    fputs("]}", out);
}

/* --benchmark_context's pairs ("key=value", checked by the parser) as
   strings of the context, as Google Benchmark writes them. */
static void json_pairs(FILE * out, const prof_impl_report_ctx * c)
{
    int i;
    for (i = 0; i < c->ncontext; i++)
    {
        const char * eq = strchr(c->context[i], '=');
        char key[256];
        size_t len = (size_t) (eq - c->context[i]);
        len = len < sizeof key ? len : sizeof key - 1;
        memcpy(key, c->context[i], len);
        key[len] = '\0';
        fputs(",\n    ", out);
        prof_impl_json_string(out, key);
        fputs(": ", out);
        prof_impl_json_string(out, eq + 1);
    }
}

void prof_impl_json_context(FILE * out, const prof_impl_report_ctx * c,
        prof_impl_result * const * results, int n)
{
    prof_impl_sysinfo si;
    const char * w[2];
    int i, nw = prof_impl_build_warnings(c, w);
    prof_impl_sysinfo_read(&si);
    fputs("{\n  \"context\": {\n    \"date\": ", out);
    prof_impl_json_string(out, si.date);
    fputs(",\n    \"host_name\": ", out);
    prof_impl_json_string(out, si.host);
    fputs(",\n    \"executable\": ", out);
    prof_impl_json_string(out, si.exe);
    fprintf(out, ",\n    \"num_cpus\": %d,\n    \"mhz_per_cpu\": %d,\n"
            "    \"cpu_scaling_enabled\": %s,\n    \"caches\": [\n", si.cores,
            (int) (si.mhz > 0.0 ? si.mhz + 0.5 : prof_impl_read_rate() * 1e-6 + 0.5),
            si.scaling[0] && strcmp(si.scaling, "performance") != 0
                ? "true" : "false");
    for (i = 0; i < si.ncaches; i++)
    {
        fputs("      {\n        \"type\": ", out);
        prof_impl_json_string(out, si.caches[i].type);
        fprintf(out, ",\n        \"level\": %d,\n        \"size\": %ld,\n"
                "        \"num_sharing\": %d\n      }%s\n", si.caches[i].level,
                si.caches[i].size, si.caches[i].sharing,
                i + 1 < si.ncaches ? "," : "");
    }
    fprintf(out, "    ],\n    \"load_avg\": [%g,%g,%g],\n"
            "    \"library_build_type\": \"%s\",\n    \"cpu_model\": ",
            si.load[0], si.load[1], si.load[2],
            c->optimized ? "release" : "debug");
    prof_impl_json_string(out, si.cpu);
    fputs(",\n    \"profiler_tick_rate_hz\": ", out);
    prof_impl_json_number(out, prof_impl_read_rate());
    fputs(",\n    \"profiler_counter_overhead_ns\": ", out);
    prof_impl_json_number(out, c->overhead_ns);
    fputs(",\n    \"profiler_compiler\": ", out);
    prof_impl_json_string(out, c->compiler);
    fputs(",\n    \"profiler_compile_flags\": ", out);
    prof_impl_json_string(out, c->flags);
    fprintf(out, ",\n    \"profiler_processes\": %d", c->processes);
    if (c->partial != NULL)
    {
        /* prof-run's word for it */
        fputs(",\n    \"profiler_partial\": true,\n"
              "    \"profiler_partial_why\": ", out);
        prof_impl_json_string(out, c->partial);
    }
    {
        int any = 0;
        for (i = 0; i < n; i++)
            any |= results[i]->nev > 0;
        if (any && c->counters_line[0] != '\0')
        {
            fputs(",\n    \"profiler_counters\": ", out);
            prof_impl_json_string(out, c->counters_line);
        }
    }
    json_user_units(out, results, n);
    json_machine(out);
    json_pairs(out, c);
    fputs(",\n    \"profiler_warnings\": [", out);
    for (i = 0; i < nw; i++)
    {
        fputs(i ? ", " : "", out);
        prof_impl_json_string(out, w[i]);
    }
    fputs("]\n  },\n", out);
}
