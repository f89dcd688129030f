// Real Google Benchmark output for prof-compare's tests: two kernels whose
// times differ by 5%, run with repetitions and written as JSON by
// Google Benchmark itself (Debian libbenchmark-dev).
#include <benchmark/benchmark.h>
#include <cstdint>

static void chain(benchmark::State & state)
{
    std::uint64_t x = 1;
    for (auto _ : state)
    {
        for (std::int64_t i = 0; i < state.range(0); i++)
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        benchmark::DoNotOptimize(x);
    }
}
BENCHMARK(chain)->Arg(1000)->Arg(1050);
BENCHMARK_MAIN();
