// Device allocations, four never freed: --leak-check full lists each with its size and the line that made it.
#define CHECK(call) do { if ((call) != cudaSuccess) return 1; } while (0)
static float *make(int n)
{
    float *p;
    cudaMalloc(&p, n * sizeof(float));   // line 6: leaked (40 bytes), from make()
    return p;
}
void *old_style(void);
int main()
{
    void *a, *b;
    cudaMalloc(&a, 4096);                // line 13: leaked
    CHECK(cudaMalloc(&b, 100));          // line 14: freed
    cudaFree(b);
    make(10);
    int *m;
    cudaMallocManaged(&m, 64);           // line 18: leaked
    old_style();
    return 0;
}

#undef cudaMalloc   // as a program built against headers without the macro: the runtime's own cudaMalloc, no line
void *old_style(void) { void *p; cudaMalloc(&p, 8); return p; }
