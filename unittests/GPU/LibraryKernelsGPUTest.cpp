//===- LibraryKernelsGPUTest.cpp - Every embedded kernel on the GPU -------===//
//
// Every embedded kernel of every operation of the catalogue, on each of
// its operation's test problems that it admits on this GPU, launched by
// index (runtime/src/Library.h) with the operation's test case: inputs,
// outputs poisoned with NaN, and the check of sampled outputs against
// float64. An operation added to the catalogue is covered here without a
// line of this file changing; its C API function's own test checks the
// arguments and the dispatch.
//
//===----------------------------------------------------------------------===//

#include "GPUTestUtil.h"

#include "EmbeddedKernels.h"
#include "Library.h"
#include "tile/Catalogue/OpSpec.h"

#include <algorithm>

namespace cat = ::tile::catalogue;
using tile::embedded::kKernels;
using tile::embedded::kNumKernels;

namespace {

/// Device memory freed on scope exit.
struct DeviceTensors {
  std::vector<uint64_t> ptrs;
  ~DeviceTensors() {
    for (uint64_t p : ptrs)
      tile_free(p);
  }
};

/// Runs embedded kernel `index` on problem `p`: "" if its sampled outputs
/// pass the check, else what went wrong.
std::string runOnGpu(const cat::OpSpec &op, unsigned index,
                     const cat::Problem &p, const cat::DeviceInfo &device,
                     uint64_t seed) {
  cat::TestCase c = op.makeTestCase(p, seed);
  DeviceTensors mem;
  for (const cat::TestCase::Tensor &t : c.tensors) {
    uint64_t ptr = 0;
    if (tile_malloc(&ptr, std::max<size_t>(t.bytes, 1)) != TILE_SUCCESS)
      return std::string("malloc: ") + tile_last_error();
    mem.ptrs.push_back(ptr);
    std::vector<char> bytes(t.bytes, (char)0xff); // outputs: NaN
    for (size_t i = 0; !t.pattern.empty() && i < t.bytes; ++i)
      bytes[i] = t.pattern[i % t.pattern.size()];
    if (tile_memcpy_htod(ptr, bytes.data(), t.bytes) != TILE_SUCCESS)
      return std::string("memcpy: ") + tile_last_error();
  }
  std::vector<tile_arg> args = tile::library::testCaseArguments(c, mem.ptrs);
  if (tile::library::launch(index, p, args.data(), (unsigned)args.size(),
                            device, nullptr) != TILE_SUCCESS ||
      tile_synchronize() != TILE_SUCCESS)
    return std::string("launch: ") + tile_last_error();
  std::vector<std::vector<char>> samples;
  for (const cat::TestCase::Sample &s : c.samples) {
    samples.emplace_back(s.bytes);
    if (tile_memcpy_dtoh(samples.back().data(), mem.ptrs[s.tensor] + s.offset,
                         s.bytes) != TILE_SUCCESS)
      return std::string("memcpy: ") + tile_last_error();
  }
  return c.check(samples);
}

TEST(LibraryKernelsGPU, EveryEmbeddedKernelOnItsTestProblems) {
  TILE_REQUIRE_GPU();
  cat::DeviceInfo device;
  ASSERT_EQ(tile::library::getDeviceInfo(device), TILE_SUCCESS)
      << tile_last_error();
  uint64_t seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  unsigned ran = 0;
  for (unsigned i = 0; i < kNumKernels; ++i) {
    const cat::KernelDesc &k = kKernels[i].desc;
    const cat::OpSpec *op = cat::findOp(k);
    ASSERT_NE(op, nullptr) << kKernels[i].name;
    // Preludes run within the launches of the kernels that need them.
    if (!cat::runsOn(cat::getTarget(k), device.ccMajor, device.ccMinor) ||
        op->isPrelude(k))
      continue;
    unsigned admitted = 0;
    for (const cat::Problem &p : op->getTestProblems()) {
      if (!tile::dispatch::admits(*op, k, p, device))
        continue;
      ++admitted;
      EXPECT_EQ(runOnGpu(*op, i, p, device, seed++), "")
          << kKernels[i].name << " at " << op->getName() << " "
          << op->describe(p);
    }
    // (Grid kernels need stream-ordered allocation for their workspace.)
    if (device.streamOrderedAllocation)
      EXPECT_GT(admitted, 0u) << kKernels[i].name << " admits no test problem";
    ran += admitted;
  }
  EXPECT_GT(ran, 0u);
}

} // namespace
