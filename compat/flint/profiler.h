/*
    For programs that write #include <flint/profiler.h>: put the directory
    above this one on the include path (-I compat, or install it with
    -DPROFILER_INSTALL_FLINT_HEADER=ON) ahead of FLINT's, together with
    profiler's include directory.
    SPDX-License-Identifier: MIT
*/
#include <profiler.h>
