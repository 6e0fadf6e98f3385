//===- RuntimeTest.cpp - The Tile runtime ---------------------------------===//
//
// Tests without a GPU: status names, the uninitialized state, tile_init's
// failure on machines without a driver or device, the metadata parser and
// the launch-argument checks. Tests with a GPU (fixture GpuTest) skip
// themselves, with tile_last_error()'s message, when tile_init fails.
//
//===----------------------------------------------------------------------===//

#include "tile_runtime.h"
#include "tile_runtime.hpp"

#include "Dispatch.h"
#include "EmbeddedKernels.h"
#include "Metadata.h"
#include "tile/Catalogue/Ops/Softmax.h"
#include "tile/Catalogue/Ops/SoftmaxMatmul.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <thread>
#include <vector>

using tile::internal::findSpecialization;
using tile::internal::KernelMeta;
using tile::internal::parseMetadata;
using tile::internal::resolveTensorMaps;
using tile::internal::validateLaunch;

namespace {

bool contains(const std::string &haystack, const std::string &needle) {
  return haystack.find(needle) != std::string::npos;
}

#define EXPECT_CONTAINS(haystack, needle)                                      \
  EXPECT_PRED2(contains, std::string(haystack), std::string(needle))

//===----------------------------------------------------------------------===//
// Before tile_init. These come first: gtest runs a file's tests in order, and
// once a test has initialized the runtime they have nothing left to check.
//===----------------------------------------------------------------------===//

TEST(RuntimeBeforeInit, EveryCallReportsNotInitialized) {
  if (tile::internal::runtimeInitialized())
    GTEST_SKIP() << "the runtime was initialized by an earlier test";
  uint64_t p = 0;
  char buf[16];
  int a = 0, b = 0, c = 0;
  tile_module module = nullptr;
  tile_kernel kernel = nullptr;
  tile_kernel_info info;
  uint32_t grid[3] = {1, 1, 1};
  float ms = 0;
  struct Case {
    const char *function;
    tile_status status;
  } cases[] = {
      {"tile_device_info", tile_device_info(buf, sizeof(buf), &a, &b, &c)},
      {"tile_malloc", tile_malloc(&p, 16)},
      // Not initialized wins over the invalid arguments.
      {"tile_malloc", tile_malloc(nullptr, 0)},
      {"tile_free", tile_free(0x1000)},
      {"tile_memcpy_htod", tile_memcpy_htod(0x1000, buf, 4)},
      {"tile_memcpy_dtoh", tile_memcpy_dtoh(buf, 0x1000, 4)},
      {"tile_memset_d8", tile_memset_d8(0x1000, 0, 4)},
      {"tile_synchronize", tile_synchronize()},
      {"tile_module_load", tile_module_load("x", 1, "", &module)},
      {"tile_module_unload", tile_module_unload(nullptr)},
      {"tile_module_get_kernel", tile_module_get_kernel(nullptr, "k", &kernel)},
      {"tile_kernel_get_info", tile_kernel_get_info(nullptr, &info)},
      {"tile_kernel_launch",
       tile_kernel_launch(nullptr, grid, nullptr, 0, nullptr)},
      {"tile_time", tile_time(nullptr, nullptr, nullptr, 0, 1, &ms)},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.function);
    EXPECT_EQ(c.status, TILE_ERROR_NOT_INITIALIZED);
  }
  // The message names the last call.
  EXPECT_CONTAINS(tile_last_error(), "tile_time");
  EXPECT_CONTAINS(tile_last_error(), "tile_init");
  EXPECT_EQ(p, 0u);
}

TEST(RuntimeBeforeInit, CppWrapperReportsNotInitialized) {
  if (tile::internal::runtimeInitialized())
    GTEST_SKIP() << "the runtime was initialized by an earlier test";
  tile::DeviceBuffer buffer;
  tile::Status s = tile::DeviceBuffer::allocate(64, buffer);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), TILE_ERROR_NOT_INITIALIZED);
  EXPECT_CONTAINS(s.message(), "tile_malloc");
  EXPECT_CONTAINS(s.toString(), "TILE_ERROR_NOT_INITIALIZED: tile_malloc");
  EXPECT_TRUE(buffer.empty());
  tile::Module module;
  s = tile::Module::load(std::string("ptx"), std::string("meta"), module);
  EXPECT_EQ(s.code(), TILE_ERROR_NOT_INITIALIZED);
  EXPECT_FALSE(module.loaded());
}

//===----------------------------------------------------------------------===//
// Status names, errors, tile_init
//===----------------------------------------------------------------------===//

TEST(RuntimeStatus, Names) {
  EXPECT_STREQ(tile_status_name(TILE_SUCCESS), "TILE_SUCCESS");
  EXPECT_STREQ(tile_status_name(TILE_ERROR_NO_DRIVER), "TILE_ERROR_NO_DRIVER");
  EXPECT_STREQ(tile_status_name(TILE_ERROR_NO_DEVICE), "TILE_ERROR_NO_DEVICE");
  EXPECT_STREQ(tile_status_name(TILE_ERROR_CUDA), "TILE_ERROR_CUDA");
  EXPECT_STREQ(tile_status_name(TILE_ERROR_INVALID_ARGUMENT),
               "TILE_ERROR_INVALID_ARGUMENT");
  EXPECT_STREQ(tile_status_name(TILE_ERROR_OUT_OF_MEMORY),
               "TILE_ERROR_OUT_OF_MEMORY");
  EXPECT_STREQ(tile_status_name(TILE_ERROR_OUT_OF_RESOURCES),
               "TILE_ERROR_OUT_OF_RESOURCES");
  EXPECT_STREQ(tile_status_name(TILE_ERROR_NOT_FOUND), "TILE_ERROR_NOT_FOUND");
  EXPECT_STREQ(tile_status_name(TILE_ERROR_UNSUPPORTED),
               "TILE_ERROR_UNSUPPORTED");
  EXPECT_STREQ(tile_status_name(TILE_ERROR_NOT_INITIALIZED),
               "TILE_ERROR_NOT_INITIALIZED");
  EXPECT_STREQ(tile_status_name(static_cast<tile_status>(42)),
               "TILE_ERROR_UNKNOWN_STATUS");
}

TEST(RuntimeStatus, CppStatus) {
  tile::Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.message(), "");
  EXPECT_EQ(ok.toString(), "TILE_SUCCESS");
  EXPECT_TRUE(tile::check(TILE_SUCCESS).ok());
}

TEST(RuntimeStatus, ErrorsArePerThread) {
  // Some call that fails whether or not the runtime is initialized.
  tile_kernel_info info;
  ASSERT_NE(tile_kernel_get_info(nullptr, &info), TILE_SUCCESS);
  std::string mine = tile_last_error();
  ASSERT_FALSE(mine.empty());

  std::string before, after;
  tile_status status = TILE_SUCCESS;
  std::thread other([&] {
    before = tile_last_error();
    status = tile_malloc(nullptr, 0);
    after = tile_last_error();
  });
  other.join();
  EXPECT_EQ(before, "");
  EXPECT_NE(status, TILE_SUCCESS);
  EXPECT_CONTAINS(after, "tile_malloc");
  EXPECT_EQ(tile_last_error(), mine);
}

TEST(RuntimeInit, SucceedsOrSaysWhy) {
  tile_status status = tile_init(0);
  if (status == TILE_SUCCESS) {
    // Idempotent; another device is refused.
    EXPECT_EQ(tile_init(0), TILE_SUCCESS);
    EXPECT_EQ(tile_init(1), TILE_ERROR_UNSUPPORTED);
    EXPECT_CONTAINS(tile_last_error(), "already initialized");
    return;
  }
  EXPECT_TRUE(status == TILE_ERROR_NO_DRIVER || status == TILE_ERROR_NO_DEVICE)
      << tile_status_name(status) << ": " << tile_last_error();
  EXPECT_STRNE(tile_last_error(), "");
  if (status == TILE_ERROR_NO_DRIVER) {
    EXPECT_CONTAINS(tile_last_error(), "libcuda.so.1");
  }
  // A failed init leaves the runtime uninitialized.
  uint64_t p = 0;
  EXPECT_EQ(tile_malloc(&p, 4), TILE_ERROR_NOT_INITIALIZED);
  // And trying again fails the same way.
  EXPECT_EQ(tile_init(0), status);
}

//===----------------------------------------------------------------------===//
// Metadata
//===----------------------------------------------------------------------===//

const char *kSoftmaxMeta = R"(tile-kernel v1
name softmax
num_warps 4
shared_bytes 1024
arg ptr f32 16
arg i32 16
arg i32 1
arg f32
end
)";

// The embedded kernels are listed without a GPU: every index below the
// count has a distinct name and a valid description; past the end there
// is none.
TEST(RuntimeLibraryKernels, ListsEveryEmbeddedKernel) {
  size_t count = tile_library_kernel_count();
  ASSERT_EQ(count, tile::embedded::kNumKernels);
  ASSERT_GT(count, 0u);
  std::set<std::string> names;
  for (size_t i = 0; i < count; ++i) {
    const char *name = tile_library_kernel_name(i);
    ASSERT_NE(name, nullptr) << i;
    EXPECT_STREQ(name, tile::embedded::kKernels[i].name);
    // Names are unique: TILE_*_VARIANT finds a kernel by its name.
    EXPECT_TRUE(names.insert(name).second) << "duplicate " << name;
    EXPECT_EQ(tile::catalogue::whyInvalid(tile::embedded::kKernels[i].desc), "")
        << name;
  }
  EXPECT_EQ(tile_library_kernel_name(count), nullptr);
  EXPECT_EQ(tile_library_kernel_name((size_t)-1), nullptr);
}

// Every table's ranked kernels are embedded kernels of the point's
// operation and types, and the dispatcher's fallbacks are embedded: on any
// device, every problem has a kernel.
TEST(RuntimeLibraryKernels, TablesRankEmbeddedKernels) {
  using namespace tile::catalogue;
  for (unsigned t = 0; t < tile::embedded::kNumTables; ++t) {
    const TuningTable &table = tile::embedded::kTables[t];
    for (unsigned i = 0; i < table.numPoints; ++i) {
      const TablePoint &p = table.points[i];
      const OpSpec *op = findOp(p.op);
      ASSERT_NE(op, nullptr) << p.op;
      ASSERT_GE(p.ranked[0], 0) << table.device.name << " " << p.op << " " << i;
      for (int16_t k : p.ranked) {
        if (k < 0)
          break;
        ASSERT_LT((unsigned)k, tile::embedded::kNumKernels);
        const KernelDesc &d = tile::embedded::kKernels[k].desc;
        EXPECT_TRUE(op->owns(d)) << tile::embedded::kKernels[k].name;
        // Of the point's types (keys that are kernel parameters; the
        // others, the attention's mask, only keep points apart).
        const std::vector<Field> &fields = op->getProblemFields();
        for (size_t f = 0; f < fields.size(); ++f)
          if (fields[f].key && op->findParam(fields[f].name) >= 0)
            EXPECT_EQ(op->get(d, fields[f].name), p.problem.values[f])
                << tile::embedded::kKernels[k].name;
      }
    }
  }
  // Without a table and on any GPU from sm_80, each dtype and precision
  // has a kernel for any shape.
  tile::dispatch::Library none{tile::embedded::kKernels,
                               tile::embedded::kNumKernels, nullptr, 0};
  tile::dispatch::DeviceInfo sm80;
  sm80.name = "any";
  sm80.ccMajor = 8;
  sm80.sms = 108;
  for (DType t : {DType::F32, DType::F16, DType::BF16}) {
    EXPECT_GE(tile::dispatch::choose(
                  none, sm80, getSoftmaxOp(),
                  softmaxProblem(t, RowAlignment::Element, 3, 100001)),
              0);
    for (Precision p : {Precision::IEEE, Precision::TF32, Precision::TF32x3})
      if (t == DType::F32 || p == Precision::IEEE)
        EXPECT_GE(tile::dispatch::choose(
                      none, sm80, getSoftmaxMatmulOp(),
                      softmaxMatmulProblem(t, p, 3, 1001, 3001, 77, false)),
                  0);
  }
}

// The choice functions check their arguments before they ask the device.
TEST(RuntimeLibraryKernels, VariantArguments) {
  char name[128];
  EXPECT_EQ(tile_softmax_matmul_variant(TILE_F32, TILE_PRECISION_TF32, 1, 0, 64,
                                        512, name, sizeof(name)),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_softmax_matmul_variant(TILE_F32, TILE_PRECISION_TF32, 0, 64,
                                        64, 512, name, sizeof(name)),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_softmax_matmul_variant(TILE_F32, (tile_precision)7, 1, 64, 64,
                                        64, name, sizeof(name)),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_softmax_matmul_variant(TILE_F32, TILE_PRECISION_TF32, 1, 64,
                                        64, 64, nullptr, 0),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_softmax_variant(TILE_F32, TILE_F32, 1, 64, 1, nullptr, 0),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_attention_variant(TILE_F16, 0, 16, 16, 512, 512, 128, 0, name,
                                   sizeof(name)),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_attention_variant(TILE_F16, 2, 0, 1, 512, 512, 128, 0, name,
                                   sizeof(name)),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_attention_variant(TILE_F16, 2, 16, 16, 512, 512, 300, 1, name,
                                   sizeof(name)),
            TILE_ERROR_INVALID_ARGUMENT);
  for (int64_t kvHeads : {0, 5, 32})
    EXPECT_EQ(tile_attention_variant(TILE_F16, 2, 16, kvHeads, 512, 512, 128, 1,
                                     name, sizeof(name)),
              TILE_ERROR_INVALID_ARGUMENT)
        << kvHeads << " key/value heads";
  EXPECT_EQ(
      tile_attention_variant(TILE_F16, 2, 16, 16, 512, 512, 128, 1, nullptr, 0),
      TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(
      tile_softmax_variant(TILE_F32, TILE_F16, 1, 64, 1, name, sizeof(name)),
      TILE_ERROR_UNSUPPORTED);
  EXPECT_EQ(
      tile_softmax_variant(TILE_F32, TILE_F32, 1, 0, 1, name, sizeof(name)),
      TILE_ERROR_UNSUPPORTED);
  EXPECT_EQ(
      tile_softmax_variant(TILE_F32, TILE_F32, 0, 64, 1, name, sizeof(name)),
      TILE_ERROR_UNSUPPORTED);
}

TEST(RuntimeMetadata, ParsesABlock) {
  std::vector<KernelMeta> kernels;
  std::string error;
  ASSERT_TRUE(parseMetadata(kSoftmaxMeta, kernels, error)) << error;
  ASSERT_EQ(kernels.size(), 1u);
  const KernelMeta &k = kernels[0];
  EXPECT_EQ(k.name, "softmax");
  EXPECT_EQ(k.numWarps, 4);
  EXPECT_EQ(k.sharedBytes, 1024);
  EXPECT_EQ(k.line, 1);
  ASSERT_EQ(k.args.size(), 4u);
  EXPECT_EQ(k.args[0].kind, TILE_ARG_PTR);
  EXPECT_EQ(k.args[0].dtype, "f32");
  EXPECT_EQ(k.args[0].constraint, 16);
  EXPECT_EQ(k.args[1].kind, TILE_ARG_I32);
  EXPECT_EQ(k.args[1].constraint, 16);
  EXPECT_EQ(k.args[2].kind, TILE_ARG_I32);
  EXPECT_EQ(k.args[2].constraint, 1);
  EXPECT_EQ(k.args[3].kind, TILE_ARG_F32);
  EXPECT_EQ(k.args[3].constraint, 0);
  EXPECT_EQ(k.clusterSize, 1); // no cluster_size line
}

TEST(RuntimeMetadata, ParsesAClusterSize) {
  std::vector<KernelMeta> kernels;
  std::string error;
  ASSERT_TRUE(parseMetadata("tile-kernel v1\nname k\nnum_warps 4\n"
                            "cluster_size 8\nend\n",
                            kernels, error))
      << error;
  EXPECT_EQ(kernels[0].clusterSize, 8);
}

// Four specializations of one kernel, as tile-compile --specialize
// BLOCK=512,1024 --specialize EVEN=true,false writes them.
static std::string specializationsMeta() {
  std::string text;
  for (const char *block : {"512", "1024"})
    for (const char *even : {"true", "false"})
      text += std::string("tile-kernel v1\nname softmax__BLOCK_") + block +
              "__EVEN_" + even + "\nbase softmax\nparam BLOCK " + block +
              "\nparam EVEN " + even +
              "\nparam NUM_WARPS 4\nnum_warps 4\n"
              "end\n";
  return text;
}

TEST(RuntimeMetadata, SelectsASpecialization) {
  std::vector<KernelMeta> kernels;
  std::string error;
  ASSERT_TRUE(parseMetadata(specializationsMeta().c_str(), kernels, error))
      << error;
  ASSERT_EQ(kernels.size(), 4u);
  EXPECT_EQ(kernels[0].base, "softmax");
  ASSERT_EQ(kernels[0].params.size(), 3u);
  EXPECT_EQ(kernels[0].params[1].first, "EVEN");

  const KernelMeta *k =
      findSpecialization(kernels, "softmax", "BLOCK=1024, EVEN=false", error);
  ASSERT_NE(k, nullptr) << error;
  EXPECT_EQ(k->name, "softmax__BLOCK_1024__EVEN_false");
  // A parameter every specialization shares may be given too.
  k = findSpecialization(kernels, "softmax", "NUM_WARPS=4,EVEN=true,BLOCK=512",
                         error);
  ASSERT_NE(k, nullptr) << error;
  EXPECT_EQ(k->name, "softmax__BLOCK_512__EVEN_true");
}

TEST(RuntimeMetadata, RejectsUnclearSpecializations) {
  std::vector<KernelMeta> kernels;
  std::string error;
  ASSERT_TRUE(parseMetadata(specializationsMeta().c_str(), kernels, error));
  EXPECT_EQ(findSpecialization(kernels, "softmax", "BLOCK=1024", error),
            nullptr);
  EXPECT_TRUE(contains(error, "matches 2 specializations")) << error;
  EXPECT_EQ(
      findSpecialization(kernels, "softmax", "BLOCK=2048,EVEN=true", error),
      nullptr);
  EXPECT_TRUE(contains(error, "no specialization of kernel 'softmax' has "
                              "BLOCK=2048,EVEN=true; compiled:\n  BLOCK=512 "
                              "EVEN=true NUM_WARPS=4"))
      << error;
  EXPECT_EQ(findSpecialization(kernels, "softmax", "WARPS=4", error), nullptr);
  EXPECT_TRUE(contains(error, "'WARPS' is not a parameter")) << error;
  EXPECT_EQ(findSpecialization(kernels, "softmax", "BLOCK", error), nullptr);
  EXPECT_TRUE(contains(error, "'BLOCK' is not NAME=VALUE")) << error;
  EXPECT_EQ(findSpecialization(kernels, "layernorm", "BLOCK=512", error),
            nullptr);
  EXPECT_TRUE(contains(error, "no specializations of kernel 'layernorm'"))
      << error;
  EXPECT_FALSE(parseMetadata("tile-kernel v1\nname k\nparam A 1\nparam A 2\n"
                             "num_warps 4\nend\n",
                             kernels, error));
  EXPECT_TRUE(contains(error, "duplicate 'param A'")) << error;
}

TEST(RuntimeMetadata, ParsesSeveralBlocksCommentsAndCRLF) {
  const char *text = "# written by tile-compile\r\n"
                     "\r\n"
                     "tile-kernel v1\r\n"
                     "  name a\r\n"
                     "num_warps 1\r\n"
                     "  # a comment inside a block\r\n"
                     "arg ptr bf16 0\r\n"
                     "arg i64 8\r\n"
                     "arg f64\r\n"
                     "arg i1\r\n"
                     "end\r\n"
                     "tile-kernel\tv1\n"
                     "name b\n"
                     "num_warps 32\n"
                     "shared_bytes 0\n"
                     "waits_for_prior_grid\n"
                     "end"; // no final newline
  std::vector<KernelMeta> kernels;
  std::string error;
  ASSERT_TRUE(parseMetadata(text, kernels, error)) << error;
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "a");
  EXPECT_EQ(kernels[0].numWarps, 1);
  EXPECT_EQ(kernels[0].sharedBytes, 0);
  ASSERT_EQ(kernels[0].args.size(), 4u);
  EXPECT_EQ(kernels[0].args[0].dtype, "bf16");
  EXPECT_EQ(kernels[0].args[0].constraint, 0);
  EXPECT_EQ(kernels[0].args[1].kind, TILE_ARG_I64);
  EXPECT_EQ(kernels[0].args[1].constraint, 8);
  EXPECT_EQ(kernels[0].args[2].kind, TILE_ARG_F64);
  EXPECT_EQ(kernels[0].args[3].kind, TILE_ARG_I1);
  EXPECT_FALSE(kernels[0].waitsForPriorGrid);
  EXPECT_EQ(kernels[1].name, "b");
  EXPECT_TRUE(kernels[1].waitsForPriorGrid);
  EXPECT_EQ(kernels[1].numWarps, 32);
  EXPECT_EQ(kernels[1].line, 12);
  EXPECT_TRUE(kernels[1].args.empty());
}

TEST(RuntimeMetadata, AcceptsEveryDType) {
  for (const char *dtype :
       {"f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64"}) {
    std::string text = std::string("tile-kernel v1\nname k\nnum_warps 2\n"
                                   "arg ptr ") +
                       dtype + " 4\nend\n";
    std::vector<KernelMeta> kernels;
    std::string error;
    EXPECT_TRUE(parseMetadata(text.c_str(), kernels, error))
        << dtype << ": " << error;
  }
}

struct BadMeta {
  const char *text;
  const char *expected; // a substring of the message, with its line
};

TEST(RuntimeMetadata, RejectsMalformedText) {
  const BadMeta cases[] = {
      {"name k\n", "line 1: expected 'tile-kernel v1', got 'name'"},
      {"tile-kernel v2\n", "line 1: unsupported metadata version 'v2'"},
      {"tile-kernel\n", "line 1: expected 'tile-kernel v1'"},
      {"tile-kernel v1\nname k\nnum_warps 4\n", "line 3: missing 'end'"},
      {"tile-kernel v1\nname k\nnum_warps 4\ntile-kernel v1\n",
       "line 4: 'tile-kernel' inside the block started on line 1 (kernel 'k')"},
      {"tile-kernel v1\nnum_warps 4\nend\n", "line 3: the block started on "
                                             "line 1 has no 'name'"},
      {"tile-kernel v1\nname k\nend\n", "line 3: the block of kernel 'k' has "
                                        "no 'num_warps'"},
      {"tile-kernel v1\nname k\nname j\n", "line 3: duplicate 'name'"},
      {"tile-kernel v1\nname\n", "line 2: expected 'name <kernel>'"},
      {"tile-kernel v1\nname k\nnum_warps 0\n",
       "line 3: num_warps 0 is out of range [1, 32]"},
      {"tile-kernel v1\nname k\nnum_warps 33\n", "line 3: num_warps 33"},
      {"tile-kernel v1\nname k\nnum_warps four\n",
       "line 3: expected an integer for num_warps, got 'four'"},
      {"tile-kernel v1\nname k\nnum_warps 4x\n",
       "line 3: expected an integer for num_warps, got '4x'"},
      {"tile-kernel v1\nname k\nnum_warps 4\nshared_bytes -1\n",
       "line 4: shared_bytes -1 is out of range"},
      {"tile-kernel v1\nname k\nnum_warps 4\nshared_bytes "
       "99999999999999999999\n",
       "line 4: expected an integer for shared_bytes"},
      {"tile-kernel v1\nname k\nnum_warps 4\nshared_bytes 4294967296\n",
       "line 4: shared_bytes 4294967296 is out of range"},
      {"tile-kernel v1\nname k\nnum_warps 4\ncluster_size 0\n",
       "line 4: cluster_size 0 is out of range [1, 16]"},
      {"tile-kernel v1\nname k\nnum_warps 4\ncluster_size 32\n",
       "line 4: cluster_size 32 is out of range [1, 16]"},
      {"tile-kernel v1\nname k\nnum_warps 4\ncluster_size 2\n"
       "cluster_size 2\n",
       "line 5: duplicate 'cluster_size'"},
      {"tile-kernel v1\nname k\nnum_warps 4\nwaits_for_prior_grid 1\n",
       "line 4: expected 'waits_for_prior_grid', got 2 tokens"},
      {"tile-kernel v1\nname k\nnum_warps 4\nwaits_for_prior_grid\n"
       "waits_for_prior_grid\n",
       "line 5: duplicate 'waits_for_prior_grid'"},
      {"tile-kernel v1\nname k\nnum_warps 4\narg ptr f8 16\n",
       "line 4: unknown dtype 'f8'"},
      {"tile-kernel v1\nname k\nnum_warps 4\narg ptr f32 12\n",
       "line 4: alignment 12 is not 0 or a power of two"},
      {"tile-kernel v1\nname k\nnum_warps 4\narg ptr f32\n",
       "line 4: expected 'arg ptr <dtype> <alignment>'"},
      {"tile-kernel v1\nname k\nnum_warps 4\narg ptr f32 16 4\n",
       "line 4: expected 'arg ptr <dtype> <alignment>'"},
      {"tile-kernel v1\nname k\nnum_warps 4\narg i32\n",
       "line 4: expected 'arg i32 <divisibility>'"},
      {"tile-kernel v1\nname k\nnum_warps 4\narg i64 -8\n",
       "line 4: divisibility -8 is out of range"},
      {"tile-kernel v1\nname k\nnum_warps 4\narg i32 4294967296\n",
       "line 4: divisibility 4294967296 is out of range"},
      {"tile-kernel v1\nname k\nnum_warps 4\narg f32 16\n",
       "line 4: expected nothing after 'arg f32', got '16'"},
      {"tile-kernel v1\nname k\nnum_warps 4\narg u32 1\n",
       "line 4: unknown argument kind 'u32'"},
      {"tile-kernel v1\nname k\nnum_warps 4\narg\n",
       "line 4: expected an argument kind after 'arg'"},
      {"tile-kernel v1\nname k\nnum_warps 4\nregisters 32\n",
       "line 4: unknown key 'registers'"},
      {"tile-kernel v1\nname k\nnum_warps 4\nend now\n",
       "line 4: expected 'end'"},
      {"tile-kernel v1\nname k\nnum_warps 4\nend\n"
       "tile-kernel v1\nname k\nnum_warps 2\nend\n",
       "line 8: kernel 'k' is already declared on line 1"},
      {"tile-kernel v1\nname k\nnum_warps 4\nend\nend\n",
       "line 5: expected 'tile-kernel v1', got 'end'"},
  };
  for (const BadMeta &c : cases) {
    std::vector<KernelMeta> kernels;
    std::string error;
    EXPECT_FALSE(parseMetadata(c.text, kernels, error)) << c.text;
    EXPECT_CONTAINS(error, std::string("metadata ") + c.expected) << c.text;
    EXPECT_TRUE(kernels.empty());
  }
}

TEST(RuntimeMetadata, RejectsEmptyAndNull) {
  std::vector<KernelMeta> kernels;
  std::string error;
  EXPECT_FALSE(parseMetadata("", kernels, error));
  EXPECT_CONTAINS(error, "no kernels");
  EXPECT_FALSE(parseMetadata("# only a comment\n\n", kernels, error));
  EXPECT_CONTAINS(error, "no kernels");
  EXPECT_FALSE(parseMetadata(nullptr, kernels, error));
  EXPECT_CONTAINS(error, "null");
}

//===----------------------------------------------------------------------===//
// Launch checks
//===----------------------------------------------------------------------===//

class LaunchCheck : public ::testing::Test {
protected:
  void SetUp() override {
    std::vector<KernelMeta> kernels;
    std::string error;
    ASSERT_TRUE(parseMetadata(kSoftmaxMeta, kernels, error)) << error;
    meta = kernels[0];
    args = {tile::arg::ptr(0x10000), tile::arg::i32(64), tile::arg::i32(7),
            tile::arg::f32(0.5f)};
  }

  tile_status check() {
    error.clear();
    return validateLaunch(meta, grid, args.data(), int(args.size()), error);
  }

  KernelMeta meta;
  std::vector<tile_arg> args;
  uint32_t grid[3] = {8, 1, 1};
  std::string error;
};

TEST_F(LaunchCheck, AcceptsMatchingArguments) {
  EXPECT_EQ(check(), TILE_SUCCESS) << error;
  args[1] = tile::arg::i32(-32); // divisible, negative
  args[0] = tile::arg::ptr(0xfffffffffff0ull);
  EXPECT_EQ(check(), TILE_SUCCESS) << error;
  grid[0] = tile::internal::kMaxGridX;
  grid[1] = grid[2] = tile::internal::kMaxGridYZ;
  EXPECT_EQ(check(), TILE_SUCCESS) << error;
}

// A kernel in clusters runs on whole clusters only: the driver would
// reject the launch with a bare status.
TEST_F(LaunchCheck, GridOfWholeClusters) {
  meta.clusterSize = 4;
  grid[0] = 12;
  EXPECT_EQ(check(), TILE_SUCCESS) << error;
  grid[0] = 10;
  EXPECT_EQ(check(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error, "tile_kernel_launch(softmax): grid[0] = 10 is not a "
                   "multiple of the kernel's cluster size (4)");
}

TEST_F(LaunchCheck, NullPointer) {
  args[0] = tile::arg::ptr(0);
  EXPECT_EQ(check(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error, "tile_kernel_launch(softmax): argument #0 (ptr) is null");
}

TEST_F(LaunchCheck, MisalignedPointer) {
  args[0] = tile::arg::ptr(0x10004);
  EXPECT_EQ(check(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error, "tile_kernel_launch(softmax): argument #0 (ptr f32) "
                   "0x10004 is not aligned to 16 bytes");
}

TEST_F(LaunchCheck, AlignmentZeroMeansNone) {
  meta.args[0].constraint = 0;
  args[0] = tile::arg::ptr(0x10001);
  EXPECT_EQ(check(), TILE_SUCCESS) << error;
}

TEST_F(LaunchCheck, Divisibility) {
  args[1] = tile::arg::i32(1000);
  EXPECT_EQ(check(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error, "tile_kernel_launch(softmax): argument #1 (i32) = 1000 is "
                   "not divisible by 16");
  args[1] = tile::arg::i32(1024);
  args[2] = tile::arg::i32(-7); // divisibility 1: anything goes
  EXPECT_EQ(check(), TILE_SUCCESS) << error;

  meta.args[2].kind = TILE_ARG_I64;
  meta.args[2].constraint = 1ll << 33;
  args[2] = tile::arg::i64(3ll << 33);
  EXPECT_EQ(check(), TILE_SUCCESS) << error;
  args[2] = tile::arg::i64((3ll << 33) + 8);
  EXPECT_EQ(check(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "argument #2 (i64) = 25769803784 is not divisible "
                         "by 8589934592");
}

TEST_F(LaunchCheck, KindMismatch) {
  args[1] = tile::arg::i64(64);
  EXPECT_EQ(check(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error, "tile_kernel_launch(softmax): argument #1 is i64 but the "
                   "kernel expects i32");
  args[1] = tile::arg::i32(64);
  args[3].kind = static_cast<tile_arg_kind>(99);
  EXPECT_EQ(check(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "argument #3 has an invalid kind (99); the kernel "
                         "expects f32");
}

TEST_F(LaunchCheck, Count) {
  args.pop_back();
  EXPECT_EQ(check(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error,
            "tile_kernel_launch(softmax): the kernel takes 4 arguments, got 3");
  error.clear();
  EXPECT_EQ(validateLaunch(meta, grid, nullptr, 4, error),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "args is null but num_args is 4");
  EXPECT_EQ(validateLaunch(meta, grid, nullptr, -1, error),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "num_args is negative");
  // A kernel without arguments takes args == nullptr.
  KernelMeta none;
  none.name = "none";
  none.numWarps = 1;
  EXPECT_EQ(validateLaunch(none, grid, nullptr, 0, error), TILE_SUCCESS);
}

TEST_F(LaunchCheck, Grid) {
  grid[0] = 0;
  EXPECT_EQ(check(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error, "tile_kernel_launch(softmax): grid[0] = 0 is outside "
                   "[1, 2147483647]");
  grid[0] = 2147483648u;
  EXPECT_EQ(check(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "grid[0] = 2147483648 is outside");
  grid[0] = 1;
  grid[1] = 65536;
  EXPECT_EQ(check(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "grid[1] = 65536 is outside [1, 65535]");
  grid[1] = 1;
  grid[2] = 0;
  EXPECT_EQ(check(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "grid[2] = 0");
  error.clear();
  EXPECT_EQ(validateLaunch(meta, nullptr, args.data(), 4, error),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "grid is null");
}

TEST_F(LaunchCheck, BoolAndFloatsHaveNoConstraint) {
  meta.args[3].kind = TILE_ARG_I1;
  args[3] = tile::arg::i1(true);
  EXPECT_EQ(check(), TILE_SUCCESS) << error;
  meta.args[3].kind = TILE_ARG_F64;
  args[3] = tile::arg::f64(-1e300);
  EXPECT_EQ(check(), TILE_SUCCESS) << error;
}

//===----------------------------------------------------------------------===//
// TMA tensor maps (tile.tma kernels)
//===----------------------------------------------------------------------===//

// A matmul-like kernel: A (M x K) and B (K x N) row-major, strides i64.
const char *kTmaMeta =
    "tile-kernel v1\nname mm\nnum_warps 8\n"
    "arg ptr f16 16\narg ptr bf16 16\narg i32 1\n"
    "arg i32 1\narg i64 1\narg i64 1\n"
    "tma arg0 f16 shape arg2 arg3 strides arg4 arg5 box 8 64 "
    "swizzle 128 groups 8\n"
    "tma arg1 bf16 shape arg3 64 strides 64 1 box 64 32 "
    "swizzle 64 groups 0\n"
    "end\n";

TEST(RuntimeMetadata, ParsesTensorMaps) {
  std::vector<KernelMeta> kernels;
  std::string error;
  ASSERT_TRUE(parseMetadata(kTmaMeta, kernels, error)) << error;
  const KernelMeta &k = kernels[0];
  EXPECT_EQ(k.args.size(), 6u); // the maps are not the caller's arguments
  ASSERT_EQ(k.tensorMaps.size(), 2u);
  const tile::internal::TensorMapMeta &a = k.tensorMaps[0],
                                      &b = k.tensorMaps[1];
  EXPECT_EQ(a.baseArg, 0);
  EXPECT_EQ(a.dtype, "f16");
  EXPECT_EQ(a.shape[0].arg, 2);
  EXPECT_EQ(a.shape[1].arg, 3);
  EXPECT_EQ(a.strides[0].arg, 4);
  EXPECT_EQ(a.strides[1].arg, 5);
  EXPECT_EQ(a.boxRows, 8);
  EXPECT_EQ(a.boxCols, 64);
  EXPECT_EQ(a.swizzle, 128);
  EXPECT_EQ(a.groups, 8);
  EXPECT_EQ(b.dtype, "bf16");
  EXPECT_EQ(b.shape[1].arg, -1);
  EXPECT_EQ(b.shape[1].value, 64);
  EXPECT_EQ(b.strides[1].value, 1);
  EXPECT_EQ(b.groups, 0);
}

TEST(RuntimeMetadata, RejectsMalformedTensorMaps) {
  std::string head = "tile-kernel v1\nname k\nnum_warps 4\narg ptr f16 16\n"
                     "arg i32 1\narg f32\n";
  auto line = [&](const char *tma) { return head + tma + "\nend\n"; };
  struct Case {
    std::string text;
    const char *expected;
  };
  const Case cases[] = {
      {line("tma arg0 f16 shape arg1 8 strides 8 1 box 8 64 swizzle 128"),
       "line 7: expected 'tma argN"},
      {line("tma 0 f16 shape arg1 8 strides 8 1 box 8 64 swizzle 128 groups "
            "0"),
       "line 7: the base of a tensor map must be 'argN', got '0'"},
      {line("tma arg0 i32 shape arg1 8 strides 8 1 box 8 64 swizzle 128 groups "
            "0"),
       "line 7: tensor maps hold f16, bf16 or f32, got 'i32'"},
      {line("tma arg0 f32 shape arg1 8 strides 8 1 box 8 64 swizzle 128 groups "
            "0"),
       "line 7: a box row of 64 elements exceeds the 128-byte swizzle"},
      {line("tma arg0 f16 shape arg1 8 strides 8 1 box 8 64 swizzle 96 groups "
            "0"),
       "line 7: swizzle 96 is not 32, 64 or 128"},
      {line("tma arg0 f16 shape arg1 8 strides 8 1 box 8 128 swizzle 128 "
            "groups 0"),
       "line 7: a box row of 128 elements exceeds the 128-byte swizzle"},
      {line("tma arg0 f16 shape arg1 8 strides 8 1 box 16 64 swizzle 128 "
            "groups 8"),
       "line 7: groups 8 must be even, with 8-row boxes (got 16)"},
      {line("tma arg0 f16 shape arg1 8 strides 8 1 box 8 64 swizzle 128 "
            "groups 3"),
       "line 7: groups 3 must be even"},
      {line("tma arg0 f16 shape x 8 strides 8 1 box 8 64 swizzle 128 groups 0"),
       "line 7: expected 'argN', 'gridN' or an integer, got 'x'"},
      {line("tma arg0 f16 shape arg1 8 strides 8 1 box 8 64 swizzle 128 groups "
            "0 batch 64 grid3"),
       "line 7: grid axis 3 is out of range [0, 2]"},
      {line("tma arg0 f16 shape arg1 8 strides 8 1 box 8 64 swizzle 128 groups "
            "0 batches 64 grid2"),
       "line 7: expected 'tma argN"},
      {line("tma arg0 f16 shape arg1 8 strides 8 1 box 8 64 swizzle 128 groups "
            "8 batch 64 grid2"),
       "line 7: a batch of matrices takes no interleaved map (groups 8)"},
      {line("tma arg1 f16 shape arg1 8 strides 8 1 box 8 64 swizzle 128 groups "
            "0"),
       "line 8: tensor map base arg1 is not a f16 pointer argument"},
      {line("tma arg0 f16 shape arg2 8 strides 8 1 box 8 64 swizzle 128 groups "
            "0"),
       "line 8: tensor map reads arg2, which is not an i32 or i64 argument"},
      {line("tma arg0 f16 shape arg9 8 strides 8 1 box 8 64 swizzle 128 groups "
            "0"),
       "line 8: tensor map reads arg9"},
      {head + "tma arg0 f16 shape arg1 8 strides 8 1 box 8 64 swizzle 128 "
              "groups 0\narg f32\nend\n",
       "line 8: 'arg' after 'tma': tensor maps come last"},
  };
  for (const Case &c : cases) {
    std::vector<KernelMeta> kernels;
    std::string error;
    EXPECT_FALSE(parseMetadata(c.text.c_str(), kernels, error)) << c.text;
    EXPECT_CONTAINS(error, std::string("metadata ") + c.expected) << c.text;
  }
}

class TensorMapCheck : public ::testing::Test {
protected:
  void SetUp() override {
    std::vector<KernelMeta> kernels;
    std::string error;
    ASSERT_TRUE(parseMetadata(kTmaMeta, kernels, error)) << error;
    meta = kernels[0];
    // A: 300 x 104 halves, row stride 104 (208 bytes: a multiple of 16).
    args = {tile::arg::ptr(0x10000), tile::arg::ptr(0x20000),
            tile::arg::i32(300),     tile::arg::i32(104),
            tile::arg::i64(104),     tile::arg::i64(1)};
  }

  tile_status resolve() {
    error.clear();
    std::string launchError;
    EXPECT_EQ(
        validateLaunch(meta, grid, args.data(), int(args.size()), launchError),
        TILE_SUCCESS)
        << launchError;
    return resolveTensorMaps(meta, grid, args.data(), maps, error);
  }

  KernelMeta meta;
  std::vector<tile_arg> args;
  uint32_t grid[3] = {1, 1, 1};
  tile::internal::TensorMapArgs maps[tile::internal::kMaxTensorMaps];
  std::string error;
};

TEST_F(TensorMapCheck, EncodesShapesStridesAndBoxes) {
  ASSERT_EQ(resolve(), TILE_SUCCESS) << error;
  EXPECT_EQ(maps[0].address, 0x10000u);
  EXPECT_EQ(maps[0].dims[0], 104u); // innermost first
  EXPECT_EQ(maps[0].dims[1], 300u);
  EXPECT_EQ(maps[0].rowStrideBytes, 208u);
  EXPECT_EQ(maps[0].box[0], 64u);
  EXPECT_EQ(maps[0].box[1], 8u);
  EXPECT_EQ(maps[0].swizzle, 128);
  EXPECT_EQ(maps[0].groups, 8u);
  EXPECT_FALSE(maps[0].bf16);
  EXPECT_EQ(maps[1].dims[0], 64u); // constants
  EXPECT_EQ(maps[1].dims[1], 104u);
  EXPECT_EQ(maps[1].rowStrideBytes, 128u);
  EXPECT_TRUE(maps[1].bf16);
}

// A batch of matrices (the library's softmax(X) @ V): a 3-d map whose
// count is the launch grid's z.
TEST_F(TensorMapCheck, Batches) {
  std::vector<KernelMeta> kernels;
  ASSERT_TRUE(parseMetadata(
      "tile-kernel v1\nname b\nnum_warps 8\narg ptr f16 16\narg i32 1\n"
      "arg i64 1\ntma arg0 f16 shape arg1 64 strides 64 1 box 128 64 "
      "swizzle 128 groups 0 batch arg2 grid2\nend\n",
      kernels, error))
      << error;
  meta = kernels[0];
  ASSERT_EQ(meta.tensorMaps[0].outerDims, 1);
  EXPECT_EQ(meta.tensorMaps[0].outerStrides[0].arg, 2);
  EXPECT_EQ(meta.tensorMaps[0].outerCounts[0].grid, 2);
  args = {tile::arg::ptr(0x10000), tile::arg::i32(100), tile::arg::i64(6400)};
  grid[2] = 16;
  ASSERT_EQ(resolve(), TILE_SUCCESS) << error;
  EXPECT_EQ(maps[0].outerCounts[0], 16u);
  EXPECT_EQ(maps[0].outerStrideBytes[0], 12800u);
  args[2] = tile::arg::i64(6404); // 12808 bytes
  EXPECT_EQ(resolve(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "needs a positive batch stride of a multiple of 16 "
                         "bytes below 2^40; the batch stride (argument #2) "
                         "is 6404 elements of 2 bytes");
  grid[2] = 1; // one matrix: its stride is never used
  EXPECT_EQ(resolve(), TILE_SUCCESS) << error;
  EXPECT_EQ(maps[0].outerCounts[0], 1u);
}

// Attention's keys, [batch, heads, seq, head_dim] in any layout: a 4-d map,
// the heads' and the batch's (stride, count) pairs innermost first.
TEST_F(TensorMapCheck, FourDimensions) {
  std::vector<KernelMeta> kernels;
  ASSERT_TRUE(parseMetadata(
      "tile-kernel v1\nname a\nnum_warps 8\narg ptr f16 16\narg i32 1\n"
      "arg i64 8\narg i64 1\narg i64 8\narg i32 1\n"
      "tma arg0 f16 shape arg1 128 strides arg4 1 box 128 64 swizzle 128 "
      "groups 0 batch arg3 arg5 arg2 grid2\nend\n",
      kernels, error))
      << error;
  meta = kernels[0];
  ASSERT_EQ(meta.tensorMaps[0].outerDims, 2);
  // BSHD: seq 1000, 16 heads of 128, 2 entries.
  args = {tile::arg::ptr(0x10000),         tile::arg::i32(1000),
          tile::arg::i64(1000 * 16 * 128), tile::arg::i64(128),
          tile::arg::i64(16 * 128),        tile::arg::i32(16)};
  grid[2] = 2;
  ASSERT_EQ(resolve(), TILE_SUCCESS) << error;
  EXPECT_EQ(maps[0].dims[0], 128u);
  EXPECT_EQ(maps[0].dims[1], 1000u);
  EXPECT_EQ(maps[0].rowStrideBytes, 4096u);
  EXPECT_EQ(maps[0].outerDims, 2);
  EXPECT_EQ(maps[0].outerCounts[0], 16u);
  EXPECT_EQ(maps[0].outerStrideBytes[0], 256u);
  EXPECT_EQ(maps[0].outerCounts[1], 2u);
  EXPECT_EQ(maps[0].outerStrideBytes[1], 4096000u);
  args[3] = tile::arg::i64(4); // heads 8 bytes apart
  EXPECT_EQ(resolve(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "the batch stride (argument #3) is 4 elements");
  std::vector<KernelMeta> bad;
  EXPECT_FALSE(parseMetadata(
      "tile-kernel v1\nname a\nnum_warps 8\narg ptr f16 16\n"
      "tma arg0 f16 shape 8 128 strides 128 1 box 8 64 swizzle 128 "
      "groups 0 batch 1 1 1 1 1 1 1 1\nend\n",
      bad, error));
}

TEST_F(TensorMapCheck, RejectsWhatTmaCannotRead) {
  args[5] = tile::arg::i64(300); // column-major A
  EXPECT_EQ(resolve(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error, "tile_kernel_launch(mm): the array at argument #0 is "
                   "copied with TMA, which needs it contiguous along its "
                   "last dimension; the stride (argument #5) is 300");
  args[5] = tile::arg::i64(1);
  args[4] = tile::arg::i64(100); // 200-byte rows
  EXPECT_EQ(resolve(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "needs a positive row stride of a multiple of 16 "
                         "bytes below 2^40; the row stride (argument #4) is "
                         "100 elements of 2 bytes");
  args[4] = tile::arg::i64(104);
  meta.args[0].constraint = 0; // a base the launch check lets through
  args[0] = tile::arg::ptr(0x10008);
  EXPECT_EQ(resolve(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "needs it 16-byte aligned; it is at 0x10008");
  args[0] = tile::arg::ptr(0x10000);
  args[2] = tile::arg::i32(0); // no rows
  EXPECT_EQ(resolve(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(error, "needs dimensions from 1 to 2^32; dimension 0 "
                         "(argument #2) is 0");
}

//===----------------------------------------------------------------------===//
// With a GPU
//===----------------------------------------------------------------------===//

// add_one(float *x, int n) adds 1 to x[0..n); narrow() is limited to 64
// threads per block by .maxntid.
const char *kAddOnePtx = R"(.version 8.0
.target sm_80
.address_size 64

.visible .entry add_one(
    .param .u64 add_one_x,
    .param .u32 add_one_n
)
{
    .reg .pred  %p<2>;
    .reg .b32   %r<6>;
    .reg .f32   %f<3>;
    .reg .b64   %rd<5>;

    ld.param.u64        %rd1, [add_one_x];
    ld.param.u32        %r1, [add_one_n];
    mov.u32             %r2, %ctaid.x;
    mov.u32             %r3, %ntid.x;
    mov.u32             %r4, %tid.x;
    mad.lo.s32          %r5, %r2, %r3, %r4;
    setp.ge.s32         %p1, %r5, %r1;
    @%p1 bra            DONE;
    cvta.to.global.u64  %rd2, %rd1;
    mul.wide.s32        %rd3, %r5, 4;
    add.s64             %rd4, %rd2, %rd3;
    ld.global.f32       %f1, [%rd4];
    add.f32             %f2, %f1, 0f3F800000;
    st.global.f32       [%rd4], %f2;
DONE:
    ret;
}

.visible .entry narrow(
    .param .u64 narrow_x
)
.maxntid 64, 1, 1
{
    ret;
}
)";

const char *kAddOneMeta = R"(tile-kernel v1
name add_one
num_warps 4
shared_bytes 0
arg ptr f32 16
arg i32 1
end
tile-kernel v1
name narrow
num_warps 4
arg ptr f32 0
end
tile-kernel v1
name ghost
num_warps 1
end
)";

std::string withSharedBytes(int bytes) {
  return "tile-kernel v1\nname add_one\nnum_warps 4\nshared_bytes " +
         std::to_string(bytes) + "\narg ptr f32 16\narg i32 1\nend\n";
}

class GpuTest : public ::testing::Test {
protected:
  void SetUp() override {
    tile_status status = tile_init(0);
    if (status != TILE_SUCCESS)
      GTEST_SKIP() << "no GPU: " << tile_status_name(status) << ": "
                   << tile_last_error();
  }

  // Loads kAddOnePtx with `meta` and gets its kernel `name`.
  void load(const char *meta, const char *name = "add_one") {
    ASSERT_EQ(
        tile_module_load(kAddOnePtx, std::strlen(kAddOnePtx), meta, &module),
        TILE_SUCCESS)
        << tile_last_error();
    ASSERT_EQ(tile_module_get_kernel(module, name, &kernel), TILE_SUCCESS)
        << tile_last_error();
  }

  void TearDown() override {
    if (module) {
      EXPECT_EQ(tile_module_unload(module), TILE_SUCCESS) << tile_last_error();
    }
  }

  tile_module module = nullptr;
  tile_kernel kernel = nullptr;
};

TEST_F(GpuTest, DeviceInfo) {
  char name[128];
  int major = 0, minor = -1, sms = 0;
  ASSERT_EQ(tile_device_info(name, sizeof(name), &major, &minor, &sms),
            TILE_SUCCESS)
      << tile_last_error();
  EXPECT_GT(std::strlen(name), 0u);
  EXPECT_GE(major, 3);
  EXPECT_GE(minor, 0);
  EXPECT_GT(sms, 0);
  // Truncated to the buffer.
  char shortName[4];
  ASSERT_EQ(
      tile_device_info(shortName, sizeof(shortName), &major, &minor, &sms),
      TILE_SUCCESS);
  EXPECT_EQ(std::strlen(shortName), 3u);
  EXPECT_EQ(tile_device_info(nullptr, 0, &major, &minor, &sms),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_device_info(name, sizeof(name), nullptr, &minor, &sms),
            TILE_ERROR_INVALID_ARGUMENT);

  tile::DeviceInfo info;
  ASSERT_TRUE(tile::deviceInfo(info).ok());
  EXPECT_EQ(info.name, name);
}

TEST_F(GpuTest, MemoryArguments) {
  uint64_t p = 1;
  EXPECT_EQ(tile_malloc(&p, 0), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(tile_last_error(), "tile_malloc: bytes is 0");
  EXPECT_EQ(p, 0u);
  EXPECT_EQ(tile_malloc(nullptr, 16), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_free(0), TILE_SUCCESS);
  ASSERT_EQ(tile_malloc(&p, 16), TILE_SUCCESS) << tile_last_error();
  char host[16] = {};
  EXPECT_EQ(tile_memcpy_htod(p, nullptr, 16), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_memcpy_htod(0, host, 16), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_memcpy_dtoh(nullptr, p, 16), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_memcpy_dtoh(host, 0, 16), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_memset_d8(0, 0, 16), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_memcpy_htod(p, host, 0), TILE_SUCCESS);
  EXPECT_EQ(tile_free(p), TILE_SUCCESS) << tile_last_error();
}

TEST_F(GpuTest, OutOfMemory) {
  uint64_t p = 0;
  // 1 PiB: more than any GPU has.
  tile_status status = tile_malloc(&p, size_t(1) << 50);
  EXPECT_EQ(status, TILE_ERROR_OUT_OF_MEMORY) << tile_last_error();
  EXPECT_CONTAINS(tile_last_error(), "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: ");
  EXPECT_CONTAINS(tile_last_error(), "tile_malloc of 1125899906842624 bytes");
  EXPECT_EQ(p, 0u);
}

TEST_F(GpuTest, AddOne) {
  load(kAddOneMeta);
  const int n = 1000; // not a multiple of the block: the tail is masked
  const int total = 1024;
  uint64_t x = 0;
  ASSERT_EQ(tile_malloc(&x, total * sizeof(float)), TILE_SUCCESS)
      << tile_last_error();
  // Poison everything, then write the first n.
  ASSERT_EQ(tile_memset_d8(x, 0xff, total * sizeof(float)), TILE_SUCCESS)
      << tile_last_error();
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[size_t(i)] = float(i) * 0.5f;
  ASSERT_EQ(tile_memcpy_htod(x, host.data(), n * sizeof(float)), TILE_SUCCESS)
      << tile_last_error();

  tile_arg args[2];
  args[0].kind = TILE_ARG_PTR;
  args[0].value.ptr = x;
  args[1].kind = TILE_ARG_I32;
  args[1].value.i32 = n;
  uint32_t grid[3] = {(n + 127) / 128, 1, 1};
  ASSERT_EQ(tile_kernel_launch(kernel, grid, args, 2, nullptr), TILE_SUCCESS)
      << tile_last_error();
  ASSERT_EQ(tile_synchronize(), TILE_SUCCESS) << tile_last_error();

  std::vector<uint32_t> out(total);
  ASSERT_EQ(tile_memcpy_dtoh(out.data(), x, total * sizeof(float)),
            TILE_SUCCESS)
      << tile_last_error();
  for (int i = 0; i < n; ++i) {
    float v;
    std::memcpy(&v, &out[size_t(i)], sizeof(v));
    ASSERT_EQ(v, float(i) * 0.5f + 1.0f) << "at " << i;
  }
  for (int i = n; i < total; ++i)
    ASSERT_EQ(out[size_t(i)], 0xffffffffu) << "poison overwritten at " << i;
  EXPECT_EQ(tile_free(x), TILE_SUCCESS);
}

TEST_F(GpuTest, KernelInfoAndLookup) {
  load(kAddOneMeta);
  tile_kernel_info info;
  ASSERT_EQ(tile_kernel_get_info(kernel, &info), TILE_SUCCESS);
  EXPECT_STREQ(info.name, "add_one");
  ASSERT_EQ(info.num_args, 2);
  EXPECT_EQ(info.arg_kinds[0], TILE_ARG_PTR);
  EXPECT_EQ(info.arg_kinds[1], TILE_ARG_I32);
  EXPECT_EQ(info.arg_divisibility[0], 16);
  EXPECT_EQ(info.arg_divisibility[1], 0); // metadata 1: none
  EXPECT_EQ(info.num_warps, 4);
  EXPECT_EQ(info.shared_bytes, 0);

  // The same handle each time.
  tile_kernel again = nullptr;
  ASSERT_EQ(tile_module_get_kernel(module, "add_one", &again), TILE_SUCCESS);
  EXPECT_EQ(again, kernel);

  // Not in the metadata.
  tile_kernel missing = nullptr;
  EXPECT_EQ(tile_module_get_kernel(module, "softmax", &missing),
            TILE_ERROR_NOT_FOUND);
  EXPECT_CONTAINS(tile_last_error(), "'softmax'");
  EXPECT_CONTAINS(tile_last_error(), "known kernels: add_one, narrow, ghost");
  EXPECT_EQ(missing, nullptr);
  // In the metadata, not in the PTX.
  EXPECT_EQ(tile_module_get_kernel(module, "ghost", &missing),
            TILE_ERROR_NOT_FOUND);
  EXPECT_CONTAINS(tile_last_error(), "cuModuleGetFunction: ");
  EXPECT_CONTAINS(tile_last_error(), "'ghost' is in the metadata but not in "
                                     "the module image");
  EXPECT_EQ(tile_module_get_kernel(module, nullptr, &missing),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_module_get_kernel(module, "add_one", nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_kernel_get_info(kernel, nullptr), TILE_ERROR_INVALID_ARGUMENT);
}

TEST_F(GpuTest, LaunchRejectsBadArguments) {
  load(kAddOneMeta);
  uint64_t x = 0;
  ASSERT_EQ(tile_malloc(&x, 4096), TILE_SUCCESS) << tile_last_error();
  tile_arg args[2] = {tile::arg::ptr(0), tile::arg::i32(4)};
  uint32_t grid[3] = {1, 1, 1};

  EXPECT_EQ(tile_kernel_launch(kernel, grid, args, 2, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(tile_last_error(),
               "tile_kernel_launch(add_one): argument #0 (ptr) is null");

  args[0] = tile::arg::ptr(x + 4);
  EXPECT_EQ(tile_kernel_launch(kernel, grid, args, 2, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(tile_last_error(), "is not aligned to 16 bytes");

  args[0] = tile::arg::ptr(x);
  grid[1] = 65536; // beyond the device's limit
  EXPECT_EQ(tile_kernel_launch(kernel, grid, args, 2, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(tile_last_error(), "grid[1] = 65536 is outside [1, 65535]");
  grid[1] = 1;
  grid[0] = 0;
  EXPECT_EQ(tile_kernel_launch(kernel, grid, args, 2, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  grid[0] = 1;

  EXPECT_EQ(tile_kernel_launch(kernel, grid, args, 1, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_kernel_launch(kernel, grid, nullptr, 2, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_kernel_launch(nullptr, grid, args, 2, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(tile_last_error(), "kernel is null");

  // And the right arguments still work.
  EXPECT_EQ(tile_kernel_launch(kernel, grid, args, 2, nullptr), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_EQ(tile_synchronize(), TILE_SUCCESS) << tile_last_error();
  EXPECT_EQ(tile_free(x), TILE_SUCCESS);
}

TEST_F(GpuTest, TooManyThreadsForTheKernel) {
  load(kAddOneMeta, "narrow");
  uint64_t x = 0;
  ASSERT_EQ(tile_malloc(&x, 256), TILE_SUCCESS) << tile_last_error();
  tile_arg args[1] = {tile::arg::ptr(x)};
  uint32_t grid[3] = {1, 1, 1};
  EXPECT_EQ(tile_kernel_launch(kernel, grid, args, 1, nullptr),
            TILE_ERROR_OUT_OF_RESOURCES);
  EXPECT_CONTAINS(tile_last_error(), "tile_kernel_launch(narrow): needs 128 "
                                     "threads per block");
  EXPECT_CONTAINS(tile_last_error(), "at most 64");
  EXPECT_EQ(tile_free(x), TILE_SUCCESS);
}

TEST_F(GpuTest, SharedMemoryBeyond48KiB) {
  // 64 KiB of dynamic shared memory: every sm_80+ device allows it after
  // the opt-in, which the runtime does on the first launch.
  std::string meta = withSharedBytes(64 * 1024);
  load(meta.c_str());
  uint64_t x = 0;
  ASSERT_EQ(tile_malloc(&x, 512), TILE_SUCCESS) << tile_last_error();
  ASSERT_EQ(tile_memset_d8(x, 0, 512), TILE_SUCCESS);
  tile::Kernel k(kernel);
  for (int i = 0; i < 2; ++i)
    ASSERT_TRUE(k.launch({1}, {tile::arg::ptr(x), tile::arg::i32(128)}).ok())
        << tile_last_error();
  ASSERT_EQ(tile_synchronize(), TILE_SUCCESS) << tile_last_error();
  float first = 0;
  ASSERT_EQ(tile_memcpy_dtoh(&first, x, sizeof(first)), TILE_SUCCESS);
  EXPECT_EQ(first, 2.0f);
  EXPECT_EQ(tile_free(x), TILE_SUCCESS);
}

TEST_F(GpuTest, SharedMemoryBeyondTheDevice) {
  std::string meta = withSharedBytes(16 << 20);
  load(meta.c_str());
  uint64_t x = 0;
  ASSERT_EQ(tile_malloc(&x, 512), TILE_SUCCESS) << tile_last_error();
  tile::Kernel k(kernel);
  tile::Status s = k.launch({1}, {tile::arg::ptr(x), tile::arg::i32(128)});
  EXPECT_EQ(s.code(), TILE_ERROR_OUT_OF_RESOURCES);
  EXPECT_CONTAINS(s.message(), "tile_kernel_launch(add_one): needs 16777216 "
                               "bytes of shared memory");
  EXPECT_CONTAINS(s.message(), "the device allows at most ");
  EXPECT_EQ(tile_free(x), TILE_SUCCESS);
}

TEST_F(GpuTest, BadPtxReportsTheJitLog) {
  const char *ptx = ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry broken()\n{\n"
                    "  add.f32 %f1, %f2, 1.0;\n"
                    "  ret;\n}\n";
  const char *meta = "tile-kernel v1\nname broken\nnum_warps 1\nend\n";
  tile_module bad = reinterpret_cast<tile_module>(0x1);
  EXPECT_EQ(tile_module_load(ptx, std::strlen(ptx), meta, &bad),
            TILE_ERROR_CUDA);
  EXPECT_EQ(bad, nullptr);
  std::string message = tile_last_error();
  EXPECT_EQ(message.rfind("cuModuleLoadDataEx: CUDA_ERROR_", 0), 0u) << message;
  EXPECT_CONTAINS(message, "JIT error log:");
  EXPECT_CONTAINS(message, "line 6");
}

TEST_F(GpuTest, BadMetadataIsRejectedBeforeLoading) {
  tile_module bad = nullptr;
  EXPECT_EQ(tile_module_load(kAddOnePtx, std::strlen(kAddOnePtx),
                             "tile-kernel v1\nname add_one\nnum_warps 99\n"
                             "end\n",
                             &bad),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(tile_last_error(), "tile_module_load: metadata line 3: ");
  EXPECT_EQ(bad, nullptr);
  EXPECT_EQ(tile_module_load(nullptr, 10, kAddOneMeta, &bad),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_module_load(kAddOnePtx, 0, kAddOneMeta, &bad),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_module_load(kAddOnePtx, 10, nullptr, &bad),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_module_load(kAddOnePtx, 10, kAddOneMeta, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_module_unload(nullptr), TILE_ERROR_INVALID_ARGUMENT);
}

TEST_F(GpuTest, PtxSizeMayCountTheTerminator) {
  ASSERT_EQ(tile_module_load(kAddOnePtx, std::strlen(kAddOnePtx) + 1,
                             kAddOneMeta, &module),
            TILE_SUCCESS)
      << tile_last_error();
  // Unloading twice is caught.
  ASSERT_EQ(tile_module_unload(module), TILE_SUCCESS);
  EXPECT_EQ(tile_module_unload(module), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(tile_last_error(), "not a loaded module");
  module = nullptr;
}

TEST_F(GpuTest, CppWrapperAndTiming) {
  tile::Module m;
  ASSERT_TRUE(
      tile::Module::load(std::string(kAddOnePtx), std::string(kAddOneMeta), m)
          .ok())
      << tile_last_error();
  tile::Kernel k;
  ASSERT_TRUE(m.getKernel("add_one", k).ok()) << tile_last_error();
  const int n = 4096;
  tile::DeviceBuffer buf;
  ASSERT_TRUE(tile::DeviceBuffer::allocate(n * sizeof(float), buf).ok());
  ASSERT_TRUE(buf.fill(0).ok());

  std::vector<float> ms;
  auto launch = [&] {
    (void)k.launch({n / 128}, {tile::arg::ptr(buf), tile::arg::i32(n)});
  };
  tile::Status s = tile::time(launch, nullptr, 2, 5, ms);
  ASSERT_TRUE(s.ok()) << s.toString();
  ASSERT_EQ(ms.size(), 5u);
  for (float t : ms)
    EXPECT_GT(t, 0.0f);

  std::vector<float> host;
  ASSERT_TRUE(buf.download(host).ok());
  ASSERT_EQ(host.size(), size_t(n));
  EXPECT_EQ(host[0], 7.0f);
  EXPECT_EQ(host[n - 1], 7.0f);

  // A failing launch inside the timed function fails tile_time.
  auto failing = [&] {
    (void)k.launch({n / 128}, {tile::arg::ptr(0), tile::arg::i32(n)});
  };
  s = tile::time(failing, nullptr, 0, 3, ms);
  EXPECT_EQ(s.code(), TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(s.message(), "tile_time: the timed function failed: "
                               "tile_kernel_launch(add_one): argument #0");
  EXPECT_EQ(tile_time(nullptr, nullptr, nullptr, 0, 1, ms.data()),
            TILE_ERROR_INVALID_ARGUMENT);
}

TEST_F(GpuTest, AnotherThreadUsesTheRuntime) {
  load(kAddOneMeta);
  uint64_t x = 0;
  ASSERT_EQ(tile_malloc(&x, 128 * sizeof(float)), TILE_SUCCESS);
  ASSERT_EQ(tile_memset_d8(x, 0, 128 * sizeof(float)), TILE_SUCCESS);
  tile_status launched = TILE_ERROR_CUDA, synced = TILE_ERROR_CUDA;
  std::string error;
  tile_kernel k = kernel;
  std::thread worker([&] {
    tile_arg args[2] = {tile::arg::ptr(x), tile::arg::i32(128)};
    uint32_t grid[3] = {1, 1, 1};
    launched = tile_kernel_launch(k, grid, args, 2, nullptr);
    synced = tile_synchronize();
    error = tile_last_error();
  });
  worker.join();
  EXPECT_EQ(launched, TILE_SUCCESS) << error;
  EXPECT_EQ(synced, TILE_SUCCESS) << error;
  float last = 0;
  ASSERT_EQ(tile_memcpy_dtoh(&last, x + 127 * sizeof(float), sizeof(last)),
            TILE_SUCCESS);
  EXPECT_EQ(last, 1.0f);
  EXPECT_EQ(tile_free(x), TILE_SUCCESS);
}

// store_args(out, a, b, c, flag, d) writes a (i64) to out[0..8), c (f64) to
// out[8..16), b (f32) to out[16..20), d (i32) to out[20..24) and flag (an
// i1 passed as .u8) widened to 32 bits to out[24..28).
const char *kStoreArgsPtx = R"(.version 8.0
.target sm_80
.address_size 64

.visible .entry store_args(
    .param .u64 store_args_out,
    .param .u64 store_args_a,
    .param .f32 store_args_b,
    .param .f64 store_args_c,
    .param .u8  store_args_flag,
    .param .u32 store_args_d
)
{
    .reg .b16   %rs<2>;
    .reg .b32   %r<3>;
    .reg .f32   %f<2>;
    .reg .f64   %fd<2>;
    .reg .b64   %rd<4>;

    ld.param.u64        %rd1, [store_args_out];
    cvta.to.global.u64  %rd2, %rd1;
    ld.param.u64        %rd3, [store_args_a];
    st.global.u64       [%rd2], %rd3;
    ld.param.f64        %fd1, [store_args_c];
    st.global.f64       [%rd2+8], %fd1;
    ld.param.f32        %f1, [store_args_b];
    st.global.f32       [%rd2+16], %f1;
    ld.param.u32        %r1, [store_args_d];
    st.global.u32       [%rd2+20], %r1;
    ld.param.u8         %rs1, [store_args_flag];
    cvt.u32.u16         %r2, %rs1;
    st.global.u32       [%rd2+24], %r2;
    ret;
}
)";

const char *kStoreArgsMeta = R"(tile-kernel v1
name store_args
num_warps 1
arg ptr i64 8
arg i64 1
arg f32
arg f64
arg i1
arg i32 1
end
)";

TEST_F(GpuTest, EveryArgumentKindReachesTheKernel) {
  ASSERT_EQ(tile_module_load(kStoreArgsPtx, std::strlen(kStoreArgsPtx),
                             kStoreArgsMeta, &module),
            TILE_SUCCESS)
      << tile_last_error();
  ASSERT_EQ(tile_module_get_kernel(module, "store_args", &kernel), TILE_SUCCESS)
      << tile_last_error();
  uint64_t out = 0;
  ASSERT_EQ(tile_malloc(&out, 32), TILE_SUCCESS) << tile_last_error();
  uint32_t grid[3] = {1, 1, 1};
  for (int flag : {0, 1, 5}) {
    SCOPED_TRACE(flag);
    ASSERT_EQ(tile_memset_d8(out, 0xff, 32), TILE_SUCCESS);
    tile_arg args[6] = {
        tile::arg::ptr(out),  tile::arg::i64(-(int64_t(1) << 40) - 3),
        tile::arg::f32(1.5f), tile::arg::f64(-2.25),
        tile::arg::i1(false), tile::arg::i32(-7)};
    // The runtime reads an i1 from value.i32 (non-zero is true), whatever
    // the other bytes of the union hold.
    args[4].value.i64 = int64_t(0x7fffffff00000000ll);
    args[4].value.i32 = flag;
    ASSERT_EQ(tile_kernel_launch(kernel, grid, args, 6, nullptr), TILE_SUCCESS)
        << tile_last_error();
    unsigned char host[32];
    ASSERT_EQ(tile_memcpy_dtoh(host, out, sizeof(host)), TILE_SUCCESS)
        << tile_last_error();
    int64_t a;
    double c;
    float b;
    int32_t d;
    uint32_t f;
    std::memcpy(&a, host, 8);
    std::memcpy(&c, host + 8, 8);
    std::memcpy(&b, host + 16, 4);
    std::memcpy(&d, host + 20, 4);
    std::memcpy(&f, host + 24, 4);
    EXPECT_EQ(a, -(int64_t(1) << 40) - 3);
    EXPECT_EQ(c, -2.25);
    EXPECT_EQ(b, 1.5f);
    EXPECT_EQ(d, -7);
    EXPECT_EQ(f, flag != 0 ? 1u : 0u);
  }
  EXPECT_EQ(tile_free(out), TILE_SUCCESS);
}

// Loads a cubin named by TILE_RUNTIME_TEST_CUBIN (add_one compiled for this
// GPU, e.g. `ptxas -arch=sm_90 add_one.ptx -o add_one.cubin`), when set.
TEST_F(GpuTest, LoadsACubin) {
  const char *path = std::getenv("TILE_RUNTIME_TEST_CUBIN");
  if (!path)
    GTEST_SKIP() << "TILE_RUNTIME_TEST_CUBIN is not set";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << path;
  std::string image((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  ASSERT_EQ(tile_module_load(image.data(), image.size(), kAddOneMeta, &module),
            TILE_SUCCESS)
      << tile_last_error();
  ASSERT_EQ(tile_module_get_kernel(module, "add_one", &kernel), TILE_SUCCESS)
      << tile_last_error();
  uint64_t x = 0;
  ASSERT_EQ(tile_malloc(&x, 128 * sizeof(float)), TILE_SUCCESS);
  ASSERT_EQ(tile_memset_d8(x, 0, 128 * sizeof(float)), TILE_SUCCESS);
  tile_arg args[2] = {tile::arg::ptr(x), tile::arg::i32(128)};
  uint32_t grid[3] = {1, 1, 1};
  ASSERT_EQ(tile_kernel_launch(kernel, grid, args, 2, nullptr), TILE_SUCCESS)
      << tile_last_error();
  float v = 0;
  ASSERT_EQ(tile_memcpy_dtoh(&v, x, sizeof(v)), TILE_SUCCESS);
  EXPECT_EQ(v, 1.0f);
  EXPECT_EQ(tile_free(x), TILE_SUCCESS);
}

TEST_F(GpuTest, MemGetInfo) {
  size_t freeBytes = 0, totalBytes = 0;
  EXPECT_EQ(tile_mem_get_info(nullptr, &totalBytes),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(tile_last_error(), "tile_mem_get_info: free_bytes is null");
  EXPECT_EQ(tile_mem_get_info(&freeBytes, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(tile_mem_get_info(&freeBytes, &totalBytes), TILE_SUCCESS)
      << tile_last_error();
  EXPECT_GT(totalBytes, 0u);
  EXPECT_LE(freeBytes, totalBytes);
  // An allocation lowers the free memory (assuming no other process frees
  // memory on the device meanwhile).
  const size_t bytes = size_t(256) << 20;
  uint64_t p = 0;
  ASSERT_EQ(tile_malloc(&p, bytes), TILE_SUCCESS) << tile_last_error();
  size_t freeAfter = 0;
  ASSERT_EQ(tile_mem_get_info(&freeAfter, &totalBytes), TILE_SUCCESS);
  EXPECT_LE(freeAfter, freeBytes);
  EXPECT_EQ(tile_free(p), TILE_SUCCESS);
}

} // namespace
