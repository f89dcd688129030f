/*
    Internal to prof-trace: what its reports tell it besides the output.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_REPORT_H
#define PROF_TRACE_REPORT_H

#include "trace_read.h"

/* Zones of the --thread filter's thread seen (0: no such thread). */
unsigned long pt_report_thread_matches(const pt_report * r);

#endif
