/* libFuzzer harness: fuzz_ptx (see fuzz/targets.h and fuzz/README.md). */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz/targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char why[16384];
    if (fuzz_ptx(data, size, why, sizeof why) == FUZZ_FINDING) {
        fprintf(stderr, "fuzz_ptx: finding: %s\n", why);
        abort();
    }
    return 0;
}
