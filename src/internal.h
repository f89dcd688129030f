/*
    Internal declarations shared by the files of src/: not installed.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_INTERNAL_H
#define PROF_INTERNAL_H

/* POSIX clock_gettime, CLOCK_MONOTONIC: must come before any system header. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
# define _POSIX_C_SOURCE 200809L
#endif
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
# define _DARWIN_C_SOURCE 1
#endif

#include "profiler.h"

/* Print "profiler: " followed by the formatted message and a newline on
   stderr. */
void prof_impl_warn(const char * fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Processor time of the process in nanoseconds (all threads). */
double prof_impl_cpu_ns(void);

/* fprint_memory_usage reading the given status file (normally
   /proc/self/status), so that tests can give it a missing or corrupt one. */
void prof_impl_fprint_memory_usage(FILE * fs, const char * status_path);

#endif
