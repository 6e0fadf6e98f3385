//===- tile-kernel-gen.cpp - Build the runtime library's kernels ----------===//
//
// Builds the library kernels from their descriptions (tile/Catalogue),
// compiles each with Tile's compiler and writes a C++ source that embeds the
// images, their metadata, their descriptions and the tuning tables in the
// runtime library:
//
//   tile-kernel-gen -o EmbeddedKernels.cpp --tables a.json,b.json
//                   [--all] [--ptxas P --fatbinary F] [--mlir-dir D]
//
// Embedded are the kernels some table ranks, the dispatcher's fallbacks and,
// with --all, the whole configuration space (the tuner's candidates). With
// --ptxas and --fatbinary, the kernels the tables rank and the fallbacks are
// images holding machine code for sm_80 and sm_90 (sm_90a for the kernels
// that need it) and the PTX, which the driver compiles on other GPUs; the
// others are PTX.
//
//===----------------------------------------------------------------------===//

#include "tile/Catalogue/KernelBuilder.h"
#include "tile/Catalogue/TuningFile.h"
#include "tile/Target/Compile.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/ToolOutputFile.h"

#include <atomic>
#include <cstdio>
#include <functional>
#include <map>

using namespace ::tile::catalogue;
using llvm::ArrayRef;
using llvm::SmallString;
using llvm::StringRef;
using llvm::Twine;
using mlir::DialectRegistry;
using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::OwningOpRef;
using mlir::UnknownLoc;
using mlir::tile::CompiledModule;
using mlir::tile::CompileOptions;
namespace cl = llvm::cl;

static cl::opt<std::string> outputFile("o", cl::desc("Output C++ file"));
static cl::list<std::string>
    tables("tables", cl::desc("Tuning tables (JSON, from tile-tune)"),
           cl::CommaSeparated);
static cl::opt<bool> all("all",
                         cl::desc("Embed the whole configuration space"));
static cl::opt<std::string> ptxas("ptxas", cl::desc("ptxas, for machine code"));
static cl::opt<std::string> fatbinary("fatbinary",
                                      cl::desc("fatbinary, to package it"));
static cl::opt<std::string>
    mlirDir("mlir-dir", cl::desc("Also write each kernel's tile IR here"),
            cl::init(""));
static cl::opt<bool> list("list",
                          cl::desc("Print the kernels' names and targets, "
                                   "compile nothing"));
static cl::list<std::string>
    only("only", cl::desc("Embed only the kernels of these names"),
         cl::CommaSeparated);

namespace {
/// One kernel to embed.
struct Kernel {
  KernelDesc desc;
  std::string name;
  bool machineCode = false; ///< package cubins with the PTX
  std::string image, metadata;
};
} // namespace

/// A C++ string literal of `data` (octal escapes, always three digits,
/// keep it plain ASCII).
static void writeLiteral(llvm::raw_ostream &os, StringRef data) {
  os << "\"";
  int column = 0;
  for (unsigned char ch : data) {
    if (column > 100) {
      os << "\"\n    \"";
      column = 0;
    }
    if (ch == '\n') {
      os << "\\n\"\n    \"";
      column = 0;
      continue;
    }
    if (ch == '"' || ch == '\\') {
      os << '\\' << ch;
      column += 2;
    } else if (ch >= 32 && ch < 127 && ch != '?') {
      os << ch;
      ++column;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\%03o", (unsigned)ch);
      os << escaped;
      column += 4;
    }
  }
  os << "\"";
}

/// The description as a C++ initializer of KernelDesc.
static std::string descInitializer(const KernelDesc &k) {
  std::string s = llvm::formatv("{{\"{0}\", {{", k.op).str();
  for (int i = 0; i < kMaxParams; ++i)
    s += (i ? ", " : "") + std::to_string(k.params[i]);
  return s + "}}";
}

/// The machine-code targets of a kernel compiled for `target`, as ptxas
/// and fatbinary spell them: sm_80 code also runs on 8.6 and 8.9, sm_90
/// code on 9.x, and the PTX (compiled by the driver) everywhere else.
static std::vector<std::string> machineArchs(Target target) {
  switch (target) {
  case Target::Sm80:
    return {"80", "90"};
  case Target::Sm90:
    return {"90"};
  case Target::Sm90a:
    return {"90a"};
  }
  return {};
}

/// Runs `program` with `args`, its output into `log`; false (with the
/// command and its output in `error`) if it fails.
static bool run(StringRef program, ArrayRef<std::string> args, StringRef log,
                std::string &error) {
  std::vector<StringRef> argv{program};
  for (const std::string &a : args)
    argv.push_back(a);
  std::optional<StringRef> redirects[] = {std::nullopt, log, log};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects, 0,
                                     0, &message);
  if (rc == 0)
    return true;
  error = program.str();
  for (const std::string &a : args)
    error += " " + a;
  error += " failed";
  if (!message.empty())
    error += ": " + message;
  if (auto output = llvm::MemoryBuffer::getFile(log))
    error += "\n" + (*output)->getBuffer().str();
  return false;
}

/// Replaces the PTX of `k` by a fat binary of its PTX and machine code.
static bool packageMachineCode(Kernel &k, StringRef dir, unsigned index,
                               std::string &error) {
  std::string base = (dir + "/k" + Twine(index)).str();
  std::string ptxFile = base + ".ptx";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxFile, ec);
    if (ec) {
      error = ptxFile + ": " + ec.message();
      return false;
    }
    os << k.image;
  }
  Target target = getTarget(k.desc);
  std::string ptxArch = target == Target::Sm80   ? "80"
                        : target == Target::Sm90 ? "90"
                                                 : "90a";
  std::vector<std::string> fatArgs{"-64", "--create=" + base + ".fatbin",
                                   "--image3=kind=ptx,sm=" + ptxArch +
                                       ",file=" + ptxFile};
  for (const std::string &arch : machineArchs(target)) {
    std::string cubin = base + ".sm_" + arch + ".cubin";
    if (!run(ptxas, {"-arch=sm_" + arch, "-O3", ptxFile, "-o", cubin},
             base + ".log", error))
      return false;
    fatArgs.push_back("--image3=kind=elf,sm=" + arch + ",file=" + cubin);
  }
  if (!run(fatbinary, fatArgs, base + ".log", error))
    return false;
  auto buffer = llvm::MemoryBuffer::getFile(base + ".fatbin");
  if (!buffer) {
    error = base + ".fatbin: " + buffer.getError().message();
    return false;
  }
  k.image = (*buffer)->getBuffer().str();
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "Tile library kernel generator\n");
  auto fail = [](const Twine &message) {
    llvm::errs() << "tile-kernel-gen: " << message << "\n";
    return 1;
  };
  if (!list && outputFile.empty())
    return fail("-o is required");
  if (!list && ptxas.empty() != fatbinary.empty())
    return fail("--ptxas and --fatbinary go together");

  std::vector<TuningFile> files;
  for (const std::string &path : tables) {
    llvm::Expected<TuningFile> file = readTuningFile(path);
    if (!file)
      return fail(llvm::toString(file.takeError()));
    files.push_back(std::move(*file));
  }

  // The kernels: the tables' and the fallbacks (with machine code), then
  // with --all the rest of the space, each once, in the space's order.
  std::vector<KernelDesc> chosen, space;
  for (const OpSpec *op : getOps()) {
    llvm::append_range(chosen, op->getFallbackKernels());
    llvm::append_range(space, op->getConfigurationSpace());
  }
  for (const TuningFile &f : files)
    for (const TuningEntry &e : f.entries)
      for (const RankedKernel &r : e.ranked)
        chosen.push_back(r.kernel);
  auto isChosen = [&](const KernelDesc &k) {
    return llvm::is_contained(chosen, k);
  };
  std::vector<Kernel> kernels;
  std::function<void(const KernelDesc &)> add = [&](const KernelDesc &d) {
    for (const Kernel &k : kernels)
      if (k.desc == d)
        return;
    std::string why = whyInvalid(d);
    if (!why.empty()) {
      llvm::errs() << "tile-kernel-gen: invalid kernel: " << why << "\n";
      std::exit(1);
    }
    kernels.push_back({d, getKernelName(d), isChosen(d), "", ""});
    // What its launches also run (a prelude), as if chosen too.
    for (const OpSpec *op : getOps())
      if (op->owns(d))
        for (const KernelDesc &c : op->getCompanionKernels(d)) {
          chosen.push_back(c);
          add(c);
        }
  };
  for (const KernelDesc &d : space)
    if (all || isChosen(d))
      add(d);
  // Valid kernels outside the space (add appends companions: by index).
  for (size_t i = 0; i < chosen.size(); ++i)
    add(KernelDesc(chosen[i]));
  if (!only.empty())
    llvm::erase_if(kernels, [](const Kernel &k) {
      return !llvm::is_contained(only, k.name);
    });

  if (list) {
    for (const Kernel &k : kernels)
      llvm::outs() << k.name << " " << getChip(k.desc)
                   << (k.machineCode ? " machine-code" : "") << "\n";
    return 0;
  }

  DialectRegistry registry;
  mlir::tile::registerCompilerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  for (Kernel &k : kernels) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
    buildKernel(*module, k.desc);
    if (mlir::failed(mlir::verify(*module)))
      return fail(k.name + " does not verify");
    if (!mlirDir.empty()) {
      std::string error;
      auto file =
          mlir::openOutputFile(mlirDir + "/" + k.name + ".mlir", &error);
      if (!file)
        return fail(error);
      module->print(file->os());
      file->keep();
    }
    CompileOptions opts;
    opts.chip = getChip(k.desc);
    mlir::FailureOr<CompiledModule> compiled =
        mlir::tile::compileModule(*module, opts);
    if (mlir::failed(compiled))
      return fail("compiling " + k.name + " failed");
    k.image = std::move(compiled->image);
    k.metadata = std::move(compiled->metadata);
  }

  // Machine code, several ptxas at once.
  if (!ptxas.empty()) {
    SmallString<128> dir;
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("tile-kernel-gen", dir))
      return fail("temporary directory: " + ec.message());
    std::vector<std::string> errors(kernels.size());
    {
      llvm::StdThreadPool pool(llvm::hardware_concurrency());
      for (auto [i, k] : llvm::enumerate(kernels))
        if (k.machineCode)
          pool.async(
              [&, i = i, &k = k] { packageMachineCode(k, dir, i, errors[i]); });
      pool.wait();
    }
    llvm::sys::fs::remove_directories(dir);
    for (const std::string &e : errors)
      if (!e.empty())
        return fail(e);
  }

  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Generated by tile-kernel-gen; do not edit.\n"
     << "#include \"EmbeddedKernels.h\"\n\n"
     << "namespace tile {\nnamespace embedded {\n"
     << "using namespace tile::catalogue;\n\n";
  for (auto [i, k] : llvm::enumerate(kernels)) {
    os << "alignas(16) static const char kImage" << i << "[] =\n    ";
    writeLiteral(os, k.image);
    os << ";\nstatic const char kMetadata" << i << "[] =\n    ";
    writeLiteral(os, k.metadata);
    os << ";\n\n";
  }
  os << "const EmbeddedKernel kKernels[] = {\n";
  for (auto [i, k] : llvm::enumerate(kernels))
    os << llvm::formatv("    {{\"{0}\", {1}, kImage{2}, sizeof(kImage{2}) - 1, "
                        "kMetadata{2}},\n",
                        k.name, descInitializer(k.desc), i);
  os << "};\nconst unsigned kNumKernels = " << kernels.size() << ";\n\n";

  // The tables, their kernels as indices into kKernels.
  auto indexOf = [&](const KernelDesc &d) {
    for (auto [i, k] : llvm::enumerate(kernels))
      if (k.desc == d)
        return (int)i;
    return -1;
  };
  auto writeRanked = [&](const std::vector<RankedKernel> &ranked) {
    os << "{";
    for (int i = 0; i < kMaxRanked; ++i)
      os << (i ? ", " : "")
         << (i < (int)ranked.size() ? indexOf(ranked[i].kernel) : -1);
    os << "}";
  };
  for (auto [t, f] : llvm::enumerate(files)) {
    if (f.entries.empty())
      continue;
    os << "static const TablePoint kPoints" << t << "[] = {\n";
    for (const TuningEntry &e : f.entries) {
      os << "    {\"" << e.op->getName() << "\", {{";
      for (int i = 0; i < kMaxProblemFields; ++i)
        os << (i ? ", " : "") << e.problem.values[i];
      os << "}}, ";
      writeRanked(e.ranked);
      os << "},\n";
    }
    os << "};\n";
  }
  os << "const TuningTable kTables[] = {\n";
  for (auto [t, f] : llvm::enumerate(files)) {
    os << "    {{";
    writeLiteral(os, f.deviceName);
    os << ", " << f.ccMajor << ", " << f.ccMinor << ", " << f.sms << "}, ";
    if (f.entries.empty())
      os << "nullptr, 0},\n";
    else
      os << "kPoints" << t << ", " << f.entries.size() << "},\n";
  }
  if (files.empty())
    os << "    {{\"\", 0, 0, 0}, nullptr, 0},\n";
  os << "};\nconst unsigned kNumTables = " << files.size() << ";\n\n"
     << "} // namespace embedded\n} // namespace tile\n";

  std::string error;
  auto out = mlir::openOutputFile(outputFile, &error);
  if (!out)
    return fail(error);
  out->os() << text;
  out->keep();
  return 0;
}
