//===- ElementwiseOpsGPUTest.cpp - Every supported op on the GPU ----------===//
//
// The cases of unittests/Elementwise (one kernel per arith/math op of
// Tile's table and element type, and one for the conversions), compiled at
// build time into build/kernels/elementwise/ with the interpreter's
// results: each runs on the GPU on the same inputs, its outputs poisoned
// first, and is compared with the interpreter.
//
//===----------------------------------------------------------------------===//

#include "GPUTestUtil.h"

#include "tile/Catalogue/TestData.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace {

struct CaseBuffer {
  std::string dtype;
  bool output = false;
  int64_t elements = 0;
  std::vector<unsigned char> bytes; // inputs
  std::vector<double> expected;     // outputs
};

int64_t dtypeBytes(const std::string &t) {
  return t == "f64" ? 8 : (t == "f16" || t == "bf16") ? 2 : 4;
}

double decodeElement(const std::string &t, const unsigned char *p) {
  if (t == "f32") {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  if (t == "f64") {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  if (t == "i32") {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  return tile::catalogue::decode(t == "f16" ? tile::catalogue::DType::F16
                                            : tile::catalogue::DType::BF16,
                                 reinterpret_cast<const char *>(p));
}

/// Runs case `name` of build/kernels/elementwise; the failures are the
/// test's.
void runCase(const std::string &name) {
  std::istringstream in(gputest::readFile(gputest::kernelsDir() +
                                          "/elementwise/" + name + ".case"));
  std::string word, caseName;
  double tolerance = 0;
  size_t numScalars = 0;
  in >> word >> caseName >> word >> tolerance >> word >> numScalars;
  SCOPED_TRACE(caseName);
  std::vector<int64_t> scalars(numScalars);
  for (int64_t &s : scalars)
    in >> s;
  std::vector<CaseBuffer> buffers;
  while (in >> word) {
    CaseBuffer b;
    b.output = word == "output";
    in >> b.dtype >> b.elements;
    int64_t size = dtypeBytes(b.dtype);
    if (b.output) {
      b.expected.resize(b.elements);
      for (double &v : b.expected)
        in >> v;
    } else {
      for (int64_t k = 0; k < b.elements; ++k) {
        std::string hex;
        in >> hex;
        ASSERT_EQ((int64_t)hex.size(), 2 * size);
        for (int64_t j = 0; j < size; ++j)
          b.bytes.push_back(
              (unsigned char)std::stoi(hex.substr(2 * j, 2), nullptr, 16));
      }
    }
    buffers.push_back(std::move(b));
  }
  ASSERT_FALSE(buffers.empty());

  tile::Module module;
  tile::Kernel kernel;
  tile::Status s =
      gputest::loadKernel("elementwise/" + name, "k", module, kernel);
  ASSERT_TRUE(s.ok()) << s.toString();
  std::vector<tile::DeviceBuffer> device(buffers.size());
  std::vector<tile_arg> args;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const CaseBuffer &b = buffers[i];
    size_t bytes = b.elements * dtypeBytes(b.dtype);
    ASSERT_TRUE((s = tile::DeviceBuffer::allocate(bytes, device[i])).ok())
        << s.toString();
    // Outputs start as NaN (floats) or -1 (integers): elements the
    // kernel fails to write are caught.
    std::vector<unsigned char> initial =
        b.output ? std::vector<unsigned char>(bytes, 0xff) : b.bytes;
    ASSERT_TRUE((s = device[i].copyFromHost(initial.data(), bytes)).ok())
        << s.toString();
    args.push_back(tile::arg::ptr(device[i]));
  }
  for (int64_t v : scalars)
    args.push_back(tile::arg::i32((int32_t)v));
  ASSERT_TRUE((s = kernel.launch({1, 1, 1}, args)).ok()) << s.toString();
  ASSERT_TRUE((s = tile::synchronize()).ok()) << s.toString();

  for (size_t i = 0; i < buffers.size(); ++i) {
    const CaseBuffer &b = buffers[i];
    if (!b.output)
      continue;
    int64_t size = dtypeBytes(b.dtype);
    std::vector<unsigned char> got(b.elements * size);
    ASSERT_TRUE((s = device[i].copyToHost(got.data(), got.size())).ok())
        << s.toString();
    double maxRef = 1, maxErr = 0;
    int64_t worst = 0;
    for (int64_t k = 0; k < b.elements; ++k) {
      double ref = b.expected[k], v = decodeElement(b.dtype, &got[k * size]);
      maxRef = std::max(maxRef, std::fabs(ref));
      double err = std::isnan(v) ? INFINITY : std::fabs(v - ref);
      if (err > maxErr) {
        maxErr = err;
        worst = k;
      }
    }
    EXPECT_LE(maxErr, tolerance * maxRef)
        << "buffer " << i << ": element " << worst << " is "
        << decodeElement(b.dtype, &got[worst * size]) << " on the GPU, "
        << b.expected[worst] << " in the interpreter";
  }
}

TEST(ElementwiseOpsGPU, EveryCaseMatchesTheInterpreter) {
  TILE_REQUIRE_GPU();
  std::string dir = gputest::kernelsDir() + "/elementwise";
  std::vector<std::string> names;
  for (const auto &entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".case")
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  ASSERT_GT(names.size(), 150u) << "cases in " << dir;
  for (const std::string &name : names)
    runCase(name);
}

} // namespace

namespace {

/// tile.print on the GPU: the scalar once per program, each element of the
/// tile once, with its index, on the process's standard output.
TEST(ElementwiseOpsGPU, PrintWritesEveryElementOnce) {
  TILE_REQUIRE_GPU();
  tile::Module module;
  tile::Kernel kernel;
  tile::Status s =
      gputest::loadKernel("elementwise/print", "k", module, kernel);
  ASSERT_TRUE(s.ok()) << s.toString();
  std::vector<float> x(64);
  for (int i = 0; i < 64; ++i)
    x[i] = (float)i;
  tile::DeviceBuffer buffer;
  ASSERT_TRUE((s = tile::DeviceBuffer::allocate(64 * 4, buffer)).ok());
  ASSERT_TRUE((s = buffer.copyFromHost(x.data(), 64 * 4)).ok());

  // The device's printf buffer is written to file descriptor 1 when the
  // host synchronizes: capture it in a file.
  char path[] = "/tmp/tile-print-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  s = kernel.launch({1, 1, 1}, {tile::arg::ptr(buffer), tile::arg::i32(5)});
  tile::Status synced = tile::synchronize();
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(fd);
  std::string out = gputest::readFile(path);
  unlink(path);
  ASSERT_TRUE(s.ok()) << s.toString();
  ASSERT_TRUE(synced.ok()) << synced.toString();

  std::istringstream lines(out);
  std::string line;
  int maxLines = 0, nLines = 0;
  std::vector<int> seen(64, 0);
  while (std::getline(lines, line)) {
    int i = -1;
    float v = 0;
    if (line == "[pid (0, 0, 0)] max 63")
      ++maxLines;
    else if (line == "[pid (0, 0, 0)] n 5")
      ++nLines;
    else if (std::sscanf(line.c_str(), "[pid (0, 0, 0)] x [%d] %f", &i, &v) ==
                 2 &&
             i >= 0 && i < 64 && v == (float)i)
      ++seen[i];
    else
      ADD_FAILURE() << "unexpected line: " << line;
  }
  EXPECT_EQ(maxLines, 1) << out;
  EXPECT_EQ(nLines, 1) << out;
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(seen[i], 1) << "element " << i << "\n" << out;
}

} // namespace
