//===- GenerateElementwiseCases.cpp - The GPU test's elementwise cases ----===//
//
// Writes each case of ElementwiseCases.h, compiled for sm_80 (the PTX runs
// on any GPU Tile supports), for the GPU test: <dir>/<case>.ptx, .meta and
// .case, a text file with the inputs' bytes and the interpreter's outputs:
//
//   name math.erf_f32
//   tolerance 1e-05
//   scalars 0
//   input f32 256 <hex bytes>
//   output f32 256 <values>
//
//===----------------------------------------------------------------------===//

#include "ElementwiseCases.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir::tile::interp;
using namespace elementwise;

static bool write(const std::string &path, const std::string &text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "error: cannot write " << path << ": " << ec.message()
                 << "\n";
    return false;
  }
  os << text;
  return true;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: " << argv[0] << " <output directory>\n";
    return 2;
  }
  std::string dir = argv[1];
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    llvm::errs() << "error: cannot create " << dir << ": " << ec.message()
                 << "\n";
    return 1;
  }
  // A fixed seed: the build's output does not change between builds.
  for (const Case &c : makeCases(20261126)) {
    Prepared p;
    std::string error;
    if (!prepare(c, "sm_80", p, error)) {
      llvm::errs() << "error: case " << c.name << ":\n" << error;
      return 1;
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "name " << c.name << "\ntolerance "
       << llvm::format("%.17g", c.tolerance) << "\nscalars "
       << c.scalars.size();
    for (int64_t s : c.scalars)
      os << " " << s;
    os << "\n";
    int first = c.buffers.size() - c.numOutputs;
    for (int i = 0, e = c.buffers.size(); i < e; ++i) {
      const Buffer &b = i < first ? c.buffers[i] : p.results[i];
      os << (i < first ? "input " : "output ") << dtypeName(b.dtype) << " "
         << b.numElements();
      for (int64_t k = 0; k < b.numElements(); ++k) {
        if (i < first)
          for (int64_t j = 0, n = dtypeSize(b.dtype); j < n; ++j)
            os << (j ? "" : " ")
               << llvm::format_hex_no_prefix(b.bytes[k * n + j], 2);
        else
          os << " " << llvm::format("%.17g", b.get(k));
      }
      os << "\n";
    }
    std::string base = dir + "/" + c.name;
    if (!write(base + ".ptx", p.compiled.image) ||
        !write(base + ".meta", p.compiled.metadata) ||
        !write(base + ".case", text))
      return 1;
  }
  // tile.print on the GPU (ElementwiseOpsGPUTest.cpp): x[i] = i read and
  // printed element by element, and a scalar.
  const char *printKernel = R"(
func.func @k(%x: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 64 : tensor<64xi32>
  %b = tile.splat %x : tensor<64x!tile.ptr<f32>>
  %p = tile.addptr %b, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %p : tensor<64x!tile.ptr<f32>>
  %m = tile.reduce max %v axis = 0 : tensor<64xf32> -> f32
  tile.print "max" %m : f32
  tile.print "x" %v : tensor<64xf32>
  tile.print "n" %n : i32
  return
}
)";
  Case print;
  print.name = "print";
  print.text = printKernel;
  Buffer x("x", DType::F32, {64});
  for (int64_t k = 0; k < 64; ++k)
    x.set(k, k);
  print.buffers = {x};
  print.numOutputs = 0;
  print.scalars = {5};
  Prepared p;
  std::string error;
  if (!prepare(print, "sm_80", p, error)) {
    llvm::errs() << "error: the print kernel:\n" << error;
    return 1;
  }
  if (!write(dir + "/print.ptx", p.compiled.image) ||
      !write(dir + "/print.meta", p.compiled.metadata))
    return 1;
  return 0;
}
