/*
    For programs that write #include <flint/profiler.h>: put the directory
    above this one on the include path (-I compat, or install it with
    -DPROFILER_INSTALL_FLINT_HEADER=ON) ahead of FLINT's, together with
    profiler's include directory.
    SPDX-License-Identifier: MIT
*/
/* As FLINT's profiler.h, include flint.h first (when it is installed):
   FLINT programs and some FLINT headers rely on it. PROF_NO_FLINT_INCLUDE
   turns this off. */
#if !defined(FLINT_H) && !defined(PROF_NO_FLINT_INCLUDE) \
    && defined(__has_include)
# if __has_include(<flint/flint.h>)
#  include <flint/flint.h>
# endif
#endif
#include <profiler.h>
