/*
 * Every course kernel (tests/course/cases.c) runs from nvcc's own PTX
 * (tests/nvcc/) on non-trivial inputs, and its output buffers must equal,
 * bit for bit, what the case's C reference computes from the same inputs.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/session.h"
#include "tests/course/cases.h"

struct ref_buffers {
    int count;
    const char **names;
    size_t *counts;
    uint8_t **bytes;
};

void *ref_buf(ref_buffers *b, const char *name, size_t *count)
{
    for (int i = 0; i < b->count; i++)
        if (!strcmp(b->names[i], name)) {
            if (count)
                *count = b->counts[i];
            return b->bytes[i];
        }
    return NULL;
}

/* Run one case; returns a message on failure (static buffer), NULL on success. */
static const char *run_case(const course_case *cc)
{
    static char msg[4096];
    char path[1024], err[2048] = "";
    snprintf(path, sizeof path, "%s/tests/course/%s.launch", WARPSIM_SOURCE_DIR, cc->name);
    size_t len = strlen(cc->launch) + 2048;
    char *text = malloc(len);
    /* WARPSIM_COURSE_PTX=DIR: the same cases from another compiler's PTX (tests/compiler_matrix.sh) */
    const char *dir = getenv("WARPSIM_COURSE_PTX");
    if (dir && *dir)
        snprintf(text, len, "ptx %s/%s\n%s", dir, strrchr(cc->ptx, '/') + 1, cc->launch);
    else
        snprintf(text, len, "ptx %s/%s\n%s", WARPSIM_SOURCE_DIR, cc->ptx, cc->launch);
    ws_run_options o;
    if (ws_run_options_parse_launch_text(text, strlen(text), path, &o, err, sizeof err) != WS_LAUNCH_OK) {
        snprintf(msg, sizeof msg, "%s: launch text: %s", cc->name, err);
        free(text);
        return msg;
    }
    free(text);
    ptx_diag diag = {0};
    ws_session s;
    int status = ws_session_open(&s, &o, &diag, err, sizeof err);
    if (status) {
        snprintf(msg, sizeof msg, "%s: %s %s", cc->name, diag.count ? diag.lines[0] : "", err);
        ptx_diag_free(&diag);
        ws_run_options_free(&o);
        return msg;
    }
    /* The reference works on copies of the initial buffers. */
    ref_buffers ref = {o.buffer_count, calloc((size_t)o.buffer_count, sizeof(char *)),
                       calloc((size_t)o.buffer_count, sizeof(size_t)), calloc((size_t)o.buffer_count, sizeof(uint8_t *))};
    for (int b = 0; b < o.buffer_count; b++) {
        ref.names[b] = o.buffers[b].name;
        ref.counts[b] = o.buffers[b].count;
        ref.bytes[b] = malloc(s.buffers[b]->size);
        memcpy(ref.bytes[b], s.buffers[b]->bytes, s.buffers[b]->size);
    }
    const char *result = NULL;
    status = ws_session_run(&s, err, sizeof err);
    if (status) {
        snprintf(msg, sizeof msg, "%s: run failed: %s", cc->name, err);
        result = msg;
    } else {
        cc->reference(&ref);
        char outputs[512];
        snprintf(outputs, sizeof outputs, "%s", cc->outputs);
        for (char *name = strtok(outputs, ","); name && !result; name = strtok(NULL, ",")) {
            ws_allocation *a = ws_session_buffer(&s, name);
            size_t count;
            uint8_t *expected = ref_buf(&ref, name, &count);
            if (!a || !expected) {
                snprintf(msg, sizeof msg, "%s: no buffer '%s'", cc->name, name);
                result = msg;
                break;
            }
            if (memcmp(a->bytes, expected, a->size) != 0) {
                size_t elem = a->size / count, first = 0;
                while (memcmp(a->bytes + first * elem, expected + first * elem, elem) == 0)
                    first++;
                uint64_t got = 0, want = 0;
                memcpy(&got, a->bytes + first * elem, elem < 8 ? elem : 8);
                memcpy(&want, expected + first * elem, elem < 8 ? elem : 8);
                snprintf(msg, sizeof msg, "%s: buffer '%s' differs first at element %zu: got 0x%llx, expected 0x%llx",
                         cc->name, name, first, (unsigned long long)got, (unsigned long long)want);
                result = msg;
            }
        }
    }
    for (int b = 0; b < o.buffer_count; b++)
        free(ref.bytes[b]);
    free(ref.names); free(ref.counts); free(ref.bytes);
    ws_session_close(&s);
    ptx_diag_free(&diag);
    ws_run_options_free(&o);
    return result;
}

START_TEST(course_case_matches_reference)
{
    const course_case *cc = &course_cases[_i];
    const char *failure = run_case(cc);
    ck_assert_msg(failure == NULL, "%s", failure);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("course");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, course_case_matches_reference, 0, (int)course_case_count);
    suite_add_tcase(suite, tc);
    SRunner *sr = srunner_create(suite);
    srunner_run_all(sr, CK_VERBOSE);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
