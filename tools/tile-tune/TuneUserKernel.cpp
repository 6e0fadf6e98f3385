//===- TuneUserKernel.cpp - tile-tune for parameterized kernels -----------===//

#include "TuneUserKernel.h"
#include "Finalists.h"

#include "tile/Support/TuningCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <ctime>
#include <optional>

using namespace mlir::tile;

namespace {

/// Candidates at most: a space larger than this is a mistake on the command
/// line more likely than a wish.
constexpr size_t kMaxCandidates = 4096;

struct Space {
  std::string name;
  std::vector<std::string> values;
};

int usage(const llvm::Twine &message) {
  llvm::errs() << "tile-tune: error: " << message << "\n";
  return 2;
}

/// What one run of tile-run gave.
struct RunResult {
  int status = -1;
  std::string out, err;
};

RunResult runTool(llvm::StringRef program, llvm::ArrayRef<std::string> args,
                  unsigned timeoutSeconds) {
  RunResult result;
  llvm::SmallString<128> outPath, errPath;
  if (llvm::sys::fs::createTemporaryFile("tile-tune", "out", outPath) ||
      llvm::sys::fs::createTemporaryFile("tile-tune", "err", errPath)) {
    result.err = "cannot create a temporary file";
    return result;
  }
  std::vector<llvm::StringRef> argv = {program};
  for (const std::string &a : args)
    argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(outPath), llvm::StringRef(errPath)};
  std::string message;
  bool failedToRun = false;
  result.status =
      llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects,
                                timeoutSeconds, 0, &message, &failedToRun);
  if (auto b = llvm::MemoryBuffer::getFile(outPath))
    result.out = (*b)->getBuffer().str();
  if (auto b = llvm::MemoryBuffer::getFile(errPath))
    result.err = (*b)->getBuffer().str();
  if (result.status < 0)
    result.err +=
        "error: " + (result.status == -2 && !failedToRun
                         ? "stopped after " + std::to_string(timeoutSeconds) +
                               " s (" + message + ")\n"
                         : message + "\n");
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);
  return result;
}

/// The first line of `text` that says "error", else its first line.
std::string firstError(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines)
    if (line.contains("error"))
      return line.trim().str();
  return lines.empty() ? "" : lines.front().trim().str();
}

/// The median of tile-run's "time: ..., median X ms, ..." line.
std::optional<double> medianMs(llvm::StringRef out) {
  size_t at = out.find("median ");
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = out.substr(at + 7);
  double ms;
  if (rest.take_until([](char c) { return c == ' '; }).getAsDouble(ms))
    return std::nullopt;
  return ms;
}

std::string today() {
  std::time_t now = std::time(nullptr);
  char text[16];
  std::strftime(text, sizeof(text), "%Y-%m-%d", std::gmtime(&now));
  return text;
}

} // namespace

int tuneUserKernel(const UserTuneOptions &options) {
  if (options.cache.empty())
    return usage("--space needs --cache FILE (where the choice is kept)");
  if (options.runArgs.empty())
    return usage("give tile-run's arguments after '--': the kernel file, "
                 "--grid, --arg ...");
  if (options.benchIters < 1)
    return usage("--bench-iters must be positive");
  for (const std::string &arg : options.runArgs) {
    llvm::StringRef flag = llvm::StringRef(arg).ltrim('-');
    if (!arg.empty() && arg.front() == '-' &&
        (flag.starts_with("param") || flag.starts_with("tuned") ||
         flag.starts_with("bench") || flag.starts_with("mode")))
      return usage("tile-run's arguments may not contain '" + arg +
                   "': tile-tune sets the parameters, the GPU and the timing");
  }
  std::vector<Space> spaces;
  size_t candidates = 1;
  for (const std::string &text : options.spaces) {
    auto [name, list] = llvm::StringRef(text).split('=');
    Space space{name.trim().str(), {}};
    llvm::SmallVector<llvm::StringRef> values;
    list.split(values, ',', -1, false);
    for (llvm::StringRef v : values)
      space.values.push_back(v.trim().str());
    if (space.name.empty() || space.values.empty() ||
        !llvm::StringRef(text).contains('='))
      return usage("--space '" + text + "': expected NAME=V1,V2,...");
    if (llvm::any_of(spaces,
                     [&](const Space &s) { return s.name == space.name; }))
      return usage("--space: parameter '" + space.name + "' is given twice");
    candidates *= space.values.size();
    if (candidates > kMaxCandidates)
      return usage(llvm::formatv("the space has more than {0} settings",
                                 kMaxCandidates));
    spaces.push_back(std::move(space));
  }

  std::string runner = options.runner;
  if (runner.empty()) {
    std::string self = llvm::sys::fs::getMainExecutable(
        options.argv0, (void *)&tuneUserKernel);
    llvm::SmallString<256> path(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(path, "tile-run");
    runner = path.str().str();
  }
  if (!llvm::sys::fs::can_execute(runner))
    return usage("cannot run '" + runner + "' (give tile-run with --runner)");

  // The key comes from tile-run itself: the same parsing of the arguments
  // as the runs and `tile-run --tuned`.
  std::vector<std::string> keyArgs = options.runArgs;
  keyArgs.push_back("--print-tuning-key");
  RunResult keyRun = runTool(runner, keyArgs, options.candidateTimeout);
  if (keyRun.status != 0) {
    llvm::errs() << keyRun.err;
    return usage("tile-run rejected the arguments (above)");
  }
  llvm::Expected<llvm::json::Value> keyJson = llvm::json::parse(keyRun.out);
  const llvm::json::Object *keyObj = keyJson ? keyJson->getAsObject() : nullptr;
  if (!keyObj) {
    if (!keyJson)
      llvm::consumeError(keyJson.takeError());
    return usage("tile-run printed no tuning key: " + keyRun.out);
  }
  TuningEntry entry;
  auto field = [&](llvm::StringRef name) {
    return keyObj->getString(name).value_or("").str();
  };
  entry.key = {field("device"), field("source"), field("kernel"),
               field("problem")};

  std::vector<TuningEntry> entries;
  std::string error;
  if (!readTuningCache(options.cache, entries, error))
    return usage(error);
  if (const TuningEntry *cached = findTuning(entries, entry.key);
      cached && !options.retune) {
    llvm::outs() << llvm::formatv(
        "tile-tune: {0} already has this kernel and problem on {1}: {2} "
        "({3:f4} ms, {4}); --retune measures again\n",
        options.cache, entry.key.device, describeSettings(cached->parameters),
        cached->ms, cached->date);
    return 0;
  }

  llvm::outs() << llvm::formatv("tile-tune: {0} settings on {1}\n", candidates,
                                entry.key.device);
  std::optional<double> best;
  std::vector<ParameterSetting> bestSettings;
  unsigned correct = 0, rejected = 0, wrong = 0;
  struct Timed {
    std::vector<ParameterSetting> settings;
    std::vector<std::string> args;
    std::string label;
    double ms;
  };
  std::vector<Timed> timed;
  std::vector<size_t> index(spaces.size(), 0);
  for (size_t n = 0; n < candidates; ++n) {
    std::vector<ParameterSetting> settings;
    std::vector<std::string> shown;
    std::vector<std::string> args = options.runArgs;
    for (auto [space, i] : llvm::zip(spaces, index)) {
      settings.push_back({space.name, space.values[i]});
      shown.push_back(space.name + "=" + space.values[i]);
      args.push_back("--param");
      args.push_back(space.name + "=" + space.values[i]);
    }
    args.push_back("--bench=" + std::to_string(options.benchIters));
    args.push_back("--quiet");
    RunResult run = runTool(runner, args, options.candidateTimeout);
    std::string label = llvm::join(shown, " ");
    std::optional<double> ms = medianMs(run.out);
    if (run.status == 0 && ms) {
      ++correct;
      llvm::outs() << llvm::formatv("  {0,-50} {1,10:f4} ms\n", label, *ms);
      timed.push_back({settings, args, label, *ms});
    } else if (run.status == 1) {
      ++wrong;
      llvm::outs() << llvm::formatv("  {0,-50} wrong result or fault: {1}\n",
                                    label, firstError(run.out + run.err));
    } else {
      ++rejected;
      llvm::outs() << llvm::formatv("  {0,-50} rejected: {1}\n", label,
                                    firstError(run.err + run.out));
    }
    llvm::outs().flush();
    // The next setting: the last space varies fastest.
    for (size_t d = spaces.size(); d-- > 0;) {
      if (++index[d] < spaces[d].values.size())
        break;
      index[d] = 0;
    }
  }
  llvm::outs() << llvm::formatv(
      "tile-tune: {0} correct, {1} wrong, {2} rejected\n", correct, wrong,
      rejected);
  // The settings timed close to the fastest, timed again (Finalists.h); a
  // setting that fails now is dropped.
  std::vector<double> ms;
  for (const Timed &t : timed)
    ms.push_back(t.ms);
  std::vector<size_t> chosen =
      options.rounds > 0
          ? chooseFinalists(ms, options.finalists, options.finalistMargin)
          : std::vector<size_t>();
  if (!chosen.empty()) {
    llvm::outs() << llvm::formatv(
        "tile-tune: the {0} fastest again, {1} rounds\n", chosen.size(),
        options.rounds);
    retimeFinalists(
        ms, chosen, options.rounds, [&](size_t i) -> std::optional<double> {
          RunResult run =
              runTool(runner, timed[i].args, options.candidateTimeout);
          std::optional<double> once = medianMs(run.out);
          if (run.status == 0 && once)
            return once;
          llvm::outs() << llvm::formatv(
              "  {0,-50} failed when run again: {1}\n", timed[i].label,
              firstError(run.out + run.err));
          return std::nullopt;
        });
    for (size_t i : chosen) {
      timed[i].ms = ms[i];
      if (std::isfinite(ms[i]))
        llvm::outs() << llvm::formatv("  {0,-50} {1,10:f4} ms (median)\n",
                                      timed[i].label, ms[i]);
    }
  }
  // The fastest finalist, or without finalists the fastest setting
  // (rankAfterFinalists).
  for (size_t i : rankAfterFinalists(ms, chosen))
    if (std::isfinite(timed[i].ms)) {
      best = timed[i].ms;
      bestSettings = timed[i].settings;
      break;
    }
  if (!best) {
    llvm::errs() << "tile-tune: error: no setting ran correctly; "
                 << options.cache << " is unchanged\n";
    return 1;
  }
  entry.parameters = bestSettings;
  entry.ms = *best;
  entry.candidates = (unsigned)candidates;
  entry.date = today();
  if (!updateTuningCache(options.cache, entry, error)) {
    llvm::errs() << "tile-tune: error: " << error << "\n";
    return 1;
  }
  llvm::outs() << llvm::formatv("tile-tune: fastest {0} ({1:f4} ms), kept in "
                                "{2}\n",
                                describeSettings(bestSettings), *best,
                                options.cache);
  return 0;
}
