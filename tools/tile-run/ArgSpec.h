//===- ArgSpec.h - tile-run's command-line descriptions of inputs -*- C++ -*-===//
//
// An argument is described as
//   NAME=DTYPE[D0xD1x...]:INIT   a buffer (for a !tile.ptr<T> parameter)
//   [NAME=]DTYPE:VALUE           a scalar (i32:781, f32:0.5)
// where INIT is randn, randn(SCALE), rand, rand(LO,HI), zeros, ones,
// fill(V), iota, poison (NaN, or 0x5A bytes for integers) or file(PATH)
// (raw little-endian elements). A buffer holds at most kMaxBufferBytes
// (64 GiB); larger or overflowing shapes are rejected. A check is
// OUT=FN(IN,...) with FN one of softmax, softmax_matmul, matmul,
// matmul_leaky_relu, add.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_RUN_ARGSPEC_H
#define TILE_TOOLS_TILE_RUN_ARGSPEC_H

#include "tile/Interpreter/Interpreter.h"

#include <random>
#include <string>
#include <vector>

namespace tilerun {
using mlir::tile::interp::DType;

struct ArgSpec {
  std::string name;
  bool isBuffer = false;
  DType dtype = DType::F32;
  std::vector<int64_t> shape; ///< buffers only
  std::string init;           ///< buffers only: "" means the default
  std::vector<double> initParams;
  std::string initPath;
  double scalar = 0; ///< scalars only
};

struct CheckSpec {
  std::string output;
  std::string function;
  std::vector<std::string> inputs;
};

/// Parses one --arg; on error returns false and sets `error`.
bool parseArgSpec(const std::string &text, ArgSpec &spec, std::string &error);
bool parseCheckSpec(const std::string &text, CheckSpec &spec,
                    std::string &error);
/// The problem the arguments describe, as a tuning cache keys it: each
/// buffer's name, dtype and shape and each scalar's dtype and value
/// ("x=f32[64x781] i32:781"); initializers are left out.
std::string describeProblem(const std::vector<ArgSpec> &specs);
/// Fills `buf` as `spec` says; false with `error` on failure (bad file).
bool initBuffer(const ArgSpec &spec, mlir::tile::interp::Buffer &buf,
                std::mt19937_64 &rng, std::string &error);
} // namespace tilerun

#endif // TILE_TOOLS_TILE_RUN_ARGSPEC_H
