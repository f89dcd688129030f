/* For p-trace: a leaf called n times, built with -finstrument-functions
   (each call records an entry and an exit event). */
void p_trace_inst_loop(int n);

static __attribute__((noinline)) void inst_leaf(void)
{
    __asm__ __volatile__ ("");
}

__attribute__((no_instrument_function)) void p_trace_inst_loop(int n)
{
    int i;
    for (i = 0; i < n; i++)
        inst_leaf();
}
