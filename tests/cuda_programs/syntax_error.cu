// A compile error (the missing semicolon on line 4): the compiler names this file, line and column.
__global__ void broken(int *v)
{
    int i = threadIdx.x
    v[i] = 1;
}
int main() { return 0; }
