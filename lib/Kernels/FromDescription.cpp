//===- FromDescription.cpp - Catalogue descriptions to the builders -------===//
//
// The builders of the catalogue's "softmax" and "softmax_matmul"
// operations: each description mapped onto the configuration of the
// builder that makes its scheme (LibraryKernels.h).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "tile/Catalogue/Ops/Softmax.h"
#include "tile/Catalogue/Ops/SoftmaxMatmul.h"
#include "tile/Kernels/LibraryKernels.h"

using namespace mlir;
using mlir::tile::ElemType;
using mlir::tile::kernels::toElemType;

namespace tile {
namespace catalogue {

namespace {
mlir::tile::InputPrecision toInputPrecision(Precision p) {
  switch (p) {
  case Precision::IEEE:
    return mlir::tile::InputPrecision::IEEE;
  case Precision::TF32:
    return mlir::tile::InputPrecision::TF32;
  case Precision::TF32x3:
    return mlir::tile::InputPrecision::TF32x3;
  }
  return mlir::tile::InputPrecision::IEEE;
}

mlir::tile::SoftmaxRowsConfig toRows(const SoftmaxKernel &k) {
  mlir::tile::SoftmaxRowsConfig c;
  c.in = c.out = toElemType(k.dtype);
  c.rows = k.rows;
  c.block = k.block;
  c.numWarps = k.warps;
  c.tail = k.tail;
  c.aligned = k.alignment != RowAlignment::Element;
  c.colsAligned = k.alignment == RowAlignment::Whole16;
  c.persistent = k.scheme == SoftmaxScheme::PersistentRows;
  c.rematerialize = k.rematerialize;
  return c;
}

mlir::tile::SoftmaxOnlineConfig toOnline(const SoftmaxKernel &k) {
  mlir::tile::SoftmaxOnlineConfig c;
  c.in = c.out = toElemType(k.dtype);
  c.block = k.block;
  c.numWarps = k.warps;
  c.aligned = k.alignment != RowAlignment::Element;
  c.colsAligned = k.alignment == RowAlignment::Whole16;
  return c;
}

mlir::tile::SoftmaxClusterConfig toCluster(const SoftmaxKernel &k) {
  mlir::tile::SoftmaxClusterConfig c;
  c.in = c.out = toElemType(k.dtype);
  c.block = k.block;
  c.numWarps = k.warps;
  c.clusterSize = k.clusterSize;
  c.aligned = true;
  c.colsAligned = k.alignment == RowAlignment::Whole16;
  c.minProgramsPerSM = k.minProgramsPerSM;
  c.loop = k.scheme == SoftmaxScheme::ClusterLoop;
  return c;
}

mlir::tile::SoftmaxGridConfig toGrid(const SoftmaxKernel &k) {
  mlir::tile::SoftmaxGridConfig c;
  c.in = c.out = toElemType(k.dtype);
  c.block = k.block;
  c.numWarps = k.warps;
  c.maxSlices = kGridMaxSlices;
  c.colsAligned = true;
  c.rematerialize = k.rematerialize;
  c.minProgramsPerSM = k.minProgramsPerSM;
  return c;
}

mlir::tile::SoftmaxMatmulConfig toMatmul(const SoftmaxMatmulKernel &k) {
  mlir::tile::SoftmaxMatmulConfig c;
  c.dtype = toElemType(k.dtype);
  c.precision = toInputPrecision(k.precision);
  c.blockM = k.blockM;
  c.blockK = k.blockK;
  c.blockN = k.blockN;
  c.numWarps = k.warps;
  c.stages = k.stages;
  c.minProgramsPerSM = k.minProgramsPerSM;
  c.hopper = k.product != MatmulProduct::Mma;
  c.mmaInFlight = k.product == MatmulProduct::WgmmaInFlight ||
                  k.product == MatmulProduct::WgmmaTransposedInFlight;
  c.transposedProduct = k.product == MatmulProduct::WgmmaTransposed ||
                        k.product == MatmulProduct::WgmmaTransposedInFlight;
  c.tma = k.tma;
  c.specialized = k.specialized;
  c.splitColumns = k.splitColumns;
  c.pingpong = k.pingpong;
  c.residentProducts = k.residentProducts;
  c.clusterSize = k.cluster;
  c.clusterColumns = k.clusterColumns;
  c.vTransposed = k.vTransposed;
  c.persistent = k.persistent;
  return c;
}
} // namespace

std::string getSoftmaxKernelName(const KernelDesc &desc) {
  SoftmaxKernel s = toSoftmaxKernel(desc);
  switch (s.scheme) {
  case SoftmaxScheme::Rows:
  case SoftmaxScheme::PersistentRows:
    return mlir::tile::getKernelName(toRows(s));
  case SoftmaxScheme::Online:
    return mlir::tile::getKernelName(toOnline(s));
  case SoftmaxScheme::Cluster:
  case SoftmaxScheme::ClusterLoop:
    return mlir::tile::getKernelName(toCluster(s));
  case SoftmaxScheme::Grid:
    return mlir::tile::getKernelName(toGrid(s));
  }
  return "";
}

void buildSoftmaxKernel(ModuleOp module, const KernelDesc &desc) {
  SoftmaxKernel s = toSoftmaxKernel(desc);
  switch (s.scheme) {
  case SoftmaxScheme::Rows:
  case SoftmaxScheme::PersistentRows:
    mlir::tile::buildSoftmaxRows(module, toRows(s));
    return;
  case SoftmaxScheme::Online:
    mlir::tile::buildSoftmaxOnline(module, toOnline(s));
    return;
  case SoftmaxScheme::Cluster:
  case SoftmaxScheme::ClusterLoop:
    mlir::tile::buildSoftmaxCluster(module, toCluster(s));
    return;
  case SoftmaxScheme::Grid:
    mlir::tile::buildSoftmaxGrid(module, toGrid(s));
    return;
  }
}

mlir::tile::SoftmaxMatmulTransposeConfig
toTransposition(const SoftmaxMatmulKernel &k) {
  mlir::tile::SoftmaxMatmulTransposeConfig c;
  c.precision = toInputPrecision(k.precision);
  c.block = k.blockM;
  c.numWarps = k.warps;
  return c;
}

std::string getSoftmaxMatmulKernelName(const KernelDesc &desc) {
  SoftmaxMatmulKernel k = toSoftmaxMatmulKernel(desc);
  if (k.transposesV)
    return mlir::tile::getKernelName(toTransposition(k));
  return mlir::tile::getKernelName(toMatmul(k));
}

void buildSoftmaxMatmulKernel(ModuleOp module, const KernelDesc &desc) {
  SoftmaxMatmulKernel k = toSoftmaxMatmulKernel(desc);
  if (k.transposesV) {
    mlir::tile::buildSoftmaxMatmulTransposeV(module, toTransposition(k));
    return;
  }
  mlir::tile::SoftmaxMatmulConfig c = toMatmul(k);
  if (c.residentProducts)
    mlir::tile::buildSoftmaxMatmulResident(module, c);
  else
    mlir::tile::buildSoftmaxMatmul(module, c);
}

} // namespace catalogue
} // namespace tile
