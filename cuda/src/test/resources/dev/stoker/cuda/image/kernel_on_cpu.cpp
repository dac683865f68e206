// Runs Stoker's GPU resample kernel (src/main/cuda/image_kernels.cu) on the CPU: the CUDA
// keywords become nothing, and a loop plays the grid. Built by ImageKernelOnCpuTest with g++
// -ffp-contract=off (as nvcc -fmad=false), so that its arithmetic is the PTX's.
//
// Input (little-endian): n, outH, outW (int64); per sample its 19-word record, then width*height*3
// RGB bytes; then the expected n*3*outH*outW bytes. Prints the count of values that differ.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>
struct dim3 { int x, y, z; };
static dim3 blockIdx, threadIdx, blockDim;
#define __device__
#define __global__
static inline double __longlong_as_double(long long v) { double d; std::memcpy(&d, &v, 8); return d; }
using std::max;
using std::min;
#include KERNEL_SOURCE

int main(int argc, char** argv) {
    FILE* f = std::fopen(argv[1], "rb");
    if (!f) return 2;
    long long n, oh, ow;
    if (std::fread(&n, 8, 1, f) != 1 || std::fread(&oh, 8, 1, f) != 1 || std::fread(&ow, 8, 1, f) != 1) return 2;
    std::vector<long long> rec(n * WORDS);
    std::vector<std::vector<unsigned char>> px(n);
    for (long long i = 0; i < n; i++) {
        if (std::fread(&rec[i * WORDS], 8, WORDS, f) != (size_t) WORDS) return 2;
        long long w = rec[i * WORDS + W_SRC_W], h = rec[i * WORDS + W_SRC_H];
        px[i].resize(w * h * 3);
        if (std::fread(px[i].data(), 1, px[i].size(), f) != px[i].size()) return 2;
        rec[i * WORDS + W_SRC] = (long long) px[i].data();
        rec[i * WORDS + W_PITCH] = w * 3;
    }
    std::vector<unsigned char> expect(n * 3 * oh * ow), got(n * 3 * oh * ow);
    if (std::fread(expect.data(), 1, expect.size(), f) != expect.size()) return 2;
    blockDim = {32, 8, 1};
    for (int z = 0; z < n; z++)
        for (int by = 0; by < (oh + 7) / 8; by++)
            for (int bx = 0; bx < (ow + 31) / 32; bx++)
                for (int ty = 0; ty < 8; ty++)
                    for (int tx = 0; tx < 32; tx++) {
                        blockIdx = {bx, by, z};
                        threadIdx = {tx, ty, 0};
                        stoker_resample_u8(rec.data(), got.data(), oh, ow);
                    }
    long differ = 0;
    for (size_t i = 0; i < got.size(); i++) differ += got[i] != expect[i];
    std::printf("%ld\n", differ);
    return 0;
}
