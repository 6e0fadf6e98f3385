//===- LibraryOpsTest.cpp - Every operation's kernels, interpreted --------===//
//
// For every operation of the catalogue (lib/Catalogue/Ops), its fallback
// kernels and an even sample of its configuration space are built and run
// through the interpreter on the operation's test problems that they admit
// on an sm_90 device, with the operation's own test case: inputs, poisoned
// outputs, the launch plan's grid and workspace, and the check of sampled
// outputs against float64. An operation added to the catalogue is covered
// here without a line of this file changing.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/Catalogue/KernelBuilder.h"
#include "tile/Catalogue/OpSpec.h"
#include "tile/Catalogue/Ops/Attention.h"
#include "tile/Catalogue/Ops/SoftmaxMatmul.h"

#include "mlir/IR/Verifier.h"

#include <algorithm>
#include <cstring>
#include <tuple>

using namespace tiletest;
namespace cat = ::tile::catalogue;

namespace {

/// The device the kernels are admitted for: an H100's limits.
cat::DeviceInfo sm90() {
  cat::DeviceInfo d;
  d.name = "interpreter";
  d.ccMajor = 9;
  d.ccMinor = 0;
  d.sms = 132;
  d.streamOrderedAllocation = true;
  return d;
}

/// The fallbacks and about 32 kernels evenly spaced over the space (all of
/// a small space).
std::vector<cat::KernelDesc> sampledKernels(const cat::OpSpec &op) {
  std::vector<cat::KernelDesc> out = op.getFallbackKernels();
  std::vector<cat::KernelDesc> space = op.getConfigurationSpace();
  size_t stride = std::max<size_t>(1, space.size() / 32);
  for (size_t i = 0; i < space.size(); i += stride)
    if (std::find(out.begin(), out.end(), space[i]) == out.end())
      out.push_back(space[i]);
  return out;
}

/// The interpreter's element type of a pointer parameter.
DType pointeeType(func::FuncOp kernel, unsigned arg) {
  auto ptr = dyn_cast<PointerType>(kernel.getArgumentTypes()[arg]);
  std::optional<DType> t = ptr ? dtypeOf(ptr.getPointeeType()) : std::nullopt;
  return t ? *t : DType::I8;
}

/// Runs `k` on problem `p` through the interpreter; "" if its sampled
/// outputs pass the operation's check, else what went wrong.
std::string runInterpreted(const cat::OpSpec &op, const cat::KernelDesc &k,
                           const cat::Problem &p, uint64_t seed,
                           const cat::DeviceInfo &device = sm90(),
                           std::vector<std::vector<char>> *written = nullptr) {
  KernelHarness h;
  h.module = ModuleOp::create(UnknownLoc::get(&h.context));
  cat::buildKernel(*h.module, k);
  cat::LaunchPlan plan = op.plan(k, p, device);
  if (plan.hasPrelude)
    cat::buildKernel(*h.module, plan.prelude);
  if (failed(verify(*h.module)))
    return "does not verify: " + h.diagnostics;
  func::FuncOp kernel = h.kernel(cat::getKernelName(k));
  func::FuncOp prelude =
      plan.hasPrelude ? h.kernel(cat::getKernelName(plan.prelude)) : nullptr;
  if (!kernel || (plan.hasPrelude && !prelude))
    return "no function of the kernel's name";
  // TMA descriptors are made by the runtime at launch, from the pointers
  // and sizes their parameters name; the interpreter runs these kernels'
  // twins without TMA instead.
  if (llvm::any_of(kernel.getArgumentTypes(),
                   [](Type t) { return isa<TensorMapType>(t); }))
    return "";
  cat::TestCase c = op.makeTestCase(p, seed);
  std::vector<std::vector<char>> tensors;
  for (const cat::TestCase::Tensor &t : c.tensors) {
    std::vector<char> bytes(t.bytes, (char)0xff); // outputs poisoned
    for (size_t i = 0; !t.pattern.empty() && i < t.bytes; ++i)
      bytes[i] = t.pattern[i % t.pattern.size()];
    tensors.push_back(std::move(bytes));
  }
  // Each pointer argument is a buffer of its tensor's bytes from the
  // pointer on; the workspace's pointers are buffers of its bytes (its
  // first words zeroed, the rest poisoned).
  std::vector<Buffer> buffers;
  std::vector<ArgValue> args;
  std::vector<std::pair<unsigned, size_t>> views; // tensor, byte offset
  auto addBuffer = [&](unsigned arg, const char *bytes, size_t size) {
    DType t = pointeeType(kernel, arg);
    int64_t esize = dtypeSize(t);
    Buffer b("arg" + std::to_string(arg), t, {(int64_t)size / esize});
    std::memcpy(b.bytes.data(), bytes, b.bytes.size());
    args.push_back(ArgValue::buffer((int)buffers.size()));
    buffers.push_back(std::move(b));
  };
  for (const cat::TestCase::Arg &a : c.args) {
    unsigned index = (unsigned)args.size();
    if (a.kind == cat::TestCase::Arg::Pointer) {
      const std::vector<char> &t = tensors[a.tensor];
      addBuffer(index, t.data() + a.value, t.size() - a.value);
      views.push_back({a.tensor, (size_t)a.value});
    } else {
      args.push_back(a.kind == cat::TestCase::Arg::F32
                         ? ArgValue::real(a.real)
                         : ArgValue::integer(a.value));
      views.push_back({~0u, 0});
    }
  }
  std::vector<char> workspace(plan.workspaceBytes, (char)0xff);
  std::memset(workspace.data(), 0,
              std::min(workspace.size(), plan.zeroedWords * 4));
  for (unsigned i = 0; !plan.hasPrelude && i < plan.numWorkspaceArgs; ++i) {
    size_t from = plan.workspaceArgOffsets[i];
    size_t to = i + 1 < plan.numWorkspaceArgs ? plan.workspaceArgOffsets[i + 1]
                                              : workspace.size();
    addBuffer((unsigned)args.size(), workspace.data() + from, to - from);
  }
  RunOptions options;
  options.printStream = nullptr;
  // A prelude takes the operation's arguments and the whole workspace
  // (one buffer, which the kernel's replaced arguments then view).
  std::vector<ArgValue> kernelArgs = args;
  if (plan.hasPrelude) {
    std::vector<ArgValue> preludeArgs = args;
    int workspaceBuffer = (int)buffers.size();
    DType t = pointeeType(prelude, (unsigned)c.args.size());
    Buffer b("workspace", t, {(int64_t)workspace.size() / dtypeSize(t)});
    std::memcpy(b.bytes.data(), workspace.data(), b.bytes.size());
    buffers.push_back(std::move(b));
    preludeArgs.push_back(ArgValue::buffer(workspaceBuffer));
    for (int d = 0; d < 3; ++d)
      options.grid[d] = plan.preludeGrid[d];
    if (failed(runKernel(prelude, preludeArgs, buffers, options)))
      return "the interpreter failed in the prelude: " + h.diagnostics;
    // The kernel's workspace pointers view what the prelude wrote.
    std::vector<uint8_t> written = buffers[workspaceBuffer].bytes;
    for (unsigned i = 0; i < plan.numWorkspaceArgs; ++i) {
      size_t from = plan.workspaceArgOffsets[i];
      size_t to = i + 1 < plan.numWorkspaceArgs
                      ? plan.workspaceArgOffsets[i + 1]
                      : written.size();
      DType wt = pointeeType(kernel, (unsigned)kernelArgs.size());
      Buffer view("workspace" + std::to_string(i), wt,
                  {(int64_t)(to - from) / dtypeSize(wt)});
      std::memcpy(view.bytes.data(), written.data() + from, view.bytes.size());
      kernelArgs.push_back(ArgValue::buffer((int)buffers.size()));
      buffers.push_back(std::move(view));
    }
    for (unsigned i = 0; i < plan.numReplacedArgs; ++i) {
      const cat::LaunchPlan::ReplacedArg &r = plan.replacedArgs[i];
      if (r.workspacePointer && r.value != 0)
        return "workspace pointers past the start are not interpreted";
      kernelArgs[r.index] = r.workspacePointer
                                ? ArgValue::buffer(workspaceBuffer)
                                : ArgValue::integer(r.value);
    }
  }
  for (int d = 0; d < 3; ++d)
    options.grid[d] = plan.grid[d];
  if (failed(runKernel(kernel, kernelArgs, buffers, options)))
    return "the interpreter failed: " + h.diagnostics;
  // Outputs back into their tensors, then the samples.
  for (size_t i = 0; i < views.size(); ++i) {
    auto [tensor, offset] = views[i];
    if (tensor == ~0u || !c.tensors[tensor].pattern.empty())
      continue;
    const Buffer &b = buffers[args[i].bufferIndex];
    std::memcpy(tensors[tensor].data() + offset, b.bytes.data(),
                b.bytes.size());
  }
  if (written)
    *written = tensors;
  std::vector<std::vector<char>> samples;
  for (const cat::TestCase::Sample &s : c.samples)
    samples.emplace_back(tensors[s.tensor].begin() + s.offset,
                         tensors[s.tensor].begin() + s.offset + s.bytes);
  return c.check(samples);
}

TEST(LibraryOpsInterpreted, SampledKernelsOnTestProblems) {
  uint64_t seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  for (const cat::OpSpec *op : cat::getOps()) {
    int runs = 0;
    for (const cat::KernelDesc &k : sampledKernels(*op)) {
      std::string name = cat::getKernelName(k);
      int admitted = 0;
      for (const cat::Problem &p : op->getTestProblems()) {
        if (!cat::runsOn(cat::getTarget(k), 9, 0) || !op->admits(k, p, sm90()))
          continue;
        // Problems small enough to interpret quickly.
        cat::TestCase c = op->makeTestCase(p, seed);
        size_t bytes = 0;
        for (const cat::TestCase::Tensor &t : c.tensors)
          bytes += t.bytes;
        if (bytes > (size_t(1) << 20))
          continue;
        ++admitted;
        EXPECT_EQ(runInterpreted(*op, k, p, seed++), "")
            << name << " at " << op->getName() << " " << op->describe(p);
      }
      EXPECT_GT(admitted, 0) << name << " admits no test problem";
      runs += admitted;
    }
    EXPECT_GT(runs, 0) << op->getName();
  }
}

// The softmax-matmul kernels whose warpgroups take turns issuing their
// products (ping-pong), on the test problems small enough to interpret.
TEST(LibraryOpsInterpreted, SoftmaxMatmulPingPongKernels) {
  uint64_t seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  const cat::OpSpec &op = cat::getSoftmaxMatmulOp();
  int runs = 0;
  for (const cat::KernelDesc &k : op.getConfigurationSpace()) {
    if (!cat::toSoftmaxMatmulKernel(k).pingpong)
      continue;
    for (const cat::Problem &p : op.getTestProblems()) {
      if (!op.admits(k, p, sm90()))
        continue;
      size_t bytes = 0;
      for (const cat::TestCase::Tensor &t : op.makeTestCase(p, seed).tensors)
        bytes += t.bytes;
      if (bytes > (size_t(1) << 20))
        continue;
      ++runs;
      EXPECT_EQ(runInterpreted(op, k, p, seed++), "")
          << cat::getKernelName(k) << " at " << op.describe(p);
    }
  }
  EXPECT_GE(runs, 8);
}

// The tf32 and tf32x3 kernels that read V transposed, each after its
// launch's prelude (V^T rounded to tf32 in the workspace, and for tf32x3
// the remainders): d2 within one step and over several, partial, and d3
// within one column block and over several; the persistent ones also on
// a device of 2 SMs, where each program runs every tile of its batch
// entry.
TEST(LibraryOpsInterpreted, TransposedVKernelsAfterTheirPrelude) {
  uint64_t seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  const cat::OpSpec &op = cat::getSoftmaxMatmulOp();
  cat::DeviceInfo few = sm90();
  few.sms = 2;
  int runs = 0, persistentRuns = 0;
  for (const cat::KernelDesc &k : op.getConfigurationSpace()) {
    cat::SoftmaxMatmulKernel kernel = cat::toSoftmaxMatmulKernel(k);
    if (!kernel.vTransposed)
      continue;
    for (const cat::Problem &p : op.getTestProblems()) {
      if (!op.admits(k, p, sm90()))
        continue;
      ++runs;
      EXPECT_EQ(runInterpreted(op, k, p, seed++), "")
          << cat::getKernelName(k) << " at " << op.describe(p);
      if (!kernel.persistent)
        continue;
      ++persistentRuns;
      EXPECT_EQ(runInterpreted(op, k, p, seed++, few), "")
          << cat::getKernelName(k) << " at " << op.describe(p) << " on 2 SMs";
    }
  }
  EXPECT_GE(runs, 20);
  EXPECT_GE(persistentRuns, 8);
}

// Whether bytes holds a word of `size` bytes of 0xff, the poison of
// outputs no program wrote (a NaN; attention writes none).
bool holdsPoison(const std::vector<char> &bytes, size_t size) {
  for (size_t i = 0; i + size <= bytes.size(); i += size)
    if (std::all_of(bytes.begin() + i, bytes.begin() + i + size,
                    [](char c) { return (uint8_t)c == 0xff; }))
      return true;
  return false;
}

// Persistent attention kernels on a device of few SMs: each program runs
// several tiles (query blocks of either head, the last one partial), the
// causal ones seeing different numbers of key blocks, so that the loop
// over a program's tiles carries nothing from one tile to the next. Every
// output row and log-sum-exp is written, in either causal order: mirrored
// pairs of query blocks (2 and 4 programs over 3 query blocks; 3 heads'
// 9 tiles end in a lone tile) or the odd heads' blocks reversed (3
// programs).
TEST(LibraryOpsInterpreted, PersistentAttentionRunsEveryQueryBlock) {
  uint64_t seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  cat::DeviceInfo few = sm90();
  for (auto [sms, heads] :
       {std::pair<int, int64_t>{2, 2}, {2, 3}, {3, 4}, {4, 2}}) {
    few.sms = sms;
    for (int32_t d : {64, 128})
      for (bool pingpong : {false, true})
        for (bool causal : {false, true}) {
          cat::AttentionKernel k;
          k.dtype = cat::DType::F16;
          k.headBlock = d;
          k.aligned = true;
          k.blockM = 128;
          // The 128-wide head_dim 128 kernels have no room for a last
          // value buffer of their own; the others copy the last values.
          k.blockN = d == 128 && pingpong ? 128 : 64;
          k.warps = 8;
          k.stages = 2;
          k.hopper = k.specialized = k.persistent = true;
          k.pingpong = pingpong;
          k.splitMasked = !pingpong;
          cat::KernelDesc desc = cat::toDesc(k);
          ASSERT_EQ(cat::whyInvalid(desc), "");
          EXPECT_EQ(cat::copiesLastValues(k), k.blockN == 64);
          // Heads of 300 query rows sharing their keys and values: 3
          // blocks each (the last of 44 rows), 6, 9 or 12 tiles for 2 to 4
          // programs.
          cat::Problem p = cat::attentionProblem(cat::DType::F16, causal, true,
                                                 1, heads, 1, 300, 200, d);
          EXPECT_EQ(cat::getAttentionOp().plan(desc, p, few).grid[0],
                    (unsigned)sms);
          std::vector<std::vector<char>> written;
          EXPECT_EQ(runInterpreted(cat::getAttentionOp(), desc, p, seed++, few,
                                   &written),
                    "")
              << cat::getKernelName(desc) << " on " << sms << " SMs, causal "
              << causal;
          ASSERT_EQ(written.size(), 5u); // o, q, k, v, lse
          EXPECT_FALSE(holdsPoison(written[0], 2))
              << "an output row not written: " << cat::getKernelName(desc)
              << " on " << sms << " SMs, " << heads << " heads, causal "
              << causal;
          EXPECT_FALSE(holdsPoison(written[4], 4))
              << "a log-sum-exp not written: " << cat::getKernelName(desc)
              << " on " << sms << " SMs, " << heads << " heads, causal "
              << causal;
        }
  }
}

// A specialized f16 head_dim 64 attention kernel over 2 stages.
cat::AttentionKernel specializedHead64(int32_t blockM, int32_t blockN,
                                       int32_t warps) {
  cat::AttentionKernel k;
  k.dtype = cat::DType::F16;
  k.headBlock = 64;
  k.aligned = true;
  k.blockM = blockM;
  k.blockN = blockN;
  k.warps = warps;
  k.stages = 2;
  k.hopper = k.specialized = true;
  return k;
}

// Specialized attention kernels of one warpgroup (64 query rows) whose
// programs share an SM, two or three, persistent and not, causal and not.
// A persistent grid launches as many programs per SM, each running its
// share of the tiles.
TEST(LibraryOpsInterpreted, AttentionProgramsSharingAnSM) {
  uint64_t seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  cat::DeviceInfo few = sm90();
  few.sms = 2;
  for (auto [blockM, warps, programs, persistent] :
       {std::tuple<int32_t, int32_t, int32_t, bool>{64, 4, 2, false},
        {64, 4, 3, false},
        {64, 4, 3, true}})
    for (bool causal : {false, true}) {
      cat::AttentionKernel k = specializedHead64(blockM, 64, warps);
      k.splitMasked = causal;
      k.persistent = persistent;
      k.minProgramsPerSM = programs;
      cat::KernelDesc desc = cat::toDesc(k);
      ASSERT_EQ(cat::whyInvalid(desc), "");
      // 2 heads of 300 query rows sharing their keys and values: 10 tiles
      // of 64 rows for 2 x 3 programs.
      cat::Problem p = cat::attentionProblem(cat::DType::F16, causal, true, 1,
                                             2, 1, 300, 200, 64);
      if (persistent)
        EXPECT_EQ(cat::getAttentionOp().plan(desc, p, few).grid[0], 6u);
      EXPECT_EQ(runInterpreted(cat::getAttentionOp(), desc, p, seed++, few), "")
          << cat::getKernelName(desc) << ", causal " << causal;
    }
}

// Specialized attention kernels of four warpgroups (256 query rows, 16
// warps and the producer) against float64: 64- and 32-key blocks, the
// masked steps behind a branch or in a loop of their own, persistent,
// causal and not, on a ragged problem whose query rows end inside the
// block.
TEST(LibraryOpsInterpreted, AttentionFourWarpgroups) {
  uint64_t seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  cat::DeviceInfo few = sm90();
  few.sms = 2;
  for (auto [blockN, split, persistent] :
       {std::tuple<int32_t, bool, bool>{64, false, false},
        {64, true, false},
        {32, true, true}})
    for (bool causal : {false, true}) {
      cat::AttentionKernel k = specializedHead64(256, blockN, 16);
      k.splitMasked = split;
      k.persistent = persistent;
      cat::KernelDesc desc = cat::toDesc(k);
      ASSERT_EQ(cat::whyInvalid(desc), "");
      // 2 heads of 300 query rows sharing their keys and values.
      cat::Problem p = cat::attentionProblem(cat::DType::F16, causal, true, 1,
                                             2, 1, 300, 200, 64);
      EXPECT_EQ(runInterpreted(cat::getAttentionOp(), desc, p, seed++, few), "")
          << cat::getKernelName(desc) << ", causal " << causal;
    }
}

} // namespace
