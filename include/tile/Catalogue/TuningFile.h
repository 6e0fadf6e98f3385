//===- TuningFile.h - Tuning tables as JSON ---------------------*- C++ -*-===//
//
// The file tile-tune writes and tile-kernel-gen embeds: for one device, the
// kernels measured at each problem, fastest first, with their times; one
// array per operation, each entry the operation's problem fields and its
// ranked kernels, each kernel the operation's parameters (OpSpec.h):
//
//   {"device": {"name": "NVIDIA H200", "compute_capability": "9.0",
//               "sms": 132},
//    "date": "...", "commit": "...",
//    "softmax": [{"dtype": "f32", "alignment": "whole16", "rows": 4096,
//                 "cols": 1024,
//                 "ranked": [{"ms": 0.01, "kernel": {"op": "softmax",
//                             "scheme": "rows", "block": 1024, ...}}]}],
//    "softmax_matmul": [...]}
//
// Enumerations are written by name; integer and boolean parameters that
// are zero are left out.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CATALOGUE_TUNINGFILE_H
#define TILE_CATALOGUE_TUNINGFILE_H

#include "tile/Catalogue/OpSpec.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace tile {
namespace catalogue {

struct RankedKernel {
  KernelDesc kernel;
  double ms = 0; ///< median time at the entry's problem
};

/// A measured problem of an operation.
struct TuningEntry {
  const OpSpec *op = nullptr;
  Problem problem;
  std::vector<RankedKernel> ranked;
};

struct TuningFile {
  std::string deviceName;
  int ccMajor = 0, ccMinor = 0, sms = 0;
  std::string date, commit;
  std::vector<TuningEntry> entries; ///< grouped by operation when written
};

llvm::json::Value toJSON(const KernelDesc &k);
bool fromJSON(const llvm::json::Value &v, KernelDesc &k, llvm::json::Path p);
/// A problem of `op` as a JSON object of its fields (and back).
llvm::json::Object problemToJSON(const OpSpec &op, const Problem &p);
bool problemFromJSON(const OpSpec &op, const llvm::json::Object &o, Problem &p,
                     llvm::json::Path path);
llvm::json::Value toJSON(const TuningFile &f);
bool fromJSON(const llvm::json::Value &v, TuningFile &f, llvm::json::Path p);

/// Reads and checks a tuning file: every kernel valid (whyInvalid), of its
/// entry's operation and of the entry's key values, 1 to kMaxRanked per
/// entry.
llvm::Expected<TuningFile> readTuningFile(llvm::StringRef path);

/// Why the kernel cannot be ranked at this point ("" if it can).
std::string whyNotRankable(const TuningEntry &e, const KernelDesc &k);

} // namespace catalogue
} // namespace tile

#endif // TILE_CATALOGUE_TUNINGFILE_H
