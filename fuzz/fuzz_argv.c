/* libFuzzer harness: fuzz_argv (see fuzz/targets.h and fuzz/README.md). */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char why[16384];
    if (fuzz_argv(data, size, why, sizeof why) == FUZZ_FINDING) {
        fprintf(stderr, "fuzz_argv: finding: %s\n", why);
        abort();
    }
    return 0;
}
