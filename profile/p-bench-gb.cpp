// p-bench-gb: the reference kernels through Google Benchmark and through
// prof_bench in the same process, alternating, `rounds` times; prints per
// kernel the median over rounds of each tool's figure and wall time.
// Google Benchmark runs with its defaults (min_time 0.5 s) and, for the same
// wall time as prof_bench's default, with --benchmark_min_time=0.012.
// Usage: p-bench-gb [rounds (3)] [kernels (all)]: the first `kernels` of
// the reference kernels (CI's quick run: 1 round of 2). Built only when
// find_package(benchmark) succeeds.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels.h"

namespace {

double now_ms()
{
    return std::chrono::duration<double, std::milli>(
        std::chrono::steady_clock::now().time_since_epoch()).count();
}

void gb_kernel(benchmark::State & state, const kernel_t * k)
{
    uint64_t x = 1, s = 0;
    if (k->kind == 0)
        for (auto _ : state)
            kernel_empty();
    else if (k->kind == 1)
    {
        for (auto _ : state)
            x = kernel_chain(x, k->n);
        benchmark::DoNotOptimize(x);
    }
    else
    {
        for (auto _ : state)
        {
            s += kernel_sum(kernel_array, k->n);
            benchmark::ClobberMemory();
        }
        benchmark::DoNotOptimize(s);
    }
}

// Collects the real time per iteration of each run.
class Collect : public benchmark::BenchmarkReporter
{
public:
    std::vector<double> ns;
    bool ReportContext(const Context &) override { return true; }
    void ReportRuns(const std::vector<Run> & runs) override
    {
        for (const Run & r : runs)
            ns.push_back(r.GetAdjustedRealTime()); // in the run's time unit: ns
    }
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

struct Figures { std::vector<double> ns, ms; };

void run_gb(const kernel_t * k, const char * min_time, Figures & f)
{
    std::string arg0 = "p-bench-gb";
    std::string filter = "--benchmark_filter=^k" + std::to_string(k - kernels)
                       + "$";
    std::string mt = min_time ? std::string("--benchmark_min_time=") + min_time
                              : std::string();
    std::vector<char *> argv;
    argv.push_back(&arg0[0]);
    argv.push_back(&filter[0]);
    if (min_time)
        argv.push_back(&mt[0]);
    int argc = (int) argv.size();
    benchmark::Initialize(&argc, argv.data());
    Collect c;
    double t0 = now_ms();
    benchmark::RunSpecifiedBenchmarks(&c);
    f.ms.push_back(now_ms() - t0);
    if (!c.ns.empty())
        f.ns.push_back(c.ns[0]);
}

} // namespace

int main(int argc, char ** argv)
{
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
    const int nk = argc > 2 ? std::atoi(argv[2]) : NKERNELS;
    if (rounds < 1 || nk < 1 || nk > NKERNELS)
    {
        std::fprintf(stderr, "usage: p-bench-gb [rounds (3): 1 or more] "
                     "[kernels (%d): 1..%d]\n", NKERNELS, NKERNELS);
        return 2;
    }
    if (kernels_init() != 0)
        return 1;
    for (int i = 0; i < NKERNELS; i++)
        benchmark::RegisterBenchmark(("k" + std::to_string(i)).c_str(),
                                     gb_kernel, &kernels[i]);

    prof_bench * b = prof_bench_new();
    prof_bench_set_format(b, PROF_FORMAT_NONE);
    std::printf("%d rounds, each: prof_bench (default), Google Benchmark "
                "(default min_time 0.5 s), Google Benchmark (min_time "
                "0.012 s); medians over rounds\n\n", rounds);
    std::printf("| %-12s | %10s | %8s | %10s | %8s | %10s | %8s |\n",
                "kernel", "prof ns", "prof ms", "GB ns", "GB ms",
                "GB12ms ns", "ms");
    std::printf("|:-------------|-----------:|---------:|-----------:|"
                "---------:|-----------:|---------:|\n");
    for (int i = 0; i < nk; i++)
    {
        Figures p, g, g12;
        for (int round = 0; round < rounds; round++)
        {
            double t0 = now_ms();
            const prof_result * r = prof_bench_run(b, kernels[i].name,
                    kernel_target(&kernels[i]), (void *) &kernels[i]);
            p.ms.push_back(now_ms() - t0);
            if (r)
                p.ns.push_back(r->median_ns);
            run_gb(&kernels[i], "0.5", g);
            run_gb(&kernels[i], "0.012", g12);
        }
        std::printf("| %-12s | %10.4g | %8.1f | %10.4g | %8.1f | %10.4g | "
                    "%8.1f |\n", kernels[i].name, median(p.ns), median(p.ms),
                    median(g.ns), median(g.ms), median(g12.ns), median(g12.ms));
    }
    prof_bench_free(b);
    return 0;
}
