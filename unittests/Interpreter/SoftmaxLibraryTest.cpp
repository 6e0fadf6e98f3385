//===- SoftmaxLibraryTest.cpp - The library's softmax kernels, interpreted ===//
//
// Kernels of the runtime library's softmax builders run through the
// interpreter against the float64 softmax:
// - buildSoftmaxCluster (rows split over a cluster, merged from one
//   (max, sum) exchange; the interpreter's cluster programs exchange as on
//   the GPU): every cluster size, rows that fill the cluster, end inside
//   its last program, or leave whole programs without columns; with
//   `loop`, programs running both online passes over slices of any length;
// - buildSoftmaxRows with a second tile (`tail`): rows that fill both
//   tiles, end in either, or span several programs' row blocks, with and
//   without the persistent loop;
// - buildSoftmaxRows with `stages` (persistent rows through a pipelined
//   block pointer);
// f32 and f16, large values and -inf entries. Blocks are small here; the
// library's variants differ only in size.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/Kernels/LibraryKernels.h"

#include "mlir/IR/Verifier.h"

#include <cmath>

using namespace tiletest;

namespace {

class SoftmaxLibraryTest : public ::testing::Test {
protected:
  uint64_t seed = std::random_device{}();
  std::mt19937_64 rng{seed};
  ::testing::ScopedTrace trace{__FILE__, __LINE__,
                               "random seed " + std::to_string(seed)};

  /// Runs the cluster kernel of `config` on rows x cols (row strides
  /// cols + 16) and compares with float64 at the dtype's tolerance.
  void check(const SoftmaxClusterConfig &config, int64_t rows, int64_t cols,
             double scale = 1.0, bool specials = false) {
    check(
        getKernelName(config), config.in,
        [&](ModuleOp m) { buildSoftmaxCluster(m, config); },
        rows * config.clusterSize, rows, cols, scale, specials);
  }

  /// The same for a row kernel, on `programs` programs (by default one per
  /// block of config.rows rows).
  void check(const SoftmaxRowsConfig &config, int64_t rows, int64_t cols,
             double scale = 1.0, bool specials = false, int64_t programs = 0) {
    check(
        getKernelName(config), config.in,
        [&](ModuleOp m) { buildSoftmaxRows(m, config); },
        programs ? programs : (rows + config.rows - 1) / config.rows, rows,
        cols, scale, specials);
  }

  /// The same for a grid kernel: rows x cdiv(cols, block) programs and a
  /// zeroed workspace (counters, then 2 x maxSlices pairs per row).
  void check(const SoftmaxGridConfig &config, int64_t rows, int64_t cols,
             double scale = 1.0, bool specials = false) {
    int64_t slices = (cols + config.block - 1) / config.block;
    check(
        getKernelName(config), config.in,
        [&](ModuleOp m) { buildSoftmaxGrid(m, config); }, rows * slices, rows,
        cols, scale, specials, config.maxSlices);
  }

  void check(const std::string &name, ElemType inType,
             llvm::function_ref<void(ModuleOp)> build, int64_t programs,
             int64_t rows, int64_t cols, double scale, bool specials,
             int64_t gridSlices = 0) {
    std::string what =
        name + " " + std::to_string(rows) + "x" + std::to_string(cols);
    KernelHarness h;
    h.module = ModuleOp::create(UnknownLoc::get(&h.context));
    build(*h.module);
    ASSERT_TRUE(succeeded(verify(*h.module))) << h.diagnostics;
    DType dtype = inType == ElemType::F32 ? DType::F32 : DType::F16;
    int64_t stride = cols + 16;
    Buffer x("x", dtype, {rows, stride}), y("y", dtype, {rows, stride});
    std::normal_distribution<double> dist(0.0, scale);
    for (int64_t i = 0; i < x.numElements(); ++i) {
      x.set(i, dist(rng));
      y.set(i, std::numeric_limits<double>::quiet_NaN());
    }
    if (specials)
      for (int64_t r = 0; r < rows; ++r) {
        x.set(r * stride + (r * 7919) % cols, 1e4);
        x.set(r * stride + (r * 104729 + 1) % cols,
              -std::numeric_limits<double>::infinity());
      }
    std::vector<Buffer> buffers{std::move(y), std::move(x)};
    std::vector<ArgValue> args{ArgValue::buffer(0),
                               ArgValue::buffer(1),
                               ArgValue::integer(stride),
                               ArgValue::integer(stride),
                               i32(rows),
                               i32(cols)};
    if (gridSlices) {
      Buffer counters("counters", DType::I32, {rows + 1});
      Buffer pairs("pairs", DType::F32, {rows, 2 * gridSlices});
      for (int64_t i = 0; i < counters.numElements(); ++i)
        counters.set(i, 0);
      for (int64_t i = 0; i < pairs.numElements(); ++i)
        pairs.set(i, std::numeric_limits<double>::quiet_NaN());
      buffers.push_back(std::move(counters));
      buffers.push_back(std::move(pairs));
      args.push_back(ArgValue::buffer(2));
      args.push_back(ArgValue::buffer(3));
    }
    RunOptions options;
    options.grid[0] = programs;
    options.printStream = nullptr;
    ASSERT_TRUE(succeeded(runKernel(h.kernel(), args, buffers, options)))
        << what << ": " << h.diagnostics;
    if (gridSlices) {
      // Every program took a ticket and arrived at its row's counter.
      EXPECT_EQ(buffers[2].get(0), (double)programs) << what;
      for (int64_t r = 0; r < rows; ++r)
        EXPECT_EQ(buffers[2].get(r + 1), (double)(programs / rows)) << what;
    }
    std::vector<double> got, in;
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        got.push_back(buffers[0].get(r * stride + c));
        in.push_back(buffers[1].get(r * stride + c));
      }
      for (int64_t c = cols; c < stride; ++c)
        ASSERT_TRUE(std::isnan(buffers[0].get(r * stride + c)))
            << what << ": wrote padding at row " << r << " column " << c;
    }
    expectClose(got, referenceSoftmax(in, rows, cols), what,
                dtype == DType::F32 ? 1e-5 : 1e-2);
  }
};

TEST_F(SoftmaxLibraryTest, EveryClusterSizeAndFill) {
  for (int64_t size : {2, 4, 8, 16}) {
    SoftmaxClusterConfig c;
    c.block = 64;
    c.numWarps = 1;
    c.clusterSize = size;
    int64_t capacity = 64 * size;
    for (int64_t cols : {capacity, capacity - 5, int64_t(64 + 3), int64_t(1)})
      check(c, 5, cols, 3.0);
  }
}

TEST_F(SoftmaxLibraryTest, HalfPrecisionAndSpecialValues) {
  SoftmaxClusterConfig c;
  c.block = 128;
  c.numWarps = 2;
  c.clusterSize = 4;
  c.in = c.out = ElemType::F16;
  check(c, 6, 500);
  c.in = c.out = ElemType::F32;
  check(c, 6, 500, 1.0, /*specials=*/true);
}

// Clusters whose programs loop over slices of the row (`loop`): slices of
// several blocks, rows whose last slice ends inside a block, rows that
// leave the last programs without columns, one column; f16 and special
// values.
TEST_F(SoftmaxLibraryTest, ClusterSlicesOfAnyLength) {
  SoftmaxClusterConfig c;
  c.block = 32;
  c.numWarps = 1;
  c.loop = true;
  for (int64_t size : {2, 4}) {
    c.clusterSize = size;
    for (int64_t cols : {32 * size * 3, 32 * size * 3 - 7, 32 * size + 1,
                         int64_t(40), int64_t(1)})
      check(c, 3, cols, 3.0);
  }
  c.clusterSize = 4;
  c.in = c.out = ElemType::F16;
  check(c, 4, 1000);
  c.in = c.out = ElemType::F32;
  check(c, 4, 1000, 1.0, /*specials=*/true);
}

// Rows split over programs anywhere in the grid (tile.wait_at_least): rows
// of one slice or several, ending inside a slice, one column; more
// programs than the interpreter keeps running at once (256: rows finish
// and free room for later ones); f16 and special values.
TEST_F(SoftmaxLibraryTest, GridSlicesOfAnyLength) {
  SoftmaxGridConfig c;
  c.block = 32;
  c.numWarps = 1;
  c.maxSlices = 8;
  for (int64_t cols : {int64_t(32 * 8), int64_t(32 * 5 - 7), int64_t(33),
                       int64_t(32), int64_t(1)})
    check(c, 3, cols, 3.0);
  check(c, 70, 32 * 4); // 280 programs
  c.in = c.out = ElemType::F16;
  check(c, 4, 200);
  c.in = c.out = ElemType::F32;
  check(c, 4, 200, 1.0, /*specials=*/true);
}

// The library's occupancy requests change nothing the interpreter sees, but
// the attribute must verify and run.
TEST_F(SoftmaxLibraryTest, OccupancyRequest) {
  SoftmaxClusterConfig c;
  c.block = 256;
  c.numWarps = 2;
  c.clusterSize = 2;
  c.minProgramsPerSM = 4;
  check(c, 3, 300);
}

// Two tiles per row: 64 + 32 columns, 4 rows per program (a row count
// that leaves the last program's block partly empty), then 1 row per
// program; rows that fill both tiles, end in the second, end in the first
// (the second all masked) or have one column.
TEST_F(SoftmaxLibraryTest, RowsWithTwoTiles) {
  SoftmaxRowsConfig c;
  c.block = 64;
  c.tail = 32;
  c.numWarps = 1;
  for (int64_t rowsPerProgram : {4, 1}) {
    c.rows = rowsPerProgram;
    for (int64_t cols : {96, 95, 70, 40, 1})
      check(c, 7, cols, 3.0);
  }
  c.in = c.out = ElemType::F16;
  check(c, 5, 90);
  c.in = c.out = ElemType::F32;
  check(c, 5, 96, 1.0, /*specials=*/true);
  // Built for rows of a multiple of 16 bytes (n_cols % 4 == 0 for f32).
  c.colsAligned = true;
  for (int64_t cols : {96, 92, 64, 36})
    check(c, 7, cols, 3.0);
}

// The persistent loop carries both tiles' loads to the next iteration: 3
// programs over 10 row blocks.
TEST_F(SoftmaxLibraryTest, PersistentRowsWithTwoTiles) {
  SoftmaxRowsConfig c;
  c.block = 128;
  c.tail = 64;
  c.rows = 2;
  c.numWarps = 2;
  c.persistent = true;
  check(c, 20, 150, 2.0, /*specials=*/false, /*programs=*/3);
  check(c, 19, 190, 1.0, /*specials=*/true, /*programs=*/3);
}

} // namespace

// Persistent rows through a pipelined block pointer (`stages`): 3
// programs over the row blocks, rows that fill the block or end inside it
// (the zero-filled columns must take -inf), a last row block past n_rows.
TEST_F(SoftmaxLibraryTest, PipelinedPersistentRows) {
  for (ElemType t : {ElemType::F32, ElemType::F16}) {
    SoftmaxRowsConfig c;
    c.in = c.out = t;
    c.block = 128;
    c.rows = 2;
    c.numWarps = 2;
    c.persistent = true;
    c.stages = 3;
    check(c, 20, 128, 2.0, /*specials=*/false, /*programs=*/3);
    check(c, 19, 100, 1.0, /*specials=*/true, /*programs=*/3);
    check(c, 1, 8, 4.0, /*specials=*/false, /*programs=*/1);
  }
}
