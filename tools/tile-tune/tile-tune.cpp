//===- tile-tune.cpp - Measure the library kernels, write a tuning table --===//
//
// For each problem of each operation (OpSpec::getTuningProblems), every
// embedded kernel that admits it on this GPU is checked against float64
// (the operation's test case: sampled outputs, poisoned before the launch)
// and timed as the benchmarks time (median of at least --iters calls
// filling --min-time-ms, each between its own events after a write of
// 256 MiB that flushes L2); the fastest few are timed again in turns (see
// confirm()) and rank ahead of the rest, and the table ranks the fastest
// --ranked kernels, then the fastest kernels without the conditions those
// need (see rank()).
// A kernel that computes a wrong result stops the run: nothing is written.
//
//   tile-tune -o runtime/tuning/nvidia-h200.json [--op softmax]
//             [--set dtype=f32,f16] [--set cols=1024,4096] [--commit <sha>]
//             [--print-times]
//
// An existing table of the same device at -o keeps its entries at the
// problems not measured now. With --space, tile-tune tunes a parameterized
// kernel of one's own instead (TuneUserKernel.h).
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "EmbeddedKernels.h"
#include "Finalists.h"
#include "Internal.h"
#include "Library.h"
#include "TuneUserKernel.h"
#include "tile/Catalogue/TuningFile.h"
#include "tile_runtime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ctime>
#include <map>

using namespace tile::catalogue;
using tile::embedded::kKernels;
using tile::embedded::kNumKernels;
namespace cl = llvm::cl;

static cl::opt<std::string>
    outputFile("o", cl::desc("Output JSON file (the library's kernels)"));
static cl::opt<std::string>
    opName("op", cl::desc("the operation to tune, or all"), cl::init("all"));
static cl::list<std::string>
    given("set",
          cl::desc("field=v1,v2,...: the problems' values of a field "
                   "(e.g. dtype=f16, cols=1024,4096; see the operation)"));
static cl::opt<int> ranked("ranked", cl::desc("fastest kernels kept"),
                           cl::init(1));
static cl::opt<int> iters("iters", cl::desc("timed calls per kernel, at least"),
                          cl::init(10));
static cl::opt<double>
    minTimeMs("min-time-ms",
              cl::desc("timed calls per kernel take at least this long "
                       "(up to 500 calls): short kernels need many"),
              cl::init(50));
static cl::opt<int> finalists(
    "finalists",
    cl::desc("the kernels within --finalist-margin of the fastest are timed "
             "again and ranked by the median of their new timings: the "
             "library's call by call in turns, --rounds times as many calls "
             "as one timing; --space settings in --rounds rounds of runs, "
             "with their first timing (0: rank the first timings)"),
    cl::init(4));
static cl::opt<double> finalistMargin(
    "finalist-margin",
    cl::desc("how much slower than the fastest a finalist may have been "
             "timed (0.15: 15%)"),
    cl::init(0.15));
static cl::opt<int>
    rounds("rounds", cl::desc("rounds of the finalists (see --finalists)"),
           cl::init(3));
static cl::list<std::string> userSpaces(
    "space",
    cl::desc("A parameter of the kernel given after '--' and its values to "
             "try (tunes that kernel instead of the library's)"),
    cl::value_desc("NAME=V1,V2,..."));
static cl::opt<std::string>
    userCache("cache", cl::desc("The tuning cache of --space (JSON)"),
              cl::value_desc("file"));
static cl::opt<std::string>
    userRunner("runner", cl::desc("tile-run (default: next to tile-tune)"),
               cl::value_desc("path"));
static cl::opt<unsigned>
    userBenchIters("bench-iters",
                   cl::desc("Timed runs of each --space setting"),
                   cl::init(100));
static cl::opt<unsigned> userTimeout(
    "candidate-timeout",
    cl::desc("Seconds one --space setting may run before it is stopped and "
             "rejected (0: no limit)"),
    cl::init(300));
static cl::opt<bool>
    userRetune("retune", cl::desc("Measure a --space kernel again even if "
                                  "the cache has it"));
static cl::opt<std::string>
    commit("commit", cl::desc("the library's commit, recorded"), cl::init(""));
static cl::opt<bool> printTimes(
    "print-times",
    cl::desc("print every measured kernel's time at each problem, fastest "
             "first (to compare kernels the table does not rank)"));

namespace {
[[noreturn]] void fatal(const llvm::Twine &message) {
  llvm::errs() << "tile-tune: " << message << "\n";
  std::exit(1);
}

void check(tile_status s, const char *what) {
  if (s != TILE_SUCCESS)
    fatal(llvm::Twine(what) + ": " + tile_last_error());
}

constexpr size_t kFlushBytes = size_t(256) << 20;

/// Fills `bytes` of device memory by repeating `pattern`.
void fillRepeating(uint64_t dst, size_t bytes,
                   const std::vector<char> &pattern) {
  size_t chunk = std::min(bytes, pattern.size());
  check(tile_memcpy_htod(dst, pattern.data(), chunk), "memcpy");
  for (size_t done = chunk; done < bytes;) {
    size_t n = std::min(done, bytes - done);
    check(tile_memcpy_dtod(dst + done, dst, n), "memcpy");
    done += n;
  }
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// L2 is flushed before each timed call, as the benchmarks do: 256 MiB
/// written (more than any GPU's L2), outside the call's events.
void flushL2(void *) {
  static uint64_t buffer = [] {
    uint64_t p = 0;
    check(tile_malloc(&p, kFlushBytes), "malloc");
    return p;
  }();
  check(tile_memset_d8(buffer, 0, kFlushBytes), "memset");
}

/// The median milliseconds of `launch(user)`: --iters calls, or as many as
/// fill --min-time-ms (at most 500), after two warm-ups, each after a flush
/// of L2.
double timeMedian(void (*launch)(void *), void *user) {
  std::vector<float> ms(5);
  check(
      tile::internal::timeEach(flushL2, launch, user, nullptr, 2, 5, ms.data()),
      "timing");
  double estimate = std::max(median(ms), 1e-4);
  int n = (int)std::clamp<double>(std::ceil(minTimeMs / estimate), iters,
                                  std::max(500, (int)iters));
  ms.assign(n, 0);
  check(
      tile::internal::timeEach(flushL2, launch, user, nullptr, 0, n, ms.data()),
      "timing");
  return median(ms);
}

/// The embedded kernel's name (for the progress lines).
const char *nameOf(const KernelDesc &k) {
  for (unsigned i = 0; i < kNumKernels; ++i)
    if (kKernels[i].desc == k)
      return kKernels[i].name;
  return "?";
}

struct Candidate {
  unsigned index;
  double ms;
  /// Whether `ms` comes from the finalists' second timing (confirm).
  bool timedAgain = false;
};

/// The measured kernels fastest first, the finalists timed again ahead of
/// the others (rankAfterFinalists).
std::vector<Candidate> inRankingOrder(const std::vector<Candidate> &measured) {
  std::vector<double> ms;
  std::vector<size_t> finalists;
  for (size_t i = 0; i < measured.size(); ++i) {
    ms.push_back(measured[i].ms);
    if (measured[i].timedAgain)
      finalists.push_back(i);
  }
  std::vector<Candidate> out;
  for (size_t i : rankAfterFinalists(ms, finalists))
    out.push_back(measured[i]);
  return out;
}

/// Ranks the measured kernels (in ranking order): the fastest `ranked`,
/// then for each prefix of the operation's conditions
/// (OpSpec::getConditions) that all of these need some condition of, the
/// fastest kernel that needs none of the prefix's.
std::vector<RankedKernel> rank(const OpSpec &op,
                               const std::vector<Candidate> &candidates) {
  std::vector<Candidate> measured = inRankingOrder(candidates);
  std::vector<RankedKernel> out;
  for (const Candidate &c : measured)
    if ((int)out.size() < ranked)
      out.push_back({kKernels[c.index].desc, c.ms});
  auto conditions = op.getConditions();
  for (size_t last = 0; last < conditions.size(); ++last) {
    auto free = [&](const KernelDesc &k) {
      for (size_t c = 0; c <= last; ++c)
        if (conditions[c](k))
          return false;
      return true;
    };
    if (llvm::any_of(out,
                     [&](const RankedKernel &r) { return free(r.kernel); }))
      continue;
    for (const Candidate &c : measured)
      if (free(kKernels[c.index].desc)) {
        out.push_back({kKernels[c.index].desc, c.ms});
        break;
      }
  }
  return out;
}

/// A launch of embedded kernel `index` at a problem, for timeMedian.
struct KernelCall {
  unsigned index;
  const Problem *p;
  const std::vector<tile_arg> *args;
  const DeviceInfo *device;
  static void launch(void *user) {
    KernelCall &c = *static_cast<KernelCall *>(user);
    tile::library::launch(c.index, *c.p, c.args->data(),
                          (unsigned)c.args->size(), *c.device, nullptr);
  }
};

/// Launches the finalists' kernels of an interleaved timing, the next in
/// `order` at each call (tile::internal::timeEach calls it once per timed
/// call).
struct InterleavedCalls {
  std::vector<KernelCall> finalists;
  llvm::ArrayRef<size_t> order;
  size_t next = 0;
  static void launch(void *user) {
    InterleavedCalls &c = *static_cast<InterleavedCalls *>(user);
    KernelCall::launch(&c.finalists[c.order[c.next++ % c.order.size()]]);
  }
};

/// Times the kernels measured close to the fastest again, call by call in
/// turns (Finalists.h): each as many calls as --rounds timings of the
/// slowest of them would take, each call after a flush of L2.
void confirm(std::vector<Candidate> &measured, const Problem &p,
             const std::vector<tile_arg> &args, const DeviceInfo &device) {
  if (rounds < 1)
    return;
  std::vector<double> ms;
  for (const Candidate &c : measured)
    ms.push_back(c.ms);
  std::vector<size_t> chosen = chooseFinalists(ms, finalists, finalistMargin);
  if (chosen.empty())
    return;
  double slowest = 1e-4;
  for (size_t i : chosen)
    slowest = std::max(slowest, ms[i]);
  int calls =
      rounds * (int)std::clamp<double>(std::ceil(minTimeMs / slowest), iters,
                                       std::max(500, (int)iters));
  interleaveFinalists(
      ms, chosen, calls,
      [&](llvm::ArrayRef<size_t> order, llvm::MutableArrayRef<float> times) {
        InterleavedCalls sequence;
        for (size_t i : chosen)
          sequence.finalists.push_back({measured[i].index, &p, &args, &device});
        sequence.order = order;
        check(tile::internal::timeEach(flushL2, InterleavedCalls::launch,
                                       &sequence, nullptr, 0, (int)order.size(),
                                       times.data()),
              "timing");
      });
  for (auto [c, t] : llvm::zip(measured, ms))
    c.ms = t;
  for (size_t i : chosen)
    measured[i].timedAgain = true;
}

/// Device memory freed on scope exit.
struct DeviceTensors {
  std::vector<uint64_t> ptrs;
  ~DeviceTensors() {
    for (uint64_t p : ptrs)
      tile_free(p);
  }
};

/// Measures every admitted kernel at the problem.
TuningEntry tune(const OpSpec &op, const DeviceInfo &device, const Problem &p,
                 uint64_t seed) {
  TestCase c = op.makeTestCase(p, seed);
  DeviceTensors mem;
  for (const TestCase::Tensor &t : c.tensors) {
    uint64_t ptr = 0;
    check(tile_malloc(&ptr, std::max<size_t>(t.bytes, 1)), "malloc");
    mem.ptrs.push_back(ptr);
    if (!t.pattern.empty())
      fillRepeating(ptr, t.bytes, t.pattern);
  }
  std::vector<tile_arg> args = tile::library::testCaseArguments(c, mem.ptrs);
  TuningEntry entry;
  entry.op = &op;
  entry.problem = p;
  std::string where = std::string(op.getName()) + " " + op.describe(p);
  std::vector<Candidate> measured;
  for (unsigned i = 0; i < kNumKernels; ++i) {
    const KernelDesc &k = kKernels[i].desc;
    if (!tile::dispatch::admits(op, k, p, device) || !op.worthMeasuring(k, p))
      continue;
    // The check: poisoned outputs, sampled against float64.
    for (auto [t, tensor] : llvm::enumerate(c.tensors))
      if (tensor.pattern.empty())
        check(tile_memset_d8(mem.ptrs[t], 0xff, tensor.bytes), "memset");
    check(tile::library::launch(i, p, args.data(), (unsigned)args.size(),
                                device, nullptr),
          kKernels[i].name);
    check(tile_synchronize(), kKernels[i].name);
    std::vector<std::vector<char>> samples;
    for (const TestCase::Sample &s : c.samples) {
      samples.emplace_back(s.bytes);
      check(tile_memcpy_dtoh(samples.back().data(),
                             mem.ptrs[s.tensor] + s.offset, s.bytes),
            "memcpy");
    }
    std::string wrong = c.check(samples);
    if (!wrong.empty())
      fatal(llvm::Twine(kKernels[i].name) + " is wrong at " + where + ": " +
            wrong);
    KernelCall call{i, &p, &args, &device};
    measured.push_back({i, timeMedian(KernelCall::launch, &call)});
  }
  if (measured.empty())
    fatal("no kernel admits " + where);
  confirm(measured, p, args, device);
  entry.ranked = rank(op, measured);
  llvm::errs() << llvm::format(
      "%-48s: %3zu kernels, %-48s %.4f ms\n", where.c_str(), measured.size(),
      nameOf(entry.ranked[0].kernel), entry.ranked[0].ms);
  if (printTimes) {
    for (const Candidate &c : inRankingOrder(measured))
      llvm::errs() << llvm::format("  %-64s %.4f ms%s\n",
                                   kKernels[c.index].name, c.ms,
                                   c.timedAgain ? " (timed again)" : "");
  }
  return entry;
}

/// The --set values for the operation's fields.
std::map<std::string, std::vector<int64_t>> givenValues(const OpSpec &op) {
  std::map<std::string, std::vector<int64_t>> out;
  for (const std::string &g : given) {
    auto [name, list] = llvm::StringRef(g).split('=');
    int f = op.findProblemField(name.str());
    if (f < 0 || list.empty())
      fatal("--set " + g + ": " + op.getName() + " problems have no field '" +
            name + "' (or no values given)");
    const Field &field = op.getProblemFields()[f];
    llvm::SmallVector<llvm::StringRef, 8> parts;
    list.split(parts, ',');
    std::vector<int64_t> &values = out[name.str()];
    for (llvm::StringRef v : parts) {
      int64_t value = -1;
      if (field.kind == FieldKind::Enum) {
        for (auto [i, e] : llvm::enumerate(field.enumerators))
          if (v == e)
            value = (int64_t)i;
      } else if (field.kind == FieldKind::Bool) {
        value = v == "true" ? 1 : v == "false" ? 0 : -1;
      } else if (v.getAsInteger(10, value) || value < 1) {
        value = -1;
      }
      if (value < 0)
        fatal("--set " + g + ": '" + v + "' is not a value of " + name);
      values.push_back(value);
    }
  }
  return out;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Everything after "--" is tile-run's (the kernel of --space, its grid
  // and arguments).
  std::vector<std::string> userRunArgs;
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]) == "--") {
      userRunArgs.assign(argv + i + 1, argv + argc);
      argc = i;
      break;
    }
  cl::ParseCommandLineOptions(
      argc, argv,
      "Tile's kernel tuner\n\n"
      "  tile-tune -o TABLE.json [--op OP] [--set FIELD=V,...]\n"
      "      measures the library's kernels and writes a tuning table;\n"
      "  tile-tune --space NAME=V1,V2,... [--space ...] --cache CACHE.json\n"
      "      -- kernel.mlir --grid ... --arg ... [--check ...]\n"
      "      tunes the parameters of a kernel of one's own through tile-run\n"
      "      and keeps the fastest correct setting for tile-run --tuned.\n");
  if (finalists < 0 || rounds < 0 || !(finalistMargin >= 0))
    fatal("--finalists, --rounds and --finalist-margin must not be negative");
  if (!userSpaces.empty() || !userCache.empty() || !userRunArgs.empty()) {
    if (!userSpaces.empty() && userCache.empty() && userRunArgs.empty())
      fatal("--space needs --cache FILE and tile-run's arguments after '--'");
    if (userSpaces.empty())
      fatal("a user kernel is tuned over --space NAME=V1,V2,...");
    if (!outputFile.empty())
      fatal("-o writes the library's table; a user kernel's choice goes to "
            "--cache");
    UserTuneOptions options;
    options.spaces = userSpaces;
    options.cache = userCache;
    options.runArgs = userRunArgs;
    options.runner = userRunner;
    options.benchIters = userBenchIters;
    options.retune = userRetune;
    options.candidateTimeout = userTimeout;
    options.finalists = finalists;
    options.finalistMargin = finalistMargin;
    options.rounds = rounds;
    options.argv0 = argv[0];
    return tuneUserKernel(options);
  }
  if (outputFile.empty())
    fatal("-o FILE is required to tune the library's kernels (or --space to "
          "tune a kernel of one's own)");
  std::vector<const OpSpec *> ops;
  for (const OpSpec *op : getOps())
    if (opName == "all" || opName == op->getName())
      ops.push_back(op);
  if (ops.empty()) {
    std::string names;
    for (const OpSpec *op : getOps())
      names += std::string(op->getName()) + ", ";
    fatal("--op must be one of " + names + "or all");
  }
  size_t conditions = 0;
  for (const OpSpec *op : ops)
    conditions = std::max(conditions, op->getConditions().size());
  int maxRanked = kMaxRanked - (int)conditions;
  if (iters < 1 || ranked < 1 || ranked > maxRanked)
    fatal("--iters must be positive and --ranked 1 to " +
          llvm::Twine(maxRanked));
  if (!given.empty() && ops.size() != 1)
    fatal("--set needs one --op");
  std::vector<std::pair<const OpSpec *, std::vector<Problem>>> problems;
  for (const OpSpec *op : ops) {
    problems.push_back({op, op->getTuningProblems(givenValues(*op))});
    if (problems.back().second.empty())
      fatal(std::string("the --set values make no ") + op->getName() +
            " problem");
  }

  check(tile_init(0), "tile_init");
  DeviceInfo device;
  check(tile::library::getDeviceInfo(device), "device");
  TuningFile file;
  file.deviceName = device.name;
  file.ccMajor = device.ccMajor;
  file.ccMinor = device.ccMinor;
  file.sms = device.sms;
  file.commit = commit;
  {
    std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
    file.date = date;
  }
  TuningFile old;
  if (llvm::sys::fs::exists(outputFile)) {
    llvm::Expected<TuningFile> read = readTuningFile(outputFile);
    if (!read)
      fatal(llvm::toString(read.takeError()));
    if (read->deviceName == file.deviceName && read->sms == file.sms)
      old = std::move(*read);
  }
  uint64_t seed = 20261126;
  for (auto &[op, list] : problems)
    for (const Problem &p : list)
      file.entries.push_back(tune(*op, device, p, seed++));
  // Entries of the old table at problems not measured now are kept.
  for (const TuningEntry &e : old.entries)
    if (!llvm::any_of(file.entries, [&](const TuningEntry &n) {
          return n.op == e.op && n.problem == e.problem;
        }))
      file.entries.push_back(e);

  std::error_code ec;
  llvm::raw_fd_ostream os(outputFile, ec);
  if (ec)
    fatal(outputFile + ": " + ec.message());
  os << llvm::formatv("{0:2}", toJSON(file)) << "\n";
  return 0;
}
