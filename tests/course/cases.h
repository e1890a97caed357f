#ifndef WARPSIM_TEST_COURSE_CASES_H
#define WARPSIM_TEST_COURSE_CASES_H
#include <stddef.h>
typedef struct ref_buffers ref_buffers;
/* The named buffer's bytes (inputs as initialised before the run; write expected outputs in place); *count gets its element count. NULL if absent. */
void *ref_buf(ref_buffers *b, const char *name, size_t *count);
typedef struct {
    const char *name;      /* unique case name */
    const char *ptx;       /* path relative to the repo root, e.g. "tests/nvcc/001_vector_add.ptx" */
    const char *launch;    /* launch text, see below */
    void (*reference)(ref_buffers *b); /* turn the inputs into the expected outputs, in place */
    const char *outputs;   /* comma-separated buffer names compared after the run */
} course_case;
extern const course_case course_cases[];
extern const size_t course_case_count;
#endif
