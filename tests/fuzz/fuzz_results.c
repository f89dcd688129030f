/* libFuzzer target: the JSON reader and the result-file loader behind
   prof-compare, on arbitrary bytes. Build: clang -fsanitize=fuzzer,address */
#include <stddef.h>
#include <stdint.h>
#include "../../src/tools/compare/compare.h"
#include "../../src/tools/common/json.h"

int LLVMFuzzerTestOneInput(const uint8_t * data, size_t size)
{
    char err[256];
    prof_result_file rf;
    prof_json * j = prof_impl_json_parse((const char *) data, size, err, sizeof err);
    prof_impl_json_free(j);
    if (prof_impl_results_parse((const char *) data, size, &rf, err, sizeof err) == 0)
    {
        int i;
        for (i = 0; i + 1 < rf.count; i++)
        {
            prof_verdict v;
            prof_impl_compare(&rf.series[i], &rf.series[i + 1], 0.01, 0.02, &v);
        }
        prof_impl_results_free(&rf);
    }
    return 0;
}
