/* floatdiff A B: how far two files of little-endian float32 values differ,
 * normwise: max |a_i - b_i| / max |a_i|, printed with %.3g (0 when equal).
 * The compiler matrix compares outputs of compilers that round differently
 * (with and without fused multiply-adds): an element near zero after
 * cancellation can differ by many ulps while the vector stays within n·2^-24
 * of its magnitude. Exit 0, or 2 on unreadable or unequal-length files. */
#include <math.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: floatdiff A.f32 B.f32\n");
        return 2;
    }
    FILE *a = fopen(argv[1], "rb"), *b = fopen(argv[2], "rb");
    if (!a || !b) {
        fprintf(stderr, "floatdiff: cannot read %s\n", !a ? argv[1] : argv[2]);
        return 2;
    }
    double diff = 0, scale = 0;
    float x, y;
    for (;;) {
        size_t na = fread(&x, 4, 1, a), nb = fread(&y, 4, 1, b);
        if (na != nb) {
            fprintf(stderr, "floatdiff: the files differ in length\n");
            return 2;
        }
        if (!na)
            break;
        if (isnan(x) != isnan(y)) {
            printf("inf\n");
            return 0;
        }
        if (fabs((double)x - y) > diff)
            diff = fabs((double)x - y);
        if (fabs((double)x) > scale)
            scale = fabs((double)x);
    }
    printf("%.3g\n", scale > 0 ? diff / scale : diff);
    return 0;
}
