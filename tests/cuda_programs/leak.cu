// Two device allocations, one never freed: --leak-check full lists it.
int main()
{
    void *a, *b;
    cudaMalloc(&a, 4096);
    cudaMalloc(&b, 100);
    cudaFree(b);
    return 0;
}
