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

/* Reduction trees replayed as a block runs them (shared with tests/test_programs.c). */
void course_tree_sequential(float *r, unsigned bs);   /* for s = bs/2 .. 1: r[t] += r[t+s], t < s */
void course_tree_interleaved(float *r, unsigned bs);  /* for s = 1, 2, 4 ..: r[t] += r[t+s], t multiple of 2s */
/* out[blk] = the tree over in[blk*bs .. blk*bs+bs) (0 past n), for each of `grid` blocks (bs <= 1024). */
void course_block_partials(const float *in, float *out, unsigned n, unsigned grid, unsigned bs,
                           void (*tree)(float *, unsigned));
extern const size_t course_case_count;
#endif
