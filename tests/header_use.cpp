/* The same uses of every name of profiler.h, compiled as C++ (-x c++) by
   tests/check_header.sh: extern "C", and warning-free there too. */
#include "header_use.c"
