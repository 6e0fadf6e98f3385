//===- softmax_bench.cpp - Softmax GB/s of the compiled examples ----------===//
//
// Times the example softmax kernels (compiled at build time to PTX) on a
// GPU with CUDA events: 10 warm-ups, then 100 timed runs; reports the
// median. GB/s counts one read and one write of the matrix (2*M*N*4 bytes),
// as Triton's fused-softmax tutorial does. The device's copy bandwidth
// (cuMemcpyDtoD of the same bytes, counted the same way) is measured in the
// same process.
//
// Usage: tile-softmax-bench [M] [N...]   (default M=4096, N=4096)
//
//===----------------------------------------------------------------------===//

#include "tile/Reference/Reference.h"
#include "tile_runtime.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

static std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

static std::string kernelsDir() {
  if (const char *env = std::getenv("TILE_KERNELS_DIR"))
    return env;
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  exe[n > 0 ? n : 0] = 0;
  std::string dir(exe);
  return dir.substr(0, dir.rfind('/')) + "/../kernels";
}

static double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static int fail(const char *what, const tile::Status &s) {
  std::fprintf(stderr, "tile-softmax-bench: %s: %s\n", what,
               s.toString().c_str());
  return 1;
}

int main(int argc, char **argv) {
  int64_t m = argc > 1 ? std::atoll(argv[1]) : 4096;
  std::vector<int64_t> ns;
  for (int i = 2; i < argc; ++i)
    ns.push_back(std::atoll(argv[i]));
  if (ns.empty())
    ns.push_back(4096);

  tile::Status st = tile::init();
  if (!st.ok())
    return fail("init", st);
  tile::DeviceInfo info;
  if (!(st = tile::deviceInfo(info)).ok())
    return fail("device", st);
  std::printf("device: %s (sm_%d%d, %d SMs)\n", info.name.c_str(), info.major,
              info.minor, info.numSms);

  // Copy bandwidth on the largest matrix of the run.
  int64_t maxN = *std::max_element(ns.begin(), ns.end());
  size_t bytes = (size_t)m * maxN * 4;
  tile::DeviceBuffer a, b;
  if (!(st = tile::DeviceBuffer::allocate(bytes, a)).ok() ||
      !(st = tile::DeviceBuffer::allocate(bytes, b)).ok())
    return fail("alloc", st);
  std::vector<float> copyMs;
  st = tile::time(
      [&] { (void)tile::check(tile_memcpy_dtod(b.ptr(), a.ptr(), bytes)); },
      nullptr, 10, 100, copyMs);
  if (!st.ok())
    return fail("copy", st);
  double copyGBs = 2.0 * bytes / (median(copyMs) * 1e-3) / 1e9;
  std::printf("copy: %zu bytes, median %.4f ms, %.1f GB/s\n", bytes,
              median(copyMs), copyGBs);

  std::printf("M,N,kernel,median_ms,GB/s,fraction_of_copy,max_rel_error\n");
  std::mt19937_64 rng(42);
  for (int64_t n : ns) {
    // The narrowest one-row kernel whose tile holds the row, else the online
    // kernel (any row length).
    std::string file = "online_softmax";
    for (int64_t w : {1024, 2048, 4096, 8192, 16384})
      if (n <= w) {
        file = w == 1024 ? "softmax" : "softmax_b" + std::to_string(w);
        break;
      }
    tile::Module module;
    tile::Kernel kernel;
    std::string dir = kernelsDir();
    if (!(st = tile::Module::load(readFile(dir + "/" + file + ".ptx"),
                                  readFile(dir + "/" + file + ".meta"),
                                  module))
             .ok() ||
        !(st = module.getKernel(file == "online_softmax" ? "online_softmax"
                                                         : "softmax",
                                kernel))
             .ok())
      return fail(file.c_str(), st);
    std::vector<float> x((size_t)m * n);
    std::normal_distribution<float> dist;
    for (float &v : x)
      v = dist(rng);
    tile::DeviceBuffer dx, dy;
    if (!(st = tile::DeviceBuffer::allocate(x.size() * 4, dx)).ok() ||
        !(st = tile::DeviceBuffer::allocate(x.size() * 4, dy)).ok() ||
        !(st = dx.copyFromHost(x.data(), x.size() * 4)).ok() ||
        !(st = dy.fill(0xFF)).ok())
      return fail("buffers", st);
    std::vector<tile_arg> args{tile::arg::ptr(dy), tile::arg::ptr(dx),
                               tile::arg::i32((int32_t)n),
                               tile::arg::i32((int32_t)n)};
    if (file != "online_softmax")
      args.push_back(tile::arg::i32((int32_t)m));
    args.push_back(tile::arg::i32((int32_t)n));
    tile::Grid grid{(uint32_t)m};
    std::vector<float> ms;
    st = tile::time([&] { (void)kernel.launch(grid, args); }, nullptr, 10, 100,
                    ms);
    if (!st.ok())
      return fail("launch", st);
    std::vector<float> y(x.size());
    if (!(st = dy.copyToHost(y.data(), y.size() * 4)).ok())
      return fail("download", st);
    // Check a few rows against the float64 reference.
    int64_t rows = std::min<int64_t>(m, 8);
    std::vector<double> xs(x.begin(), x.begin() + rows * n),
        ys(y.begin(), y.begin() + rows * n);
    auto cmp = mlir::tile::reference::compare(
        ys, mlir::tile::reference::referenceSoftmax(xs, rows, n), 1e-5);
    double gbs = 2.0 * m * n * 4 / (median(ms) * 1e-3) / 1e9;
    std::printf("%lld,%lld,example %s,%.4f,%.1f,%.3f,%.2e%s\n", (long long)m,
                (long long)n, file.c_str(), median(ms), gbs, gbs / copyGBs,
                cmp.relError, cmp.passed ? "" : " (WRONG)");

    // The library operation on the same buffers.
    if (!(st = dy.fill(0xFF)).ok())
      return fail("poison", st);
    std::vector<float> libMs;
    st = tile::time(
        [&] {
          (void)tile::check(tile_softmax(dy.ptr(), TILE_F32, n, dx.ptr(),
                                         TILE_F32, n, m, n, nullptr));
        },
        nullptr, 10, 100, libMs);
    if (!st.ok())
      return fail("tile_softmax", st);
    if (!(st = dy.copyToHost(y.data(), y.size() * 4)).ok())
      return fail("download", st);
    std::vector<double> ly(y.begin(), y.begin() + rows * n);
    auto libCmp = mlir::tile::reference::compare(
        ly, mlir::tile::reference::referenceSoftmax(xs, rows, n), 1e-5);
    char variant[128] = "";
    (void)tile_softmax_variant(TILE_F32, TILE_F32, m, n, n % 16 == 0, variant,
                               sizeof(variant));
    double libGBs = 2.0 * m * n * 4 / (median(libMs) * 1e-3) / 1e9;
    std::printf("%lld,%lld,tile_softmax %s,%.4f,%.1f,%.3f,%.2e%s\n",
                (long long)m, (long long)n, variant, median(libMs), libGBs,
                libGBs / copyGBs, libCmp.relError,
                libCmp.passed ? "" : " (WRONG)");
  }
  return 0;
}
