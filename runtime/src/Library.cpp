//===- Library.cpp - Choosing and launching library kernels ---------------===//

#include "Library.h"
#include "EmbeddedKernels.h"
#include "Internal.h"

#include <array>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

using namespace tile::catalogue;
using tile::embedded::EmbeddedKernel;
using tile::embedded::kKernels;
using tile::embedded::kNumKernels;
using tile::internal::setError;

namespace tile {
namespace library {

namespace {
std::mutex cacheMutex;
std::vector<tile_kernel> &cache() {
  static std::vector<tile_kernel> *kernels =
      new std::vector<tile_kernel>(kNumKernels, nullptr);
  return *kernels;
}

tile_status loadKernel(unsigned index, tile_kernel *out) {
  std::lock_guard<std::mutex> lock(cacheMutex);
  tile_kernel &slot = cache()[index];
  if (!slot) {
    const EmbeddedKernel &k = kKernels[index];
    tile_module module = nullptr;
    tile_status s = tile_module_load(k.image, k.imageSize, k.metadata, &module);
    if (s != TILE_SUCCESS)
      return s;
    s = tile_module_get_kernel(module, k.name, &slot);
    if (s != TILE_SUCCESS)
      return s;
  }
  *out = slot;
  return TILE_SUCCESS;
}

/// The index of the embedded kernel `desc` describes, or -1: searched
/// once per description (preludes are few; launches many).
int findEmbedded(const KernelDesc &desc) {
  static std::mutex mutex;
  static std::vector<std::pair<KernelDesc, int>> *found =
      new std::vector<std::pair<KernelDesc, int>>();
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto &[d, index] : *found)
    if (d == desc)
      return index;
  int index = -1;
  for (unsigned i = 0; i < kNumKernels && index < 0; ++i)
    if (kKernels[i].desc == desc)
      index = (int)i;
  found->emplace_back(desc, index);
  return index;
}

/// TILE_<OP>_VARIANT, e.g. TILE_SOFTMAX_MATMUL_VARIANT.
std::string variantVariable(const OpSpec &op) {
  std::string v = "TILE_";
  for (const char *c = op.getName(); *c; ++c)
    v += (char)std::toupper((unsigned char)*c);
  return v + "_VARIANT";
}

/// Choices already made, so that a call costs a lookup rather than the
/// rule's walk over the table (about 10 us, as long as a short kernel).
/// Keyed by the operation, the device's compute capability, SM count and
/// workspace support, and the problem; cleared when it reaches
/// kMaxCachedChoices.
using ChoiceKey = std::tuple<const OpSpec *, int, int, int, bool,
                             std::array<int64_t, kMaxProblemFields>>;
constexpr size_t kMaxCachedChoices = 4096;

int cachedChoice(const OpSpec &op, const Problem &p, const DeviceInfo &device) {
  static std::mutex mutex;
  static std::map<ChoiceKey, int> *choices = new std::map<ChoiceKey, int>();
  std::array<int64_t, kMaxProblemFields> values;
  std::copy(std::begin(p.values), std::end(p.values), values.begin());
  ChoiceKey key{&op,
                device.ccMajor,
                device.ccMinor,
                device.sms,
                device.streamOrderedAllocation,
                values};
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = choices->find(key);
    if (it != choices->end())
      return it->second;
  }
  int index = dispatch::choose(getLibrary(), device, op, p);
  std::lock_guard<std::mutex> lock(mutex);
  if (choices->size() >= kMaxCachedChoices)
    choices->clear();
  choices->emplace(key, index);
  return index;
}
} // namespace

dispatch::Library getLibrary() {
  return {kKernels, kNumKernels, embedded::kTables, embedded::kNumTables};
}

tile_status getDeviceInfo(DeviceInfo &device) {
  char name[256];
  tile_status s = tile_device_info(name, sizeof(name), &device.ccMajor,
                                   &device.ccMinor, &device.sms);
  if (s != TILE_SUCCESS)
    return s;
  device.name = name;
  device.streamOrderedAllocation = internal::hasStreamOrderedAllocation();
  return TILE_SUCCESS;
}

tile_status launch(unsigned index, const Problem &p, const tile_arg *args,
                   unsigned numArgs, const DeviceInfo &device, void *stream) {
  const KernelDesc &desc = kKernels[index].desc;
  const OpSpec *op = findOp(desc);
  constexpr unsigned kMaxArgs = 32;
  if (!op || numArgs + 2 > kMaxArgs)
    return setError(TILE_ERROR_INVALID_ARGUMENT,
                    std::string(kKernels[index].name) +
                        ": not a kernel of a known operation, or too many "
                        "arguments");
  tile_kernel kernel;
  tile_status s = loadKernel(index, &kernel);
  if (s != TILE_SUCCESS)
    return s;
  LaunchPlan plan = op->plan(desc, p, device);
  if (!plan.workspaceBytes && !plan.hasPrelude)
    return tile_kernel_launch(kernel, plan.grid, args, (int)numArgs, stream);
  tile_kernel prelude = nullptr;
  if (plan.hasPrelude) {
    int found = findEmbedded(plan.prelude);
    if (found < 0)
      return setError(TILE_ERROR_INVALID_ARGUMENT,
                      std::string(kKernels[index].name) +
                          ": its prelude kernel is not embedded");
    if ((s = loadKernel((unsigned)found, &prelude)) != TILE_SUCCESS)
      return s;
  }
  uint64_t workspace = 0;
  if ((s = internal::allocWorkspace(plan.workspaceBytes, plan.zeroedWords,
                                    stream, &workspace)) != TILE_SUCCESS)
    return s;
  tile_arg all[kMaxArgs];
  std::copy(args, args + numArgs, all);
  tile_status launched = TILE_SUCCESS;
  if (prelude) {
    all[numArgs] = pointerArg(workspace);
    launched = tile_kernel_launch(prelude, plan.preludeGrid, all,
                                  (int)numArgs + 1, stream);
  }
  for (unsigned i = 0; i < plan.numReplacedArgs; ++i) {
    const LaunchPlan::ReplacedArg &r = plan.replacedArgs[i];
    all[r.index] =
        r.workspacePointer ? pointerArg(workspace + r.value) : i64Arg(r.value);
  }
  for (unsigned i = 0; i < plan.numWorkspaceArgs; ++i)
    all[numArgs + i] = pointerArg(workspace + plan.workspaceArgOffsets[i]);
  if (launched == TILE_SUCCESS)
    launched = tile_kernel_launch(
        kernel, plan.grid, all, (int)(numArgs + plan.numWorkspaceArgs), stream);
  tile_status freed = internal::freeWorkspace(workspace, stream);
  return launched != TILE_SUCCESS ? launched : freed;
}

tile_status choose(const char *fn, const OpSpec &op, const Problem &p,
                   const DeviceInfo &device, int *index) {
  std::string variable = variantVariable(op);
  if (const char *name = std::getenv(variable.c_str())) {
    for (unsigned i = 0; i < kNumKernels; ++i)
      if (std::strcmp(kKernels[i].name, name) == 0 &&
          dispatch::admits(op, kKernels[i].desc, p, device)) {
        *index = (int)i;
        return TILE_SUCCESS;
      }
    return invalidArgument(fn, variable + "='" + name +
                                   "' names no embedded kernel that runs "
                                   "this problem here (" +
                                   op.getName() + " " + op.describe(p) + ")");
  }
  *index = cachedChoice(op, p, device);
  if (*index < 0)
    return unsupported(fn, "no kernel for these arguments");
  return TILE_SUCCESS;
}

namespace {
/// The current device and the kernel for the problem on it.
tile_status chooseHere(const char *fn, const OpSpec &op, const Problem &p,
                       DeviceInfo &device, int *index) {
  tile_status s = getDeviceInfo(device);
  return s != TILE_SUCCESS ? s : choose(fn, op, p, device, index);
}
} // namespace

tile_status run(const char *fn, const OpSpec &op, const Problem &p,
                const tile_arg *args, unsigned numArgs, void *stream) {
  DeviceInfo device;
  int index = -1;
  tile_status s = chooseHere(fn, op, p, device, &index);
  if (s != TILE_SUCCESS)
    return s;
  return launch((unsigned)index, p, args, numArgs, device, stream);
}

tile_status chosenName(const char *fn, const OpSpec &op, const Problem &p,
                       char *name, size_t nameSize) {
  if (!name || nameSize == 0)
    return invalidArgument(fn, "name is null");
  DeviceInfo device;
  int index = -1;
  tile_status s = chooseHere(fn, op, p, device, &index);
  if (s != TILE_SUCCESS)
    return s;
  std::strncpy(name, kKernels[index].name, nameSize - 1);
  name[nameSize - 1] = 0;
  return TILE_SUCCESS;
}

std::vector<tile_arg> testCaseArguments(const TestCase &c,
                                        const std::vector<uint64_t> &tensors) {
  std::vector<tile_arg> args;
  for (const TestCase::Arg &a : c.args)
    args.push_back(a.kind == TestCase::Arg::Pointer
                       ? pointerArg(tensors[a.tensor] + a.value)
                   : a.kind == TestCase::Arg::I32 ? i32Arg((int32_t)a.value)
                   : a.kind == TestCase::Arg::F32 ? f32Arg((float)a.real)
                                                  : i64Arg(a.value));
  return args;
}

tile_status invalidArgument(const char *fn, const std::string &what) {
  return setError(TILE_ERROR_INVALID_ARGUMENT, std::string(fn) + ": " + what);
}

tile_status unsupported(const char *fn, const std::string &what) {
  return setError(TILE_ERROR_UNSUPPORTED, std::string(fn) + ": " + what);
}

ByteSpan byteSpan(uint64_t base, const int64_t *sizes, const int64_t *strides,
                  int rank, int64_t elementBytes) {
  uint64_t last = 0;
  for (int i = 0; i < rank; ++i)
    last += (uint64_t)(sizes[i] - 1) * (uint64_t)strides[i];
  return {base, base + (last + 1) * (uint64_t)elementBytes - 1};
}

bool isValidDtype(tile_dtype t) {
  return t == TILE_F32 || t == TILE_F16 || t == TILE_BF16;
}

} // namespace library
} // namespace tile

extern "C" size_t tile_library_kernel_count(void) { return kNumKernels; }

extern "C" const char *tile_library_kernel_name(size_t index) {
  return index < kNumKernels ? kKernels[index].name : nullptr;
}
