//===- DispatchTest.cpp - Choosing kernels from tuning tables -------------===//
//
// The dispatch rule (runtime/src/Dispatch.h) on small made-up libraries: no
// GPU, no embedded kernels.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "tile/Catalogue/Ops/Softmax.h"
#include "tile/Catalogue/Ops/SoftmaxMatmul.h"

#include <gtest/gtest.h>

using namespace tile::catalogue;
using tile::dispatch::admits;
using tile::dispatch::DeviceInfo;
using tile::dispatch::Library;
using tile::embedded::EmbeddedKernel;

namespace {

KernelDesc softmax(SoftmaxScheme scheme, int32_t block, int32_t tail = 0,
                   RowAlignment a = RowAlignment::Whole16,
                   int32_t clusterSize = 0) {
  SoftmaxKernel k;
  k.scheme = scheme;
  k.dtype = DType::F32;
  k.alignment = a;
  k.block = block;
  k.tail = tail;
  k.rows = scheme == SoftmaxScheme::Rows ? 1 : 0;
  // The online kernels as the fallback's (8 warps).
  k.warps = scheme == SoftmaxScheme::Online ? 8 : 4;
  k.clusterSize = clusterSize;
  return toDesc(k);
}

KernelDesc matmul(MatmulProduct product, bool tma, int32_t resident = 0) {
  SoftmaxMatmulKernel k;
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
  return toDesc(k);
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

Problem rowsOf(int64_t cols, RowAlignment a = RowAlignment::Whole16,
               int64_t rows = 4096) {
  return softmaxProblem(DType::F32, a, rows, cols);
}

Problem matmulOf(int64_t d2, bool tmaReadable = true, int64_t d3 = 512,
                 DType t = DType::F16, Precision p = Precision::IEEE) {
  return softmaxMatmulProblem(t, p, 16, 2048, d2, d3, tmaReadable);
}

// Measured points of a made-up H100 table.
const TablePoint kH100Points[] = {
    {"softmax", rowsOf(1024), {kRows1024, kOnlineElement, -1}},
    {"softmax_matmul", matmulOf(64), {kResident, kMmaPlain, -1}},
    {"softmax", rowsOf(1536), {kRows1024Tail512, kOnlineElement, -1}},
    {"softmax", rowsOf(2048), {kRows2048, kOnlineElement, -1}},
    {"softmax", rowsOf(32768), {kCluster, kOnlineWhole, -1}},
    {"softmax", rowsOf(131072), {kGrid, kCluster, kOnlineWhole, -1}},
    {"softmax_matmul", matmulOf(4096), {kWgmmaTma, kWgmma, kMmaPlain, -1}},
};
// A second device, whose table ranks only the online kernel.
const TablePoint kOtherPoints[] = {
    {"softmax", rowsOf(1024), {kOnlineWhole, -1}},
};
const TuningTable kTestTables[] = {
    {{"Other GPU", 8, 0, 108}, kOtherPoints, 1},
    {{"NVIDIA H100", 9, 0, 132}, kH100Points, 7},
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

int chooseSoftmax(const Library &lib, const DeviceInfo &d, const Problem &p) {
  return tile::dispatch::choose(lib, d, getSoftmaxOp(), p);
}

int chooseSoftmaxMatmul(const Library &lib, const DeviceInfo &d,
                        const Problem &p) {
  return tile::dispatch::choose(lib, d, getSoftmaxMatmulOp(), p);
}

bool admitsSoftmax(int kernel, const Problem &p, const DeviceInfo &d) {
  return admits(getSoftmaxOp(), kTestKernels[kernel].desc, p, d);
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
  // Without tables: the operation's fallback (the online kernel for any
  // row), else the first kernel that admits the problem.
  EXPECT_EQ(chooseSoftmax(library(0), device(), rowsOf(1024)), kOnlineElement);
  EXPECT_EQ(
      chooseSoftmax(library(0), device(), rowsOf(1024, RowAlignment::Element)),
      kOnlineElement);
}

TEST(Dispatch, AdmissionFollowsTheShape) {
  DeviceInfo d = device();
  EXPECT_TRUE(admitsSoftmax(kRows1024Tail512, rowsOf(1536), d));
  EXPECT_FALSE(admitsSoftmax(kRows1024Tail512, rowsOf(1537), d));
  EXPECT_FALSE(admitsSoftmax(kRows1024, rowsOf(1000, RowAlignment::Rows16), d));
  Problem f16 = softmaxProblem(DType::F16, RowAlignment::Whole16, 4096, 1024);
  EXPECT_FALSE(admitsSoftmax(kRows1024, f16, d));
  // A kernel of another operation admits nothing.
  EXPECT_FALSE(admits(getSoftmaxMatmulOp(), kTestKernels[kRows1024].desc,
                      matmulOf(64), d));
  EXPECT_FALSE(admitsSoftmax(kMmaPlain, rowsOf(1024), d));
}

TEST(Dispatch, SoftmaxMatmulConditions) {
  Library lib = library();
  EXPECT_EQ(chooseSoftmaxMatmul(lib, device(), matmulOf(4096)), kWgmmaTma);
  // Inputs TMA cannot read: the next ranked kernel.
  EXPECT_EQ(chooseSoftmaxMatmul(lib, device(), matmulOf(4096, false)), kWgmma);
  // sm_90a kernels run on 9.0 only.
  EXPECT_EQ(chooseSoftmaxMatmul(lib, device("NVIDIA H100", 10, 0, 132),
                                matmulOf(4096, false)),
            kMmaPlain);
  // Short rows take the resident kernel, longer ones cannot.
  EXPECT_EQ(chooseSoftmaxMatmul(lib, device(), matmulOf(64)), kResident);
  EXPECT_NE(chooseSoftmaxMatmul(lib, device(), matmulOf(65)), kResident);
  // A grid too tall (d3 / columns per program > 65535) admits nothing.
  EXPECT_EQ(chooseSoftmaxMatmul(lib, device(),
                                matmulOf(65, true, int64_t(65536) * 256 + 1)),
            -1);
  // Other dtypes and precisions: none here.
  EXPECT_EQ(
      chooseSoftmaxMatmul(lib, device(),
                          matmulOf(64, true, 64, DType::F32, Precision::TF32)),
      -1);
}

} // namespace
