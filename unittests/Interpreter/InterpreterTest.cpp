//===- InterpreterTest.cpp - Semantics and errors of the interpreter ------===//

#include "TestUtil.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tiletest;

namespace {

RunOptions quietGrid(int64_t x) {
  RunOptions o;
  o.grid[0] = x;
  o.printStream = nullptr;
  return o;
}

// Masked lanes read `other`; without `other` they read zero. Unmasked lanes
// beyond the buffer would fault, so this also proves masked lanes are not
// accessed.
constexpr const char *kMaskedLoad = R"mlir(
func.func @k(%in: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %offs = tile.range 0, 8 : tensor<8xi32>
  %nn = tile.splat %n : tensor<8xi32>
  %mask = arith.cmpi slt, %offs, %nn : tensor<8xi32>
  %p = tile.splat %in : tensor<8x!tile.ptr<f32>>
  %ptrs = tile.addptr %p, %offs : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %other = arith.constant dense<-7.0> : tensor<8xf32>
  %a = tile.load %ptrs, %mask, %other : tensor<8x!tile.ptr<f32>>
  %b = tile.load %ptrs, %mask : tensor<8x!tile.ptr<f32>>
  %s = arith.addf %a, %b : tensor<8xf32>
  %q = tile.splat %out : tensor<8x!tile.ptr<f32>>
  %optrs = tile.addptr %q, %offs : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %optrs, %s : tensor<8x!tile.ptr<f32>>
  return
}
)mlir";

TEST(InterpreterTest, MaskedLoadReadsOther) {
  KernelHarness h;
  ASSERT_TRUE(h.parseString(kMaskedLoad)) << h.diagnostics;
  std::vector<Buffer> bufs{Buffer("in", DType::F32, {5}),
                           poisonedBuffer("out", {8})};
  for (int i = 0; i < 5; ++i)
    bufs[0].set(i, i + 1);
  ASSERT_TRUE(succeeded(runKernel(
      h.kernel(), {ArgValue::buffer(0), ArgValue::buffer(1), i32(5)}, bufs,
      quietGrid(1))))
      << h.diagnostics;
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(bufs[1].get(i), i < 5 ? 2.0 * (i + 1) : -7.0) << i;
}

// tile.tf32_parts: hi to nearest tf32 with ties to even, lo the rounded
// remainder; the tf32 dot's own operand rounding breaks ties away from
// zero instead.
constexpr const char *kTF32Parts = R"mlir(
func.func @k(%in: !tile.ptr<f32>, %hi: !tile.ptr<f32>, %lo: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 8 : tensor<8xi32>
  %ins = tile.splat %in : tensor<8x!tile.ptr<f32>>
  %inp = tile.addptr %ins, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %x = tile.load %inp : tensor<8x!tile.ptr<f32>>
  %h, %l = tile.tf32_parts %x : tensor<8xf32>
  %his = tile.splat %hi : tensor<8x!tile.ptr<f32>>
  %hip = tile.addptr %his, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %hip, %h : tensor<8x!tile.ptr<f32>>
  %los = tile.splat %lo : tensor<8x!tile.ptr<f32>>
  %lop = tile.addptr %los, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %lop, %l : tensor<8x!tile.ptr<f32>>
  return
}
)mlir";

TEST(InterpreterTest, TF32PartsRoundToNearestEven) {
  KernelHarness h;
  ASSERT_TRUE(h.parseString(kTF32Parts)) << h.diagnostics;
  std::vector<Buffer> bufs{Buffer("in", DType::F32, {8}),
                           poisonedBuffer("hi", {8}),
                           poisonedBuffer("lo", {8})};
  double ulp = std::ldexp(1.0, -10);     // tf32's ulp at [1, 2)
  double inputs[8] = {1.0 + ulp / 2,     // tie: to 1 (even)
                      1.0 + 3 * ulp / 2, // tie: to 1 + 2 ulp (even)
                      1.0 + ulp / 2 + std::ldexp(1.0, -23), // above the tie: up
                      -(1.0 + ulp / 2),           // a negative tie: to -1
                      1.0 + std::ldexp(1.0, -23), // lo = 2^-23, exact
                      0.3,                        // an ordinary value
                      std::numeric_limits<double>::infinity(),
                      std::nan("")};
  for (int i = 0; i < 8; ++i)
    bufs[0].set(i, inputs[i]);
  ASSERT_TRUE(succeeded(
      runKernel(h.kernel(),
                {ArgValue::buffer(0), ArgValue::buffer(1), ArgValue::buffer(2)},
                bufs, quietGrid(1))))
      << h.diagnostics;
  EXPECT_EQ(bufs[1].get(0), 1.0);
  EXPECT_EQ(bufs[2].get(0), ulp / 2);
  EXPECT_EQ(bufs[1].get(1), 1.0 + 2 * ulp);
  EXPECT_EQ(bufs[2].get(1), -ulp / 2);
  EXPECT_EQ(bufs[1].get(2), 1.0 + ulp);
  EXPECT_EQ(bufs[1].get(3), -1.0);
  EXPECT_EQ(bufs[1].get(4), 1.0);
  EXPECT_EQ(bufs[2].get(4), std::ldexp(1.0, -23));
  // hi has at most 11 significant bits, and hi + lo is x to 2^-22.
  float x = 0.3f, hi = (float)bufs[1].get(5), lo = (float)bufs[2].get(5);
  uint32_t bits;
  std::memcpy(&bits, &hi, 4);
  EXPECT_EQ(bits & 0x1fffu, 0u);
  std::memcpy(&bits, &lo, 4);
  EXPECT_EQ(bits & 0x1fffu, 0u);
  EXPECT_LE(std::fabs((double)hi + lo - x), std::ldexp(std::fabs(x), -22));
  EXPECT_EQ(bufs[1].get(6), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(bufs[2].get(6)));
  EXPECT_TRUE(std::isnan(bufs[1].get(7)));
  EXPECT_TRUE(std::isnan(bufs[2].get(7)));
}

// math.fma rounds once, as fma.rn.f32 does: (1 + 2^-12)^2 + 2^-80 lies just
// above the halfway point between two floats; rounding the double sum to
// nearest first would lose 2^-80 and then round the tie to even.
constexpr const char *kFma = R"mlir(
func.func @k(%out: !tile.ptr<f32>, %a: f32, %c: f32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = math.fma %a, %a, %c : f32
  tile.store %out, %r : !tile.ptr<f32>
  return
}
)mlir";

TEST(InterpreterTest, FmaRoundsOnce) {
  KernelHarness h;
  ASSERT_TRUE(h.parseString(kFma)) << h.diagnostics;
  std::vector<Buffer> bufs{poisonedBuffer("out", {1})};
  double a = 1.0 + std::ldexp(1.0, -12), c = std::ldexp(1.0, -80);
  ASSERT_TRUE(succeeded(runKernel(
      h.kernel(), {ArgValue::buffer(0), ArgValue::real(a), ArgValue::real(c)},
      bufs, quietGrid(1))))
      << h.diagnostics;
  EXPECT_EQ(bufs[0].get(0), 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -23));
  EXPECT_EQ((float)bufs[0].get(0), std::fmaf((float)a, (float)a, (float)c));
}

TEST(InterpreterTest, OutOfBoundsLoadIsReportedWithLocation) {
  KernelHarness h;
  ASSERT_TRUE(h.parseString(kMaskedLoad));
  std::vector<Buffer> bufs{Buffer("in", DType::F32, {5}),
                           poisonedBuffer("out", {8})};
  // n = 6 unmasks one lane past the 5-element buffer.
  EXPECT_TRUE(failed(runKernel(
      h.kernel(), {ArgValue::buffer(0), ArgValue::buffer(1), i32(6)}, bufs,
      quietGrid(1))));
  EXPECT_NE(h.diagnostics.find("out-of-bounds load of buffer 'in'"),
            std::string::npos)
      << h.diagnostics;
  EXPECT_NE(h.diagnostics.find("element offset 5"), std::string::npos);
}

TEST(InterpreterTest, OutOfBoundsStoreIsReported) {
  KernelHarness h;
  ASSERT_TRUE(h.parseString(kMaskedLoad));
  std::vector<Buffer> bufs{Buffer("in", DType::F32, {8}),
                           poisonedBuffer("out", {7})};
  EXPECT_TRUE(failed(runKernel(
      h.kernel(), {ArgValue::buffer(0), ArgValue::buffer(1), i32(8)}, bufs,
      quietGrid(1))));
  EXPECT_NE(h.diagnostics.find("out-of-bounds store of buffer 'out'"),
            std::string::npos)
      << h.diagnostics;
}

TEST(InterpreterTest, NullPointerIsReported) {
  KernelHarness h;
  ASSERT_TRUE(h.parseString(kMaskedLoad));
  std::vector<Buffer> bufs{poisonedBuffer("out", {8})};
  EXPECT_TRUE(failed(runKernel(
      h.kernel(), {ArgValue::buffer(-1), ArgValue::buffer(0), i32(3)}, bufs,
      quietGrid(1))));
  EXPECT_NE(h.diagnostics.find("null or invalid pointer"), std::string::npos)
      << h.diagnostics;
}

TEST(InterpreterTest, ArgumentMismatchesAreReported) {
  KernelHarness h;
  ASSERT_TRUE(h.parseString(kMaskedLoad));
  std::vector<Buffer> bufs{Buffer("in", DType::F16, {8}),
                           poisonedBuffer("out", {8})};
  EXPECT_TRUE(failed(runKernel(h.kernel(), {ArgValue::buffer(0)}, bufs,
                               quietGrid(1))));
  EXPECT_NE(h.diagnostics.find("takes 3 arguments but 1 were given"),
            std::string::npos)
      << h.diagnostics;
  EXPECT_TRUE(failed(runKernel(
      h.kernel(), {ArgValue::buffer(0), ArgValue::buffer(1), i32(3)}, bufs,
      quietGrid(1))));
  EXPECT_NE(h.diagnostics.find("buffer 'in' holds f16"), std::string::npos)
      << h.diagnostics;
  EXPECT_TRUE(failed(runKernel(
      h.kernel(), {ArgValue::buffer(1), ArgValue::buffer(1), i32(1) },
      bufs, [] { RunOptions o = quietGrid(1); o.grid[1] = 0; return o; }())));
  EXPECT_NE(h.diagnostics.find("grid dimension 1 is 0"), std::string::npos);
}

constexpr const char *kDivide = R"mlir(
func.func @k(%out: !tile.ptr<i32>, %a: i32, %b: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %q = arith.divsi %a, %b : i32
  %r = arith.remsi %a, %b : i32
  %c = arith.ceildivsi %a, %b : i32
  %s = arith.addi %q, %r : i32
  %t = arith.muli %s, %c : i32
  tile.store %out, %t : !tile.ptr<i32>
  return
}
)mlir";

TEST(InterpreterTest, IntegerArithmeticAndDivisionByZero) {
  KernelHarness h;
  ASSERT_TRUE(h.parseString(kDivide)) << h.diagnostics;
  std::vector<Buffer> bufs{Buffer("out", DType::I32, {1})};
  ASSERT_TRUE(succeeded(runKernel(
      h.kernel(), {ArgValue::buffer(0), i32(-7), i32(2)}, bufs, quietGrid(1))));
  // q = -3, r = -1, ceil(-3.5) = -3: (-4) * (-3) = 12.
  EXPECT_EQ(bufs[0].get(0), 12);
  EXPECT_TRUE(failed(runKernel(
      h.kernel(), {ArgValue::buffer(0), i32(1), i32(0)}, bufs, quietGrid(1))));
  EXPECT_NE(h.diagnostics.find("integer division by zero"), std::string::npos);
}

// Block loads pad out-of-bounds elements; the reduction and scf.for carry
// tiles; dot with tf32 rounds its inputs to 10 mantissa bits.
constexpr const char *kBlockAndDot = R"mlir(
func.func @k(%in: !tile.ptr<f32>, %out: !tile.ptr<f32>, %rows: i64, %cols: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %in, [%rows, %cols], [%cols, %c1], [%c0, %c0]
          order = [1, 0] : !tile.block_ptr<tensor<4x4xf32>>
  %x = tile.block_load %bp check = [0, 1] padding = neg_inf
         : !tile.block_ptr<tensor<4x4xf32>>
  %m = tile.reduce max %x axis = 1 : tensor<4x4xf32> -> tensor<4xf32>
  %z = tile.block_load %bp check = [0, 1] : !tile.block_ptr<tensor<4x4xf32>>
  %zero = arith.constant dense<0.0> : tensor<4x4xf32>
  %d = tile.dot %z, %z, %zero precision = tf32
         : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %obp = tile.make_block_ptr %out, [%rows, %cols], [%cols, %c1], [%c0, %c0]
           order = [1, 0] : !tile.block_ptr<tensor<4x4xf32>>
  tile.block_store %obp, %d check = [0, 1] : !tile.block_ptr<tensor<4x4xf32>>
  %mp = tile.addptr %out, %c0 : !tile.ptr<f32>, i32
  %s = tile.reduce sum %m axis = 0 : tensor<4xf32> -> f32
  tile.print "sum of row maxima" %s : f32
  return
}
)mlir";

TEST(InterpreterTest, BlockPointersPadAndDotRoundsToTF32) {
  KernelHarness h;
  ASSERT_TRUE(h.parseString(kBlockAndDot)) << h.diagnostics;
  // A 3x3 array in a 4x4 block: the fourth row and column are padding.
  std::vector<Buffer> bufs{Buffer("in", DType::F32, {3, 3}),
                           poisonedBuffer("out", {3, 3})};
  double x = 1.0 + std::ldexp(1.0, -12); // not representable in tf32
  for (int i = 0; i < 9; ++i)
    bufs[0].set(i, x);
  std::string printed;
  llvm::raw_string_ostream os(printed);
  RunOptions o = quietGrid(1);
  o.printStream = &os;
  ASSERT_TRUE(succeeded(runKernel(
      h.kernel(),
      {ArgValue::buffer(0), ArgValue::buffer(1), i32(3), i32(3)}, bufs, o)))
      << h.diagnostics;
  // tf32 rounds x to 1.0, so every product is exactly 1 and each output 3.
  for (int i = 0; i < 9; ++i)
    EXPECT_EQ(bufs[1].get(i), 3.0) << i;
  // Row maxima: three rows of x and a padded row of -inf.
  EXPECT_NE(printed.find("sum of row maxima -inf"), std::string::npos)
      << printed;
}

TEST(InterpreterTest, UnsupportedOpIsReported) {
  KernelHarness h;
  ASSERT_TRUE(h.parseString(R"mlir(
func.func @k(%out: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = arith.constant 2.0 : f32
  %n = arith.constant 3 : i32
  %r = math.fpowi %c, %n : f32, i32
  tile.store %out, %r : !tile.ptr<f32>
  return
}
)mlir"))
      << h.diagnostics;
  std::vector<Buffer> bufs{Buffer("out", DType::F32, {1})};
  EXPECT_TRUE(failed(
      runKernel(h.kernel(), {ArgValue::buffer(0)}, bufs, quietGrid(1))));
  EXPECT_NE(h.diagnostics.find("does not support 'math.fpowi'"),
            std::string::npos)
      << h.diagnostics;
}

// A recursive helper: each call needs its own %n, %m and %f. With one
// environment shared by all calls, the innermost call's values overwrite
// the outer ones' and fact(5) came out as 1.
constexpr const char *kFactorial = R"mlir(
func.func @fact(%n: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %done = arith.cmpi sle, %n, %c1 : i32
  %r = scf.if %done -> (i32) {
    scf.yield %c1 : i32
  } else {
    %m = arith.subi %n, %c1 : i32
    %f = func.call @fact(%m) : (i32) -> i32
    %p = arith.muli %n, %f : i32
    scf.yield %p : i32
  }
  return %r : i32
}
func.func @k(%out: !tile.ptr<i32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %f = func.call @fact(%n) : (i32) -> i32
  tile.store %out, %f : !tile.ptr<i32>
  return
}
)mlir";

TEST(InterpreterTest, RecursiveCallsHaveTheirOwnValues) {
  KernelHarness h;
  ASSERT_TRUE(h.parseString(kFactorial)) << h.diagnostics;
  std::vector<Buffer> bufs{Buffer("out", DType::I32, {1})};
  for (auto [n, expected] : {std::pair<int64_t, double>{1, 1},
                             {5, 120},
                             {10, 3628800}}) {
    ASSERT_TRUE(succeeded(runKernel(h.kernel(), {ArgValue::buffer(0), i32(n)},
                                    bufs, quietGrid(1))))
        << h.diagnostics;
    EXPECT_EQ(bufs[0].get(0), expected) << "fact(" << n << ")";
  }
  // The depth guard still stops runaway recursion (fact(100) nests 99
  // calls inside the kernel's).
  EXPECT_TRUE(failed(runKernel(h.kernel(), {ArgValue::buffer(0), i32(100)},
                               bufs, quietGrid(1))));
  EXPECT_NE(h.diagnostics.find("call depth exceeds 64 (recursion?)"),
            std::string::npos)
      << h.diagnostics;
}

TEST(InterpreterTest, LookupKernel) {
  KernelHarness h;
  ASSERT_TRUE(h.parseString(kDivide));
  EXPECT_TRUE(h.kernel("k"));
  EXPECT_FALSE(h.kernel("nope"));
  EXPECT_NE(h.diagnostics.find("no tile kernel named 'nope'"),
            std::string::npos);
}

} // namespace
