//===- DispatchTest.cpp - Choosing kernels from tuning tables -------------===//
//
// The dispatch rule (runtime/src/Dispatch.h) on small made-up libraries: no
// GPU, no embedded kernels.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"

#include <gtest/gtest.h>

using namespace tile::catalogue;
using tile::dispatch::DeviceInfo;
using tile::dispatch::Library;
using tile::dispatch::SoftmaxMatmulQuery;
using tile::dispatch::SoftmaxQuery;
using tile::embedded::EmbeddedKernel;

namespace {

KernelDesc softmax(SoftmaxScheme scheme, int32_t block, int32_t tail = 0,
                   RowAlignment a = RowAlignment::Whole16,
                   int32_t clusterSize = 0) {
  KernelDesc d;
  d.op = Op::Softmax;
  d.softmax.scheme = scheme;
  d.softmax.dtype = DType::F32;
  d.softmax.alignment = a;
  d.softmax.block = block;
  d.softmax.tail = tail;
  d.softmax.rows = scheme == SoftmaxScheme::Rows ? 1 : 0;
  d.softmax.warps = 4;
  d.softmax.clusterSize = clusterSize;
  return d;
}

KernelDesc matmul(MatmulProduct product, bool tma, int32_t resident = 0) {
  KernelDesc d;
  d.op = Op::SoftmaxMatmul;
  SoftmaxMatmulKernel &k = d.softmaxMatmul;
  k.dtype = DType::F16;
  k.blockM = 64;
  k.blockK = 64;
  k.blockN = 64;
  k.warps = 4;
  k.stages = product == MatmulProduct::Mma && !resident ? 0 : 3;
  k.product = product;
  k.tma = tma;
  k.residentProducts = resident;
  if (resident)
    k.stages = 2;
  return d;
}

// The kernels of the made-up library, by index.
enum {
  kRows1024,
  kRows1024Tail512,
  kRows2048,
  kOnlineElement,
  kOnlineWhole,
  kCluster,
  kGrid,
  kMmaPlain,
  kWgmma,
  kWgmmaTma,
  kResident,
  kNumTestKernels
};

const EmbeddedKernel kTestKernels[] = {
    {"rows1024", softmax(SoftmaxScheme::Rows, 1024), nullptr, 0, nullptr},
    {"rows1024+512", softmax(SoftmaxScheme::Rows, 1024, 512), nullptr, 0,
     nullptr},
    {"rows2048", softmax(SoftmaxScheme::Rows, 2048), nullptr, 0, nullptr},
    {"online_element",
     softmax(SoftmaxScheme::Online, 2048, 0, RowAlignment::Element), nullptr, 0,
     nullptr},
    {"online_whole", softmax(SoftmaxScheme::Online, 2048), nullptr, 0, nullptr},
    {"cluster",
     softmax(SoftmaxScheme::Cluster, 8192, 0, RowAlignment::Rows16, 4), nullptr,
     0, nullptr},
    {"grid", softmax(SoftmaxScheme::Grid, 8192), nullptr, 0, nullptr},
    {"mma", matmul(MatmulProduct::Mma, false), nullptr, 0, nullptr},
    {"wgmma", matmul(MatmulProduct::WgmmaInFlight, false), nullptr, 0, nullptr},
    {"wgmma_tma", matmul(MatmulProduct::WgmmaInFlight, true), nullptr, 0,
     nullptr},
    {"resident", matmul(MatmulProduct::Mma, false, 4), nullptr, 0, nullptr},
};
static_assert(sizeof(kTestKernels) / sizeof(kTestKernels[0]) ==
              kNumTestKernels);

// Measured points of a made-up H100 table.
const SoftmaxPoint kH100Softmax[] = {
    {DType::F32,
     RowAlignment::Whole16,
     4096,
     1024,
     {kRows1024, kOnlineElement, -1}},
    {DType::F32,
     RowAlignment::Whole16,
     4096,
     1536,
     {kRows1024Tail512, kOnlineElement, -1}},
    {DType::F32,
     RowAlignment::Whole16,
     4096,
     2048,
     {kRows2048, kOnlineElement, -1}},
    {DType::F32,
     RowAlignment::Whole16,
     4096,
     32768,
     {kCluster, kOnlineWhole, -1}},
    {DType::F32,
     RowAlignment::Whole16,
     4096,
     131072,
     {kGrid, kCluster, kOnlineWhole, -1}},
};
const SoftmaxMatmulPoint kH100Matmul[] = {
    {DType::F16,
     Precision::IEEE,
     16,
     2048,
     64,
     512,
     true,
     {kResident, kMmaPlain, -1}},
    {DType::F16,
     Precision::IEEE,
     16,
     2048,
     4096,
     512,
     true,
     {kWgmmaTma, kWgmma, kMmaPlain, -1}},
};
// A second device, whose table ranks only the online kernel.
const SoftmaxPoint kOtherSoftmax[] = {
    {DType::F32, RowAlignment::Whole16, 4096, 1024, {kOnlineWhole, -1}},
};
const TuningTable kTestTables[] = {
    {{"Other GPU", 8, 0, 108}, kOtherSoftmax, 1, nullptr, 0},
    {{"NVIDIA H100", 9, 0, 132}, kH100Softmax, 5, kH100Matmul, 2},
};

Library library(unsigned numTables = 2) {
  return {kTestKernels, kNumTestKernels, kTestTables, numTables};
}

DeviceInfo device(const char *name = "NVIDIA H100", int major = 9,
                  int minor = 0, int sms = 132) {
  DeviceInfo d;
  d.name = name;
  d.ccMajor = major;
  d.ccMinor = minor;
  d.sms = sms;
  d.streamOrderedAllocation = true;
  return d;
}

SoftmaxQuery rowsOf(int64_t cols, RowAlignment a = RowAlignment::Whole16,
                    int64_t rows = 4096) {
  return {DType::F32, a, rows, cols};
}

TEST(Dispatch, SelectsTheTableByDevice) {
  Library lib = library();
  EXPECT_EQ(selectTable(lib, device())->device.ccMajor, 9);
  // The same name wins over the same compute capability.
  EXPECT_EQ(selectTable(lib, device("Other GPU", 9, 0, 10))->device.ccMajor, 8);
  // Unknown devices: the same compute capability, then the same major
  // version, then the first table.
  EXPECT_EQ(selectTable(lib, device("H200", 9, 0, 132))->device.ccMajor, 9);
  EXPECT_EQ(selectTable(lib, device("A100", 8, 6, 84))->device.ccMajor, 8);
  EXPECT_EQ(selectTable(lib, device("B200", 10, 0, 148))->device.ccMajor, 8);
  EXPECT_EQ(selectTable(library(0), device()), nullptr);
}

TEST(Dispatch, MeasuredPointsTakeTheirFastestKernel) {
  Library lib = library();
  EXPECT_EQ(chooseSoftmax(lib, device(), rowsOf(1024)), kRows1024);
  EXPECT_EQ(chooseSoftmax(lib, device(), rowsOf(1536)), kRows1024Tail512);
  EXPECT_EQ(chooseSoftmax(lib, device(), rowsOf(2048)), kRows2048);
}

TEST(Dispatch, RowsBetweenPointsTakeThePointAbove) {
  Library lib = library();
  // 1100 columns are nearer 1024, whose kernel cannot hold them; the point
  // above (1536) ranks one that does.
  EXPECT_EQ(chooseSoftmax(lib, device(), rowsOf(1100)), kRows1024Tail512);
  EXPECT_EQ(chooseSoftmax(lib, device(), rowsOf(1537)), kRows2048);
  EXPECT_EQ(chooseSoftmax(lib, device(), rowsOf(100)), kRows1024);
}

TEST(Dispatch, InadmissibleKernelsAreSkipped) {
  Library lib = library();
  // Within a cluster's reach on 9.0; without clusters (8.x) the online
  // kernel ranked next.
  EXPECT_EQ(chooseSoftmax(lib, device(), rowsOf(32768)), kCluster);
  EXPECT_EQ(chooseSoftmax(lib, device("NVIDIA H100", 8, 0, 132), rowsOf(32768)),
            kOnlineWhole);
  // Grid kernels need a row's programs resident: at most one per SM.
  EXPECT_EQ(chooseSoftmax(lib, device(), rowsOf(131072)), kGrid);
  EXPECT_EQ(chooseSoftmax(lib, device("NVIDIA H100", 9, 0, 8), rowsOf(131072)),
            kOnlineWhole);
  DeviceInfo noAsync = device();
  noAsync.streamOrderedAllocation = false;
  EXPECT_EQ(chooseSoftmax(lib, noAsync, rowsOf(131072)), kOnlineWhole);
  // Clusters multiply the grid: rows x cluster size must stay below 2^31.
  EXPECT_EQ(
      chooseSoftmax(lib, device(),
                    rowsOf(32768, RowAlignment::Whole16, int64_t(1) << 30)),
      kOnlineWhole);
}

TEST(Dispatch, AlignmentClassesFallBack) {
  Library lib = library();
  // Rows that start 16-byte aligned but do not hold a multiple of 16
  // bytes: the Whole16 kernels do not admit them; the kernel ranked for
  // any row does, and further out the Rows16 cluster.
  EXPECT_EQ(chooseSoftmax(lib, device(), rowsOf(1023, RowAlignment::Rows16)),
            kOnlineElement);
  EXPECT_EQ(chooseSoftmax(lib, device(), rowsOf(30001, RowAlignment::Rows16)),
            kCluster);
  EXPECT_EQ(chooseSoftmax(lib, device(), rowsOf(1023, RowAlignment::Element)),
            kOnlineElement);
  // Without tables: the online kernel of the best class the rows allow.
  EXPECT_EQ(chooseSoftmax(library(0), device(), rowsOf(1024)), kOnlineWhole);
  EXPECT_EQ(
      chooseSoftmax(library(0), device(), rowsOf(1024, RowAlignment::Element)),
      kOnlineElement);
}

TEST(Dispatch, AdmissionFollowsTheShape) {
  DeviceInfo d = device();
  EXPECT_TRUE(admits(kTestKernels[kRows1024Tail512].desc, rowsOf(1536), d));
  EXPECT_FALSE(admits(kTestKernels[kRows1024Tail512].desc, rowsOf(1537), d));
  EXPECT_FALSE(admits(kTestKernels[kRows1024].desc,
                      rowsOf(1000, RowAlignment::Rows16), d));
  SoftmaxQuery f16 = rowsOf(1024);
  f16.dtype = DType::F16;
  EXPECT_FALSE(admits(kTestKernels[kRows1024].desc, f16, d));
  SoftmaxMatmulQuery q{DType::F16, Precision::IEEE, 16, 2048, 64, 512, true};
  EXPECT_FALSE(admits(kTestKernels[kRows1024].desc, q, d));
  EXPECT_FALSE(admits(kTestKernels[kMmaPlain].desc, rowsOf(1024), d));
}

TEST(Dispatch, SoftmaxMatmulConditions) {
  Library lib = library();
  SoftmaxMatmulQuery q{DType::F16, Precision::IEEE, 16, 2048, 4096, 512, true};
  EXPECT_EQ(chooseSoftmaxMatmul(lib, device(), q), kWgmmaTma);
  // Inputs TMA cannot read: the next ranked kernel.
  q.tmaReadable = false;
  EXPECT_EQ(chooseSoftmaxMatmul(lib, device(), q), kWgmma);
  // sm_90a kernels run on 9.0 only.
  EXPECT_EQ(chooseSoftmaxMatmul(lib, device("NVIDIA H100", 10, 0, 132), q),
            kMmaPlain);
  // Short rows take the resident kernel, longer ones cannot.
  q.d2 = 64;
  q.tmaReadable = true;
  EXPECT_EQ(chooseSoftmaxMatmul(lib, device(), q), kResident);
  q.d2 = 65;
  EXPECT_NE(chooseSoftmaxMatmul(lib, device(), q), kResident);
  // A grid too tall (d3 / columns per program > 65535) admits nothing.
  q.d3 = int64_t(65536) * 256 + 1;
  EXPECT_EQ(chooseSoftmaxMatmul(lib, device(), q), -1);
  // Other dtypes and precisions: none here.
  SoftmaxMatmulQuery f32{DType::F32, Precision::TF32, 1, 64, 64, 64, true};
  EXPECT_EQ(chooseSoftmaxMatmul(lib, device(), f32), -1);
}

} // namespace
