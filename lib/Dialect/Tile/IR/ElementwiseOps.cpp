//===- ElementwiseOps.cpp - The arith and math ops Tile supports ----------===//

#include "tile/Dialect/Tile/IR/ElementwiseOps.h"

#include "llvm/ADT/StringMap.h"

#include <cmath>
#include <string>

using namespace mlir;
using namespace mlir::tile;
using llvm::ArrayRef;
using llvm::StringRef;

namespace {

constexpr ElementKind F = ElementKind::Float, I = ElementKind::Integer;
constexpr GpuLowering Native = GpuLowering::Native,
                      Expanded = GpuLowering::Expanded,
                      LibDevice = GpuLowering::LibDevice;

double rsqrt(double x) { return 1 / std::sqrt(x); }
double roundEven(double x) { return x - std::remainder(x, 1.0); }

// Math ops: name, operands, lowering, libdevice (f32, f64), interpreter,
// test domain. The domains keep inputs where the function is finite and
// not so steep that one ulp of input moves the result far (tan short of
// pi/2, powf's base positive).
#define UNARY(fn) [](double x) { return fn(x); }, nullptr
#define BINARY(fn) nullptr, [](double x, double y) { return fn(x, y); }
const ElementwiseOpInfo kOps[] = {
    {"math.exp", 1, F, Native, "", "__nv_exp", UNARY(std::exp), -10, 10},
    {"math.exp2", 1, F, Native, "", "__nv_exp2", UNARY(std::exp2), -10, 10},
    {"math.log", 1, F, Native, "", "__nv_log", UNARY(std::log), 0.01, 100},
    {"math.log2", 1, F, Native, "", "__nv_log2", UNARY(std::log2), 0.01, 100},
    {"math.sqrt", 1, F, Native, "", "", UNARY(std::sqrt), 0, 100},
    {"math.absf", 1, F, Native, "", "", UNARY(std::fabs), -10, 10},
    {"math.floor", 1, F, Native, "", "", UNARY(std::floor), -10, 10},
    {"math.ceil", 1, F, Native, "", "", UNARY(std::ceil), -10, 10},
    {"math.trunc", 1, F, Native, "", "", UNARY(std::trunc), -10, 10},
    {"math.round", 1, F, Native, "", "", UNARY(std::round), -10, 10},
    {"math.roundeven", 1, F, Native, "", "", UNARY(roundEven), -10, 10},
    {"math.copysign", 2, F, Native, "", "", BINARY(std::copysign), -10, 10},
    {"math.fma", 3, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"math.rsqrt", 1, F, Expanded, "", "", UNARY(rsqrt), 0.01, 100},
    {"math.tanh", 1, F, Expanded, "", "", UNARY(std::tanh), -5, 5},
    {"math.sinh", 1, F, Expanded, "", "", UNARY(std::sinh), -5, 5},
    {"math.cosh", 1, F, Expanded, "", "", UNARY(std::cosh), -5, 5},
    {"math.asinh", 1, F, Expanded, "", "", UNARY(std::asinh), -10, 10},
    {"math.acosh", 1, F, Expanded, "", "", UNARY(std::acosh), 1, 10},
    {"math.atanh", 1, F, Expanded, "", "", UNARY(std::atanh), -0.9, 0.9},
    {"math.erf", 1, F, LibDevice, "__nv_erff", "__nv_erf", UNARY(std::erf), -3,
     3},
    {"math.erfc", 1, F, LibDevice, "__nv_erfcf", "__nv_erfc", UNARY(std::erfc),
     -3, 3},
    {"math.sin", 1, F, LibDevice, "__nv_sinf", "__nv_sin", UNARY(std::sin), -10,
     10},
    {"math.cos", 1, F, LibDevice, "__nv_cosf", "__nv_cos", UNARY(std::cos), -10,
     10},
    {"math.tan", 1, F, LibDevice, "__nv_tanf", "__nv_tan", UNARY(std::tan),
     -1.4, 1.4},
    {"math.asin", 1, F, LibDevice, "__nv_asinf", "__nv_asin", UNARY(std::asin),
     -1, 1},
    {"math.acos", 1, F, LibDevice, "__nv_acosf", "__nv_acos", UNARY(std::acos),
     -1, 1},
    {"math.atan", 1, F, LibDevice, "__nv_atanf", "__nv_atan", UNARY(std::atan),
     -10, 10},
    {"math.atan2", 2, F, LibDevice, "__nv_atan2f", "__nv_atan2",
     BINARY(std::atan2), -10, 10},
    {"math.log1p", 1, F, LibDevice, "__nv_log1pf", "__nv_log1p",
     UNARY(std::log1p), -0.9, 10},
    {"math.expm1", 1, F, LibDevice, "__nv_expm1f", "__nv_expm1",
     UNARY(std::expm1), -5, 5},
    {"math.log10", 1, F, LibDevice, "__nv_log10f", "__nv_log10",
     UNARY(std::log10), 0.01, 100},
    {"math.cbrt", 1, F, LibDevice, "__nv_cbrtf", "__nv_cbrt", UNARY(std::cbrt),
     -10, 10},
    {"math.powf", 2, F, LibDevice, "__nv_powf", "__nv_pow", BINARY(std::pow),
     0.5, 4},
    // arith: computed by the interpreter's own code, lowered by LLVM's.
    {"arith.addf", 2, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"arith.subf", 2, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"arith.mulf", 2, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"arith.divf", 2, F, Native, "", "", nullptr, nullptr, 0.5, 10},
    {"arith.remf", 2, F, Native, "", "", nullptr, nullptr, 0.5, 10},
    {"arith.negf", 1, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"arith.maximumf", 2, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"arith.minimumf", 2, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"arith.maxnumf", 2, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"arith.minnumf", 2, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"arith.addi", 2, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.subi", 2, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.muli", 2, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.divsi", 2, I, Native, "", "", nullptr, nullptr, 1, 1000},
    {"arith.divui", 2, I, Native, "", "", nullptr, nullptr, 1, 1000},
    {"arith.remsi", 2, I, Native, "", "", nullptr, nullptr, 1, 1000},
    {"arith.remui", 2, I, Native, "", "", nullptr, nullptr, 1, 1000},
    {"arith.ceildivsi", 2, I, Native, "", "", nullptr, nullptr, 1, 1000},
    {"arith.floordivsi", 2, I, Native, "", "", nullptr, nullptr, 1, 1000},
    {"arith.maxsi", 2, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.minsi", 2, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.maxui", 2, I, Native, "", "", nullptr, nullptr, 0, 1000},
    {"arith.minui", 2, I, Native, "", "", nullptr, nullptr, 0, 1000},
    {"arith.andi", 2, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.ori", 2, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.xori", 2, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.shli", 2, I, Native, "", "", nullptr, nullptr, 0, 20},
    {"arith.shrsi", 2, I, Native, "", "", nullptr, nullptr, 0, 20},
    {"arith.shrui", 2, I, Native, "", "", nullptr, nullptr, 0, 20},
    // Ops whose operand and result types differ; the tests build their
    // kernels by hand.
    {"arith.constant", 0, F, Native, "", "", nullptr, nullptr, 0, 0},
    {"arith.cmpf", 2, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"arith.cmpi", 2, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.select", 3, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"arith.extf", 1, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"arith.truncf", 1, F, Native, "", "", nullptr, nullptr, -10, 10},
    {"arith.sitofp", 1, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.uitofp", 1, I, Native, "", "", nullptr, nullptr, 0, 1000},
    {"arith.fptosi", 1, F, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.fptoui", 1, F, Native, "", "", nullptr, nullptr, 0, 1000},
    {"arith.extsi", 1, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.extui", 1, I, Native, "", "", nullptr, nullptr, 0, 1000},
    {"arith.trunci", 1, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.index_cast", 1, I, Native, "", "", nullptr, nullptr, -1000, 1000},
    {"arith.index_castui", 1, I, Native, "", "", nullptr, nullptr, 0, 1000},
};
#undef UNARY
#undef BINARY

} // namespace

ArrayRef<ElementwiseOpInfo> mlir::tile::getElementwiseOps() { return kOps; }

const ElementwiseOpInfo *mlir::tile::lookupElementwiseOp(StringRef name) {
  static const llvm::StringMap<const ElementwiseOpInfo *> byName = [] {
    llvm::StringMap<const ElementwiseOpInfo *> map;
    for (const ElementwiseOpInfo &op : kOps)
      map[op.name] = &op;
    return map;
  }();
  auto it = byName.find(name);
  return it == byName.end() ? nullptr : it->second;
}

std::string mlir::tile::getUnsupportedReason(StringRef name) {
  if (name == "math.fpowi" || name == "math.ipowi")
    return "raise to a power with math.powf on floats, or multiply";
  if (name.starts_with("math.is"))
    return "compare instead (x != x is NaN; math.absf(x) == inf is infinite)";
  if (name.starts_with("math.ct") || name == "math.ctpop" ||
      name == "math.absi")
    return "integer bit counts and math.absi are not supported yet (use "
           "arith.maxsi(x, 0 - x) for an absolute value)";
  if (name == "arith.bitcast")
    return "reinterpreting bits is not supported on tiles";
  return "it is not in Tile's table of supported ops";
}
