/* libFuzzer harness: fuzz_names (see fuzz/targets.h and fuzz/README.md). */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char why[16384];
    if (fuzz_names(data, size, why, sizeof why) == FUZZ_FINDING) {
        fprintf(stderr, "fuzz_names: finding: %s\n", why);
        abort();
    }
    return 0;
}
