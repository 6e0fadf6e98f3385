//===- tile-run.cpp - Execute a tile kernel -------------------------------===//
//
// tile-run parses a .mlir file, checks its kernel, builds the buffers and
// scalars described on the command line, runs the kernel over a grid and
// compares outputs with float64 references. This build executes kernels in
// the interpreter (the project's reference); see docs/tools.md.
//
//===----------------------------------------------------------------------===//

#include "ArgSpec.h"
#include "UserReference.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Support/FileIO.h"
#include "tile/Support/KernelParameters.h"
#include "tile/Support/TuningCache.h"
#include "tile/Target/Compile.h"
#include "tile_runtime.hpp"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
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
// The --arg help states the buffer size limit that ArgSpec.cpp enforces.
static_assert(kMaxBufferBytes == int64_t(64) << 30,
              "update the 64 GiB in the --arg help");
static cl::list<std::string>
    argSpecs("arg",
             cl::desc("Kernel argument, in order: NAME=DTYPE[D0xD1...]:INIT "
                      "for a buffer (at most 64 GiB), [NAME=]DTYPE:VALUE for "
                      "a scalar"),
             cl::value_desc("spec"), cl::cat(category));
static cl::list<std::string>
    checkSpecs("check",
               cl::desc("Compare buffer OUT with a float64 reference: "
                        "OUT=softmax(X) | softmax_matmul(X,V) | matmul(A,B) | "
                        "matmul_leaky_relu(A,B) | add(X,Y)"),
               cl::value_desc("OUT=FN(IN,...)"), cl::cat(category));
static cl::list<std::string>
    paramSettings("param",
                  cl::desc("Set a parameter the kernel declares (tile.param); "
                           "repeatable or comma-separated"),
                  cl::value_desc("NAME=VALUE"), cl::CommaSeparated,
                  cl::cat(category));
static cl::opt<std::string> tunedCache(
    "tuned",
    cl::desc("Set the parameters to the fastest setting tile-tune measured "
             "for this kernel, problem and GPU (a JSON tuning cache)"),
    cl::value_desc("cache.json"), cl::cat(category));
static cl::opt<bool> printTuningKey(
    "print-tuning-key",
    cl::desc("Print the key of this kernel, problem and GPU in a tuning "
             "cache (JSON) and exit (what tile-tune asks)"),
    cl::Hidden, cl::cat(category));
static cl::opt<unsigned> seed("seed", cl::desc("Random seed for inputs"),
                              cl::init(0), cl::cat(category));
static cl::opt<double>
    rtol("rtol",
         cl::desc("Tolerance on max|got-ref|/max|ref| (default by dtype: "
                  "1e-2 for f16/bf16, 1e-12 for f64, 1e-5 otherwise)"),
         cl::init(-1), cl::cat(category));
static cl::list<std::string> expectSpecs(
    "expect",
    cl::desc("Compare buffer NAME with the elements in PATH (raw values of "
             "its dtype, as --dump writes them)"),
    cl::value_desc("NAME=PATH"), cl::cat(category));
static cl::opt<std::string> referencePath(
    "reference",
    cl::desc("A reference kernel with the same arguments, run by the "
             "interpreter on the same inputs (converted to its pointee "
             "types: f64 pointers make a float64 reference); every buffer it "
             "writes is compared"),
    cl::value_desc("kernel.mlir"), cl::cat(category));
static cl::opt<std::string> referenceKernel(
    "reference-kernel",
    cl::desc("The kernel of --reference's module (default: its only one)"),
    cl::value_desc("name"), cl::cat(category));
static cl::list<std::string> referenceParams(
    "reference-param",
    cl::desc("Set a parameter the --reference kernel declares (its defaults "
             "otherwise); repeatable or comma-separated"),
    cl::value_desc("NAME=VALUE"), cl::CommaSeparated, cl::cat(category));
static cl::list<std::string>
    printBuffers("print", cl::desc("Print a buffer's values after the run"),
                 cl::value_desc("name"), cl::cat(category));
static cl::list<std::string>
    dumpBuffers("dump",
                cl::desc("Write a buffer's raw bytes to a file after the run"),
                cl::value_desc("name=path"), cl::cat(category));
enum class Mode { Auto, Interp, GPU };
static cl::opt<Mode> mode(
    "mode", cl::desc("Where to execute"), cl::init(Mode::GPU),
    cl::values(clEnumValN(Mode::GPU, "gpu",
                          "Compile in-process and run on the CUDA GPU; fail "
                          "without one (default)"),
               clEnumValN(Mode::Auto, "auto",
                          "The GPU when one is present, else (saying so) the "
                          "interpreter"),
               clEnumValN(Mode::Interp, "interp", "The CPU interpreter")),
    cl::cat(category));
static cl::opt<bool>
    compareWithInterpreter("compare",
                           cl::desc("After a GPU run, also run the "
                                    "interpreter and compare every buffer "
                                    "(default true)"),
                           cl::init(true), cl::cat(category));
static cl::opt<unsigned>
    benchIters("bench",
               cl::desc("Time the GPU kernel over N runs after 10 warm-ups "
                        "(CUDA events)"),
               cl::value_desc("N"), cl::init(0), cl::cat(category));
static cl::opt<std::string> chip("chip",
                                 cl::desc("GPU target (default: the device's, "
                                          "e.g. sm_90)"),
                                 cl::init(""), cl::cat(category));
static cl::opt<uint64_t>
    maxSteps("max-steps",
             cl::desc("Stop the interpreter after this many steps (elements "
                      "computed, at least 64 per op; 0: no limit)"),
             cl::init(uint64_t(1) << 36), cl::cat(category));
static cl::opt<bool> quiet("quiet",
                           cl::desc("Do not print the progress lines (checks, "
                                    "--print and tile.print still print)"),
                           cl::init(false), cl::cat(category));

static const char *kHelpOverview = R"(tile-run: execute a tile kernel

Example (softmax of a 1823x781 matrix, one row per program):
  tile-run examples/softmax.mlir --grid 1823 \
    --arg y=f32[1823x781] --arg x=f32[1823x781]:randn \
    --arg i32:781 --arg i32:781 --arg i32:1823 --arg i32:781 \
    --check 'y=softmax(x)'

By default the kernel is compiled in-process and run on the GPU, then the
interpreter runs it too and every buffer is compared (--compare=false skips
that); --mode=interp uses only the interpreter, --mode=auto falls back to it
when there is no GPU. --bench=100 times the GPU kernel.

Buffers that are the output of a --check start as NaN (poison) unless an
initializer is given, so elements the kernel fails to write are caught.
Exit status: 0 when every check passes, 1 when a check fails or the kernel
faults, 2 for bad input (file, IR, arguments) or no GPU with --mode=gpu.
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
  // The GPU's launch limits: 2^31 - 1 programs along x, 65535 along y, z.
  for (auto [i, p] : llvm::enumerate(parts))
    if (p.trim().getAsInteger(10, grid[i]) || grid[i] < 1 ||
        grid[i] > (i == 0 ? (int64_t(1) << 31) - 1 : 65535))
      return false;
  return true;
}

using BufferLookup = llvm::function_ref<Buffer *(const std::string &)>;

/// Why a --check cannot be computed from its buffers ("" when it can).
static std::string validateCheck(const tilerun::CheckSpec &check,
                                 BufferLookup lookup) {
  Buffer &out = *lookup(check.output);
  std::vector<const Buffer *> ins;
  for (const auto &name : check.inputs)
    ins.push_back(lookup(name));
  int64_t expected = 0;
  if (check.function == "softmax") {
    expected = ins[0]->numElements();
  } else if (check.function == "add") {
    if (ins[0]->numElements() != ins[1]->numElements())
      return "inputs of add have different sizes";
    expected = ins[0]->numElements();
  } else if (check.function == "softmax_matmul") {
    auto x = ins[0]->shape, v = ins[1]->shape;
    if (x.size() == 2)
      x.insert(x.begin(), 1);
    if (v.size() == 2)
      v.insert(v.begin(), 1);
    if (x.size() != 3 || v.size() != 3 || x[0] != v[0] || x[2] != v[1])
      return "softmax_matmul needs X [batch, d1, d2] and V [batch, d2, d3]";
    expected = x[0] * x[1] * v[2];
  } else {
    auto a = ins[0]->shape, b = ins[1]->shape;
    if (a.size() != 2 || b.size() != 2 || a[1] != b[0])
      return check.function + " needs A [M, K] and B [K, N]";
    expected = a[0] * b[1];
  }
  if (expected != out.numElements())
    return llvm::formatv("'{0}' has {1} elements but {2}(...) gives {3}",
                         check.output, out.numElements(), check.function,
                         expected)
        .str();
  return "";
}

/// The float64 reference of a validated --check.
static std::vector<double> computeReference(const tilerun::CheckSpec &check,
                                            BufferLookup lookup) {
  std::vector<const Buffer *> ins;
  for (const auto &name : check.inputs)
    ins.push_back(lookup(name));
  if (check.function == "softmax") {
    int64_t cols = ins[0]->shape.back();
    return referenceSoftmax(ins[0]->toDoubles(),
                            ins[0]->numElements() / cols, cols);
  }
  if (check.function == "add") {
    auto a = ins[0]->toDoubles(), b = ins[1]->toDoubles();
    for (size_t i = 0; i < a.size(); ++i)
      a[i] += b[i];
    return a;
  }
  if (check.function == "softmax_matmul") {
    auto x = ins[0]->shape, v = ins[1]->shape;
    if (x.size() == 2)
      x.insert(x.begin(), 1);
    if (v.size() == 2)
      v.insert(v.begin(), 1);
    return referenceSoftmaxMatmul(ins[0]->toDoubles(), ins[1]->toDoubles(),
                                  x[0], x[1], x[2], v[2]);
  }
  auto a = ins[0]->shape, b = ins[1]->shape;
  return referenceMatmul(ins[0]->toDoubles(), ins[1]->toDoubles(), a[0], b[1],
                         a[1], check.function != "matmul");
}

constexpr int kNoGPU = -1;

/// The GPU as a tuning cache keys it: "NAME, sm_XY, N SMs". False (with
/// `reason`) without one.
static bool describeDevice(std::string &out, std::string &reason) {
  ::tile::Status st = ::tile::init();
  ::tile::DeviceInfo device;
  if (st.ok())
    st = ::tile::deviceInfo(device);
  if (!st.ok()) {
    reason = st.message();
    return false;
  }
  out = llvm::formatv("{0}, sm_{1}{2}, {3} SMs", device.name, device.major,
                      device.minor, device.numSms)
            .str();
  return true;
}

/// Compiles `kernel` for the device, runs it on `buffers` (replaced by the
/// results) and optionally times it. Returns 0, kNoGPU (with `reason`), or
/// an exit status after printing the error.
static int runOnGPU(ModuleOp module, func::FuncOp kernel,
                    ArrayRef<ArgValue> args, std::vector<Buffer> &buffers,
                    const int64_t grid[3], std::string &reason) {
  ::tile::Status st = ::tile::init();
  if (!st.ok()) {
    reason = st.message();
    return kNoGPU;
  }
  ::tile::DeviceInfo device;
  if (!(st = ::tile::deviceInfo(device)).ok()) {
    reason = st.message();
    return kNoGPU;
  }
  // A kernel compiled here runs on this device only: compute capability
  // 9.0 gets its arch-specific features (sm_90a: wgmma).
  std::string target = chip;
  if (target.empty())
    target = llvm::formatv("sm_{0}{1}{2}", device.major, device.minor,
                           device.major == 9 && device.minor == 0 ? "a" : "")
                 .str();

  // Specialize like Triton: integer arguments divisible by 16 say so, which
  // lets the compiler prove alignment and vectorize.
  OwningOpRef<ModuleOp> clone = module.clone();
  auto copy = cast<func::FuncOp>(clone->lookupSymbol(kernel.getSymName()));
  for (auto [i, arg] : llvm::enumerate(args))
    if (arg.kind == ArgValue::Kind::Int &&
        isa<IntegerType>(copy.getArgumentTypes()[i]) &&
        !copy.getArgumentTypes()[i].isInteger(1) && arg.intValue % 16 == 0)
      copy.setArgAttr(i, "tile.divisibility",
                      IntegerAttr::get(copy.getArgumentTypes()[i], 16));
  // Only the chosen kernel is compiled.
  for (auto other : llvm::make_early_inc_range(clone->getOps<func::FuncOp>()))
    if (other != copy && isKernel(other))
      other.erase();

  if (!quiet)
    llvm::outs() << llvm::formatv(
        "tile-run: kernel @{0}, grid ({1}, {2}, {3}), on {4} ({5})\n",
        kernel.getSymName(), grid[0], grid[1], grid[2], device.name, target);
  CompileOptions opts;
  opts.chip = target;
  auto start = std::chrono::steady_clock::now();
  FailureOr<CompiledModule> compiled = compileModule(*clone, opts);
  if (failed(compiled))
    return 1;
  double compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count();

  auto fail = [](const char *what, const ::tile::Status &s) {
    llvm::errs() << "tile-run: error: " << what << ": " << s.toString()
                 << "\n";
    return 1;
  };
  ::tile::Module mod;
  if (!(st = ::tile::Module::load(compiled->image, compiled->metadata, mod))
           .ok())
    return fail("loading the compiled module", st);
  ::tile::Kernel gpuKernel;
  if (!(st = mod.getKernel(kernel.getSymName().str().c_str(), gpuKernel)).ok())
    return fail("finding the kernel", st);

  std::vector<::tile::DeviceBuffer> device_buffers(buffers.size());
  for (auto [buf, dev] : llvm::zip(buffers, device_buffers)) {
    if (!(st = ::tile::DeviceBuffer::allocate(buf.bytes.size(), dev)).ok())
      return fail("allocating device memory", st);
    if (!(st = dev.copyFromHost(buf.bytes.data(), buf.bytes.size())).ok())
      return fail("copying to the device", st);
  }
  std::vector<tile_arg> launchArgs;
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type type = kernel.getArgumentTypes()[i];
    if (arg.kind == ArgValue::Kind::Buffer)
      launchArgs.push_back(::tile::arg::ptr(device_buffers[arg.bufferIndex]));
    else if (type.isInteger(64))
      launchArgs.push_back(::tile::arg::i64(arg.intValue));
    else if (type.isInteger(1))
      launchArgs.push_back(::tile::arg::i1(arg.intValue != 0));
    else if (isa<IntegerType>(type))
      launchArgs.push_back(::tile::arg::i32((int32_t)arg.intValue));
    else if (type.isF64())
      launchArgs.push_back(::tile::arg::f64(arg.floatValue));
    else
      launchArgs.push_back(::tile::arg::f32((float)arg.floatValue));
  }
  ::tile::Grid launchGrid{(uint32_t)grid[0], (uint32_t)grid[1],
                        (uint32_t)grid[2]};
  if (!(st = gpuKernel.launch(launchGrid, launchArgs)).ok())
    return fail("launching", st);
  if (!(st = ::tile::synchronize()).ok())
    return fail("running the kernel", st);
  for (auto [buf, dev] : llvm::zip(buffers, device_buffers))
    if (!(st = dev.copyToHost(buf.bytes.data(), buf.bytes.size())).ok())
      return fail("copying from the device", st);
  if (!quiet)
    llvm::outs() << llvm::formatv("tile-run: compiled in {0:f3} s, ran on "
                                  "the GPU\n",
                                  compileSeconds);

  if (benchIters > 0) {
    std::vector<float> ms(benchIters);
    st = ::tile::time([&] { (void)gpuKernel.launch(launchGrid, launchArgs); },
                    nullptr, /*warmup=*/10, benchIters, ms);
    if (!st.ok())
      return fail("timing", st);
    std::vector<float> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    double mean = 0;
    for (float t : ms)
      mean += t;
    mean /= ms.size();
    double var = 0;
    for (float t : ms)
      var += (t - mean) * (t - mean);
    llvm::outs() << llvm::formatv(
        "time: mean {0:f4} ms, median {1:f4} ms, min {2:f4} ms, std {3:f4} ms "
        "over {4} runs\n",
        mean, sorted[sorted.size() / 2], sorted.front(),
        std::sqrt(var / ms.size()), ms.size());
  }
  return 0;
}

static int run(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, kHelpOverview);

  int64_t grid[3] = {1, 1, 1};
  // A grid of parameter expressions is computed once they have values.
  if (!StringRef(gridSpec).contains("${") && !parseGrid(gridSpec, grid))
    return usageError("bad --grid '" + gridSpec +
                      "' (expected 1 to 3 positive integers x[,y[,z]], "
                      "x below 2^31, y and z at most 65535)");
  if (rtol.getNumOccurrences() && !(rtol >= 0 && std::isfinite(rtol)))
    return usageError("bad --rtol " + formatNumber(rtol) +
                      " (expected a finite tolerance >= 0)");

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
  // Host memory for every buffer, before any is allocated: the initial
  // contents, the results, the interpreter's copy, and doubles for the
  // comparisons. (Each buffer is at most 64 GiB: the sums do not overflow.)
  {
    int64_t bytes = 0, elements = 0;
    for (const tilerun::ArgSpec &spec : specs)
      if (spec.isBuffer) {
        bytes += *bufferSizeInBytes(spec.dtype, spec.shape);
        elements +=
            *bufferSizeInBytes(spec.dtype, spec.shape) / dtypeSize(spec.dtype);
      }
    std::string error;
    if (!checkHostMemory(3 * bytes + 8 * elements, error))
      return usageError("the buffers are too large for this machine: " + error);
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
  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  // Diagnostics point at the source line; the generic op dump adds noise.
  context.printOpOnDiagnostic(false);
  context.loadDialect<TileDialect, arith::ArithDialect, math::MathDialect,
                      scf::SCFDialect, func::FuncDialect>();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  std::string openError;
  std::unique_ptr<llvm::MemoryBuffer> source = readSource(inputFile, openError);
  if (!source) {
    reportError("tile-run", openError);
    return 2;
  }
  std::optional<std::vector<ParameterSetting>> settings =
      parseParameterSettings(paramSettings, openError);
  if (!settings)
    return usageError("--param: " + openError);
  if (!tunedCache.empty() || printTuningKey) {
    TuningKey key;
    if (mode == Mode::Interp)
      return usageError("--tuned needs the GPU the kernel was tuned on (not "
                        "--mode=interp)");
    std::string reason;
    if (!describeDevice(key.device, reason))
      return usageError("tuned parameters need a GPU: " + reason);
    key.source = hashKernelSource(source->getBuffer());
    key.kernel = kernelName;
    key.problem = tilerun::describeProblem(specs);
    if (printTuningKey) {
      llvm::outs() << llvm::formatv(
          "{0}\n",
          llvm::json::Value(llvm::json::Object{{"device", key.device},
                                               {"source", key.source},
                                               {"kernel", key.kernel},
                                               {"problem", key.problem}}));
      return 0;
    }
    std::vector<TuningEntry> entries;
    std::string error;
    if (!readTuningCache(tunedCache, entries, error))
      return usageError("--tuned: " + error);
    const TuningEntry *entry = findTuning(entries, key);
    if (!entry)
      return usageError("--tuned: " + tunedCache +
                        " has no entry for this kernel (" + key.source +
                        (kernelName.empty() ? "" : ", @" + kernelName) +
                        ") and problem (" + key.problem + ") on " + key.device +
                        "; tile-tune --space NAME=V1,V2,... --cache " +
                        tunedCache + " -- <these arguments> measures one");
    for (const ParameterSetting &tuned : entry->parameters) {
      if (llvm::any_of(*settings, [&](const ParameterSetting &given) {
            return given.name == tuned.name;
          }))
        return usageError("parameter '" + tuned.name +
                          "' is set by both --param and --tuned");
      settings->push_back(tuned);
    }
    if (!quiet)
      llvm::outs() << llvm::formatv(
          "tile-run: tuned parameters from {0} ({1:f4} ms over {2} "
          "candidates, {3}): {4}\n",
          tunedCache, entry->ms, entry->candidates, entry->date,
          describeSettings(entry->parameters));
  }
  std::optional<SpecializedSource> specialized =
      specializeSource(*source, *settings, openError);
  if (!specialized) {
    reportError("tile-run", openError);
    return 2;
  }
  std::vector<KernelParameter> parameters = specialized->parameters;
  // A grid may depend on the parameters: --grid '${cdiv(4096, BLOCK)}'.
  if (StringRef(gridSpec).contains("${")) {
    std::string error;
    std::optional<std::string> text =
        substituteParameters(gridSpec, parameters, error);
    if (!text)
      return usageError("--grid: " + error);
    if (!parseGrid(*text, grid))
      return usageError("bad --grid '" + gridSpec + "' = '" + *text +
                        "' (expected 1 to 3 positive integers x[,y[,z]], "
                        "x below 2^31, y and z at most 65535)");
  }
  sourceMgr.AddNewSourceBuffer(std::move(specialized->buffer), llvm::SMLoc());
  std::unique_ptr<ScopedDiagnosticHandler> parameterNotes =
      noteParametersOnErrors(&context, parameters);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 2;

  // The kernel is run as the compiler sees it: the chosen kernel alone,
  // helpers inlined, simplified and checked as before code generation. No
  // kernel that could not run on a GPU is interpreted either, and the
  // interpreter executes exactly what the GPU would (dead code included:
  // a huge unused tile the compiler drops is not allocated).
  std::string kernelSymbol;
  func::FuncOp kernel;
  if (failed(tilerun::prepareKernel(*module, kernelName, kernelSymbol, kernel)))
    return 2;
  if (!kernel)
    return usageError("kernel '" + kernelSymbol +
                      "' did not survive the compiler's simplification");
  // Tensor maps are the compiler's (tile-warp-specialize appends them for
  // its TMA copies and stores, and the runtime encodes them at launch);
  // no --arg can give one, and the interpreter runs no TMA op.
  for (auto [idx, type] : llvm::enumerate(kernel.getArgumentTypes()))
    if (isa<TensorMapType>(type))
      return usageError(
          llvm::formatv("argument #{0} of kernel '{1}' is a tensor map; "
                        "tile-run runs kernels whose tensor maps the "
                        "compiler adds, not ones that take a map",
                        idx, kernel.getSymName())
              .str());
  if (kernel.getNumArguments() != specs.size())
    return usageError(llvm::formatv("kernel '{0}' takes {1} arguments but {2} "
                                    "--arg were given",
                                    kernel.getSymName(),
                                    kernel.getNumArguments(), specs.size())
                          .str());

  // Build buffers and scalar arguments.
  std::vector<Buffer> buffers;
  std::vector<ArgValue> args;
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
        bool isOutput =
            llvm::any_of(
                checks, [&](const auto &c) { return c.output == spec.name; }) ||
            llvm::any_of(expectSpecs, [&](const std::string &e) {
              return StringRef(e).split('=').first == spec.name;
            });
        initSpec.init = isOutput ? "poison" : "randn";
      }
      // Each buffer draws from its own stream: adding or reordering other
      // buffers does not change its values.
      std::mt19937_64 rng(uint64_t(seed) * 1000003u + idx);
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

  int failures = 0;
  // Everything the run needs is validated before it starts.
  for (const std::string &name : printBuffers)
    if (!lookup(name))
      return usageError("--print: no buffer named '" + name + "'");
  for (const std::string &spec : dumpBuffers) {
    auto [name, path] = StringRef(spec).split('=');
    if (!lookup(name.str()) || path.empty())
      return usageError("--dump '" + spec +
                        "': expected NAME=PATH with a known buffer");
  }
  std::vector<std::string> checkErrors;
  for (const auto &check : checks) {
    std::string error = validateCheck(check, lookup);
    if (!error.empty())
      return usageError("--check " + check.output + ": " + error);
  }

  // The user's references, read and run before the kernel: bad input is
  // reported before any work.
  // By name: the buffers are replaced by the interpreter's after its run.
  std::vector<std::pair<std::string, std::vector<double>>> expectations;
  for (const std::string &spec : expectSpecs) {
    auto [name, path] = StringRef(spec).split('=');
    Buffer *buf = lookup(name.str());
    if (!buf || path.empty())
      return usageError("--expect '" + spec +
                        "': expected NAME=PATH with a known buffer");
    std::vector<double> values;
    std::string error;
    if (!tilerun::readExpected(path, *buf, values, error))
      return usageError("--expect: " + error);
    expectations.emplace_back(name.str(), std::move(values));
  }

  RunOptions options;
  for (int a = 0; a < 3; ++a)
    options.grid[a] = grid[a];
  options.maxSteps = (int64_t)std::min<uint64_t>(maxSteps, INT64_MAX);

  tilerun::ReferenceRun reference;
  if (!referencePath.empty()) {
    std::string error;
    int status = tilerun::runReference(
        context, sourceMgr, referencePath, referenceKernel, referenceParams,
        buffers, args, options, reference, error);
    if (status == 2 && !error.empty())
      return usageError(error);
    if (status != 0)
      return status;
    if (!llvm::is_contained(reference.written, true))
      return usageError("--reference: kernel of " + referencePath +
                        " writes none of the buffers");
  }

  // The GPU run (default), then the interpreter on the same inputs.
  std::vector<Buffer> initial = buffers;
  bool ranOnGPU = false;
  if (mode != Mode::Interp) {
    std::string reason;
    int status = runOnGPU(*module, kernel, args, buffers, grid, reason);
    if (status == kNoGPU) {
      if (mode == Mode::GPU)
        return usageError("no GPU: " + reason +
                          " (use --mode=auto to fall back to the "
                          "interpreter, or --mode=interp)");
      llvm::outs() << "tile-run: no GPU (" << reason
                   << "); running in the interpreter (--mode=auto)\n";
    } else if (status != 0) {
      return status;
    } else {
      ranOnGPU = true;
    }
  }
  if (!ranOnGPU || compareWithInterpreter) {
    std::vector<Buffer> interpBuffers = initial;
    if (!quiet)
      llvm::outs() << llvm::formatv(
          "tile-run: kernel @{0}, grid ({1}, {2}, {3}), in the interpreter\n",
          kernel.getSymName(), grid[0], grid[1], grid[2]);
    llvm::outs().flush();
    auto start = std::chrono::steady_clock::now();
    if (failed(runKernel(kernel, args, interpBuffers, options)))
      return 1;
    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    if (!quiet)
      llvm::outs() << llvm::formatv("tile-run: interpreter done in {0:f3} s\n",
                                    seconds);
    if (!ranOnGPU) {
      buffers = std::move(interpBuffers);
    } else {
      // GPU against interpreter, buffer by buffer.
      int mismatches = 0;
      for (auto [gpu, ref] : llvm::zip(buffers, interpBuffers)) {
        double tol = rtol >= 0 ? (double)rtol : defaultTolerance(gpu.dtype);
        Comparison cmp = compare(gpu.toDoubles(), ref.toDoubles(), tol);
        llvm::outs() << llvm::formatv(
            "compare {0} (GPU vs interpreter): max rel error {1:e2}{2}: {3}\n",
            gpu.name, cmp.relError,
            cmp.nonFinite ? llvm::formatv(", {0} non-finite mismatches",
                                          cmp.nonFinite)
                                .str()
                          : std::string(),
            cmp.passed ? "PASS" : "FAIL");
        mismatches += !cmp.passed;
      }
      if (mismatches)
        ++failures;
    }
  }

  // Each comparison with a reference, on one line: "LABEL[ on the GPU]:
  // max rel error ... : PASS|FAIL".
  auto report = [&](const Buffer &out, const std::vector<double> &ref,
                    const std::string &label) {
    double tol = rtol >= 0 ? (double)rtol : defaultTolerance(out.dtype);
    Comparison cmp = compare(out.toDoubles(), ref, tol);
    llvm::outs() << llvm::formatv(
        "{0}{1}: max rel error {2:e2} (max abs {3:e2}", label,
        ranOnGPU ? " on the GPU" : "", cmp.relError, cmp.maxAbsError);
    if (cmp.nonFinite)
      llvm::outs() << ", " << cmp.nonFinite
                   << " non-finite mismatches, the first at element "
                   << cmp.worstIndex;
    else if (cmp.worstIndex >= 0)
      llvm::outs() << " at element " << cmp.worstIndex;
    llvm::outs() << llvm::formatv("), tolerance {0:e1}: {1}\n", tol,
                                  cmp.passed ? "PASS" : "FAIL");
    if (!cmp.passed)
      ++failures;
  };
  for (const auto &check : checks)
    report(*lookup(check.output), computeReference(check, lookup),
           llvm::formatv("check {0} = {1}({2})", check.output, check.function,
                         llvm::join(check.inputs, ", "))
               .str());
  for (const auto &[name, values] : expectations)
    report(*lookup(name), values, "expect " + name);
  for (size_t i = 0; i < reference.buffers.size(); ++i)
    if (reference.written[i])
      report(buffers[i], reference.buffers[i].toDoubles(),
             "reference " + buffers[i].name);

  for (const std::string &name : printBuffers) {
    Buffer *buf = lookup(name);
    llvm::outs() << name << " = [";
    int64_t n = buf->numElements();
    for (int64_t i = 0; i < n && i < 64; ++i) {
      llvm::outs() << (i ? ", " : "");
      if (isFloat(buf->dtype))
        llvm::outs() << formatNumber(buf->get(i));
      else
        llvm::outs() << buf->getInt(i);
    }
    if (n > 64)
      llvm::outs() << ", ... (" << n - 64 << " more)";
    llvm::outs() << "]\n";
  }
  for (const std::string &spec : dumpBuffers) {
    auto [name, path] = StringRef(spec).split('=');
    Buffer *buf = lookup(name.str());
    std::string error;
    if (!writeOutput(
            path, StringRef((const char *)buf->bytes.data(), buf->bytes.size()),
            error))
      return usageError(error);
  }
  return failures ? 1 : 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  return finishTool("tile-run", run(argc, argv));
}
