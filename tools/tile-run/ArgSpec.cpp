//===- ArgSpec.cpp - tile-run's argument descriptions ---------------------===//

#include "ArgSpec.h"

#include "tile/Support/FileIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tilerun;
using namespace mlir::tile::interp;
using llvm::StringRef;

static bool isIdentifier(StringRef s) {
  if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_'))
    return false;
  return llvm::all_of(s, [](char c) {
    return std::isalnum((unsigned char)c) || c == '_';
  });
}

static bool parseDouble(StringRef s, double &out) {
  s = s.trim();
  if (s == "inf" || s == "+inf") {
    out = std::numeric_limits<double>::infinity();
    return true;
  }
  if (s == "-inf") {
    out = -std::numeric_limits<double>::infinity();
    return true;
  }
  if (s == "nan") {
    out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  return !s.getAsDouble(out);
}

bool tilerun::parseArgSpec(const std::string &text, ArgSpec &spec,
                           std::string &error) {
  StringRef rest(text);
  size_t eq = rest.find('=');
  size_t colon = rest.find(':');
  size_t bracket = rest.find('[');
  size_t typeEnd = std::min(colon, bracket);
  if (eq != StringRef::npos && eq < typeEnd) {
    spec.name = rest.take_front(eq).str();
    if (!isIdentifier(spec.name)) {
      error = "'" + spec.name + "' is not a valid argument name";
      return false;
    }
    rest = rest.drop_front(eq + 1);
  }
  bracket = rest.find('[');
  colon = rest.find(':');
  StringRef dtypeText = rest.take_front(std::min(bracket, colon));
  auto dtype = parseDType(dtypeText);
  if (!dtype) {
    error = "unknown element type '" + dtypeText.str() +
            "' (expected f16, bf16, f32, f64, i1, i8, i16, i32 or i64)";
    return false;
  }
  spec.dtype = *dtype;
  rest = rest.drop_front(dtypeText.size());

  if (rest.consume_front("[")) {
    spec.isBuffer = true;
    size_t close = rest.find(']');
    if (close == StringRef::npos) {
      error = "missing ']' after the buffer shape";
      return false;
    }
    llvm::SmallVector<StringRef> dims;
    rest.take_front(close).split(dims, llvm::any_of(rest.take_front(close),
                                                    [](char c) {
                                                      return c == ',';
                                                    })
                                           ? ','
                                           : 'x');
    for (StringRef d : dims) {
      int64_t v;
      if (d.trim().getAsInteger(10, v) || v < 1) {
        error = "bad dimension '" + d.str() +
                "' in buffer shape (dimensions are positive integers)";
        return false;
      }
      spec.shape.push_back(v);
    }
    // Reject absurd shapes here, before anything is allocated: an unchecked
    // element count wraps (2^32 x 2^32 would become an empty buffer) and a
    // huge one aborts in the allocator with a bare "out of memory".
    int64_t elements = 1;
    for (int64_t d : spec.shape) {
      if (llvm::MulOverflow(elements, d, elements)) {
        error = "buffer shape '" + rest.take_front(close).str() +
                "' has more elements than int64 can count (buffers are "
                "limited to " +
                std::to_string(kMaxBufferBytes >> 30) + " GiB)";
        return false;
      }
    }
    std::optional<int64_t> bytes = bufferSizeInBytes(spec.dtype, spec.shape);
    if (!bytes || *bytes > kMaxBufferBytes) {
      error = "buffer shape '" + rest.take_front(close).str() + "' has " +
              std::to_string(elements) + " elements of " +
              dtypeName(spec.dtype).str() + " (" +
              (bytes ? std::to_string(*bytes) + " bytes"
                     : std::string("more than 2^63 bytes")) +
              "), more than the " + std::to_string(kMaxBufferBytes >> 30) +
              " GiB limit";
      return false;
    }
    if (spec.name.empty()) {
      error = "a buffer needs a name: NAME=" + text;
      return false;
    }
    rest = rest.drop_front(close + 1);
    if (rest.empty())
      return true;
    if (!rest.consume_front(":")) {
      error = "expected ':INIT' after the buffer shape";
      return false;
    }
    StringRef init = rest;
    StringRef params;
    size_t open = init.find('(');
    if (open != StringRef::npos) {
      if (!init.ends_with(")")) {
        error = "missing ')' in initializer '" + init.str() + "'";
        return false;
      }
      params = init.slice(open + 1, init.size() - 1);
      init = init.take_front(open);
    }
    spec.init = init.str();
    static const char *known[] = {"randn", "rand", "zeros", "ones", "fill",
                                  "iota", "poison", "file"};
    if (!llvm::is_contained(known, spec.init)) {
      error = "unknown initializer '" + spec.init +
              "' (expected randn, rand, zeros, ones, fill, iota, poison or "
              "file)";
      return false;
    }
    if (spec.init == "file") {
      spec.initPath = params.str();
      if (spec.initPath.empty()) {
        error = "file() needs a path";
        return false;
      }
      return true;
    }
    if (!params.empty()) {
      llvm::SmallVector<StringRef> parts;
      params.split(parts, ',');
      for (StringRef p : parts) {
        double v;
        if (!parseDouble(p, v)) {
          error = "bad number '" + p.str() + "' in initializer";
          return false;
        }
        spec.initParams.push_back(v);
      }
    }
    size_t want = spec.init == "randn"  ? 1
                  : spec.init == "rand" ? 2
                  : spec.init == "fill" ? 1
                                        : 0;
    bool optional = spec.init == "randn" || spec.init == "rand";
    if (spec.initParams.size() != want &&
        !(optional && spec.initParams.empty())) {
      error = "initializer '" + spec.init + "' takes " +
              std::to_string(want) + " parameter(s)";
      return false;
    }
    // The distributions need finite parameters: randn's scale >= 0 and
    // rand's range LO <= HI of finite width. fill() takes any value,
    // inf and nan included.
    const std::vector<double> &p = spec.initParams;
    if (spec.init == "randn" && !p.empty() &&
        !(std::isfinite(p[0]) && p[0] >= 0)) {
      error =
          "randn(SCALE) needs a finite SCALE >= 0, got '" + params.str() + "'";
      return false;
    }
    if (spec.init == "rand" && !p.empty() &&
        !(std::isfinite(p[0]) && std::isfinite(p[1]) && p[0] <= p[1] &&
          std::isfinite(p[1] - p[0]))) {
      error = "rand(LO,HI) needs finite LO <= HI, got '" + params.str() + "'";
      return false;
    }
    return true;
  }

  if (!rest.consume_front(":")) {
    error = "expected DTYPE[SHAPE] for a buffer or DTYPE:VALUE for a scalar "
            "in '" +
            text + "'";
    return false;
  }
  if (isFloat(spec.dtype)) {
    if (!parseDouble(rest, spec.scalar)) {
      error = "bad " + dtypeName(spec.dtype).str() + " value '" + rest.str() +
              "'";
      return false;
    }
    return true;
  }
  int64_t v;
  if (rest.trim().getAsInteger(10, v)) {
    error = "bad integer value '" + rest.str() + "'";
    return false;
  }
  spec.scalar = (double)v;
  // Keep the exact integer: doubles lose precision past 2^53.
  spec.initParams = {(double)v};
  spec.initPath = std::to_string(v);
  return true;
}

bool tilerun::parseCheckSpec(const std::string &text, CheckSpec &spec,
                             std::string &error) {
  StringRef s(text);
  size_t eq = s.find('=');
  size_t open = s.find('(');
  if (eq == StringRef::npos || open == StringRef::npos || open < eq ||
      !s.ends_with(")")) {
    error = "expected OUT=FN(IN,...), e.g. y=softmax(x), got '" + text + "'";
    return false;
  }
  spec.output = s.take_front(eq).trim().str();
  spec.function = s.slice(eq + 1, open).trim().str();
  llvm::SmallVector<StringRef> ins;
  s.slice(open + 1, s.size() - 1).split(ins, ',');
  for (StringRef in : ins)
    spec.inputs.push_back(in.trim().str());
  static const std::pair<const char *, size_t> fns[] = {
      {"softmax", 1}, {"softmax_matmul", 2}, {"matmul", 2},
      {"matmul_leaky_relu", 2}, {"add", 2}};
  for (auto [name, arity] : fns)
    if (spec.function == name) {
      if (spec.inputs.size() != arity) {
        error = spec.function + " takes " + std::to_string(arity) +
                " input(s), got " + std::to_string(spec.inputs.size());
        return false;
      }
      return true;
    }
  error = "unknown reference '" + spec.function +
          "' (expected softmax, softmax_matmul, matmul, matmul_leaky_relu or "
          "add)";
  return false;
}

bool tilerun::initBuffer(const ArgSpec &spec, Buffer &buf,
                         std::mt19937_64 &rng, std::string &error) {
  int64_t n = buf.numElements();
  const std::string &init = spec.init;
  if (init == "file") {
    // Only a regular file of exactly the buffer's size: a device such as
    // /dev/zero would otherwise be read without end.
    std::string why;
    auto file =
        mlir::tile::readFileOfSize(spec.initPath, buf.sizeInBytes(), why);
    if (!file) {
      error = "buffer '" + spec.name + "': " + why;
      return false;
    }
    std::memcpy(buf.bytes.data(), file->getBufferStart(), buf.sizeInBytes());
    return true;
  }
  if (init == "poison") {
    if (isFloat(buf.dtype))
      for (int64_t i = 0; i < n; ++i)
        buf.set(i, std::numeric_limits<double>::quiet_NaN());
    else
      std::fill(buf.bytes.begin(), buf.bytes.end(), 0x5A);
    return true;
  }
  for (int64_t i = 0; i < n; ++i) {
    double v = 0;
    if (init == "randn" || init.empty()) {
      double scale = spec.initParams.empty() ? 1.0 : spec.initParams[0];
      v = std::normal_distribution<double>(0.0, 1.0)(rng) * scale;
      if (!isFloat(buf.dtype))
        v = std::round(v);
    } else if (init == "rand") {
      double lo = spec.initParams.empty() ? 0.0 : spec.initParams[0];
      double hi = spec.initParams.empty() ? 1.0 : spec.initParams[1];
      v = std::uniform_real_distribution<double>(lo, hi)(rng);
      if (!isFloat(buf.dtype))
        v = std::floor(v);
    } else if (init == "ones") {
      v = 1;
    } else if (init == "fill") {
      v = spec.initParams[0];
    } else if (init == "iota") {
      v = (double)i;
    }
    buf.set(i, v);
  }
  return true;
}

std::string tilerun::describeProblem(const std::vector<ArgSpec> &specs) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      specs, os,
      [&](const ArgSpec &spec) {
        if (spec.isBuffer) {
          os << spec.name << "=" << mlir::tile::interp::dtypeName(spec.dtype)
             << "[";
          llvm::interleave(spec.shape, os, "x");
          os << "]";
        } else if (mlir::tile::interp::isFloat(spec.dtype)) {
          os << mlir::tile::interp::dtypeName(spec.dtype) << ":"
             << llvm::format("%.17g", spec.scalar);
        } else {
          os << mlir::tile::interp::dtypeName(spec.dtype) << ":"
             << spec.initPath;
        }
      },
      " ");
  return text;
}
