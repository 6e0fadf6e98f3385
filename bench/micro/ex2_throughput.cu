// Throughput of the multi-function unit's base-2 exponential in its f32,
// f16x2 and bf16x2 forms, of the f32 -> f16x2 / bf16x2 packing conversions
// that a softmax's weights go through before a 16-bit product, and of an
// FMA chain, for scale: every thread of 132 x 4 programs of 512 threads
// runs 8 independent chains of 4096 steps; the time of one launch gives
// instructions per second. Divide by the SM count and clock for
// instructions per cycle and SM; an f16x2 or bf16x2 instruction computes
// two exponentials. The mixed kernels run 4 chains of each kind:
// where the two kinds share an execution unit, their time is the sum of
// the two halves' times, where they do not, the larger.
//
//   nvcc -O3 -arch=sm_90a -o ex2_throughput ex2_throughput.cu
//   ./ex2_throughput
#include <cstdio>
#include <cuda_fp16.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e) {                                                                   \
      printf("error %s at line %d\n", cudaGetErrorString(e), __LINE__);        \
      return 1;                                                                \
    }                                                                          \
  } while (0)

template <int K>
__global__ void chains(unsigned *out, int iters, unsigned seed) {
  unsigned r[8];
  for (int i = 0; i < 8; i++)
    r[i] = seed + threadIdx.x * 8 + i;
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int i = 0; i < 8; i++) {
      if (K == 0)
        asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+r"(r[i]));
      if (K == 1)
        asm volatile("ex2.approx.f16x2 %0, %0;" : "+r"(r[i]));
      if (K == 2)
        asm volatile("ex2.approx.ftz.bf16x2 %0, %0;" : "+r"(r[i]));
      if (K == 3)
        asm volatile("fma.rn.f32 %0, %0, %0, %0;" : "+r"(r[i]));
      if (K == 4)
        asm volatile("cvt.rn.f16x2.f32 %0, %0, %0;" : "+r"(r[i]));
      if (K == 5)
        asm volatile("cvt.rn.bf16x2.f32 %0, %0, %0;" : "+r"(r[i]));
      if (K == 6) {
        if (i < 4)
          asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+r"(r[i]));
        else
          asm volatile("cvt.rn.f16x2.f32 %0, %0, %0;" : "+r"(r[i]));
      }
      if (K == 7) {
        if (i < 4)
          asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+r"(r[i]));
        else
          asm volatile("fma.rn.f32 %0, %0, %0, %0;" : "+r"(r[i]));
      }
      if (K == 8) {
        if (i < 4)
          asm volatile("cvt.rn.f16x2.f32 %0, %0, %0;" : "+r"(r[i]));
        else
          asm volatile("fma.rn.f32 %0, %0, %0, %0;" : "+r"(r[i]));
      }
    }
  }
  unsigned s = 0;
  for (int i = 0; i < 8; i++)
    s ^= r[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int K> int run(const char *name) {
  int blocks = 132 * 4, threads = 512, iters = 4096;
  unsigned *out;
  CHECK(cudaMalloc(&out, blocks * threads * 4));
  chains<K><<<blocks, threads>>>(out, iters, 1);
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventRecord(a));
  chains<K><<<blocks, threads>>>(out, iters, 1);
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float ms;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  double instructions = (double)blocks * threads * iters * 8;
  printf("%-10s %.3f ms  %.1f G instructions/s (one per thread)\n", name, ms,
         instructions / ms / 1e6);
  CHECK(cudaFree(out));
  return 0;
}

int main() {
  return run<0>("f32") || run<1>("f16x2") || run<2>("bf16x2") ||
         run<3>("ffma") || run<4>("cvt-f16x2") || run<5>("cvt-bf16x2") ||
         run<6>("ex2+cvt") || run<7>("ex2+ffma") || run<8>("cvt+ffma");
}
