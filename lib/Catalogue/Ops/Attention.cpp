//===- Attention.cpp - The attention forward pass in the catalogue --------===//
//
// O = softmax(Q K^T * scale + mask) V per (batch entry, head), with the
// rows' log-sum-exp: its kernels' parameters and rules, when one runs a
// problem, how it is launched, the configurations worth measuring and the
// tuner's problems and checks.
//
//===----------------------------------------------------------------------===//

#include "tile/Catalogue/Ops/Attention.h"
#include "tile/Catalogue/TestData.h"
#include "tile/Reference/Reference.h"
#include "tile/Support/SpecializedRegisters.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <tuple>

namespace tile {
namespace catalogue {

namespace {

/// Shared memory a program may take on sm_90.
constexpr int64_t kHopperSharedBytes = 227 * 1024;
/// Shared memory of an sm_90 SM, of which each program's takes 1 KiB more.
constexpr int64_t kHopperSmSharedBytes = 228 * 1024;

enum Param {
  Type,
  HeadBlock,
  Padded,
  Aligned,
  BlockM,
  BlockN,
  Warps,
  Stages,
  Hopper,
  Specialized,
  PingPong,
  SplitMasked,
  Persistent,
  MinProgramsPerSM
};
enum ProblemField {
  PType,
  PMask,
  PAligned,
  PHeadDim,
  PSeqQ,
  PSeqK,
  PHeads,
  PKvHeads,
  PBatch
};

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t kGridYZMax = 65535;
const DType kTypes[] = {DType::F16, DType::BF16, DType::F32};

bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
double logRatio(double a, double b) { return std::fabs(std::log2(a / b)); }

/// 32-bit registers per thread the loop's tiles take at least: the f32
/// accumulator, Q (kept for every step) and the f32 scores.
int64_t tileRegisters(const AttentionKernel &k) {
  int64_t qWords = k.blockM * k.headBlock * getBytes(k.dtype) / 4;
  return (k.blockM * k.headBlock + qWords + k.blockM * k.blockN) /
         (32 * k.warps);
}

/// Those of them Q's tile takes.
int64_t queryRegisters(const AttentionKernel &k) {
  return k.blockM * k.headBlock * getBytes(k.dtype) / 4 / (32 * k.warps);
}

/// Registers per thread of a specialized kernel's warpgroups, as
/// tile-warp-specialize gives them: what the producer warpgroup (24 each)
/// leaves of the program's launch allocation (its share of the register
/// file), in multiples of 8, at most 240.
int64_t consumerRegisters(const AttentionKernel &k) {
  return mlir::tile::getSpecializedConsumerRegisters(
      k.warps, std::max(1, k.minProgramsPerSM));
}

/// Bytes of the shared buffers: Q where it has one (two tiles' in
/// persistent kernels with `lastValues`), the K and V pipeline's stages, on
/// Hopper the blocks outside the pipeline (the last value block in a buffer
/// of its own when `lastValues`) and, in persistent kernels with one Q, the
/// output's staging; rows padded by 16 bytes (not on Hopper, where wgmma's
/// buffers are swizzled instead).
int64_t bufferBytes(const AttentionKernel &k, bool lastValues) {
  int64_t e = getBytes(k.dtype), row = (k.headBlock + 16 / e) * e;
  bool qBuffer = hasQueryBuffer(k);
  if (k.hopper)
    row = k.headBlock * e;
  // A persistent kernel's output staging (the epilogue's layout
  // conversion) cannot reuse the stages, which the producer fills with the
  // next query block's keys and values meanwhile: it goes through the
  // tile's stage of Q's buffer where that has two, else through scratch
  // space of its own.
  bool twoQ = k.persistent && lastValues && qBuffer;
  int64_t q = qBuffer ? (twoQ ? 2 : 1) * k.blockM * row : 0;
  int64_t staging =
      k.persistent && !twoQ ? k.blockM * (k.headBlock * e + 16) : 0;
  int64_t edges = k.hopper + lastValues;
  return q + (2 * k.stages + edges) * k.blockN * row + staging;
}

} // namespace

int64_t getSharedBytesLimit(const AttentionKernel &k) {
  if (!k.hopper)
    return 112 * 1024;
  return std::min(kHopperSharedBytes,
                  kHopperSmSharedBytes / std::max(1, k.minProgramsPerSM) -
                      1024);
}

bool copiesLastValues(const AttentionKernel &k) {
  return k.specialized &&
         (!k.persistent || bufferBytes(k, true) <= getSharedBytesLimit(k));
}

int64_t getSharedBufferBytes(const AttentionKernel &k) {
  return bufferBytes(k, copiesLastValues(k));
}

bool hasQueryBuffer(const AttentionKernel &k) {
  int64_t e = getBytes(k.dtype);
  return k.blockM * (k.headBlock + 16 / e) * e <= 48 * 1024;
}

bool twoQueryBlocks(const AttentionKernel &k) {
  return k.persistent && copiesLastValues(k) && hasQueryBuffer(k);
}

namespace {

/// Normwise tolerances of the output against float64 (inputs rounded to the
/// type): f16/bf16 round P to their type for the second product; tf32
/// rounds both products' inputs.
double outputTolerance(DType t) {
  switch (t) {
  case DType::F16:
    return 4e-3;
  case DType::BF16:
    return 2e-2;
  case DType::F32:
    return 5e-3;
  }
  return 0;
}
/// The log-sum-exp's: 2-byte inputs give exact products (f32 sums);
/// tf32 rounds Q and K to 10 mantissa bits.
double lseTolerance(DType t) { return t == DType::F32 ? 2e-3 : 1e-5; }

class AttentionOp final : public OpSpec {
public:
  AttentionOp()
      : OpSpec("attention",
               {dtypeField(), intField("head_block"), boolField("padded"),
                boolField("aligned"), intField("block_m"), intField("block_n"),
                intField("warps"), intField("stages"), boolField("hopper"),
                boolField("specialized"), boolField("pingpong"),
                boolField("split_masked"), boolField("persistent"),
                intField("min_programs_per_sm")},
               {dtypeField(/*key=*/true),
                enumField("mask", {"none", "causal"}, /*key=*/true),
                boolField("aligned"), intField("head_dim"), intField("seq_q"),
                intField("seq_k"), intField("heads"), intField("kv_heads"),
                intField("batch")}) {}

  std::string whyInvalid(const KernelDesc &desc) const override {
    AttentionKernel k = toAttentionKernel(desc);
    int32_t programs = std::max(1, k.minProgramsPerSM);
    for (int32_t b : {k.headBlock, k.blockM, k.blockN})
      if (!isPowerOf2(b) || b < 16 || b > 256)
        return "head_block, block_m and block_n must be powers of two from 16 "
               "to 256";
    if (!isPowerOf2(k.warps) || k.warps > 16)
      return "warps must be a power of two up to 16";
    if (k.blockM < 16 * std::min<int32_t>(k.warps, 4))
      return "block_m must give each of the first four warps 16 rows";
    if (k.stages != 0 && (k.stages < 2 || k.stages > 4))
      return "stages must be 0 (loads) or 2 to 4";
    if (k.stages && !k.aligned)
      return "the pipeline's 16-byte copies need aligned rows";
    if (k.hopper && (k.dtype == DType::F32 || !k.aligned || !k.stages ||
                     k.warps % 4 || k.blockM % (16 * k.warps)))
      return "hopper kernels (wgmma) take 2-byte types, pipelined aligned "
             "blocks and 16 query rows per warp in warpgroups";
    // The producer warpgroup's TMA copies need aligned 2-byte blocks of
    // whole head_dim rows; the program's warpgroups share the register
    // file with it (240 registers each with two, 112 with four, one
    // program per SM; one warpgroup only where programs share an SM).
    if (k.specialized && (!k.hopper || k.padded ||
                          (k.warps != 8 && (k.warps != 4 || programs < 2) &&
                           (k.warps != 16 || programs > 1))))
      return "warp-specialized kernels are hopper kernels of 8 or 16 warps "
             "(4 where programs share an SM) with unpadded head_dim";
    // The producer copies Q into its shared buffer, which takes at most
    // 48 KiB (hasQueryBuffer).
    if (k.specialized && !hasQueryBuffer(k))
      return "warp-specialized kernels keep Q in a shared buffer of at most "
             "48 KiB (block_m x head_dim)";
    if (k.minProgramsPerSM < 0 || k.minProgramsPerSM > 4)
      return "min_programs_per_sm must be 0 to 4";
    if (programs > 1 && !k.specialized)
      return "min_programs_per_sm is for warp-specialized kernels";
    // (The dialect's turns also pair four warpgroups; in the 16-warp
    // kernels they measured slower everywhere, so the space leaves them
    // out.)
    if (k.pingpong && (!k.specialized || k.warps != 8))
      return "ping-pong takes the two warpgroups of a warp-specialized "
             "kernel of 8 warps";
    if (k.splitMasked && !k.specialized)
      return "split_masked loops share the producer of a warp-specialized "
             "kernel";
    if (k.persistent && !k.specialized)
      return "persistent programs keep the producer of a warp-specialized "
             "kernel running across their query blocks";
    // Four warps' registers do not hold a step with larger K and V blocks
    // (the compiler estimates over 300 per thread); Hopper's overlapped
    // step also holds P. (A specialized program's warpgroup has the
    // producer's registers too; the rule below bounds its tiles.)
    if (k.warps == 4 && !k.specialized &&
        k.blockN * k.headBlock > (k.hopper ? 4096 : 8192))
      return "kernels of 4 warps take key blocks of at most 8192 elements "
             "(4096 on Hopper)";
    if (tileRegisters(k) > 160)
      return "the accumulator, Q and the scores need more than 160 registers "
             "per thread";
    // A specialized program's warpgroups' registers (the share of the
    // register file left by the producer; less than 240 where programs
    // share an SM or four warpgroups share one) hold the step's tiles (Q
    // stays in shared memory) with 48 to spare, 64 in persistent programs
    // of one or two warpgroups (ptxas spills beyond that). Four
    // warpgroups' persistent programs keep 48: ptxas spills a few of a
    // tile's values (32-72 bytes, stored before the loop over tiles and
    // loaded once a tile), which costs less than what persistence saves
    // at short sequences.
    bool roomForTileValues = k.persistent && k.warps != 16;
    if (k.specialized &&
        tileRegisters(k) - queryRegisters(k) + 48 + 16 * roomForTileValues >
            consumerRegisters(k))
      return "the accumulator and the scores need more registers than the "
             "warp-specialized program's warpgroups have";
    // sm_80's 163 KiB per program also hold the scratch space of the
    // mma.sync operands' layout conversions (up to about 50 KiB).
    if (getSharedBufferBytes(k) > getSharedBytesLimit(k))
      return "Q and the key and value stages need more than the program's "
             "share of shared memory (227 KiB, 228 KiB per SM less 1 KiB per "
             "program where programs share an SM, 112 KiB on sm_80, which "
             "keeps room for scratch space)";
    return "";
  }

  Target getTarget(const KernelDesc &k) const override {
    return k.params[Hopper] ? Target::Sm90a : Target::Sm80;
  }

  bool admits(const KernelDesc &desc, const Problem &p,
              const DeviceInfo &) const override {
    AttentionKernel k = toAttentionKernel(desc);
    if (int64_t(k.dtype) != p.values[PType])
      return false;
    if (k.aligned && !p.values[PAligned])
      return false;
    int64_t d = p.values[PHeadDim];
    if (k.padded ? d > k.headBlock : d != k.headBlock)
      return false;
    if (k.persistent &&
        ceilDiv(p.values[PSeqQ], k.blockM) * p.values[PHeads] > kInt32Max)
      return false;
    return ceilDiv(p.values[PSeqQ], k.blockM) <= kInt32Max &&
           p.values[PHeads] <= kGridYZMax && p.values[PBatch] <= kGridYZMax;
  }

  /// Points of the problem's alignment first, then of its head_dim, then by
  /// the ratios of the sequence lengths, of batch x heads and of the query
  /// heads per key/value head (how many programs share K and V).
  std::array<double, 4> distance(const Problem &point,
                                 const Problem &p) const override {
    const int64_t *a = point.values, *b = p.values;
    double sizes =
        logRatio(a[PSeqQ], b[PSeqQ]) + logRatio(a[PSeqK], b[PSeqK]) +
        logRatio(double(a[PHeads]) * a[PBatch], double(b[PHeads]) * b[PBatch]) +
        logRatio(double(a[PHeads]) / a[PKvHeads],
                 double(b[PHeads]) / b[PKvHeads]);
    return {double(a[PAligned] != b[PAligned]),
            logRatio(a[PHeadDim], b[PHeadDim]), sizes, 0};
  }

  /// One program per block_m query rows of one head of one batch entry.
  /// Persistent kernels: P programs per batch entry, as many as leave every
  /// SM one program (min_programs_per_sm where programs share an SM; at
  /// least one, at most a tile each), each running every P-th of the
  /// entry's heads x query blocks (causal, where P does not divide the
  /// query blocks, every P-th pair of mirrored query blocks).
  LaunchPlan plan(const KernelDesc &desc, const Problem &p,
                  const DeviceInfo &device) const override {
    AttentionKernel k = toAttentionKernel(desc);
    LaunchPlan plan;
    plan.grid[0] = (uint32_t)ceilDiv(p.values[PSeqQ], k.blockM);
    plan.grid[1] = (uint32_t)p.values[PHeads];
    plan.grid[2] = (uint32_t)p.values[PBatch];
    int64_t tiles = ceilDiv(p.values[PSeqQ], k.blockM) * p.values[PHeads];
    if (k.persistent && tiles > 0) {
      plan.grid[0] = (uint32_t)std::clamp<int64_t>(
          device.sms * std::max(1, k.minProgramsPerSM) /
              std::max<int64_t>(1, p.values[PBatch]),
          1, tiles);
      plan.grid[1] = 1;
    }
    return plan;
  }

  /// The fallbacks (f32's only), and for aligned f16 and bf16 tensors of
  /// head_dim 64 and 128: query
  /// blocks of 64 and 128 rows (fewer programs re-reading K and V), key
  /// blocks of 32 to 128 (fewer rescales of the accumulator), 4 and 8
  /// warps, 2 to 4 stages (4 on Hopper only, where the copies run further
  /// ahead of the overlapped products); Hopper's 8-warp kernels also with a
  /// producer warpgroup, with and without ping-pong, with the masked steps
  /// behind a branch or in a loop of their own (split_masked), in a grid of
  /// a program per query block or a persistent one; also specialized
  /// kernels whose programs share an SM (more warps to hide each one's
  /// latencies, each with fewer registers): programs of one warpgroup and
  /// 64 query rows, two with 128-key blocks or three with 64-key blocks
  /// (the shared memory of three holds no 128-key stages; two programs of
  /// two warpgroups have 104 registers per thread, where ptxas spills a
  /// 64-key step); and specialized kernels of four warpgroups (256 query
  /// rows over 16 warps, 112 registers each) with 32- and 64-key blocks.
  std::vector<KernelDesc> getConfigurationSpace() const override {
    std::vector<KernelDesc> out = getFallbackKernels();
    for (DType t : {DType::F16, DType::BF16})
      for (int32_t d : {64, 128})
        for (auto [bm, bn, warps, programs] :
             {std::tuple<int32_t, int32_t, int32_t, int32_t>{64, 32, 4, 0},
              {64, 64, 4, 0},
              {64, 128, 4, 0},
              {128, 32, 8, 0},
              {128, 64, 8, 0},
              {128, 128, 8, 0},
              {64, 64, 8, 0},
              {64, 64, 4, 3},
              {64, 128, 4, 2},
              {256, 32, 16, 0},
              {256, 64, 16, 0}})
          for (int32_t stages : {2, 3, 4}) {
            AttentionKernel k;
            k.dtype = t;
            k.headBlock = d;
            k.aligned = true;
            k.blockM = bm;
            k.blockN = bn;
            k.warps = warps;
            k.stages = stages;
            k.minProgramsPerSM = programs;
            for (auto [hopper, specialized, pingpong] :
                 {std::tuple<bool, bool, bool>{false, false, false},
                  {true, false, false},
                  {true, true, false},
                  {true, true, true}})
              for (bool split : {false, true})
                for (bool persistent : {false, true}) {
                  // Sixteen warps: four warpgroups of a specialized
                  // kernel only (the others hold no step in their
                  // registers).
                  if (warps == 16 && !specialized)
                    continue;
                  k.hopper = hopper;
                  k.specialized = specialized;
                  k.pingpong = pingpong;
                  k.splitMasked = split;
                  k.persistent = persistent;
                  KernelDesc desc = toDesc(k);
                  if ((hopper || stages < 4) && whyInvalid(desc).empty() &&
                      std::find(out.begin(), out.end(), desc) == out.end())
                    out.push_back(desc);
                }
          }
    return out;
  }

  /// First, for f16 and bf16 on sm_90a, wgmma kernels of head_dim 32, 64
  /// and 128; then for each dtype aligned kernels of head_dim 32, 64, 128
  /// and 256 (K and V pipelined over 2 stages); then padded kernels with
  /// loads that run any head_dim up to 256 and any alignment.
  std::vector<KernelDesc> getFallbackKernels() const override {
    std::vector<KernelDesc> out;
    for (DType t : {DType::F16, DType::BF16})
      for (int32_t d : {32, 64, 128}) {
        AttentionKernel k;
        k.dtype = t;
        k.headBlock = d;
        k.aligned = true;
        k.stages = 2;
        k.blockM = d == 128 ? 128 : 64;
        k.blockN = 64;
        k.warps = d == 128 ? 8 : 4;
        k.hopper = true;
        out.push_back(toDesc(k));
      }
    for (bool padded : {false, true})
      for (DType t : kTypes)
        for (int32_t d : {32, 64, 128, 256}) {
          AttentionKernel k;
          k.dtype = t;
          k.headBlock = d;
          k.padded = padded;
          k.aligned = !padded;
          k.stages = padded ? 0 : 2;
          // Each warp holds 16 whole query rows (row maxima and sums stay
          // in the warp) where the registers allow; f32 blocks take twice
          // the shared memory: fewer keys per step.
          k.blockM = t != DType::F32 && d == 128 ? 128 : 64;
          k.blockN = t == DType::F32 ? std::min(64, 4096 / d)
                     : d == 256      ? 32
                                     : 64;
          k.warps = d >= 128 ? 8 : 4;
          out.push_back(toDesc(k));
        }
    return out;
  }

  /// The sweep of the attention benchmark: 16 heads, each with its own keys
  /// and values, 16k tokens (batch x seq), seq 512 to 16384, head_dim 64
  /// and 128, with and without the causal mask; contiguous, aligned
  /// tensors. `kv_heads` (given) makes grouped-query points where it
  /// divides `heads`. Unless sizes are given, also the benchmark's other
  /// head_dim 128 points: grouped queries (batch 4, 32 heads over 8
  /// key/value heads, seq 4096) and ragged sequences (batch 4, 16 heads,
  /// seq_q 1000, seq_k 3001).
  std::vector<Problem> getTuningProblems(
      const std::map<std::string, std::vector<int64_t>> &given) const override {
    auto values = [&](const char *field, std::vector<int64_t> defaults) {
      auto it = given.find(field);
      return it == given.end() ? defaults : it->second;
    };
    bool sizesGiven = false;
    for (const char *size : {"seq_q", "seq_k", "heads", "kv_heads", "batch"})
      sizesGiven |= given.count(size) != 0;
    std::vector<Problem> out;
    for (int64_t t :
         values("dtype", {int64_t(DType::F16), int64_t(DType::BF16)}))
      for (int64_t mask : values("mask", {0, 1}))
        for (int64_t d : values("head_dim", {64, 128})) {
          for (int64_t seq :
               values("seq_q", {512, 1024, 2048, 4096, 8192, 16384})) {
            int64_t seqK = given.count("seq_k") ? values("seq_k", {})[0] : seq;
            int64_t batch = std::max<int64_t>(1, 16384 / seq);
            int64_t heads = values("heads", {16})[0];
            for (int64_t kvHeads : values("kv_heads", {heads}))
              if (heads % kvHeads == 0)
                out.push_back(attentionProblem(DType(t), mask != 0, true,
                                               values("batch", {batch})[0],
                                               heads, kvHeads, seq, seqK, d));
          }
          if (!sizesGiven && d == 128) {
            out.push_back(attentionProblem(DType(t), mask != 0, true, 4, 32, 8,
                                           4096, 4096, d));
            out.push_back(attentionProblem(DType(t), mask != 0, true, 4, 16, 16,
                                           1000, 3001, d));
          }
        }
    return out;
  }

  /// Per dtype: aligned head_dim 32, 64, 128 and 256 and padded 20 and 96;
  /// causal and not; more keys than queries and fewer (rows with no
  /// visible key); sequences within one block and over several, not
  /// multiples of the blocks; two heads per key/value head where `heads`
  /// is even; for 2-byte types, more heads than SMs.
  std::vector<Problem> getTestProblems() const override {
    std::vector<Problem> out;
    for (DType t : kTypes) {
      out.push_back(attentionProblem(t, false, true, 2, 2, 1, 70, 150, 64));
      out.push_back(attentionProblem(t, true, true, 1, 2, 1, 150, 70, 128));
      out.push_back(attentionProblem(t, true, true, 1, 3, 3, 100, 100, 32));
      out.push_back(attentionProblem(t, false, true, 1, 1, 1, 40, 90, 256));
      out.push_back(attentionProblem(t, true, false, 2, 1, 1, 37, 130, 96));
      out.push_back(attentionProblem(t, false, false, 1, 2, 1, 64, 64, 20));
      // Tiles (heads x query blocks) of a batch entry beyond its share of
      // an H100's SMs: a persistent program runs several, of different
      // heads, the last query block partial.
      if (t != DType::F32) {
        out.push_back(attentionProblem(t, true, true, 2, 68, 34, 300, 260, 64));
        out.push_back(
            attentionProblem(t, false, true, 2, 68, 34, 300, 260, 128));
      }
    }
    return out;
  }

  /// Q, K, V with normal entries (K and V of `kv_heads` heads); the layout
  /// BHSD where `heads` is even, BSHD where it is odd; scale
  /// 1/sqrt(head_dim). Checked: three output rows and the whole
  /// log-sum-exp row of the last head of the last batch entry.
  TestCase makeTestCase(const Problem &p, uint64_t seed) const override {
    DType t = DType(p.values[PType]);
    bool causal = p.values[PMask] != 0;
    int64_t d = p.values[PHeadDim], sq = p.values[PSeqQ], sk = p.values[PSeqK],
            heads = p.values[PHeads], kvHeads = p.values[PKvHeads],
            batch = p.values[PBatch];
    int64_t group = heads / kvHeads;
    bool bshd = heads % 2 != 0;
    int64_t esize = getBytes(t);
    // Strides {batch, head, row} of a [batch, h, s, d] tensor.
    auto strides = [&](int64_t h, int64_t s) {
      return bshd ? std::array<int64_t, 3>{s * h * d, d, h * d}
                  : std::array<int64_t, 3>{h * s * d, s * d, d};
    };
    std::array<int64_t, 3> qs = strides(heads, sq), ks = strides(kvHeads, sk);
    TestCase c;
    c.tensors.resize(5); // o, q, k, v, lse
    c.tensors[0].bytes = c.tensors[1].bytes =
        size_t(batch * heads * sq * d * esize);
    c.tensors[2].bytes = c.tensors[3].bytes =
        size_t(batch * kvHeads * sk * d * esize);
    c.tensors[4].bytes = size_t(batch * heads * sq * 4);
    for (unsigned i : {1u, 2u, 3u})
      c.tensors[i].pattern = randomPattern(
          t, std::min<size_t>(c.tensors[i].bytes / esize, size_t(1) << 22), 1.0,
          seed + i);
    double scale = 1.0 / std::sqrt(double(d));
    using Arg = TestCase::Arg;
    c.args = {{Arg::Pointer, 0, 0}, {Arg::Pointer, 0, 1}, {Arg::Pointer, 0, 2},
              {Arg::Pointer, 0, 3}, {Arg::Pointer, 0, 4}, {Arg::I32, sq},
              {Arg::I32, sk},       {Arg::I32, heads},    {Arg::I32, group},
              {Arg::I32, d},        {Arg::I32, causal},   {Arg::I32, 1}};
    for (const std::array<int64_t, 3> &s : {qs, qs, ks, ks})
      for (int64_t v : s)
        c.args.push_back({Arg::I64, v});
    Arg scaleArg;
    scaleArg.kind = Arg::F32;
    scaleArg.real = scale;
    c.args.push_back(scaleArg);

    int64_t b = batch - 1, h = heads - 1, kvh = h / group;
    std::vector<int64_t> sampled{0, sq / 2, sq - 1};
    auto qOffset = [=](int64_t row) {
      return size_t((b * qs[0] + h * qs[1] + row * qs[2]) * esize);
    };
    for (int64_t r : sampled)
      c.samples.push_back({0, qOffset(r), size_t(d * esize)});
    c.samples.push_back({4, size_t((b * heads + h) * sq * 4), size_t(sq * 4)});
    std::vector<char> qp = c.tensors[1].pattern, kp = c.tensors[2].pattern,
                      vp = c.tensors[3].pattern;
    // The log-sum-exp is checked at every row of short sequences, at about
    // 1024 rows spread over long ones (and the last); the float64
    // reference is computed once, at the first check (the tuner checks
    // every kernel it measures on the same case).
    int64_t lseStride = std::max<int64_t>(1, sq / 1024);
    struct Reference {
      std::vector<int64_t> rows;
      std::vector<double> lse;
      std::vector<std::vector<double>> outputs; // the sampled rows'
    };
    auto reference = std::make_shared<Reference>();
    auto computeReference = [=](Reference &ref) {
      std::vector<double> kh(sk * d), vh(sk * d);
      for (int64_t j = 0; j < sk; ++j)
        for (int64_t i = 0; i < d; ++i) {
          size_t at = size_t((b * ks[0] + kvh * ks[1] + j * ks[2] + i) * esize);
          kh[j * d + i] = elementAt(kp, t, at);
          vh[j * d + i] = elementAt(vp, t, at);
        }
      std::vector<double> q(d), o(d);
      ref.outputs.resize(sampled.size());
      for (int64_t r = 0; r < sq; ++r) {
        auto s = std::find(sampled.begin(), sampled.end(), r);
        bool lseRow = r % lseStride == 0 || r == sq - 1;
        if (!lseRow && s == sampled.end())
          continue;
        for (int64_t i = 0; i < d; ++i)
          q[i] = elementAt(qp, t, qOffset(r) + size_t(i * esize));
        int64_t visible =
            mlir::tile::reference::attentionVisibleKeys(r, sq, sk, causal);
        double lse;
        mlir::tile::reference::referenceAttentionRow(q.data(), kh, vh, visible,
                                                     d, scale, o.data(), lse);
        if (lseRow) {
          ref.rows.push_back(r);
          ref.lse.push_back(lse);
        }
        if (s != sampled.end())
          ref.outputs[size_t(s - sampled.begin())] = o;
      }
    };
    c.check = [=](const std::vector<std::vector<char>> &got) {
      if (reference->rows.empty())
        computeReference(*reference);
      const Reference &ref = *reference;
      std::vector<double> oGot(d);
      for (size_t i = 0; i < sampled.size(); ++i) {
        for (int64_t j = 0; j < d; ++j)
          oGot[j] = decode(t, &got[i][size_t(j * esize)]);
        std::string why =
            compareValues(oGot, ref.outputs[i], outputTolerance(t));
        if (!why.empty())
          return "output row " + std::to_string(sampled[i]) + ": " + why;
      }
      std::vector<double> lseGot;
      for (int64_t r : ref.rows) {
        float f;
        std::memcpy(&f, &got[sampled.size()][size_t(r * 4)], 4);
        lseGot.push_back(f);
      }
      std::string why = compareValues(lseGot, ref.lse, lseTolerance(t));
      return why.empty() ? why : "log-sum-exp: " + why;
    };
    return c;
  }
};
} // namespace

const OpSpec &getAttentionOp() {
  static const AttentionOp op;
  return op;
}

KernelDesc toDesc(const AttentionKernel &k) {
  KernelDesc d = getAttentionOp().makeKernel();
  d.params[Type] = int32_t(k.dtype);
  d.params[HeadBlock] = k.headBlock;
  d.params[Padded] = k.padded;
  d.params[Aligned] = k.aligned;
  d.params[BlockM] = k.blockM;
  d.params[BlockN] = k.blockN;
  d.params[Warps] = k.warps;
  d.params[Stages] = k.stages;
  d.params[Hopper] = k.hopper;
  d.params[Specialized] = k.specialized;
  d.params[PingPong] = k.pingpong;
  d.params[SplitMasked] = k.splitMasked;
  d.params[Persistent] = k.persistent;
  d.params[MinProgramsPerSM] = k.minProgramsPerSM;
  return d;
}

AttentionKernel toAttentionKernel(const KernelDesc &d) {
  AttentionKernel k;
  k.dtype = DType(d.params[Type]);
  k.headBlock = d.params[HeadBlock];
  k.padded = d.params[Padded] != 0;
  k.aligned = d.params[Aligned] != 0;
  k.blockM = d.params[BlockM];
  k.blockN = d.params[BlockN];
  k.warps = d.params[Warps];
  k.stages = d.params[Stages];
  k.hopper = d.params[Hopper] != 0;
  k.specialized = d.params[Specialized] != 0;
  k.pingpong = d.params[PingPong] != 0;
  k.splitMasked = d.params[SplitMasked] != 0;
  k.persistent = d.params[Persistent] != 0;
  k.minProgramsPerSM = d.params[MinProgramsPerSM];
  return k;
}

Problem attentionProblem(DType t, bool causal, bool aligned, int64_t batch,
                         int64_t heads, int64_t kvHeads, int64_t seqQ,
                         int64_t seqK, int64_t headDim) {
  Problem p;
  p.values[PType] = int64_t(t);
  p.values[PMask] = causal;
  p.values[PAligned] = aligned;
  p.values[PHeadDim] = headDim;
  p.values[PSeqQ] = seqQ;
  p.values[PSeqK] = seqK;
  p.values[PHeads] = heads;
  p.values[PKvHeads] = kvHeads;
  p.values[PBatch] = batch;
  return p;
}

} // namespace catalogue
} // namespace tile
