//===- TuningFile.h - Tuning tables as JSON ---------------------*- C++ -*-===//
//
// The file tile-tune writes and tile-kernel-gen embeds: for one device, the
// kernels measured at each problem shape, fastest first, with their times.
//
//   {"device": {"name": "NVIDIA H200", "compute_capability": "9.0",
//               "sms": 132},
//    "date": "...", "commit": "...",
//    "softmax": [{"dtype": "f32", "alignment": "whole16", "rows": 4096,
//                 "cols": 1024, "ranked": [{"ms": 0.01, "kernel": {...}}]}],
//    "softmax_matmul": [{"dtype": "f16", "precision": "ieee", "batch": 16,
//                        "d1": 2048, "d2": 512, "d3": 512,
//                        "tma_readable": true, "ranked": [...]}]}
//
// A kernel is written as its description's fields (see Catalogue.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CATALOGUE_TUNINGFILE_H
#define TILE_CATALOGUE_TUNINGFILE_H

#include "tile/Catalogue/Catalogue.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace tile {
namespace catalogue {

struct RankedKernel {
  KernelDesc kernel;
  double ms = 0; ///< median time at the entry's shape
};

struct SoftmaxEntry {
  DType dtype = DType::F32;
  RowAlignment alignment = RowAlignment::Element;
  int64_t rows = 0, cols = 0;
  std::vector<RankedKernel> ranked;
};

struct SoftmaxMatmulEntry {
  DType dtype = DType::F32;
  Precision precision = Precision::IEEE;
  int64_t batch = 0, d1 = 0, d2 = 0, d3 = 0;
  bool tmaReadable = false;
  std::vector<RankedKernel> ranked;
};

struct TuningFile {
  std::string deviceName;
  int ccMajor = 0, ccMinor = 0, sms = 0;
  std::string date, commit;
  std::vector<SoftmaxEntry> softmax;
  std::vector<SoftmaxMatmulEntry> softmaxMatmul;
};

llvm::json::Value toJSON(const KernelDesc &k);
bool fromJSON(const llvm::json::Value &v, KernelDesc &k, llvm::json::Path p);
llvm::json::Value toJSON(const TuningFile &f);
bool fromJSON(const llvm::json::Value &v, TuningFile &f, llvm::json::Path p);

/// Reads and checks a tuning file: every kernel valid (whyInvalid) and of
/// its entry's operation and types, at most kMaxRanked per entry.
llvm::Expected<TuningFile> readTuningFile(llvm::StringRef path);

} // namespace catalogue
} // namespace tile

#endif // TILE_CATALOGUE_TUNINGFILE_H
