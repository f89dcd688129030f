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

/* Event counters (counters.c). The perf_event_open system call as the
   counters make it (this thread, any CPU; attr is a struct perf_event_attr):
   prof_impl_perf_open points to prof_impl_perf_open_syscall unless a test
   replaces it to simulate refusals; prof_impl_perf_open_calls counts every
   call made through it. */
extern int (*prof_impl_perf_open)(void * attr, int group_fd);
extern unsigned long prof_impl_perf_open_calls;
int prof_impl_perf_open_syscall(void * attr, int group_fd);

/* raw * enabled / running: a count corrected for multiplexing; NaN if the
   event was enabled but never ran, raw if it was never enabled. */
double prof_impl_counters_scale(double raw, double enabled, double running);

/* Convert one PERF_FORMAT_GROUP | ID | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING
   read (buf, nwords words: nr, time_enabled, time_running, then nr pairs of
   value and id) into out[j] for the events whose ids are ids[j], minus the
   baseline. 0, or -1 for a malformed buffer or an id not in it. */
int prof_impl_counters_convert(const unsigned long long * buf, size_t nwords,
        int nevents, const unsigned long long * ids, const double * base_raw,
        double base_enabled, double base_running, prof_counter_value_t * out);

/* The one-line reason (and likely fix) for an event that failed to open with
   errno err. hw: a hardware event; kernel_only: one that only happens in
   the kernel; paranoid: /proc/sys/kernel/perf_event_paranoid (-1000 if
   unreadable); on_linux, have_pmu (a CPU PMU among the event sources),
   in_vm (a hypervisor is visible). */
void prof_impl_counters_reason(char * buf, size_t size, int err, int hw,
        int kernel_only, int paranoid, int on_linux, int have_pmu, int in_vm);

#endif
