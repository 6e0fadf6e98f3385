//===- GPUTestUtil.h - Running compiled example kernels on a GPU -*- C++ -*-===//
//
// The GPU tests use only the runtime library and the float64 references:
// kernels are compiled to PTX at build time (build/kernels/), so the test
// binary runs on a GPU machine that has no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_GPU_GPUTESTUTIL_H
#define TILE_UNITTESTS_GPU_GPUTESTUTIL_H

#include "tile/Reference/Reference.h"
#include "tile_runtime.hpp"

#include "gtest/gtest.h"

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace gputest {

inline std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// build/kernels: $TILE_KERNELS_DIR, else next to the test binary's bin/.
inline std::string kernelsDir() {
  if (const char *env = std::getenv("TILE_KERNELS_DIR"))
    return env;
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n > 0) {
    exe[n] = 0;
    std::string dir(exe);
    dir = dir.substr(0, dir.rfind('/'));
    return dir + "/../kernels";
  }
  return TILE_KERNELS_DIR;
}

/// Initializes the runtime once; skips the test without a GPU.
#define TILE_REQUIRE_GPU()                                                     \
  do {                                                                         \
    tile::Status s = tile::init();                                             \
    if (!s.ok())                                                               \
      GTEST_SKIP() << "no GPU: " << s.toString();                              \
  } while (0)

/// Whether the device is compute capability 9.0, which runs the sm_90a
/// (wgmma) builds.
inline tile::Status isComputeCapability90(bool &result) {
  tile::DeviceInfo device;
  tile::Status s = tile::deviceInfo(device);
  result = s.ok() && device.major == 9 && device.minor == 0;
  return s;
}

/// Whether the device runs thread block clusters (compute capability 9.0
/// and later): the library's softmax cluster kernels.
inline tile::Status hasClusters(bool &result) {
  tile::DeviceInfo device;
  tile::Status s = tile::deviceInfo(device);
  result = s.ok() && device.major >= 9;
  return s;
}

/// Loads build/kernels/<file>.ptx with its metadata and looks up `name`.
inline tile::Status loadKernel(const std::string &file,
                               const std::string &name, tile::Module &module,
                               tile::Kernel &kernel) {
  std::string dir = kernelsDir();
  std::string ptx = readFile(dir + "/" + file + ".ptx");
  std::string meta = readFile(dir + "/" + file + ".meta");
  tile::Status s = tile::Module::load(ptx, meta, module);
  if (!s.ok())
    return s;
  return module.getKernel(name.c_str(), kernel);
}

inline std::vector<float> randomFloats(size_t n, std::mt19937_64 &rng,
                                       double scale = 1.0) {
  std::normal_distribution<double> dist(0.0, 1.0);
  std::vector<float> v(n);
  for (float &x : v)
    x = (float)(dist(rng) * scale);
  return v;
}

inline std::vector<double> toDouble(const std::vector<float> &v) {
  return std::vector<double>(v.begin(), v.end());
}

/// A device buffer holding `host`, or poisoned (all bytes 0xFF: NaN) when
/// `host` is empty and `count` is given.
inline tile::Status upload(const std::vector<float> &host,
                           tile::DeviceBuffer &buf) {
  tile::Status s = tile::DeviceBuffer::allocate(host.size() * 4, buf);
  if (!s.ok())
    return s;
  return buf.copyFromHost(host.data(), host.size() * 4);
}

inline tile::Status poisoned(size_t count, tile::DeviceBuffer &buf) {
  tile::Status s = tile::DeviceBuffer::allocate(count * 4, buf);
  if (!s.ok())
    return s;
  return buf.fill(0xFF);
}

inline std::vector<float> download(const tile::DeviceBuffer &buf,
                                   size_t count) {
  std::vector<float> host(count);
  tile::Status s = buf.copyToHost(host.data(), count * 4);
  EXPECT_TRUE(s.ok()) << s.toString();
  return host;
}

inline void expectClose(const std::vector<double> &got,
                        const std::vector<double> &ref,
                        const std::string &what, double rtol = 1e-5) {
  auto c = mlir::tile::reference::compare(got, ref, rtol);
  EXPECT_TRUE(c.passed) << what << ": rel error " << c.relError
                        << ", max abs " << c.maxAbsError << " at element "
                        << c.worstIndex << ", non-finite mismatches "
                        << c.nonFinite;
}

#define ASSERT_OK(expr)                                                        \
  do {                                                                         \
    tile::Status _s = (expr);                                                  \
    ASSERT_TRUE(_s.ok()) << #expr << ": " << _s.toString();                    \
  } while (0)

} // namespace gputest

#endif // TILE_UNITTESTS_GPU_GPUTESTUTIL_H
