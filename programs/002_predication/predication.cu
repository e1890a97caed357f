// Seed 002, "Controle de flux et SIMD 2/3": the slide's
//     if (x == 10) c = c + 1;
// which the G80 compiler turned into predicated instructions, no branch:
//     LDR r5 <- X ; p1 <- r5 eq 10 ; <p1> LDR r1 <- C ; <p1> ADD r1, r1, 1 ; <p1> STR r1 -> C
// One thread per element: X and C are int arrays of n elements.
// Hand-written PTX twin: predication.ptx.
//
// predication_if      the slide's predicated form: setp, then @p ld / @p add / @p st
// predication_branch  the SAME C code, compiled with a branch around the update
//                     (what a compiler may also choose): the PTX differs, the
//                     result does not.  Compare the branch targets and the
//                     instructions executed.

extern "C" __global__ void predication_if(const int *X, int *C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = X[i];
        if (x == 10)
            C[i] = C[i] + 1;
    }
}

extern "C" __global__ void predication_branch(const int *X, int *C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = X[i];
        if (x == 10)
            C[i] = C[i] + 1;
    }
}
