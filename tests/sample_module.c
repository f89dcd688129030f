/*
    A shared library that test_sample_dlopen loads after sampling began:
    its samples must still be named (the sampler writes the mappings
    again when the loaded objects change).
    SPDX-License-Identifier: MIT
*/
volatile unsigned long sample_module_sink;

__attribute__((noinline)) void sample_module_hot(unsigned long n);

__attribute__((noinline)) void sample_module_hot(unsigned long n)
{
    unsigned long i, x = sample_module_sink;
    for (i = 0; i < n; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    sample_module_sink = x;
}
