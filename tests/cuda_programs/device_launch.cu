// A kernel launching a kernel (dynamic parallelism, seed 004): clang's CUDA
// refuses it at this line, and warpsim says what that means.
__global__ void child(int *v) { v[threadIdx.x] = 1; }
__global__ void parent(int *v) { child<<<1, 32>>>(v); }   // line 4
int main() { return 0; }
