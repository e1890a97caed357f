/* warpsim: libstdc++'s bits/shared_ptr_base.h with the __noinline__ macro of
 * cuda_runtime.h hidden, since libstdc++ writes __attribute__((__noinline__)). */
#pragma push_macro("__noinline__")
#undef __noinline__
#include_next <bits/shared_ptr_base.h>
#pragma pop_macro("__noinline__")
