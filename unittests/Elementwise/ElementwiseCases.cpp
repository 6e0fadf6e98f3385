//===- ElementwiseCases.cpp - Kernels for each supported op ---------------===//

#include "ElementwiseCases.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;

namespace elementwise {
namespace {

Buffer poisoned(const std::string &name, DType t) {
  Buffer b(name, t, {kElements});
  for (int64_t k = 0; k < kElements; ++k)
    b.set(k, isFloat(t) ? NAN : -12345);
  return b;
}

/// y = op(x0, ..., xn-1) on `kElements` elements of `t`.
Case makeOpCase(const ElementwiseOpInfo &info, DType t, std::mt19937_64 &rng) {
  Case c;
  c.info = &info;
  std::string ty = dtypeName(t).str();
  c.name = (info.name + "_" + ty).str();
  std::string tensor = llvm::formatv("tensor<{0}x{1}>", kElements, ty).str();
  std::string ptrs =
      llvm::formatv("tensor<{0}x!tile.ptr<{1}>>", kElements, ty).str();
  std::string params, body, operands, operandTypes;
  for (unsigned i = 0; i <= info.numOperands; ++i) {
    params += llvm::formatv("{0}%p{1}: !tile.ptr<{2}>", i ? ", " : "", i, ty);
    body += llvm::formatv("  %b{0} = tile.splat %p{0} : {1}\n"
                          "  %a{0} = tile.addptr %b{0}, %r : {1}, "
                          "tensor<{2}xi32>\n",
                          i, ptrs, kElements);
    if (i == info.numOperands)
      continue;
    body += llvm::formatv("  %x{0} = tile.load %a{0} : {1}\n", i, ptrs);
    operands += llvm::formatv("{0}%x{1}", i ? ", " : "", i);
    operandTypes += (i ? ", " : "") + tensor;
  }
  c.text = llvm::formatv(
      "func.func @k({0}) attributes {{tile.kernel, tile.num_warps = 4 : "
      "i32} {{\n  %r = tile.range 0, {1} : tensor<{1}xi32>\n{2}"
      "  %y = \"{3}\"({4}) : ({5}) -> {6}\n"
      "  tile.store %a{7}, %y : {8}\n  return\n}\n",
      params, kElements, body, info.name, operands, operandTypes, tensor,
      info.numOperands, ptrs);

  std::uniform_real_distribution<double> real(info.domainLo, info.domainHi);
  std::uniform_int_distribution<int64_t> integer((int64_t)info.domainLo,
                                                 (int64_t)info.domainHi);
  for (unsigned i = 0; i < info.numOperands; ++i) {
    Buffer b("x" + std::to_string(i), t, {kElements});
    for (int64_t k = 0; k < kElements; ++k)
      b.set(k, isFloat(t) ? real(rng) : (double)integer(rng));
    c.buffers.push_back(std::move(b));
  }
  c.buffers.push_back(poisoned("y", t));
  c.tolerance = t == DType::F64   ? 1e-12
                : t == DType::F32 ? 1e-5
                : isFloat(t)      ? 1e-2
                                  : 0;
  return c;
}

/// The ops whose operand and result types differ, in one kernel: x is f32,
/// i is i32, s an i32 scalar; y (f32) and z (i32) sum what they give.
Case makeConversionCase(std::mt19937_64 &rng) {
  Case c;
  c.name = "conversions";
  c.text = R"(
func.func @k(%px: !tile.ptr<f32>, %pi: !tile.ptr<i32>, %py: !tile.ptr<f32>,
             %pz: !tile.ptr<i32>, %s: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32>
  %bx = tile.splat %px : tensor<256x!tile.ptr<f32>>
  %ax = tile.addptr %bx, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %x = tile.load %ax : tensor<256x!tile.ptr<f32>>
  %bi = tile.splat %pi : tensor<256x!tile.ptr<i32>>
  %ai = tile.addptr %bi, %r : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %i = tile.load %ai : tensor<256x!tile.ptr<i32>>
  %zero = arith.constant 0.0 : f32
  %zeros = tile.splat %zero : tensor<256xf32>
  %neg = arith.cmpf olt, %x, %zeros : tensor<256xf32>
  %negx = arith.negf %x : tensor<256xf32>
  %absx = arith.select %neg, %negx, %x : tensor<256xi1>, tensor<256xf32>
  %h = arith.truncf %x : tensor<256xf32> to tensor<256xf16>
  %hx = arith.extf %h : tensor<256xf16> to tensor<256xf32>
  %si = arith.sitofp %i : tensor<256xi32> to tensor<256xf32>
  %izero = arith.constant 0 : i32
  %izeros = tile.splat %izero : tensor<256xi32>
  %ipos = arith.cmpi sgt, %i, %izeros : tensor<256xi32>
  %iu = arith.select %ipos, %i, %izeros : tensor<256xi1>, tensor<256xi32>
  %ui = arith.uitofp %iu : tensor<256xi32> to tensor<256xf32>
  %y0 = arith.addf %absx, %hx : tensor<256xf32>
  %y1 = arith.addf %si, %ui : tensor<256xf32>
  %y = arith.addf %y0, %y1 : tensor<256xf32>
  %by = tile.splat %py : tensor<256x!tile.ptr<f32>>
  %ay = tile.addptr %by, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %ay, %y : tensor<256x!tile.ptr<f32>>
  %fs = arith.fptosi %x : tensor<256xf32> to tensor<256xi32>
  %fu = arith.fptoui %absx : tensor<256xf32> to tensor<256xi32>
  %w = arith.extsi %i : tensor<256xi32> to tensor<256xi64>
  %n = arith.trunci %w : tensor<256xi64> to tensor<256xi32>
  %flag = arith.extui %ipos : tensor<256xi1> to tensor<256xi32>
  %sx = arith.index_cast %s : i32 to index
  %sy = arith.index_castui %sx : index to i32
  %ss = tile.splat %sy : tensor<256xi32>
  %z0 = arith.addi %fs, %fu : tensor<256xi32>
  %z1 = arith.addi %n, %flag : tensor<256xi32>
  %z2 = arith.addi %z0, %z1 : tensor<256xi32>
  %z = arith.addi %z2, %ss : tensor<256xi32>
  %bz = tile.splat %pz : tensor<256x!tile.ptr<i32>>
  %az = tile.addptr %bz, %r : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  tile.store %az, %z : tensor<256x!tile.ptr<i32>>
  return
}
)";
  Buffer x("x", DType::F32, {kElements}), i("i", DType::I32, {kElements});
  std::uniform_real_distribution<double> real(-100, 100);
  std::uniform_int_distribution<int64_t> integer(-1000, 1000);
  for (int64_t k = 0; k < kElements; ++k) {
    x.set(k, real(rng));
    i.set(k, (double)integer(rng));
  }
  c.buffers = {x, i, poisoned("y", DType::F32), poisoned("z", DType::I32)};
  c.numOutputs = 2;
  c.scalars = {7};
  c.tolerance = 1e-6;
  return c;
}

} // namespace

bool isConversionOp(llvm::StringRef name) {
  static const llvm::StringSet<> ops = {
      "arith.constant", "arith.cmpf",       "arith.cmpi",        "arith.select",
      "arith.extf",     "arith.truncf",     "arith.sitofp",      "arith.uitofp",
      "arith.fptosi",   "arith.fptoui",     "arith.extsi",       "arith.extui",
      "arith.trunci",   "arith.index_cast", "arith.index_castui"};
  return ops.contains(name);
}

std::vector<Case> makeCases(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Case> cases;
  for (const ElementwiseOpInfo &info : getElementwiseOps()) {
    if (isConversionOp(info.name))
      continue;
    std::vector<DType> types = {DType::I32};
    if (info.kind == ElementKind::Float)
      types = {DType::F32, DType::F16, DType::BF16, DType::F64};
    for (DType t : types) {
      // A remainder in f16 or bf16 of a quotient of several units keeps no
      // significant digit; f32 and f64 only.
      if (info.name == "arith.remf" && (t == DType::F16 || t == DType::BF16))
        continue;
      cases.push_back(makeOpCase(info, t, rng));
    }
  }
  cases.push_back(makeConversionCase(rng));
  return cases;
}

bool prepare(const Case &c, const std::string &chip, Prepared &out,
             std::string &error) {
  MLIRContext context;
  DialectRegistry registry;
  registerCompilerDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    error += d.str() + "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(c.text, &context);
  if (!module)
    return false;
  PassManager checks(&context);
  buildKernelCheckPipeline(checks);
  if (failed(checks.run(*module)))
    return false;
  func::FuncOp kernel = lookupKernel(*module, "k");
  if (!kernel)
    return false;

  std::vector<ArgValue> args;
  for (int i = 0, e = c.buffers.size(); i < e; ++i)
    args.push_back(ArgValue::buffer(i));
  for (int64_t s : c.scalars)
    args.push_back(ArgValue::integer(s));
  out.results = c.buffers;
  RunOptions options;
  options.printStream = nullptr;
  if (failed(runKernel(kernel, args, out.results, options)))
    return false;

  CompileOptions opts;
  opts.chip = chip;
  FailureOr<CompiledModule> compiled = compileModule(*module, opts);
  if (failed(compiled))
    return false;
  out.compiled = std::move(*compiled);
  return true;
}

} // namespace elementwise
