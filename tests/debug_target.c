/*
    A program whose symbols check_debug_files.sh moves to a separate debug
    file (objcopy --only-keep-debug, strip, --add-gnu-debuglink): five
    functions that make_sampled_trace.py's samples fall in. It is never
    sampled; run, it calls them once.
    SPDX-License-Identifier: MIT
*/
#define NOINLINE __attribute__((noinline, used))

volatile unsigned long dbg_sink;

NOINLINE void dbg_hot(unsigned long n)
{
    unsigned long i;
    for (i = 0; i < n; i++)
        dbg_sink += i * i;
}

NOINLINE void dbg_cold(unsigned long n)
{
    unsigned long i;
    for (i = 0; i < n; i++)
        dbg_sink ^= i;
}

NOINLINE void dbg_work(unsigned long n)
{
    dbg_hot(n);
    dbg_cold(n / 4);
}

NOINLINE void dbg_worker(unsigned long n)
{
    dbg_hot(n / 2);
    dbg_cold(n / 2);
}

int main(void)
{
    dbg_work(1000);
    dbg_worker(1000);
    return (int) (dbg_sink & 0);
}
