// Seed 002, "Controle de flux et SIMD 2/3": the slide's
//     if (x == 10) c = c + 1;
// which the G80 compiled into a predicated load/add/store:
//     p1 <- r5 eq 10 ; <p1> LDR r1 <- C ; <p1> ADD r1, r1, 1 ; <p1> STR r1 -> C
// One thread per element: X and C are int arrays of n elements.
extern "C" __global__ void predication_if(const int *X, int *C, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = X[i];
        if (x == 10)
            C[i] = C[i] + 1;
    }
}
