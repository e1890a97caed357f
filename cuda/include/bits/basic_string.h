/* warpsim: libstdc++'s bits/basic_string.h with the __noinline__ macro of
 * cuda_runtime.h hidden, since libstdc++ writes __attribute__((__noinline__)). */
#pragma push_macro("__noinline__")
#undef __noinline__
#include_next <bits/basic_string.h>
#pragma pop_macro("__noinline__")
