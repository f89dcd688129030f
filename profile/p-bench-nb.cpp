// p-bench-nb: the reference kernels through nanobench with its defaults,
// printing p-bench --machine's lines (index, median ns, interval low and
// high, wall ms, err%, p10, min: nanobench has no interval nor p10, so
// those are nan), so that p-bench --stability runs it beside the runner
// (a configuration "@p-bench-nb"). Built only when PROFILER_NANOBENCH_DIR
// names a folder holding nanobench.h (fetched by hand, never committed).
#define ANKERL_NANOBENCH_IMPLEMENT
#include <nanobench.h>

#include <chrono>
#include <cstdio>

#include "kernels.h"

int main()
{
    if (kernels_init() != 0)
        return 1;
    ankerl::nanobench::Bench bench;
    bench.output(nullptr);
    for (int i = 0; i < NKERNELS; i++)
    {
        const kernel_t * k = &kernels[i];
        uint64_t x = 1, s = 0;
        auto t0 = std::chrono::steady_clock::now();
        if (k->kind == 0)
            bench.run(k->name, [] { kernel_empty(); });
        else if (k->kind == 1)
            bench.run(k->name, [&] {
                x = kernel_chain(x, k->n);
                ankerl::nanobench::doNotOptimizeAway(x);
            });
        else
            bench.run(k->name, [&] {
                s += kernel_sum(kernel_array, k->n);
                ankerl::nanobench::doNotOptimizeAway(s);
            });
        double wall = std::chrono::duration<double, std::milli>(
            std::chrono::steady_clock::now() - t0).count();
        const auto & r = bench.results().back();
        using M = ankerl::nanobench::Result::Measure;
        std::printf("%d %.6g nan nan %.4g %.4g nan %.6g\n", i,
                    r.median(M::elapsed) * 1e9, wall,
                    100.0 * r.medianAbsolutePercentError(M::elapsed),
                    r.minimum(M::elapsed) * 1e9);
    }
    return 0;
}
