/*
    Paths of the tools' outputs (internal: POSIX, not installed).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_PATHS_H
#define PROF_PATHS_H

/* 1 if outputs a and b would be one file, existing or not (the same name,
   the same file, or the same directory after symbolic links and the same
   last component), else 0. */
int prof_impl_same_target(const char * a, const char * b);

#endif
