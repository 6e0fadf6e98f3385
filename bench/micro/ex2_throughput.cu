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

enum Kind { Ex2F32, Ex2F16x2, Ex2Bf16x2, Fma, CvtF16x2, CvtBf16x2 };

/// One step of a chain: the instruction of kind K on r.
template <Kind K> __device__ void step(unsigned &r) {
  if (K == Ex2F32)
    asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+r"(r));
  if (K == Ex2F16x2)
    asm volatile("ex2.approx.f16x2 %0, %0;" : "+r"(r));
  if (K == Ex2Bf16x2)
    asm volatile("ex2.approx.ftz.bf16x2 %0, %0;" : "+r"(r));
  if (K == Fma)
    asm volatile("fma.rn.f32 %0, %0, %0, %0;" : "+r"(r));
  if (K == CvtF16x2)
    asm volatile("cvt.rn.f16x2.f32 %0, %0, %0;" : "+r"(r));
  if (K == CvtBf16x2)
    asm volatile("cvt.rn.bf16x2.f32 %0, %0, %0;" : "+r"(r));
}

/// Chains 0-3 run instructions of kind A, chains 4-7 of kind B.
template <Kind A, Kind B>
__global__ void chains(unsigned *out, int iters, unsigned seed) {
  unsigned r[8];
  for (int i = 0; i < 8; i++)
    r[i] = seed + threadIdx.x * 8 + i;
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int i = 0; i < 8; i++) {
      if (i < 4)
        step<A>(r[i]);
      else
        step<B>(r[i]);
    }
  }
  unsigned s = 0;
  for (int i = 0; i < 8; i++)
    s ^= r[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <Kind A, Kind B = A> int run(const char *name) {
  int blocks = 132 * 4, threads = 512, iters = 4096;
  unsigned *out;
  CHECK(cudaMalloc(&out, blocks * threads * 4));
  chains<A, B><<<blocks, threads>>>(out, iters, 1);
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventRecord(a));
  chains<A, B><<<blocks, threads>>>(out, iters, 1);
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
  return run<Ex2F32>("f32") || run<Ex2F16x2>("f16x2") ||
         run<Ex2Bf16x2>("bf16x2") || run<Fma>("ffma") ||
         run<CvtF16x2>("cvt-f16x2") || run<CvtBf16x2>("cvt-bf16x2") ||
         run<Ex2F32, CvtF16x2>("ex2+cvt") || run<Ex2F32, Fma>("ex2+ffma") ||
         run<CvtF16x2, Fma>("cvt+ffma");
}
