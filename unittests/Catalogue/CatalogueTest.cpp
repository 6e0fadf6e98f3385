//===- CatalogueTest.cpp - The kernel catalogue ---------------------------===//

#include "tile/Catalogue/KernelBuilder.h"
#include "tile/Catalogue/Ops/Attention.h"
#include "tile/Catalogue/Ops/Softmax.h"
#include "tile/Catalogue/Ops/SoftmaxMatmul.h"
#include "tile/Catalogue/TuningFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <set>

using namespace tile::catalogue;

namespace {

std::vector<KernelDesc> getConfigurationSpace() {
  std::vector<KernelDesc> space;
  for (const OpSpec *op : getOps())
    for (const KernelDesc &k : op->getConfigurationSpace())
      space.push_back(k);
  return space;
}

TEST(Catalogue, OperationsAreListed) {
  EXPECT_EQ(findOp("softmax"), &getSoftmaxOp());
  EXPECT_EQ(findOp("softmax_matmul"), &getSoftmaxMatmulOp());
  EXPECT_EQ(findOp("no_such_operation"), nullptr);
  std::set<std::string> names;
  for (const OpSpec *op : getOps()) {
    EXPECT_TRUE(names.insert(op->getName()).second) << op->getName();
    EXPECT_LE(op->getParams().size(), (size_t)kMaxParams) << op->getName();
    EXPECT_LE(op->getProblemFields().size(), (size_t)kMaxProblemFields)
        << op->getName();
    // Every kernel of the space is the operation's.
    for (const KernelDesc &k : op->getConfigurationSpace())
      EXPECT_EQ(findOp(k), op) << getKernelName(k);
  }
}

DeviceInfo device(int major, int sms) {
  DeviceInfo d;
  d.name = "any";
  d.ccMajor = major;
  d.sms = sms;
  d.streamOrderedAllocation = true;
  return d;
}

// Each operation's test problems reach every kernel of its space (on
// sm_90), and its fallbacks run each of them on sm_80.
TEST(Catalogue, TestProblemsReachEveryKernel) {
  for (const OpSpec *op : getOps()) {
    std::vector<Problem> problems = op->getTestProblems();
    ASSERT_FALSE(problems.empty()) << op->getName();
    for (const KernelDesc &k : op->getConfigurationSpace())
      EXPECT_TRUE(llvm::any_of(problems,
                               [&](const Problem &p) {
                                 return op->admits(k, p, device(9, 132));
                               }))
          << getKernelName(k) << " admits no test problem";
    std::vector<KernelDesc> fallbacks = op->getFallbackKernels();
    for (const Problem &p : problems)
      EXPECT_TRUE(llvm::any_of(fallbacks,
                               [&](const KernelDesc &k) {
                                 return getTarget(k) == Target::Sm80 &&
                                        op->admits(k, p, device(8, 108));
                               }))
          << op->getName() << " " << op->describe(p)
          << ": no fallback runs it";
  }
}

TEST(Catalogue, SpaceIsValidAndDistinct) {
  std::vector<KernelDesc> space = getConfigurationSpace();
  ASSERT_GT(space.size(), 100u);
  std::set<std::string> names;
  for (size_t i = 0; i < space.size(); ++i) {
    EXPECT_EQ(whyInvalid(space[i]), "") << getKernelName(space[i]);
    // Distinct descriptions have distinct names (the symbols the runtime
    // looks up), and no description repeats.
    EXPECT_TRUE(names.insert(getKernelName(space[i])).second)
        << getKernelName(space[i]);
    for (size_t j = 0; j < i; ++j)
      ASSERT_NE(space[i], space[j]) << getKernelName(space[i]);
  }
}

TEST(Catalogue, FallbacksAreInTheSpaceAndRunEverywhere) {
  std::vector<KernelDesc> space = getConfigurationSpace();
  // One softmax kernel per dtype for any row, one softmax-matmul kernel per
  // dtype and precision.
  EXPECT_EQ(getSoftmaxOp().getFallbackKernels().size(), 3u);
  EXPECT_EQ(getSoftmaxMatmulOp().getFallbackKernels().size(), 5u);
  // A fallback may need a later target (preferred where it runs: the
  // attention kernels on wgmma); the sm_80 ones alone run every problem
  // (TestProblemsReachEveryKernel).
  for (const OpSpec *op : getOps()) {
    int sm80 = 0;
    for (const KernelDesc &k : op->getFallbackKernels()) {
      EXPECT_EQ(whyInvalid(k), "");
      sm80 += getTarget(k) == Target::Sm80;
      EXPECT_NE(std::find(space.begin(), space.end(), k), space.end())
          << getKernelName(k);
    }
    EXPECT_GT(sm80, 0) << op->getName();
  }
  for (const KernelDesc &k : getSoftmaxOp().getFallbackKernels())
    EXPECT_EQ(toSoftmaxKernel(k).alignment, RowAlignment::Element);
}

TEST(Catalogue, TargetsAndDevices) {
  SoftmaxKernel s;
  s.scheme = SoftmaxScheme::Cluster;
  EXPECT_EQ(getTarget(toDesc(s)), Target::Sm90);
  SoftmaxMatmulKernel m;
  m.product = MatmulProduct::Wgmma;
  EXPECT_EQ(getTarget(toDesc(m)), Target::Sm90a);
  EXPECT_TRUE(runsOn(Target::Sm80, 8, 0));
  EXPECT_TRUE(runsOn(Target::Sm80, 12, 0));
  EXPECT_FALSE(runsOn(Target::Sm90, 8, 9));
  EXPECT_TRUE(runsOn(Target::Sm90, 10, 0));
  EXPECT_TRUE(runsOn(Target::Sm90a, 9, 0));
  EXPECT_FALSE(runsOn(Target::Sm90a, 10, 0));
}

SoftmaxKernel rows(int32_t block, int32_t rowsPerProgram, int32_t warps) {
  SoftmaxKernel k;
  k.scheme = SoftmaxScheme::Rows;
  k.dtype = DType::F16;
  k.alignment = RowAlignment::Rows16;
  k.block = block;
  k.rows = rowsPerProgram;
  k.warps = warps;
  return k;
}

TEST(Catalogue, InvalidSoftmaxKernelsSayWhy) {
  EXPECT_EQ(whyInvalid(toDesc(rows(1024, 1, 4))), "");
  EXPECT_NE(whyInvalid(toDesc(rows(1000, 1, 4))),
            ""); // block not a power of two
  EXPECT_NE(whyInvalid(toDesc(rows(65536, 1, 4))), "");
  EXPECT_NE(whyInvalid(toDesc(rows(1024, 1, 3))), "");
  EXPECT_NE(whyInvalid(toDesc(rows(1024, 0, 4))),
            ""); // rows per program missing
  SoftmaxKernel k = rows(1024, 1, 4);
  k.tail = 1024; // not below block
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.tail = 256;
  k.alignment = RowAlignment::Element; // second tiles need aligned rows
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k = rows(1024, 1, 4);
  k.rematerialize = true; // needs Whole16 rows
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.alignment = RowAlignment::Whole16;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  k.dtype = DType::F32; // 2-byte types only
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k = rows(1024, 1, 4);
  k.clusterSize = 4; // not a cluster scheme
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.scheme = SoftmaxScheme::Cluster;
  k.rows = 0;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  k.clusterSize = 3;
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.clusterSize = 4;
  k.alignment = RowAlignment::Element; // clusters need aligned rows
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.scheme = SoftmaxScheme::Grid;
  k.clusterSize = 0;
  k.alignment = RowAlignment::Rows16; // grid kernels need Whole16 rows
  EXPECT_NE(whyInvalid(toDesc(k)), "");
}

SoftmaxMatmulKernel tile(DType t, Precision p) {
  SoftmaxMatmulKernel k;
  k.dtype = t;
  k.precision = p;
  k.blockM = 64;
  k.blockK = 32;
  k.blockN = 128;
  k.warps = 4;
  k.stages = 2;
  return k;
}

TEST(Catalogue, InvalidSoftmaxMatmulKernelsSayWhy) {
  EXPECT_EQ(whyInvalid(toDesc(tile(DType::F16, Precision::IEEE))), "");
  EXPECT_NE(whyInvalid(toDesc(tile(DType::F16, Precision::TF32))), "");
  SoftmaxMatmulKernel k = tile(DType::F32, Precision::IEEE);
  k.product = MatmulProduct::Wgmma; // the FMA path has no wgmma
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k = tile(DType::F16, Precision::IEEE);
  k.product = MatmulProduct::WgmmaTransposed; // f32 only
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.product = MatmulProduct::WgmmaInFlight; // needs 3 stages
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.stages = 3;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  k = tile(DType::F16, Precision::IEEE);
  k.tma = true; // TMA only with wgmma
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.product = MatmulProduct::Wgmma;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  k.stages = 5;
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k = tile(DType::F16, Precision::IEEE);
  k.blockN = 96;
  EXPECT_NE(whyInvalid(toDesc(k)), "");
}

/// The 128-wide warp-specialized f16 softmax-matmul kernel.
SoftmaxMatmulKernel specializedSoftmaxMatmul() {
  SoftmaxMatmulKernel k;
  k.dtype = DType::F16;
  k.precision = Precision::IEEE;
  k.blockM = 128;
  k.blockK = 128;
  k.blockN = 256;
  k.warps = 8;
  k.stages = 2;
  k.product = MatmulProduct::Wgmma;
  k.specialized = true;
  return k;
}

// Ping-pong: the two warpgroups of a specialized 2-byte kernel of 128 rows
// take turns issuing their products; alone, not persistent.
TEST(Catalogue, SoftmaxMatmulPingPong) {
  SoftmaxMatmulKernel k = specializedSoftmaxMatmul();
  k.pingpong = true;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  EXPECT_EQ(getKernelName(toDesc(k)),
            "softmax_matmul_f16_ieee_m128_k128_n256_w8_s2_h_ws_pp");
  k.product = MatmulProduct::WgmmaInFlight;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  k.product = MatmulProduct::Wgmma;
  k.persistent = true;
  EXPECT_NE(whyInvalid(toDesc(k)).find("ping-pong"), std::string::npos);
  k.persistent = false;
  k.cluster = 2;
  EXPECT_NE(whyInvalid(toDesc(k)).find("ping-pong"), std::string::npos);
  k.cluster = 0;
  k.blockM = 64; // one 16-row slice per warp: 8 warps need 128 rows
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.blockM = 128;
  k.specialized = false; // the turns are the consumer warpgroups'
  EXPECT_NE(whyInvalid(toDesc(k)), "");
}

// Split columns: 64 rows over 8 warps of a specialized 2-byte kernel, up
// to 512 columns, alone or in clusters of row blocks.
TEST(Catalogue, SoftmaxMatmulSplitColumns) {
  SoftmaxMatmulKernel k = specializedSoftmaxMatmul();
  k.blockM = 64;
  k.blockK = 64;
  k.blockN = 512;
  EXPECT_NE(whyInvalid(toDesc(k)), ""); // 512 columns need split columns
  k.splitColumns = true;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  EXPECT_NE(getKernelName(toDesc(k)).find("_sc"), std::string::npos);
  k.product = MatmulProduct::WgmmaInFlight;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  k.cluster = 2;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  k.clusterColumns = true; // the columns are the program's own
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.clusterColumns = false;
  k.cluster = 0;
  k.blockM = 128; // one 64-row slice for both warpgroups
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.blockM = 64;
  k.warps = 4; // two consumer warpgroups
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.warps = 8;
  k.specialized = false; // a producer warpgroup's ring
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.specialized = true;
  k.dtype = DType::F32;
  k.precision = Precision::TF32; // 2-byte types only
  EXPECT_NE(whyInvalid(toDesc(k)), "");
}

// Clusters share a specialized kernel's copies; the grid rounds the
// cluster's axis up to whole clusters (row blocks, or with cluster_columns
// the column blocks, which then run along x).
TEST(Catalogue, SoftmaxMatmulClusters) {
  SoftmaxMatmulKernel k = specializedSoftmaxMatmul();
  k.cluster = 2;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  EXPECT_EQ(getKernelName(toDesc(k)),
            "softmax_matmul_f16_ieee_m128_k128_n256_w8_s2_h_ws_c2");
  DeviceInfo device;
  // 300 rows: 3 row blocks, rounded up to 4; 520 columns: 3 column blocks.
  Problem p = softmaxMatmulProblem(DType::F16, Precision::IEEE, 5, 300, 1000,
                                   520, true);
  LaunchPlan plan = getSoftmaxMatmulOp().plan(toDesc(k), p, device);
  EXPECT_EQ(plan.grid[0], 4u);
  EXPECT_EQ(plan.grid[1], 3u);
  EXPECT_EQ(plan.grid[2], 5u);
  k.clusterColumns = true;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  EXPECT_EQ(getKernelName(toDesc(k)),
            "softmax_matmul_f16_ieee_m128_k128_n256_w8_s2_h_ws_cn2");
  plan = getSoftmaxMatmulOp().plan(toDesc(k), p, device);
  EXPECT_EQ(plan.grid[0], 4u); // 3 column blocks, rounded up
  EXPECT_EQ(plan.grid[1], 3u); // row blocks
  k.cluster = 3;               // not a power of two
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k = specializedSoftmaxMatmul();
  k.clusterColumns = true; // without a cluster
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k = specializedSoftmaxMatmul();
  k.specialized = false; // the consumers' own copies are not shared
  k.cluster = 2;
  EXPECT_NE(whyInvalid(toDesc(k)), "");
}

/// A warp-specialized Hopper attention kernel of head_dim 128.
AttentionKernel specializedAttention() {
  AttentionKernel k;
  k.dtype = DType::F16;
  k.headBlock = 128;
  k.aligned = true;
  k.blockM = 128;
  k.blockN = 128;
  k.warps = 8;
  k.stages = 2;
  k.hopper = true;
  k.specialized = true;
  return k;
}

TEST(Catalogue, InvalidAttentionKernelsSayWhy) {
  AttentionKernel k = specializedAttention();
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  k.pingpong = true;
  k.splitMasked = true;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  EXPECT_EQ(getKernelName(toDesc(k)),
            "attention_f16_d128_m128_n128_w8_s2_a16_h_ws_pp_split");
  k.specialized = false; // ping-pong and split loops need the producer
  k.pingpong = false;
  EXPECT_NE(whyInvalid(toDesc(k)).find("split_masked"), std::string::npos);
  k.splitMasked = false;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  k = specializedAttention();
  k.warps = 4; // the producer serves two consumer warpgroups
  k.blockM = 64;
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k = specializedAttention();
  k.hopper = false; // TMA and wgmma
  EXPECT_NE(whyInvalid(toDesc(k)), "");
}

TEST(Catalogue, PersistentAttentionKernelsAndTheirGrids) {
  AttentionKernel k = specializedAttention();
  k.persistent = true;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  EXPECT_EQ(getKernelName(toDesc(k)),
            "attention_f16_d128_m128_n128_w8_s2_a16_h_ws_pers");
  DeviceInfo device;
  device.sms = 132;
  // 2 batch entries: 66 programs each (132 SMs), running the 16 heads x 64
  // query blocks.
  Problem p =
      attentionProblem(DType::F16, false, true, 2, 16, 16, 8192, 8192, 128);
  LaunchPlan plan = getAttentionOp().plan(toDesc(k), p, device);
  EXPECT_EQ(plan.grid[0], 66u);
  EXPECT_EQ(plan.grid[1], 1u);
  EXPECT_EQ(plan.grid[2], 2u);
  // More batch entries than SMs: one program each.
  p = attentionProblem(DType::F16, false, true, 200, 16, 16, 512, 512, 128);
  EXPECT_EQ(getAttentionOp().plan(toDesc(k), p, device).grid[0], 1u);
  // Never more programs than tiles: 2 query blocks of 1 head.
  p = attentionProblem(DType::F16, false, true, 1, 1, 1, 200, 512, 128);
  EXPECT_EQ(getAttentionOp().plan(toDesc(k), p, device).grid[0], 2u);
  k.stages = 3; // the output's staging does not fit beside 3 stages
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k = specializedAttention();
  k.specialized = false; // the producer runs across the query blocks
  k.persistent = true;
  EXPECT_NE(whyInvalid(toDesc(k)).find("persistent"), std::string::npos);
}

// Specialized kernels whose programs share an SM: one warpgroup per program
// only there; the warpgroup's share of the registers (what the producer
// leaves of the program's launch allocation) holds the step's tiles or the
// kernel is invalid, as is one over its share of shared memory; persistent
// grids launch as many programs per SM.
TEST(Catalogue, AttentionProgramsSharingAnSM) {
  AttentionKernel k = specializedAttention();
  k.headBlock = 64;
  k.blockM = k.blockN = 64;
  k.warps = 4; // one warpgroup per program where programs share an SM
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  k.minProgramsPerSM = 3;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  EXPECT_EQ(getKernelName(toDesc(k)),
            "attention_f16_d64_m64_n64_w4_s2_a16_h_ws_o3");
  k.pingpong = true; // ping-pong takes two warpgroups
  EXPECT_NE(whyInvalid(toDesc(k)).find("ping-pong"), std::string::npos);
  k.pingpong = false;
  k.stages = 4; // 8 + 10 x 8 KiB over a third of 228 KiB
  EXPECT_NE(whyInvalid(toDesc(k)).find("shared memory"), std::string::npos);
  k.stages = 2;
  k.minProgramsPerSM = 5;
  EXPECT_NE(whyInvalid(toDesc(k)).find("0 to 4"), std::string::npos);
  k.minProgramsPerSM = 3;
  k.specialized = false; // the share is the producer's rest
  EXPECT_NE(whyInvalid(toDesc(k)).find("min_programs_per_sm"),
            std::string::npos);
  k.specialized = true;
  k.persistent = true;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  DeviceInfo device;
  device.sms = 132;
  // 2 batch entries: 3 x 132 / 2 programs each.
  Problem p =
      attentionProblem(DType::F16, false, true, 2, 16, 16, 8192, 8192, 64);
  EXPECT_EQ(getAttentionOp().plan(toDesc(k), p, device).grid[0], 198u);
  // Two programs of two warpgroups launch with 80 registers per thread,
  // which leave their warpgroups 104: too few for 64-key steps.
  k = specializedAttention();
  k.headBlock = 64;
  k.blockN = 64;
  k.minProgramsPerSM = 2;
  EXPECT_NE(whyInvalid(toDesc(k)).find("registers"), std::string::npos);
}

// Four warpgroups of 64 query rows each and the producer (16 + 4 warps):
// 112 registers per thread for each step's tiles, which hold 64-key steps
// of head_dim 64 only; the space has them specialized only.
TEST(Catalogue, AttentionFourWarpgroups) {
  AttentionKernel k = specializedAttention();
  k.headBlock = 64;
  k.blockM = 256;
  k.blockN = 64;
  k.warps = 16;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  EXPECT_EQ(getKernelName(toDesc(k)),
            "attention_f16_d64_m256_n64_w16_s2_a16_h_ws");
  k.splitMasked = true;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  k.pingpong = true; // the space's ping-pong takes 8 warps
  EXPECT_NE(whyInvalid(toDesc(k)).find("ping-pong"), std::string::npos);
  k.pingpong = false;
  k.blockN = 128; // 32 + 64 registers of tiles, 48 to spare: over 112
  EXPECT_NE(whyInvalid(toDesc(k)).find("registers"), std::string::npos);
  k.blockN = 64;
  // Persistent: 48 to spare as well (a few of a tile's values spill, once
  // a tile), where programs of fewer warpgroups keep 64.
  k.persistent = true;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  EXPECT_EQ(getKernelName(toDesc(k)),
            "attention_f16_d64_m256_n64_w16_s2_a16_h_ws_split_pers");
  k.blockN = 32;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  k.headBlock = 128; // Q's 256 x 128 block over 48 KiB
  EXPECT_NE(whyInvalid(toDesc(k)).find("48 KiB"), std::string::npos);
  k.headBlock = 64;
  k.minProgramsPerSM = 2; // 1280 threads: 48 registers each
  EXPECT_NE(whyInvalid(toDesc(k)), "");
  int sixteenWarps = 0;
  for (const KernelDesc &desc : getAttentionOp().getConfigurationSpace()) {
    AttentionKernel s = toAttentionKernel(desc);
    if (s.warps != 16)
      continue;
    ++sixteenWarps;
    EXPECT_TRUE(s.specialized) << getKernelName(desc);
    EXPECT_EQ(s.headBlock, 64) << getKernelName(desc);
  }
  EXPECT_GT(sixteenWarps, 0);
}

// Specialized kernels copy the last value block into a buffer of its own
// unless, persistent, it would not fit beside two tiles' Q; persistent
// kernels keep two tiles' Q where they copy the last values.
TEST(Catalogue, AttentionLastValuesBuffer) {
  AttentionKernel k = specializedAttention();
  EXPECT_TRUE(copiesLastValues(k));
  EXPECT_FALSE(twoQueryBlocks(k));
  k.persistent = true; // 2 x 32 KiB of Q, 5 blocks of 32 KiB: no sixth
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  EXPECT_FALSE(copiesLastValues(k));
  EXPECT_FALSE(twoQueryBlocks(k));
  k.blockN = 64; // 2 x 32 KiB of Q, 10 blocks of 16 KiB: 224 KiB
  k.stages = 4;
  EXPECT_EQ(whyInvalid(toDesc(k)), "");
  EXPECT_TRUE(copiesLastValues(k));
  EXPECT_TRUE(twoQueryBlocks(k));
  k.specialized = k.persistent = false;
  EXPECT_FALSE(copiesLastValues(k));
  EXPECT_FALSE(twoQueryBlocks(k));
}

// The tuner's attention points give each head its own keys and values
// unless kv_heads is given; a grouped point is nearer a grouped problem
// than a point of the same sizes without groups.
TEST(Catalogue, AttentionKeyValueHeads) {
  const OpSpec &op = getAttentionOp();
  int kvHeads = op.findProblemField("kv_heads");
  ASSERT_GE(kvHeads, 0);
  int heads = op.findProblemField("heads"), seqK = op.findProblemField("seq_k");
  ASSERT_GE(heads, 0);
  ASSERT_GE(seqK, 0);
  // By default the sweep (16 heads, each with its own keys and values),
  // and per dtype and mask one grouped-query point and one ragged point.
  std::vector<Problem> all = op.getTuningProblems({});
  auto count = [&](auto pred) { return llvm::count_if(all, pred); };
  EXPECT_EQ(count([&](const Problem &p) {
              return p.values[heads] == 16 && p.values[kvHeads] == 16;
            }),
            (long)all.size() - 4);
  EXPECT_EQ(count([&](const Problem &p) {
              return p.values[heads] == 32 && p.values[kvHeads] == 8;
            }),
            4);
  EXPECT_EQ(count([&](const Problem &p) { return p.values[seqK] == 3001; }), 4);
  EXPECT_EQ(all.size(), 48u + 8u); // 2 dtypes x 2 masks x (12 + 2)
  // Given sizes, only the sweep's points with them.
  for (const Problem &p :
       op.getTuningProblems({{"heads", {32}}, {"kv_heads", {8}}}))
    EXPECT_EQ(p.values[kvHeads], 8) << op.describe(p);
  EXPECT_EQ(op.getTuningProblems({{"seq_q", {4096}}}).size(), 8u);
  Problem grouped =
      attentionProblem(DType::F16, false, true, 4, 32, 8, 4096, 4096, 128);
  Problem ungrouped =
      attentionProblem(DType::F16, false, true, 4, 32, 32, 4096, 4096, 128);
  EXPECT_LT(op.distance(grouped, grouped), op.distance(ungrouped, grouped));
}

TEST(Catalogue, KernelsRoundTripThroughJSON) {
  for (const KernelDesc &k : getConfigurationSpace()) {
    llvm::json::Value v = toJSON(k);
    KernelDesc back;
    llvm::json::Path::Root root;
    ASSERT_TRUE(fromJSON(v, back, root)) << getKernelName(k);
    EXPECT_EQ(back, k) << getKernelName(k);
  }
}

/// Writes `text` to a temporary file and reads it as a tuning file.
llvm::Expected<TuningFile> readText(const std::string &text) {
  llvm::SmallString<128> path;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tuning", "json", fd, path))
    return llvm::errorCodeToError(ec);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
  }
  llvm::Expected<TuningFile> file = readTuningFile(path);
  llvm::sys::fs::remove(path);
  return file;
}

TEST(Catalogue, GenericChecksSayWhy) {
  KernelDesc k = toDesc(rows(1024, 1, 4));
  EXPECT_EQ(whyInvalid(k), "");
  k.params[1] = 7; // dtype out of its enumeration
  EXPECT_NE(whyInvalid(k).find("unknown dtype"), std::string::npos);
  k = toDesc(rows(1024, 1, 4));
  k.params[kMaxParams - 1] = 1; // beyond the operation's parameters
  EXPECT_NE(whyInvalid(k), "");
  k = toDesc(rows(1024, 1, 4));
  k.op = "layer_norm";
  EXPECT_NE(whyInvalid(k).find("unknown operation"), std::string::npos);
}

/// The message of the error that reading `text` as a tuning file gives;
/// empty (and a failure) when it reads.
std::string readError(const std::string &text) {
  llvm::Expected<TuningFile> file = readText(text);
  if (file) {
    ADD_FAILURE() << "read without an error:\n" << text;
    return "";
  }
  return llvm::toString(file.takeError());
}

TEST(Catalogue, TuningFilesRoundTripAndAreChecked) {
  TuningFile f;
  f.deviceName = "NVIDIA H100 80GB HBM3";
  f.ccMajor = 9;
  f.sms = 132;
  TuningEntry e;
  e.op = &getSoftmaxOp();
  e.problem = softmaxProblem(DType::F16, RowAlignment::Rows16, 4096, 1000);
  KernelDesc k = toDesc(rows(1024, 1, 4));
  e.ranked.push_back({k, 0.25});
  f.entries.push_back(e);
  TuningEntry m;
  m.op = &getSoftmaxMatmulOp();
  m.problem = softmaxMatmulProblem(DType::F16, Precision::IEEE, 16, 2048, 512,
                                   512, true);
  m.ranked.push_back({toDesc(tile(DType::F16, Precision::IEEE)), 0.5});
  f.entries.push_back(m);
  std::string text;
  llvm::raw_string_ostream(text) << toJSON(f);
  llvm::Expected<TuningFile> back = readText(text);
  ASSERT_TRUE(!!back) << llvm::toString(back.takeError());
  EXPECT_EQ(back->deviceName, f.deviceName);
  EXPECT_EQ(back->ccMajor, 9);
  EXPECT_EQ(back->sms, 132);
  ASSERT_EQ(back->entries.size(), 2u);
  EXPECT_EQ(back->entries[0].op, &getSoftmaxOp());
  EXPECT_EQ(back->entries[0].problem, e.problem);
  EXPECT_EQ(back->entries[0].ranked[0].kernel, k);
  EXPECT_EQ(back->entries[1].op, &getSoftmaxMatmulOp());
  EXPECT_EQ(back->entries[1].problem, m.problem);
  EXPECT_EQ(back->entries[1].ranked[0].kernel, m.ranked[0].kernel);

  // An invalid kernel is reported with the reason.
  SoftmaxKernel bad = rows(1000, 1, 4);
  f.entries[0].ranked[0].kernel = toDesc(bad);
  text.clear();
  llvm::raw_string_ostream(text) << toJSON(f);
  EXPECT_NE(readError(text).find("power of two"), std::string::npos);

  // A kernel of another dtype than its entry's.
  f.entries[0].ranked[0].kernel = k;
  f.entries[0].problem =
      softmaxProblem(DType::F32, RowAlignment::Rows16, 4096, 1000);
  text.clear();
  llvm::raw_string_ostream(text) << toJSON(f);
  EXPECT_NE(readError(text).find("another dtype"), std::string::npos);

  // A kernel of another operation.
  f.entries[0].problem = e.problem;
  f.entries[0].ranked[0].kernel = m.ranked[0].kernel;
  text.clear();
  llvm::raw_string_ostream(text) << toJSON(f);
  EXPECT_NE(readError(text).find("another operation"), std::string::npos);

  // Malformed JSON and missing fields.
  back = readText("{\"device\": ");
  EXPECT_FALSE(!!back);
  llvm::consumeError(back.takeError());
  back = readText("{\"softmax\": []}");
  EXPECT_FALSE(!!back);
  llvm::consumeError(back.takeError());
  const char *device = "{\"device\": {\"name\": \"X\", "
                       "\"compute_capability\": \"9.0\", \"sms\": 1}, ";
  // An operation the catalogue lacks, and a point missing a field.
  EXPECT_NE(readError(std::string(device) + "\"layer_norm\": []}")
                .find("not an operation"),
            std::string::npos);
  EXPECT_NE(readError(std::string(device) +
                      "\"softmax\": [{\"dtype\": \"f32\", \"rows\": 1, "
                      "\"cols\": 1, \"ranked\": []}]}")
                .find("alignment"),
            std::string::npos);
  // A point whose size is not positive.
  EXPECT_NE(
      readError(std::string(device) +
                "\"softmax\": [{\"dtype\": \"f32\", \"alignment\": "
                "\"whole16\", \"rows\": 0, \"cols\": 1, \"ranked\": []}]}")
          .find("positive integer"),
      std::string::npos);
}

} // namespace
