//===- KernelNames.cpp - Names of the library kernels ---------------------===//
//
// getKernelName: one name per configuration of each library kernel, made
// of the kernel family and every parameter that changes the code (the
// runtime looks the embedded images up by these names).
//
//===----------------------------------------------------------------------===//

#include "tile/Kernels/LibraryKernels.h"

using namespace mlir;
using namespace mlir::tile;

static StringRef typeName(ElemType t) {
  switch (t) {
  case ElemType::F32:
    return "f32";
  case ElemType::F16:
    return "f16";
  case ElemType::BF16:
    return "bf16";
  }
  return "?";
}

std::string mlir::tile::getKernelName(const SoftmaxRowsConfig &c) {
  return ("softmax_rows_" + typeName(c.in) + "_" + typeName(c.out) + "_r" +
          Twine(c.rows) + "_b" + Twine(c.block) + "_w" + Twine(c.numWarps) +
          (c.tail ? "_t" + std::to_string(c.tail) : std::string()) +
          (c.aligned ? "_a16" : "_a1") + (c.colsAligned ? "_n16" : "") +
          (c.persistent ? "_p" : "") +
          (c.stages ? "_s" + std::to_string(c.stages) : std::string()) +
          (c.rematerialize ? "_rm" : ""))
      .str();
}

std::string mlir::tile::getKernelName(const SoftmaxOnlineConfig &c) {
  return ("softmax_online_" + typeName(c.in) + "_" + typeName(c.out) + "_b" +
          Twine(c.block) + "_w" + Twine(c.numWarps) +
          (c.aligned ? "_a16" : "_a1") + (c.colsAligned ? "_n16" : ""))
      .str();
}

std::string mlir::tile::getKernelName(const SoftmaxClusterConfig &c) {
  return ("softmax_cluster_" + typeName(c.in) + "_" + typeName(c.out) + "_c" +
          Twine(c.clusterSize) + "_b" + Twine(c.block) + "_w" +
          Twine(c.numWarps) + (c.aligned ? "_a16" : "_a1") +
          (c.colsAligned ? "_n16" : "") +
          (c.minProgramsPerSM ? "_o" + std::to_string(c.minProgramsPerSM)
                              : std::string()) +
          (c.loop ? "_l" : ""))
      .str();
}

std::string mlir::tile::getKernelName(const SoftmaxMatmulConfig &c) {
  return ("softmax_matmul_" + typeName(c.dtype) + "_" +
          stringifyInputPrecision(c.precision) + "_m" + Twine(c.blockM) + "_k" +
          Twine(c.blockK) + "_n" + Twine(c.blockN) + "_w" + Twine(c.numWarps) +
          (c.stages ? "_s" + std::to_string(c.stages) : std::string()) +
          (c.minProgramsPerSM ? "_o" + std::to_string(c.minProgramsPerSM)
                              : std::string()) +
          (c.hopper ? "_h" : "") + (c.mmaInFlight ? "_f" : "") +
          (c.transposedProduct ? "_t" : "") + (c.tma ? "_tma" : "") +
          (c.specialized ? "_ws" : "") + (c.vTransposed ? "_vt" : "") +
          (c.persistent ? "_pers" : "") +
          (c.clusterSize > 1 ? (c.clusterColumns ? "_cn" : "_c") +
                                   std::to_string(c.clusterSize)
                             : std::string()) +
          (c.residentProducts ? "_p" + std::to_string(c.residentProducts)
                              : std::string()) +
          (c.splitColumns ? "_sc" : "") + (c.pingpong ? "_pp" : ""))
      .str();
}

std::string mlir::tile::getKernelName(const SoftmaxGridConfig &c) {
  return ("softmax_grid_" + typeName(c.in) + "_" + typeName(c.out) + "_b" +
          Twine(c.block) + "_w" + Twine(c.numWarps) + "_s" +
          Twine(c.maxSlices) + "_a16" + (c.colsAligned ? "_n16" : "") +
          (c.rematerialize ? "_rm" : "") +
          (c.minProgramsPerSM ? "_o" + std::to_string(c.minProgramsPerSM)
                              : std::string()))
      .str();
}
