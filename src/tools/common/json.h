/*
    The JSON reader's tree (internal: used by the result-file loader and the
    command-line tools, not installed).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_JSON_H
#define PROF_JSON_H

#include <stddef.h>

enum { PROF_JSON_NULL, PROF_JSON_BOOL, PROF_JSON_NUMBER, PROF_JSON_STRING,
       PROF_JSON_ARRAY, PROF_JSON_OBJECT };

/* Deeper nesting is an error (hostile input cannot exhaust the stack). */
#define PROF_JSON_MAX_DEPTH 64

typedef struct prof_json
{
    int kind;
    double number;              /* NUMBER; BOOL: 1 or 0 */
    char * string;              /* STRING: NUL-terminated UTF-8 */
    size_t length;              /* STRING: bytes, without the NUL */
    struct prof_json ** items;  /* ARRAY and OBJECT: the values */
    char ** keys;               /* OBJECT: the keys, parallel to items */
    size_t count;               /* ARRAY and OBJECT: number of values */
} prof_json;

/* Parse len bytes of text. NULL on error, with "line L, column C: what" in
   err (errlen bytes). Free the tree with prof_impl_json_free. */
prof_json * prof_impl_json_parse(const char * text, size_t len, char * err,
                                 size_t errlen);
void prof_impl_json_free(prof_json * n);
/* What prof_impl_json_each calls for each element: 0 to go on, or nonzero
   to stop (after writing its own message into the caller's err). */
typedef int (*prof_json_each_fn)(const prof_json * item, size_t index,
                                 void * ctx);
/* Read a JSON document one array element at a time, so that a large file
   needs memory for one element, not for the whole tree: the document is
   checked as prof_impl_json_parse checks it, and each element of the array
   that is the value of the top-level object's member key is handed to
   each (and freed after it). 0; 1 if the document is valid but has no
   such array; -1 on error ("line L, column C: what" in err, or each's own
   message). A second member key is an error. */
int prof_impl_json_each(const char * text, size_t len, const char * key,
                        prof_json_each_fn each, void * ctx, char * err,
                        size_t errlen);
/* The value of key in an object (the last one if repeated), or NULL. */
const prof_json * prof_impl_json_get(const prof_json * obj, const char * key);

#endif
