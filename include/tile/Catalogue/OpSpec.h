//===- OpSpec.h - One library operation in the catalogue --------*- C++ -*-===//
//
// A library operation enters the catalogue as one OpSpec, defined in
// lib/Catalogue/Ops/<Name>.cpp as `const OpSpec &get<Name>Op()`. The build
// finds every file there and lists them (getOps), so nothing else names the
// operation: the tuning files, the generator, the dispatcher and the tuner
// work from the spec alone.
//
// A spec gives:
//   - the kernel parameters (named integers, booleans and enumerations) and
//     the rules that make a combination valid, and the target it needs;
//   - the problem fields: the problem's types (key fields: a table point
//     serves only problems of the same keys), sizes, and the properties of
//     the arguments that some kernels require;
//   - whether a kernel admits a problem, and how far a measured point is
//     from a problem;
//   - the launch: grid and workspace;
//   - the configuration space the tuner measures and the fallbacks the
//     dispatcher takes where no table ranks an admissible kernel;
//   - the problems tile-tune measures by default, and a test case per
//     problem: inputs, the kernel's arguments and the check of sampled
//     outputs against float64.
//
// Plain C++17 without MLIR or CUDA: the runtime includes it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CATALOGUE_OPSPEC_H
#define TILE_CATALOGUE_OPSPEC_H

#include "tile/Catalogue/Catalogue.h"

#include <array>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tile {
namespace catalogue {

enum class FieldKind : uint8_t { Int, Bool, Enum };

/// A kernel parameter or a problem field.
struct Field {
  std::string name; ///< as written in tuning files, e.g. "block_m"
  FieldKind kind = FieldKind::Int;
  std::vector<std::string> enumerators; ///< Enum: the names of 0, 1, ...
  /// Problem fields: a table point serves only problems of its key values,
  /// and a kernel parameter of the same name must have the same value.
  bool key = false;
};

Field intField(std::string name);
Field boolField(std::string name);
Field enumField(std::string name, std::vector<std::string> enumerators,
                bool key = false);
/// The enumerations shared by the operations.
Field dtypeField(bool key = false);
Field precisionField(bool key = false);

/// How a kernel is launched on a problem.
struct LaunchPlan {
  uint32_t grid[3] = {1, 1, 1};
  /// A workspace of this many bytes in global memory, allocated in stream
  /// order for the launch (its first `zeroedWords` 32-bit words zeroed) and
  /// freed after it; the kernel takes pointers to it at these byte offsets
  /// after its other arguments.
  size_t workspaceBytes = 0;
  size_t zeroedWords = 0;
  unsigned numWorkspaceArgs = 0;
  size_t workspaceArgOffsets[2] = {};
  /// A kernel of the same operation launched first on `preludeGrid` (after
  /// the workspace is zeroed), with the operation's arguments and then a
  /// pointer to the workspace: an input rearranged there for this kernel.
  bool hasPrelude = false;
  KernelDesc prelude;
  uint32_t preludeGrid[3] = {1, 1, 1};
  /// Arguments this kernel takes in place of the operation's: a pointer
  /// into the workspace at byte offset `value`, or the i64 `value`.
  struct ReplacedArg {
    unsigned index = 0;
    bool workspacePointer = false;
    int64_t value = 0;
  };
  unsigned numReplacedArgs = 0;
  ReplacedArg replacedArgs[4];
};

/// Data of one problem for checking a kernel (host side): tensors filled by
/// repeating a pattern of bytes, the kernel's arguments, and the check of
/// the outputs' sampled byte ranges against float64.
struct TestCase {
  struct Tensor {
    size_t bytes = 0;
    std::vector<char> pattern; ///< repeated over the tensor; empty: an
                               ///< output, filled with 0xff bytes (NaN)
                               ///< before the launch
  };
  struct Arg {
    enum Kind : uint8_t { Pointer, I32, I64, F32 } kind = I64;
    int64_t value = 0;   ///< Pointer: a byte offset into `tensor`
    unsigned tensor = 0; ///< Pointer
    double real = 0;     ///< F32
  };
  struct Sample {
    unsigned tensor;
    size_t offset, bytes;
  };
  std::vector<Tensor> tensors;
  std::vector<Arg> args;
  std::vector<Sample> samples;
  /// "" if the samples' bytes (in the order of `samples`) are right, else
  /// what is wrong.
  std::function<std::string(const std::vector<std::vector<char>> &)> check;
};

class OpSpec {
public:
  OpSpec(std::string name, std::vector<Field> params,
         std::vector<Field> problemFields);
  virtual ~OpSpec();

  /// The operation's name: KernelDesc::op, the tuning files' key, and
  /// TILE_<NAME>_VARIANT (upper case) in the runtime.
  const char *getName() const { return name.c_str(); }
  const std::vector<Field> &getParams() const { return params; }
  const std::vector<Field> &getProblemFields() const { return problemFields; }

  /// A description of this operation with every parameter zero.
  KernelDesc makeKernel() const;
  /// Whether `k` is of this operation.
  bool owns(const KernelDesc &k) const;
  /// The index of a parameter or problem field by name, or -1.
  int findParam(const std::string &field) const;
  int findProblemField(const std::string &field) const;
  /// A parameter's value by name (0 for a name the operation lacks).
  int32_t get(const KernelDesc &k, const std::string &param) const;
  /// A problem from its fields' values by name (fields not given are 0;
  /// a name the operation lacks is a programming error and aborts).
  Problem makeProblem(
      std::initializer_list<std::pair<const char *, int64_t>> fields) const;
  /// "f32 whole16 rows 4096 cols 1000": the problem, for messages.
  std::string describe(const Problem &p) const;

  /// Why the parameters do not make a kernel ("" if they do). Called for
  /// descriptions whose values are within their fields' ranges.
  virtual std::string whyInvalid(const KernelDesc &k) const = 0;
  virtual Target getTarget(const KernelDesc &k) const = 0;

  /// Whether the kernel runs the problem on this device beyond its target:
  /// types, sizes it holds, grid limits, argument properties it requires.
  virtual bool admits(const KernelDesc &k, const Problem &p,
                      const DeviceInfo &device) const = 0;
  /// How far the measured point is from the problem, compared in order
  /// (the nearest point's kernels are tried first). Points of other key
  /// values are never compared.
  virtual std::array<double, 4> distance(const Problem &point,
                                         const Problem &p) const = 0;
  /// Grid and workspace of an admitted kernel.
  virtual LaunchPlan plan(const KernelDesc &k, const Problem &p,
                          const DeviceInfo &device) const = 0;

  /// Every configuration worth measuring, each valid.
  virtual std::vector<KernelDesc> getConfigurationSpace() const = 0;
  /// Kernels a launch of `k` also runs (its plan's prelude): embedded
  /// wherever `k` is.
  virtual std::vector<KernelDesc>
  getCompanionKernels(const KernelDesc &k) const {
    return {};
  }
  /// Whether `k` is only ever a prelude of other kernels' launches: no
  /// problem admits it, and the tests run it through those launches.
  virtual bool isPrelude(const KernelDesc &k) const { return false; }
  /// Kernels, in order of preference, that together run every problem of
  /// the operation on every target: where no table ranks an admissible
  /// kernel the dispatcher takes the first that admits (and runs on the
  /// device). Those for sm_80 alone must run every problem; kernels for a
  /// later target may come first, to be preferred where they run.
  virtual std::vector<KernelDesc> getFallbackKernels() const = 0;

  /// What some kernels need beyond a problem's shape, from the most
  /// particular to the most general (TMA, a resident grid, sm_90a, aligned
  /// rows, ...). tile-tune ranks, for each prefix of these, a kernel that
  /// needs none of the prefix, so the dispatcher finds one wherever a
  /// condition fails.
  virtual std::vector<std::function<bool(const KernelDesc &)>>
  getConditions() const;
  /// Whether tile-tune measures the kernel at this problem (it admits it).
  virtual bool worthMeasuring(const KernelDesc &k, const Problem &p) const;
  /// The problems tile-tune measures: by default, or with the values of
  /// some fields given (by name; enumerations by index), the others as by
  /// default. Fields that follow from others are computed.
  virtual std::vector<Problem> getTuningProblems(
      const std::map<std::string, std::vector<int64_t>> &given) const = 0;
  /// Small problems for the tests (the interpreter's and the GPU's): each
  /// kernel of the space admits some of them on sm_90, and together they
  /// reach the kernels' edges (partial blocks, several programs per row,
  /// unaligned rows, ...).
  virtual std::vector<Problem> getTestProblems() const = 0;
  /// The data, arguments and check of one problem.
  virtual TestCase makeTestCase(const Problem &p, uint64_t seed) const = 0;

private:
  std::string name;
  std::vector<Field> params, problemFields;
};

/// The operations of the catalogue, in the order of their files' names.
const std::vector<const OpSpec *> &getOps();
/// The operation of this name, or null.
const OpSpec *findOp(const std::string &name);
/// The operation of a description, or null.
const OpSpec *findOp(const KernelDesc &k);

/// Conditions shared by the operations' lists.
bool needsSm90a(const KernelDesc &k);
bool needsSm90(const KernelDesc &k);

} // namespace catalogue
} // namespace tile

#endif // TILE_CATALOGUE_OPSPEC_H
