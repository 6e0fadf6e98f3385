//===- Catalogue.cpp - Kernel descriptions and operation specs -----------===//
//
// Compiled into the runtime as well as the compiler's tools: no MLIR, no
// CUDA.
//
//===----------------------------------------------------------------------===//

#include "tile/Catalogue/Catalogue.h"
#include "tile/Catalogue/OpSpec.h"
#include "tile/Catalogue/TestData.h"
#include "tile/Reference/Float16.h"
#include "tile/Reference/Reference.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace tile {
namespace catalogue {

bool operator==(const KernelDesc &a, const KernelDesc &b) {
  if (std::strcmp(a.op, b.op) != 0)
    return false;
  for (int i = 0; i < kMaxParams; ++i)
    if (a.params[i] != b.params[i])
      return false;
  return true;
}

bool operator==(const Problem &a, const Problem &b) {
  for (int i = 0; i < kMaxProblemFields; ++i)
    if (a.values[i] != b.values[i])
      return false;
  return true;
}

bool runsOn(Target target, int ccMajor, int ccMinor) {
  switch (target) {
  case Target::Sm80:
    return ccMajor >= 8;
  case Target::Sm90:
    return ccMajor >= 9;
  case Target::Sm90a:
    return ccMajor == 9 && ccMinor == 0;
  }
  return false;
}

const char *getName(DType t) {
  switch (t) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  }
  return "?";
}

const char *getName(Precision p) {
  switch (p) {
  case Precision::IEEE:
    return "ieee";
  case Precision::TF32:
    return "tf32";
  case Precision::TF32x3:
    return "tf32x3";
  }
  return "?";
}

const char *getName(Target t) {
  switch (t) {
  case Target::Sm80:
    return "sm_80";
  case Target::Sm90:
    return "sm_90";
  case Target::Sm90a:
    return "sm_90a";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Fields and specs
//===----------------------------------------------------------------------===//

Field intField(std::string name) { return {std::move(name), FieldKind::Int}; }
Field boolField(std::string name) { return {std::move(name), FieldKind::Bool}; }
Field enumField(std::string name, std::vector<std::string> enumerators,
                bool key) {
  return {std::move(name), FieldKind::Enum, std::move(enumerators), key};
}
Field dtypeField(bool key) {
  return enumField("dtype", {"f32", "f16", "bf16"}, key);
}
Field precisionField(bool key) {
  return enumField("precision", {"ieee", "tf32", "tf32x3"}, key);
}

OpSpec::OpSpec(std::string name, std::vector<Field> params,
               std::vector<Field> problemFields)
    : name(std::move(name)), params(std::move(params)),
      problemFields(std::move(problemFields)) {}

OpSpec::~OpSpec() = default;

KernelDesc OpSpec::makeKernel() const {
  KernelDesc k;
  k.op = getName();
  return k;
}

bool OpSpec::owns(const KernelDesc &k) const {
  return std::strcmp(k.op, getName()) == 0;
}

static int findField(const std::vector<Field> &fields,
                     const std::string &name) {
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == name)
      return (int)i;
  return -1;
}

int OpSpec::findParam(const std::string &field) const {
  return findField(params, field);
}

int OpSpec::findProblemField(const std::string &field) const {
  return findField(problemFields, field);
}

int32_t OpSpec::get(const KernelDesc &k, const std::string &param) const {
  int i = findParam(param);
  return i < 0 ? 0 : k.params[i];
}

Problem OpSpec::makeProblem(
    std::initializer_list<std::pair<const char *, int64_t>> fields) const {
  Problem p;
  for (const auto &[name, value] : fields) {
    int i = findProblemField(name);
    if (i < 0) {
      std::fprintf(stderr, "%s problems have no field '%s'\n", getName(), name);
      std::abort();
    }
    p.values[i] = value;
  }
  return p;
}

std::string OpSpec::describe(const Problem &p) const {
  std::string s;
  for (size_t i = 0; i < problemFields.size(); ++i) {
    const Field &f = problemFields[i];
    int64_t v = p.values[i];
    if (!s.empty())
      s += " ";
    if (f.kind == FieldKind::Enum)
      s += v >= 0 && (size_t)v < f.enumerators.size() ? f.enumerators[v] : "?";
    else if (f.kind == FieldKind::Bool)
      s += v ? f.name : "no " + f.name;
    else
      s += f.name + " " + std::to_string(v);
  }
  return s;
}

std::vector<std::function<bool(const KernelDesc &)>>
OpSpec::getConditions() const {
  return {needsSm90a, needsSm90};
}

bool OpSpec::worthMeasuring(const KernelDesc &, const Problem &) const {
  return true;
}

const OpSpec *findOp(const std::string &name) {
  for (const OpSpec *op : getOps())
    if (name == op->getName())
      return op;
  return nullptr;
}

const OpSpec *findOp(const KernelDesc &k) {
  for (const OpSpec *op : getOps())
    if (op->owns(k))
      return op;
  return nullptr;
}

std::string whyInvalid(const KernelDesc &k) {
  const OpSpec *op = findOp(k);
  if (!op)
    return std::string("unknown operation '") + k.op + "'";
  const std::vector<Field> &fields = op->getParams();
  for (int i = 0; i < kMaxParams; ++i) {
    int32_t v = k.params[i];
    if (i >= (int)fields.size()) {
      if (v)
        return "a parameter beyond the operation's is set";
      continue;
    }
    const Field &f = fields[i];
    if (f.kind == FieldKind::Bool && v != 0 && v != 1)
      return f.name + " must be 0 or 1";
    if (f.kind == FieldKind::Enum && (v < 0 || v >= (int)f.enumerators.size()))
      return "unknown " + f.name;
  }
  return op->whyInvalid(k);
}

Target getTarget(const KernelDesc &k) {
  const OpSpec *op = findOp(k);
  return op ? op->getTarget(k) : Target::Sm80;
}

bool needsSm90a(const KernelDesc &k) { return getTarget(k) == Target::Sm90a; }
bool needsSm90(const KernelDesc &k) { return getTarget(k) != Target::Sm80; }

//===----------------------------------------------------------------------===//
// Test data
//===----------------------------------------------------------------------===//

namespace ref = mlir::tile::reference;

std::vector<char> randomPattern(DType t, size_t elements, double scale,
                                uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  int64_t size = getBytes(t);
  std::vector<char> bytes(elements * size);
  for (size_t i = 0; i < elements; ++i) {
    float f = (float)(dist(rng) * scale);
    if (t == DType::F32) {
      std::memcpy(&bytes[i * 4], &f, 4);
    } else {
      uint16_t h = t == DType::F16 ? ref::floatToHalf(f) : ref::floatToBF16(f);
      std::memcpy(&bytes[i * 2], &h, 2);
    }
  }
  return bytes;
}

double decode(DType t, const char *bytes) {
  if (t == DType::F32) {
    float f;
    std::memcpy(&f, bytes, 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, bytes, 2);
  return t == DType::F16 ? ref::halfToFloat(h) : ref::bf16ToFloat(h);
}

double elementAt(const std::vector<char> &pattern, DType t, size_t byteOffset) {
  return decode(t, &pattern[byteOffset % pattern.size()]);
}

std::string compareValues(const std::vector<double> &got,
                          const std::vector<double> &expected,
                          double tolerance) {
  ref::Comparison c = ref::compare(got, expected, tolerance);
  if (c.passed)
    return "";
  char message[96];
  std::snprintf(message, sizeof(message),
                "relative error %.3e at element %lld (%lld not finite)",
                c.relError, (long long)c.worstIndex, (long long)c.nonFinite);
  return message;
}

} // namespace catalogue
} // namespace tile
