/*
    prof-trace record: see trace_record.c.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_RECORD_H
#define PROF_TRACE_RECORD_H

/* argv[0] is "record"; returns the exit status. */
int pt_record_main(int argc, char ** argv);

#endif
