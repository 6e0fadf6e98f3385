//===- ArithOps.cpp - Elementwise arith ops -------------------------------===//
//
// The arith dialect, element by element: floats are rounded to their
// element type after every op, integers wrapped to their width. The
// elementwise helpers (floatUnary, floatBinary, intBinary) serve the math
// ops too.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

LogicalResult Executor::floatUnary(Operation *op,
                                   std::function<double(double)> fn) {
  const Tensor &a = get(op->getOperand(0));
  Type type = op->getResult(0).getType();
  DType dt = floatDType(type);
  auto r = make(type);
  for (int64_t k = 0, n = r->size(); k < n; ++k)
    r->f[k] = roundTo(dt, fn(a.f[k]));
  set(op->getResult(0), r);
  return success();
}

LogicalResult Executor::floatBinary(Operation *op,
                                    std::function<double(double, double)> fn) {
  const Tensor &a = get(op->getOperand(0)), &b = get(op->getOperand(1));
  Type type = op->getResult(0).getType();
  DType dt = floatDType(type);
  auto r = make(type);
  for (int64_t k = 0, n = r->size(); k < n; ++k)
    r->f[k] = roundTo(dt, fn(a.f[k], b.f[k]));
  set(op->getResult(0), r);
  return success();
}

/// Integer op on the unsigned or signed readings of its operands; `fn`
/// returns false to signal division by zero.
LogicalResult Executor::intBinary(
    Operation *op,
    std::function<bool(int64_t, int64_t, int64_t, int64_t &)> fn) {
  const Tensor &a = get(op->getOperand(0)), &b = get(op->getOperand(1));
  Type type = op->getResult(0).getType();
  int64_t width = bitWidth(type);
  auto r = make(type);
  for (int64_t k = 0, n = r->size(); k < n; ++k) {
    int64_t out = 0;
    if (!fn(width, a.i[k], b.i[k], out))
      return error(op) << "integer division by zero";
    r->i[k] = wrap(width, out);
  }
  set(op->getResult(0), r);
  return success();
}

bool Executor::cmpF(arith::CmpFPredicate p, double a, double b) {
  using P = arith::CmpFPredicate;
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (p) {
  case P::AlwaysFalse:
    return false;
  case P::AlwaysTrue:
    return true;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  }
  return false;
}

bool Executor::cmpI(arith::CmpIPredicate p, int64_t width, int64_t a,
                    int64_t b) {
  using P = arith::CmpIPredicate;
  uint64_t ua = asUnsigned(width, a), ub = asUnsigned(width, b);
  // i1 is stored as 0/1; its signed reading is 0/-1.
  if (width == 1) {
    a = -a;
    b = -b;
  }
  switch (p) {
  case P::eq:
    return a == b;
  case P::ne:
    return a != b;
  case P::slt:
    return a < b;
  case P::sle:
    return a <= b;
  case P::sgt:
    return a > b;
  case P::sge:
    return a >= b;
  case P::ult:
    return ua < ub;
  case P::ule:
    return ua <= ub;
  case P::ugt:
    return ua > ub;
  case P::uge:
    return ua >= ub;
  }
  return false;
}

LogicalResult Executor::execConstant(arith::ConstantOp op) {
  Type type = op.getType();
  auto r = make(type);
  Attribute value = op.getValue();
  if (auto f = dyn_cast<FloatAttr>(value)) {
    r->f[0] = f.getValueAsDouble();
  } else if (auto i = dyn_cast<IntegerAttr>(value)) {
    r->i[0] = wrap(bitWidth(type), i.getValue().getSExtValue());
    if (bitWidth(type) == 1)
      r->i[0] = i.getValue().getBoolValue();
  } else if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (r->kind == Kind::Float) {
      int64_t k = 0;
      if (dense.isSplat())
        std::fill(r->f.begin(), r->f.end(),
                  dense.getSplatValue<APFloat>().convertToDouble());
      else
        for (APFloat v : dense.getValues<APFloat>())
          r->f[k++] = v.convertToDouble();
    } else {
      int64_t width = bitWidth(type), k = 0;
      auto conv = [&](const APInt &v) {
        return width == 1 ? (int64_t)v.getBoolValue()
                          : wrap(width, v.getSExtValue());
      };
      if (dense.isSplat())
        std::fill(r->i.begin(), r->i.end(), conv(dense.getSplatValue<APInt>()));
      else
        for (APInt v : dense.getValues<APInt>())
          r->i[k++] = conv(v);
    }
  } else {
    return error(op) << "unsupported constant " << value;
  }
  set(op.getResult(), r);
  return success();
}

LogicalResult Executor::execCast(Operation *op) {
  Value in = op->getOperand(0);
  Type inType = in.getType(), outType = op->getResult(0).getType();
  const Tensor &a = get(in);
  auto r = make(outType);
  int64_t inWidth = bitWidth(inType), outWidth = bitWidth(outType);
  for (int64_t k = 0, n = r->size(); k < n; ++k) {
    if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
      r->f[k] = roundTo(floatDType(outType), a.f[k]);
    } else if (isa<arith::SIToFPOp>(op)) {
      int64_t v = inWidth == 1 ? -a.i[k] : a.i[k];
      r->f[k] = roundTo(floatDType(outType), (double)v);
    } else if (isa<arith::UIToFPOp>(op)) {
      r->f[k] =
          roundTo(floatDType(outType), (double)asUnsigned(inWidth, a.i[k]));
    } else if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
      // Saturating, NaN -> 0, as the GPU's cvt.rzi does.
      double v = std::trunc(a.f[k]);
      double lo =
          isa<arith::FPToUIOp>(op) ? 0.0 : -std::ldexp(1.0, outWidth - 1);
      double hi = isa<arith::FPToUIOp>(op) ? std::ldexp(1.0, outWidth) - 1
                                           : std::ldexp(1.0, outWidth - 1) - 1;
      if (std::isnan(v))
        v = 0;
      v = std::min(std::max(v, lo), std::min(hi, 9.2e18));
      r->i[k] = wrap(outWidth, (int64_t)v);
    } else if (isa<arith::ExtSIOp, arith::IndexCastOp>(op)) {
      int64_t v = inWidth == 1 ? -a.i[k] : a.i[k];
      r->i[k] = wrap(outWidth, v);
    } else if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op)) {
      r->i[k] = wrap(outWidth, (int64_t)asUnsigned(inWidth, a.i[k]));
    } else if (isa<arith::TruncIOp>(op)) {
      r->i[k] = wrap(outWidth, a.i[k]);
    } else {
      return error(op) << "unsupported cast";
    }
  }
  set(op->getResult(0), r);
  return success();
}

LogicalResult Executor::execSelect(arith::SelectOp op) {
  const Tensor &c = get(op.getCondition());
  const Tensor &a = get(op.getTrueValue()), &b = get(op.getFalseValue());
  auto r = make(op.getType());
  for (int64_t k = 0, n = r->size(); k < n; ++k) {
    bool pick = iAt(c, k) & 1;
    switch (r->kind) {
    case Kind::Float:
      r->f[k] = pick ? a.f[k] : b.f[k];
      break;
    case Kind::Int:
      r->i[k] = pick ? a.i[k] : b.i[k];
      break;
    case Kind::Pointer:
      r->p[k] = pick ? a.p[k] : b.p[k];
      break;
    case Kind::Block:
      r->block = pick ? a.block : b.block;
      break;
    }
  }
  set(op.getResult(), r);
  return success();
}

std::optional<LogicalResult> Executor::execArithOp(Operation *op) {
  using F = double (*)(double);
  auto fp = [&](F fn) { return floatUnary(op, fn); };
  auto ib = [&](auto fn) { return intBinary(op, fn); };
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](arith::ConstantOp o) { return execConstant(o); })
      .Case([&](arith::AddFOp) {
        return floatBinary(op, [](double a, double b) { return a + b; });
      })
      .Case([&](arith::SubFOp) {
        return floatBinary(op, [](double a, double b) { return a - b; });
      })
      .Case([&](arith::MulFOp) {
        return floatBinary(op, [](double a, double b) { return a * b; });
      })
      .Case([&](arith::DivFOp) {
        return floatBinary(op, [](double a, double b) { return a / b; });
      })
      .Case([&](arith::RemFOp) {
        return floatBinary(op,
                           [](double a, double b) { return std::fmod(a, b); });
      })
      .Case([&](arith::MaximumFOp) {
        return floatBinary(op, [](double a, double b) {
          if (std::isnan(a) || std::isnan(b))
            return std::numeric_limits<double>::quiet_NaN();
          if (a == b)
            return std::signbit(a) ? b : a;
          return std::max(a, b);
        });
      })
      .Case([&](arith::MinimumFOp) {
        return floatBinary(op, [](double a, double b) {
          if (std::isnan(a) || std::isnan(b))
            return std::numeric_limits<double>::quiet_NaN();
          if (a == b)
            return std::signbit(a) ? a : b;
          return std::min(a, b);
        });
      })
      .Case([&](arith::MaxNumFOp) {
        return floatBinary(op,
                           [](double a, double b) { return std::fmax(a, b); });
      })
      .Case([&](arith::MinNumFOp) {
        return floatBinary(op,
                           [](double a, double b) { return std::fmin(a, b); });
      })
      .Case([&](arith::NegFOp) { return fp([](double a) { return -a; }); })
      .Case([&](arith::AddIOp) {
        return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
          r = (int64_t)((uint64_t)a + (uint64_t)b);
          return true;
        });
      })
      .Case([&](arith::SubIOp) {
        return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
          r = (int64_t)((uint64_t)a - (uint64_t)b);
          return true;
        });
      })
      .Case([&](arith::MulIOp) {
        return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
          r = (int64_t)((uint64_t)a * (uint64_t)b);
          return true;
        });
      })
      .Case([&](arith::DivSIOp) {
        return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
          if (b == 0)
            return false;
          r = (b == -1) ? (int64_t)(0 - (uint64_t)a) : a / b;
          return true;
        });
      })
      .Case([&](arith::RemSIOp) {
        return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
          if (b == 0)
            return false;
          r = (b == -1) ? 0 : a % b;
          return true;
        });
      })
      .Case([&](arith::DivUIOp) {
        return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
          if (asUnsigned(w, b) == 0)
            return false;
          r = (int64_t)(asUnsigned(w, a) / asUnsigned(w, b));
          return true;
        });
      })
      .Case([&](arith::RemUIOp) {
        return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
          if (asUnsigned(w, b) == 0)
            return false;
          r = (int64_t)(asUnsigned(w, a) % asUnsigned(w, b));
          return true;
        });
      })
      .Case([&](arith::CeilDivSIOp) {
        return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
          if (b == 0)
            return false;
          int64_t q = a / b;
          r = (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
          return true;
        });
      })
      .Case([&](arith::FloorDivSIOp) {
        return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
          if (b == 0)
            return false;
          int64_t q = a / b;
          r = (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
          return true;
        });
      })
      .Case([&](arith::AndIOp) {
        return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
          r = a & b;
          return true;
        });
      })
      .Case([&](arith::OrIOp) {
        return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
          r = a | b;
          return true;
        });
      })
      .Case([&](arith::XOrIOp) {
        return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
          r = a ^ b;
          return true;
        });
      })
      .Case([&](arith::ShLIOp) {
        return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
          r = (uint64_t)b >= (uint64_t)w ? 0 : (int64_t)((uint64_t)a << b);
          return true;
        });
      })
      .Case([&](arith::ShRSIOp) {
        return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
          r = (uint64_t)b >= (uint64_t)w ? (a < 0 ? -1 : 0) : a >> b;
          return true;
        });
      })
      .Case([&](arith::ShRUIOp) {
        return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
          r = (uint64_t)b >= (uint64_t)w ? 0 : (int64_t)(asUnsigned(w, a) >> b);
          return true;
        });
      })
      .Case([&](arith::MaxSIOp) {
        return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
          r = std::max(a, b);
          return true;
        });
      })
      .Case([&](arith::MinSIOp) {
        return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
          r = std::min(a, b);
          return true;
        });
      })
      .Case([&](arith::MaxUIOp) {
        return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
          r = asUnsigned(w, a) >= asUnsigned(w, b) ? a : b;
          return true;
        });
      })
      .Case([&](arith::MinUIOp) {
        return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
          r = asUnsigned(w, a) <= asUnsigned(w, b) ? a : b;
          return true;
        });
      })
      .Case([&](arith::CmpFOp o) {
        const Tensor &a = get(o.getLhs()), &b = get(o.getRhs());
        auto r = make(o.getType());
        for (int64_t k = 0, n = r->size(); k < n; ++k)
          r->i[k] = cmpF(o.getPredicate(), a.f[k], b.f[k]);
        set(o.getResult(), r);
        return success();
      })
      .Case([&](arith::CmpIOp o) {
        const Tensor &a = get(o.getLhs()), &b = get(o.getRhs());
        int64_t width = bitWidth(o.getLhs().getType());
        auto r = make(o.getType());
        for (int64_t k = 0, n = r->size(); k < n; ++k)
          r->i[k] = cmpI(o.getPredicate(), width, a.i[k], b.i[k]);
        set(o.getResult(), r);
        return success();
      })
      .Case([&](arith::SelectOp o) { return execSelect(o); })
      .Case<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
            arith::FPToSIOp, arith::FPToUIOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp, arith::IndexCastOp, arith::IndexCastUIOp>(
          [&](Operation *) { return execCast(op); })
      .Default([](Operation *) { return std::optional<LogicalResult>(); });
}
