//===- tile-run.cpp - Execute a tile kernel -------------------------------===//
//
// tile-run parses a .mlir file, checks its kernel, builds the buffers and
// scalars described on the command line, runs the kernel over a grid and
// compares outputs with float64 references. This build executes kernels in
// the interpreter (the project's reference); see docs/tools.md.
//
//===----------------------------------------------------------------------===//

#include "ArgSpec.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
namespace cl = llvm::cl;

static cl::OptionCategory category("tile-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel.mlir>"),
                                      cl::Required, cl::cat(category));
static cl::opt<std::string> kernelName("kernel",
                                       cl::desc("Kernel to run (default: the "
                                                "module's only kernel)"),
                                       cl::value_desc("name"), cl::init(""),
                                       cl::cat(category));
static cl::opt<std::string>
    gridSpec("grid", cl::desc("Program instances along axes 0[,1[,2]]"),
             cl::value_desc("x[,y[,z]]"), cl::init("1"), cl::cat(category));
static cl::list<std::string>
    argSpecs("arg",
             cl::desc("Kernel argument, in order: NAME=DTYPE[D0xD1...]:INIT "
                      "for a buffer, [NAME=]DTYPE:VALUE for a scalar"),
             cl::value_desc("spec"), cl::cat(category));
static cl::list<std::string>
    checkSpecs("check",
               cl::desc("Compare buffer OUT with a float64 reference: "
                        "OUT=softmax(X) | softmax_matmul(X,V) | matmul(A,B) | "
                        "matmul_leaky_relu(A,B) | add(X,Y)"),
               cl::value_desc("OUT=FN(IN,...)"), cl::cat(category));
static cl::opt<unsigned> seed("seed", cl::desc("Random seed for inputs"),
                              cl::init(0), cl::cat(category));
static cl::opt<double>
    rtol("rtol",
         cl::desc("Tolerance on max|got-ref|/max|ref| (default by dtype: "
                  "1e-5 for f32, 1e-2 for f16/bf16)"),
         cl::init(-1), cl::cat(category));
static cl::list<std::string>
    printBuffers("print", cl::desc("Print a buffer's values after the run"),
                 cl::value_desc("name"), cl::cat(category));
static cl::list<std::string>
    dumpBuffers("dump",
                cl::desc("Write a buffer's raw bytes to a file after the run"),
                cl::value_desc("name=path"), cl::cat(category));
enum class Mode { Auto, Interp, GPU };
static cl::opt<Mode> mode(
    "mode", cl::desc("Where to execute"), cl::init(Mode::Auto),
    cl::values(clEnumValN(Mode::Auto, "auto",
                          "The GPU when this build can use one, else the "
                          "interpreter"),
               clEnumValN(Mode::Interp, "interp", "The CPU interpreter"),
               clEnumValN(Mode::GPU, "gpu", "A CUDA GPU (fails without one)")),
    cl::cat(category));
static cl::opt<bool> quiet("quiet", cl::desc("Print only check results"),
                           cl::init(false), cl::cat(category));

static const char *kHelpOverview = R"(tile-run: execute a tile kernel

Example (softmax of a 1823x781 matrix, one row per program):
  tile-run examples/softmax.mlir --grid 1823 \
    --arg y=f32[1823x781] --arg x=f32[1823x781]:randn \
    --arg i32:781 --arg i32:781 --arg i32:1823 --arg i32:781 \
    --check 'y=softmax(x)'

Buffers that are the output of a --check start as NaN (poison) unless an
initializer is given, so elements the kernel fails to write are caught.
Exit status: 0 when every check passes, 1 when a check fails or the kernel
faults, 2 for bad input (file, IR, arguments).
)";

static int usageError(const llvm::Twine &message) {
  llvm::errs() << "tile-run: error: " << message << "\n";
  return 2;
}

static bool parseGrid(StringRef text, int64_t grid[3]) {
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  if (parts.empty() || parts.size() > 3)
    return false;
  for (auto [i, p] : llvm::enumerate(parts))
    if (p.trim().getAsInteger(10, grid[i]) || grid[i] < 1 ||
        grid[i] > (int64_t(1) << 31) - 1)
      return false;
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, kHelpOverview);

  int64_t grid[3] = {1, 1, 1};
  if (!parseGrid(gridSpec, grid))
    return usageError("bad --grid '" + gridSpec +
                      "' (expected 1 to 3 positive integers: x[,y[,z]])");

  if (mode == Mode::GPU)
    return usageError("--mode=gpu: this build of tile-run has no GPU "
                      "backend yet; use --mode=interp");

  // Parse arguments and checks before touching the IR.
  std::vector<tilerun::ArgSpec> specs;
  std::map<std::string, int> bufferByName;
  for (const std::string &text : argSpecs) {
    tilerun::ArgSpec spec;
    std::string error;
    if (!tilerun::parseArgSpec(text, spec, error))
      return usageError("--arg '" + text + "': " + error);
    if (!spec.name.empty()) {
      for (const auto &other : specs)
        if (other.name == spec.name)
          return usageError("--arg '" + text + "': name '" + spec.name +
                            "' is used twice");
    }
    specs.push_back(spec);
  }
  std::vector<tilerun::CheckSpec> checks;
  for (const std::string &text : checkSpecs) {
    tilerun::CheckSpec check;
    std::string error;
    if (!tilerun::parseCheckSpec(text, check, error))
      return usageError("--check: " + error);
    checks.push_back(check);
  }

  // Parse and verify the module; diagnostics carry file:line:col.
  MLIRContext context;
  // Diagnostics point at the source line; the generic op dump adds noise.
  context.printOpOnDiagnostic(false);
  context.loadDialect<TileDialect, arith::ArithDialect, math::MathDialect,
                      scf::SCFDialect, func::FuncDialect>();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  std::string openError;
  auto file = mlir::openInputFile(inputFile, &openError);
  if (!file)
    return usageError(openError);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 2;

  // The same checks the compiler runs: no kernel that could not run on a
  // GPU is interpreted either.
  PassManager pm(&context);
  pm.addPass(createTileKernelCheck());
  if (failed(pm.run(*module)))
    return 2;

  func::FuncOp kernel = lookupKernel(*module, kernelName);
  if (!kernel)
    return 2;
  if (kernel.getNumArguments() != specs.size())
    return usageError(llvm::formatv("kernel '{0}' takes {1} arguments but {2} "
                                    "--arg were given",
                                    kernel.getSymName(),
                                    kernel.getNumArguments(), specs.size())
                          .str());

  // Build buffers and scalar arguments.
  std::vector<Buffer> buffers;
  std::vector<ArgValue> args;
  std::mt19937_64 rng(seed);
  for (size_t idx = 0; idx < specs.size(); ++idx) {
    const tilerun::ArgSpec &spec = specs[idx];
    Type param = kernel.getArgumentTypes()[idx];
    std::string what = llvm::formatv("argument #{0}", idx).str();
    if (spec.isBuffer) {
      auto ptr = dyn_cast<PointerType>(param);
      if (!ptr)
        return usageError(what + " of kernel '" +
                          kernel.getSymName().str() +
                          "' is a scalar, but a buffer was given");
      auto pointee = dtypeOf(ptr.getPointeeType());
      if (!pointee || *pointee != spec.dtype)
        return usageError(what + " points to " +
                          llvm::formatv("{0}", ptr.getPointeeType()).str() +
                          ", but buffer '" + spec.name + "' is " +
                          dtypeName(spec.dtype).str());
      Buffer buf(spec.name, spec.dtype, spec.shape);
      tilerun::ArgSpec initSpec = spec;
      if (initSpec.init.empty()) {
        bool isOutput = llvm::any_of(checks, [&](const auto &c) {
          return c.output == spec.name;
        });
        initSpec.init = isOutput ? "poison" : "randn";
      }
      std::string error;
      if (!tilerun::initBuffer(initSpec, buf, rng, error))
        return usageError(error);
      bufferByName[spec.name] = (int)buffers.size();
      args.push_back(ArgValue::buffer((int)buffers.size()));
      buffers.push_back(std::move(buf));
      continue;
    }
    if (isa<PointerType>(param))
      return usageError(what + " of kernel '" + kernel.getSymName().str() +
                        "' is a pointer; describe a buffer as "
                        "NAME=DTYPE[SHAPE]");
    auto want = dtypeOf(param);
    if (!want || *want != spec.dtype)
      return usageError(what + " has type " +
                        llvm::formatv("{0}", param).str() + ", but " +
                        dtypeName(spec.dtype).str() + " was given");
    if (isFloat(spec.dtype)) {
      args.push_back(ArgValue::real(spec.scalar));
    } else {
      int64_t v = std::stoll(spec.initPath);
      int64_t bits = dtypeSize(spec.dtype) * 8;
      if (spec.dtype == DType::I1 ? (v != 0 && v != 1)
                                  : (bits < 64 && (v < -(int64_t(1) << (bits - 1)) ||
                                                   v >= (int64_t(1) << (bits - 1)))))
        return usageError(what + " value " + std::to_string(v) +
                          " does not fit in " + dtypeName(spec.dtype).str());
      args.push_back(ArgValue::integer(v));
    }
  }

  // Validate checks against the buffers before running.
  auto lookup = [&](const std::string &name) -> Buffer * {
    auto it = bufferByName.find(name);
    return it == bufferByName.end() ? nullptr : &buffers[it->second];
  };
  for (const auto &check : checks) {
    if (!lookup(check.output))
      return usageError("--check: no buffer named '" + check.output + "'");
    for (const auto &in : check.inputs)
      if (!lookup(in))
        return usageError("--check: no buffer named '" + in + "'");
  }

  if (!quiet)
    llvm::outs() << llvm::formatv(
        "tile-run: kernel @{0}, grid ({1}, {2}, {3}), executing in the "
        "interpreter\n",
        kernel.getSymName(), grid[0], grid[1], grid[2]);

  RunOptions options;
  for (int a = 0; a < 3; ++a)
    options.grid[a] = grid[a];
  auto start = std::chrono::steady_clock::now();
  if (failed(runKernel(kernel, args, buffers, options)))
    return 1;
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!quiet)
    llvm::outs() << llvm::formatv("tile-run: done in {0:f3} s\n", seconds);

  int failures = 0;
  for (const auto &check : checks) {
    Buffer &out = *lookup(check.output);
    std::vector<const Buffer *> ins;
    for (const auto &name : check.inputs)
      ins.push_back(lookup(name));
    std::vector<double> ref;
    std::string shapeError;
    auto dims = [](const Buffer *b) { return b->shape; };
    if (check.function == "softmax") {
      auto s = dims(ins[0]);
      int64_t cols = s.back(), rows = ins[0]->numElements() / cols;
      ref = referenceSoftmax(ins[0]->toDoubles(), rows, cols);
    } else if (check.function == "add") {
      if (ins[0]->numElements() != ins[1]->numElements())
        shapeError = "inputs of add have different sizes";
      else {
        auto a = ins[0]->toDoubles(), b = ins[1]->toDoubles();
        ref.resize(a.size());
        for (size_t i = 0; i < a.size(); ++i)
          ref[i] = a[i] + b[i];
      }
    } else if (check.function == "softmax_matmul") {
      auto x = dims(ins[0]), v = dims(ins[1]);
      if (x.size() == 2)
        x.insert(x.begin(), 1);
      if (v.size() == 2)
        v.insert(v.begin(), 1);
      if (x.size() != 3 || v.size() != 3 || x[0] != v[0] || x[2] != v[1])
        shapeError = "softmax_matmul needs X [batch, d1, d2] and V [batch, "
                     "d2, d3]";
      else
        ref = referenceSoftmaxMatmul(ins[0]->toDoubles(), ins[1]->toDoubles(),
                                     x[0], x[1], x[2], v[2]);
    } else { // matmul, matmul_leaky_relu
      auto a = dims(ins[0]), b = dims(ins[1]);
      if (a.size() != 2 || b.size() != 2 || a[1] != b[0])
        shapeError = check.function + " needs A [M, K] and B [K, N]";
      else
        ref = referenceMatmul(ins[0]->toDoubles(), ins[1]->toDoubles(), a[0],
                              b[1], a[1], check.function != "matmul");
    }
    if (shapeError.empty() && (int64_t)ref.size() != out.numElements())
      shapeError = llvm::formatv("'{0}' has {1} elements but {2}(...) gives "
                                 "{3}",
                                 check.output, out.numElements(),
                                 check.function, ref.size())
                       .str();
    if (!shapeError.empty())
      return usageError("--check " + check.output + ": " + shapeError);
    double tol = rtol >= 0 ? (double)rtol : defaultTolerance(out.dtype);
    Comparison cmp = compare(out.toDoubles(), ref, tol);
    llvm::outs() << llvm::formatv(
        "check {0} = {1}({2}): max rel error {3:e2} (max abs {4:e2}",
        check.output, check.function, llvm::join(check.inputs, ", "),
        cmp.relError, cmp.maxAbsError);
    if (cmp.worstIndex >= 0)
      llvm::outs() << " at element " << cmp.worstIndex;
    if (cmp.nonFinite)
      llvm::outs() << ", " << cmp.nonFinite << " non-finite mismatches";
    llvm::outs() << llvm::formatv("), tolerance {0:e1}: {1}\n", tol,
                                  cmp.passed ? "PASS" : "FAIL");
    if (!cmp.passed)
      ++failures;
  }

  for (const std::string &name : printBuffers) {
    Buffer *buf = lookup(name);
    if (!buf)
      return usageError("--print: no buffer named '" + name + "'");
    llvm::outs() << name << " = [";
    int64_t n = buf->numElements();
    for (int64_t i = 0; i < n && i < 64; ++i)
      llvm::outs() << (i ? ", " : "") << formatNumber(buf->get(i));
    if (n > 64)
      llvm::outs() << ", ... (" << n - 64 << " more)";
    llvm::outs() << "]\n";
  }
  for (const std::string &spec : dumpBuffers) {
    auto [name, path] = StringRef(spec).split('=');
    Buffer *buf = lookup(name.str());
    if (!buf || path.empty())
      return usageError("--dump '" + spec + "': expected NAME=PATH with a "
                        "known buffer");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return usageError("cannot write '" + path.str() + "': " + ec.message());
    os.write((const char *)buf->bytes.data(), buf->bytes.size());
  }
  return failures ? 1 : 0;
}
