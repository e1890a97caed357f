/*
 * The fuzz targets as plain functions: one input in, a status out.
 *
 * The libFuzzer harnesses (fuzz/fuzz_*.c) call these, and so does
 * tests/test_regress.c, which feeds every kept crash input in tests/regress/
 * through the same code (it #includes fuzz/targets.c), so a fixed finding
 * stays fixed in the ordinary test suite and under WARPSIM_SANITIZE.
 *
 * A status is what the input did, never a crash: a memory error, a leak or
 * undefined behaviour shows as a sanitizer report instead.  FUZZ_FINDING
 * means the code under test broke a promise that no sanitizer sees (a module
 * that does not survive ptx_print_module + ptx_parse, a status outside the
 * documented set); the harnesses abort on it.
 */
#ifndef WARPSIM_FUZZ_TARGETS_H
#define WARPSIM_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

enum {
    FUZZ_OK = 0,          /* parsed (and, for exec, ran to the end) */
    FUZZ_INPUT_ERROR = 1, /* rejected with an error message (WS_LAUNCH_INPUT, a PTX error, a launch error) */
    FUZZ_USAGE_ERROR = 2, /* WS_LAUNCH_USAGE; for fuzz_exec: the launch stopped with an error */
    FUZZ_FINDING = 99,    /* a bug no sanitizer catches; why says what */
};

/* ptx_parse the bytes; when they parse, print the module and parse that
 * again: the second parse must succeed and ptx_module_equal the first. */
int fuzz_ptx(const uint8_t *data, size_t size, char *why, size_t whylen);

/* ws_run_options_parse_launch_text on the bytes (as fuzz/in.launch). */
int fuzz_launch(const uint8_t *data, size_t size, char *why, size_t whylen);

/* The bytes split at NUL bytes into argv[1..] for ws_run_options_parse_argv
 * (argv[0] = "run"). */
int fuzz_argv(const uint8_t *data, size_t size, char *why, size_t whylen);
/* fuzz_names: the bytes as a mangled kernel name (sim/demangle.c) and as
 * WARPSIM_FLAGS (ws_run_options_parse_program_flags): neither may crash, the
 * demangled name is a string that fits, and a failed parse explains itself. */
int fuzz_names(const uint8_t *data, size_t size, char *why, size_t whylen);

/* Parse the bytes as PTX -- or, when they hold no ".entry", as the body of a
 * kernel fuzz_kernel(.param .u64 p0..p3, .param .u32 p4..p7) that declares
 * %p<32> %rs<64> %r<256> %f<256> %rd<256> %fd<128>, .shared smem[4096] and
 * .local lmem[256] (targets.c: exec_prologue) -- and if the module has a
 * kernel, run its first one in the simulator: grid 1, max-steps 10000, every
 * 8-byte parameter a 256-byte buffer of its own, smaller ones small
 * constants, a 16 MiB memory limit; a hash of the bytes picks the block (32
 * threads, half the time; else 48 or 64) and the architecture (hopper, g80,
 * kepler with 8-byte banks, fermi).  Status 0: it ran to the end (or there
 * is no kernel); 1: a PTX error; 2: the launch stopped with an error
 * message. */
int fuzz_exec(const uint8_t *data, size_t size, char *why, size_t whylen);

#endif
