// Stoker's GPU image kernel: the resample, flip and normalize of vision's CPU path
// (dev.stoker.vision.transform.Resampler and SlotWriter), run on images nvJPEG decoded into device
// memory. The arithmetic is the CPU path's to the bit: PIL's antialiased bilinear coefficients in
// 22-bit fixed point, the horizontal pass rounded to 8 bits before the vertical one, then the
// float normalize. So the GPU and CPU paths differ only where the two JPEG decoders do.
//
// Built to PTX by scripts/build-ptx.sh (nvcc, -fmad=false: a fused multiply-add would round the
// coefficients differently from Java); the PTX is shipped as a resource and the driver compiles it
// for the GPU at load time, so building Stoker needs no CUDA.
//
// One thread per output pixel; blockIdx.z is the sample. Every parameter is 64 bits wide (the
// Java side passes an array of longs).

#define PRECISION_BITS 22
#define MAX_TAPS 64

// The words of one sample's record (GpuSampleRecord on the Java side).
#define W_SRC 0        // device address of the decoded image, 8-bit RGB interleaved
#define W_PITCH 1      // bytes per source row
#define W_SRC_W 2      // decoded width and height: every read is kept inside them
#define W_SRC_H 3
#define W_X 4          // x axis: origin, inSize, in0 (double bits), scale (double bits), shift, imgStart, imgEnd
#define W_Y 11         // y axis, the same seven words
#define W_FLIP 18
#define WORDS 19

// The first source position of output index i on an axis and its taps' weights; returns the tap count.
__device__ static int coefficients(const long long* axis, int i, int* first, int* weights) {
    long long inSize = axis[1];
    double in0 = __longlong_as_double(axis[2]);
    double scale = __longlong_as_double(axis[3]);
    long long shift = axis[4];
    double filterscale = scale > 1.0 ? scale : 1.0;
    double support = filterscale;
    double ss = 1.0 / filterscale;
    double center = in0 + ((double) (i + shift) + 0.5) * scale;
    int xmin = (int) (center - support + 0.5);
    if (xmin < 0) xmin = 0;
    int xmax = (int) (center + support + 0.5);
    if (xmax > inSize) xmax = (int) inSize;
    xmax -= xmin;
    if (xmax < 0) xmax = 0;
    if (xmax > MAX_TAPS) xmax = MAX_TAPS; // the host refuses such scales; never reached
    double ww = 0.0;
#pragma unroll 1
    for (int x = 0; x < xmax; x++) {
        double d = ((double) (x + xmin) - center + 0.5) * ss;
        if (d < 0.0) d = -d;
        ww += d < 1.0 ? 1.0 - d : 0.0;
    }
#pragma unroll 1
    for (int x = 0; x < xmax; x++) {
        double d = ((double) (x + xmin) - center + 0.5) * ss;
        if (d < 0.0) d = -d;
        double v = d < 1.0 ? 1.0 - d : 0.0;
        v = ww != 0.0 ? v / ww : 0.0;
        weights[x] = (int) (v < 0 ? -0.5 + v * (double) (1 << PRECISION_BITS) : 0.5 + v * (double) (1 << PRECISION_BITS));
    }
    *first = (int) axis[0] + xmin;
    return xmax;
}

__device__ static int clip8(int acc) {
    int v = acc >> PRECISION_BITS;
    return v < 0 ? 0 : (v > 255 ? 255 : v);
}

// The 8-bit RGB value of output pixel (px, py) of sample s, or false where it is padding.
__device__ static bool pixel(const long long* s, int px, int py, int outW, int rgb[3]) {
    int ox = s[W_FLIP] ? outW - 1 - px : px;
    long long xs = s[W_X + 5], xe = s[W_X + 6], ys = s[W_Y + 5], ye = s[W_Y + 6];
    if (ox < xs || ox >= xe || py < ys || py >= ye) return false;
    int kx[MAX_TAPS];
    int ky[MAX_TAPS];
    int x0, y0;
    int nx = coefficients(s + W_X, ox - (int) xs, &x0, kx);
    int ny = coefficients(s + W_Y, py - (int) ys, &y0, ky);
    const unsigned char* src = (const unsigned char*) s[W_SRC];
    long long pitch = s[W_PITCH];
    int srcW = (int) s[W_SRC_W], srcH = (int) s[W_SRC_H];
    int half = 1 << (PRECISION_BITS - 1);
    int acc[3] = {half, half, half};
#pragma unroll 1
    for (int j = 0; j < ny; j++) {
        int row = min(max(y0 + j, 0), srcH - 1);
        const unsigned char* line = src + row * pitch;
        int h[3] = {half, half, half};
#pragma unroll 2
        for (int k = 0; k < nx; k++) {
            int col = min(max(x0 + k, 0), srcW - 1);
            const unsigned char* p = line + 3 * col;
            h[0] += p[0] * kx[k];
            h[1] += p[1] * kx[k];
            h[2] += p[2] * kx[k];
        }
        acc[0] += clip8(h[0]) * ky[j];
        acc[1] += clip8(h[1]) * ky[j];
        acc[2] += clip8(h[2]) * ky[j];
    }
    rgb[0] = clip8(acc[0]);
    rgb[1] = clip8(acc[1]);
    rgb[2] = clip8(acc[2]);
    return true;
}

// out: (n, 3, outH, outW) f32, normalized as (v / 255 - mean[c]) / std[c]; norm: mean[3], std[3].
extern "C" __global__ void stoker_resample_f32(const long long* samples, float* out, long long outH, long long outW,
                                               const float* norm) {
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    int n = blockIdx.z;
    if (px >= outW || py >= outH) return;
    const long long* s = samples + (long long) n * WORDS;
    int rgb[3] = {0, 0, 0};
    pixel(s, px, py, (int) outW, rgb);
    long long plane = outH * outW;
    float* o = out + (long long) n * 3 * plane + (long long) py * outW + px;
    for (int c = 0; c < 3; c++) {
        float unit = (float) rgb[c] / 255.0f;
        o[c * plane] = (unit - norm[c]) / norm[3 + c];
    }
}

// out: (n, 3, outH, outW) u8, the pixels before normalizing (for tests and u8 pipelines).
extern "C" __global__ void stoker_resample_u8(const long long* samples, unsigned char* out, long long outH,
                                              long long outW) {
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    int n = blockIdx.z;
    if (px >= outW || py >= outH) return;
    const long long* s = samples + (long long) n * WORDS;
    int rgb[3] = {0, 0, 0};
    pixel(s, px, py, (int) outW, rgb);
    long long plane = outH * outW;
    unsigned char* o = out + (long long) n * 3 * plane + (long long) py * outW + px;
    for (int c = 0; c < 3; c++) o[c * plane] = (unsigned char) rgb[c];
}
