/*
    The hooks that gcc and clang call at every function entry and exit of
    code built with -finstrument-functions. They are alone in this object so
    that the linker takes them from libprofiler.a only for a program that
    references them, i.e. one built with -finstrument-functions: nothing else
    pays for them. They record the function's address; prof-trace names it
    after the run from the executable's symbol table and the mappings written
    at the start of the trace (PIE and shared libraries included).
    SPDX-License-Identifier: MIT
*/
#define PROF_IMPL_TRACE_INTERNAL 1
#include "internal.h"
#include "trace_format.h"

#define NOINST __attribute__((no_instrument_function))

void __cyg_profile_func_enter(void * fn, void * call_site) NOINST;
void __cyg_profile_func_exit(void * fn, void * call_site) NOINST;

void __cyg_profile_func_enter(void * fn, void * call_site)
{
    (void) call_site;
    prof_impl_trace_rec(PROF_IMPL_EV_ENTER, fn);
}

void __cyg_profile_func_exit(void * fn, void * call_site)
{
    (void) call_site;
    prof_impl_trace_rec(PROF_IMPL_EV_EXIT, fn);
}
