//===- tile-docs-gen.cpp - Reference pages generated from Tile's tables ---===//
//
// Writes docs/reference/ElementwiseOps.md from the table of supported arith
// and math ops (ElementwiseOps.h), so the reference says, for every op, how
// the interpreter and the GPU compute it; with `tile-ops`,
// docs/reference/TileOps.md: where each op of the tile dialect runs. That
// page's table must name exactly the dialect's registered ops (the tool
// fails otherwise), so a new op cannot be left out of it.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/ElementwiseOps.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringMap.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::tile;

static const char *gpuText(const ElementwiseOpInfo &op) {
  switch (op.gpu) {
  case GpuLowering::Native:
    return "native";
  case GpuLowering::Expanded:
    return "expanded by `tile-expand-math`";
  case GpuLowering::LibDevice:
    return "libdevice";
  }
  return "";
}

namespace {
/// Where a tile op runs: in the interpreter (or why not) and on the GPU
/// (what it needs beyond sm_80).
struct TileOpSupport {
  const char *name;
  const char *interpreter;
  const char *gpu;
};
} // namespace

static const TileOpSupport kTileOps[] = {
    {"tile.addptr", "yes", "yes"},
    {"tile.advance", "yes", "yes"},
    {"tile.alloc_mbarriers",
     "no: made by `tile-pipeline-loops` and `tile-warp-specialize`",
     "sm_90 (TMA pipelines)"},
    {"tile.alloc_shared", "yes", "yes"},
    {"tile.assert", "yes (reports the program)", "yes (`__assertfail`)"},
    {"tile.async_commit", "yes", "yes"},
    {"tile.async_copy", "yes", "yes (`cp.async`)"},
    {"tile.async_wait", "yes", "yes"},
    {"tile.atomic_add", "yes", "yes"},
    {"tile.atomic_cas", "yes", "yes"},
    {"tile.atomic_rmw", "yes", "yes; a bf16 `add` needs sm_90"},
    {"tile.block_load", "yes", "yes"},
    {"tile.block_store", "yes", "yes"},
    {"tile.broadcast", "yes", "yes"},
    {"tile.cluster_gather", "yes", "sm_90 (thread block clusters)"},
    {"tile.cluster_reduce", "yes", "sm_90 (thread block clusters)"},
    {"tile.convert_layout", "yes", "yes"},
    {"tile.dot", "yes", "yes (FMA, `mma.sync`; `wgmma` on sm_90a)"},
    {"tile.expand_dims", "yes", "yes"},
    {"tile.launch_dependents", "yes (does nothing)",
     "yes (`griddepcontrol`, sm_90; dropped before)"},
    {"tile.load", "yes", "yes"},
    {"tile.local_load", "yes", "yes"},
    {"tile.local_store", "yes", "yes"},
    {"tile.make_block_ptr", "yes", "yes"},
    {"tile.mbarrier_arrive", "no: made by `tile-warp-specialize`",
     "sm_90 (TMA pipelines)"},
    {"tile.mbarrier_wait",
     "no: made by `tile-pipeline-loops` and `tile-warp-specialize`",
     "sm_90 (TMA pipelines)"},
    {"tile.num_programs", "yes", "yes"},
    {"tile.pass_turn", "no: warp-specialized kernels only",
     "sm_90a (named barriers)"},
    {"tile.optimization_barrier", "yes", "yes"},
    {"tile.print", "yes", "yes (`vprintf`)"},
    {"tile.program_id", "yes", "yes"},
    {"tile.range", "yes", "yes"},
    {"tile.reduce", "yes", "yes"},
    {"tile.reshape", "yes", "yes"},
    {"tile.scan", "yes", "yes"},
    {"tile.splat", "yes", "yes"},
    {"tile.store", "yes", "yes"},
    {"tile.tf32_parts", "yes", "yes (`cvt.rn.tf32.f32`)"},
    {"tile.tma_copy",
     "no: made by `tile-pipeline-loops` and `tile-warp-specialize`",
     "sm_90a (TMA)"},
    {"tile.tma_prefetch", "no: made by `tile-warp-specialize`",
     "sm_90a (TMA, into L2)"},
    {"tile.tma_store", "no: made by `tile-warp-specialize`",
     "sm_90a (TMA, shared to global)"},
    {"tile.trans", "yes", "yes"},
    {"tile.wait_at_least", "yes", "yes"},
    {"tile.wait_prior_grid", "yes (does nothing)",
     "yes (`griddepcontrol`, sm_90; dropped before)"},
    {"tile.wait_turn", "no: warp-specialized kernels only",
     "sm_90a (named barriers)"},
    {"tile.warp_specialize", "no: made by `tile-warp-specialize`",
     "sm_90a (`setmaxnreg`)"},
    {"tile.warpgroup_mma_wait", "no: made by `tile-pipeline-loops`",
     "sm_90a (`wgmma`)"},
    {"tile.yield", "yes (in a combiner)", "yes (in a combiner)"},
};

/// docs/reference/TileOps.md; 1 when the table and the dialect disagree.
static int writeTileOps(llvm::raw_ostream &os) {
  mlir::MLIRContext context;
  context.loadDialect<TileDialect>();
  llvm::StringMap<const TileOpSupport *> table;
  for (const TileOpSupport &op : kTileOps)
    table[op.name] = &op;
  int status = 0;
  size_t registered = 0;
  for (mlir::RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "tile")
      continue;
    ++registered;
    if (!table.count(name.getStringRef())) {
      llvm::errs() << "tile-docs-gen: '" << name.getStringRef()
                   << "' is missing from the table of tile ops\n";
      status = 1;
    }
  }
  if (registered != table.size()) {
    llvm::errs() << "tile-docs-gen: the table of tile ops names "
                 << table.size() << " ops, the dialect registers " << registered
                 << "\n";
    status = 1;
  }
  os << "<!-- Generated by tile-docs-gen tile-ops from its table, checked "
        "against the registered ops. -->\n\n"
     << "# Where the tile ops run\n\n"
     << "Every op of the `tile` dialect, whether the interpreter "
        "(`tile-run --mode=interp`)\nruns it, and what it needs on the GPU "
        "beyond sm_80 (the oldest target). Ops marked\n\"made by\" are "
        "written by the compiler's passes, not by kernel authors. The\n"
        "`arith` and `math` ops are in [ElementwiseOps.md](ElementwiseOps.md)"
        ", the ops' syntax\nand meaning in [TileDialect.md](TileDialect.md)."
        "\n\n"
     << "| Op | Interpreter | GPU |\n|---|---|---|\n";
  for (const TileOpSupport &op : kTileOps)
    os << "| `" << op.name << "` | " << op.interpreter << " | " << op.gpu
       << " |\n";
  return status;
}

int main(int argc, char **argv) {
  llvm::raw_ostream &os = llvm::outs();
  if (argc == 2 && llvm::StringRef(argv[1]) == "tile-ops")
    return writeTileOps(os);
  os << "<!-- Generated by tile-docs-gen from "
        "include/tile/Dialect/Tile/IR/ElementwiseOps.h. -->\n\n"
     << "# Arith and math ops\n\n"
     << "A kernel may use these ops of the `arith` and `math` dialects, on "
        "scalars and on tiles;\n`tile-kernel-check` rejects any other with "
        "what to write instead. Every op runs in\nthe interpreter and on "
        "the GPU:\n\n"
     << "- **interpreter**: a math op's float64 function, rounded once to "
        "the element type\n  (`fma` rounds once, as the GPU's `fma.rn` "
        "does); arith ops by the interpreter's own\n  rules (docs/tools.md);\n"
     << "- **GPU**: *native* is one or a few instructions (`exp`, `exp2`, "
        "`log`, `log2` through\n  the hardware's `ex2`/`lg2` "
        "approximations in f32, f16 and bf16); *expanded* ops\n  are "
        "rewritten into other ops first (f16 and bf16 in f32); *libdevice* "
        "ops call the\n  CUDA toolkit's math library, f16 and bf16 through "
        "its f32 function. An f64 op\n  with a libdevice function listed "
        "for f64 calls it.\n\n"
     << "Tests run every op for f32, f16, bf16 and f64 (i32 for integer ops) "
        "on inputs from\nthe domain listed, and compare the GPU with the "
        "interpreter.\n\n"
     << "| Op | Operands | Elements | GPU | libdevice (f32 / f64) | Test "
        "domain |\n"
     << "|---|---:|---|---|---|---|\n";
  for (const ElementwiseOpInfo &op : getElementwiseOps()) {
    os << "| `" << op.name << "` | " << op.numOperands << " | "
       << (op.kind == ElementKind::Float ? "float" : "integer") << " | "
       << gpuText(op) << " | ";
    auto function = [&](llvm::StringRef name) {
      if (name.empty())
        os << "-";
      else
        os << "`" << name << "`";
    };
    if (!op.libdeviceF32.empty() || !op.libdeviceF64.empty()) {
      function(op.libdeviceF32);
      os << " / ";
      function(op.libdeviceF64);
    }
    os << " | ";
    if (op.domainLo != op.domainHi)
      os << llvm::format("[%g, %g]", op.domainLo, op.domainHi);
    os << " |\n";
  }
  os << "\n## Not supported\n\n"
     << "| Op | What to write instead |\n|---|---|\n";
  for (const char *name :
       {"math.fpowi", "math.ipowi", "math.isnan", "math.isinf", "math.isfinite",
        "math.ctlz", "math.cttz", "math.ctpop", "math.absi", "arith.bitcast"})
    os << "| `" << name << "` | " << getUnsupportedReason(name) << " |\n";
  return 0;
}
