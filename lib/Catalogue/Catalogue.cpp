//===- Catalogue.cpp - Kernel descriptions: validity, targets, names ------===//
//
// Compiled into the runtime as well as the compiler's tools: no MLIR, no
// CUDA.
//
//===----------------------------------------------------------------------===//

#include "tile/Catalogue/Catalogue.h"

namespace tile {
namespace catalogue {

bool operator==(const SoftmaxKernel &a, const SoftmaxKernel &b) {
  return a.scheme == b.scheme && a.dtype == b.dtype &&
         a.alignment == b.alignment && a.block == b.block && a.tail == b.tail &&
         a.rows == b.rows && a.warps == b.warps &&
         a.clusterSize == b.clusterSize &&
         a.minProgramsPerSM == b.minProgramsPerSM &&
         a.rematerialize == b.rematerialize;
}

bool operator==(const SoftmaxMatmulKernel &a, const SoftmaxMatmulKernel &b) {
  return a.dtype == b.dtype && a.precision == b.precision &&
         a.blockM == b.blockM && a.blockK == b.blockK && a.blockN == b.blockN &&
         a.warps == b.warps && a.stages == b.stages &&
         a.minProgramsPerSM == b.minProgramsPerSM && a.product == b.product &&
         a.tma == b.tma && a.residentProducts == b.residentProducts;
}

bool operator==(const KernelDesc &a, const KernelDesc &b) {
  if (a.op != b.op)
    return false;
  return a.op == Op::Softmax ? a.softmax == b.softmax
                             : a.softmaxMatmul == b.softmaxMatmul;
}

static bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

std::string whyInvalid(const SoftmaxKernel &k) {
  if (k.dtype > DType::BF16)
    return "unknown dtype";
  if (k.alignment > RowAlignment::Whole16)
    return "unknown alignment";
  if (!isPowerOf2(k.block) || k.block < 32 || k.block > 32768)
    return "block must be a power of two from 32 to 32768";
  if (!isPowerOf2(k.warps) || k.warps > 32)
    return "warps must be a power of two up to 32";
  if (k.minProgramsPerSM < 0 || k.minProgramsPerSM > 32)
    return "minProgramsPerSM must be 0 to 32";
  bool rows = k.scheme == SoftmaxScheme::Rows ||
              k.scheme == SoftmaxScheme::PersistentRows;
  if (rows != (k.rows > 0))
    return "rows per program are set for the row schemes only";
  if (rows && (!isPowerOf2(k.rows) || k.rows > k.warps * 8))
    return "rows per program must be a power of two, at most 8 per warp";
  if (k.tail && (k.scheme != SoftmaxScheme::Rows || !isPowerOf2(k.tail) ||
                 k.tail >= k.block || k.alignment == RowAlignment::Element))
    return "a second tile is for 16-byte aligned Rows kernels, a power of "
           "two below block";
  bool cluster = k.scheme == SoftmaxScheme::Cluster ||
                 k.scheme == SoftmaxScheme::ClusterLoop;
  if (cluster != (k.clusterSize > 0))
    return "clusterSize is set for the cluster schemes only";
  if (cluster &&
      (!isPowerOf2(k.clusterSize) || k.clusterSize < 2 || k.clusterSize > 16))
    return "clusterSize must be 2, 4, 8 or 16";
  if (cluster && k.alignment == RowAlignment::Element)
    return "cluster kernels need rows starting 16-byte aligned";
  if ((k.scheme == SoftmaxScheme::ClusterLoop ||
       k.scheme == SoftmaxScheme::Grid) &&
      k.alignment != RowAlignment::Whole16)
    return "looping clusters and grid kernels need Whole16 rows";
  if (k.rematerialize &&
      (k.dtype == DType::F32 || k.alignment != RowAlignment::Whole16 ||
       !(k.scheme == SoftmaxScheme::Grid ||
         (k.scheme == SoftmaxScheme::Rows && k.rows == 1 && !k.tail))))
    return "rematerialization is for 2-byte Whole16 rows, one per program, "
           "or grid kernels";
  if (k.minProgramsPerSM && !(cluster || k.scheme == SoftmaxScheme::Grid))
    return "occupancy requests are for cluster and grid kernels";
  return "";
}

std::string whyInvalid(const SoftmaxMatmulKernel &k) {
  if (k.dtype > DType::BF16 || k.precision > Precision::TF32x3)
    return "unknown dtype or precision";
  if (k.dtype != DType::F32 && k.precision != Precision::IEEE)
    return "f16 and bf16 products are IEEE (exact in f32)";
  for (int32_t b : {k.blockM, k.blockK, k.blockN})
    if (!isPowerOf2(b) || b < 16 || b > 256)
      return "blocks must be powers of two from 16 to 256";
  if (!isPowerOf2(k.warps) || k.warps > 16)
    return "warps must be a power of two up to 16";
  if (k.stages != 0 && (k.stages < 2 || k.stages > 4))
    return "stages must be 0 (loads) or 2 to 4";
  if (k.minProgramsPerSM < 0 || k.minProgramsPerSM > 32)
    return "minProgramsPerSM must be 0 to 32";
  bool wgmma = k.product != MatmulProduct::Mma;
  bool fma = k.dtype == DType::F32 && k.precision == Precision::IEEE;
  if (wgmma && (fma || k.stages < 2))
    return "wgmma products need tensor-core types and a pipeline";
  bool transposed = k.product == MatmulProduct::WgmmaTransposed ||
                    k.product == MatmulProduct::WgmmaTransposedInFlight;
  if (transposed && k.dtype != DType::F32)
    return "transposed products are for tf32 and tf32x3";
  if (k.dtype == DType::F32 && k.precision != Precision::IEEE && wgmma &&
      !transposed && k.precision == Precision::TF32x3)
    return "tf32x3 wgmma products are transposed";
  if (k.product == MatmulProduct::WgmmaInFlight && k.stages < 3)
    return "a wgmma in flight needs 3 or more stages";
  if (k.tma && !wgmma)
    return "TMA copies are for the wgmma kernels";
  if (k.residentProducts && (!isPowerOf2(k.residentProducts) ||
                             k.residentProducts > 8 || k.stages != 2 || k.tma))
    return "short-row kernels take 1 to 8 products over a 2-stage pipeline";
  return "";
}

std::string whyInvalid(const KernelDesc &k) {
  switch (k.op) {
  case Op::Softmax:
    return whyInvalid(k.softmax);
  case Op::SoftmaxMatmul:
    return whyInvalid(k.softmaxMatmul);
  }
  return "unknown operation";
}

Target getTarget(const KernelDesc &k) {
  if (k.op == Op::Softmax)
    return k.softmax.scheme == SoftmaxScheme::Cluster ||
                   k.softmax.scheme == SoftmaxScheme::ClusterLoop
               ? Target::Sm90
               : Target::Sm80;
  return k.softmaxMatmul.product == MatmulProduct::Mma ? Target::Sm80
                                                       : Target::Sm90a;
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

const char *getName(RowAlignment a) {
  switch (a) {
  case RowAlignment::Element:
    return "element";
  case RowAlignment::Rows16:
    return "rows16";
  case RowAlignment::Whole16:
    return "whole16";
  }
  return "?";
}

const char *getName(SoftmaxScheme s) {
  switch (s) {
  case SoftmaxScheme::Rows:
    return "rows";
  case SoftmaxScheme::PersistentRows:
    return "persistent_rows";
  case SoftmaxScheme::Online:
    return "online";
  case SoftmaxScheme::Cluster:
    return "cluster";
  case SoftmaxScheme::ClusterLoop:
    return "cluster_loop";
  case SoftmaxScheme::Grid:
    return "grid";
  }
  return "?";
}

const char *getName(MatmulProduct p) {
  switch (p) {
  case MatmulProduct::Mma:
    return "mma";
  case MatmulProduct::Wgmma:
    return "wgmma";
  case MatmulProduct::WgmmaInFlight:
    return "wgmma_in_flight";
  case MatmulProduct::WgmmaTransposed:
    return "wgmma_transposed";
  case MatmulProduct::WgmmaTransposedInFlight:
    return "wgmma_transposed_in_flight";
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

} // namespace catalogue
} // namespace tile
