//===- Metadata.cpp - Kernel metadata and launch-argument checks ----------===//

#include "Metadata.h"

#include <climits>
#include <cstring>

namespace tile {
namespace internal {
namespace {

const char *const kDTypes[] = {"f16", "bf16", "f32", "f64", "i1",
                               "i8",  "i16",  "i32", "i64"};

bool isDType(const std::string &s) {
  for (const char *d : kDTypes)
    if (s == d)
      return true;
  return false;
}

/// Parses a whole token as a decimal integer (optional '-'), rejecting
/// overflow and trailing characters.
bool parseInt(const std::string &token, int64_t &value) {
  size_t i = 0;
  bool negative = false;
  if (i < token.size() && (token[i] == '-' || token[i] == '+')) {
    negative = token[i] == '-';
    ++i;
  }
  if (i == token.size())
    return false;
  uint64_t magnitude = 0;
  const uint64_t limit = negative ? uint64_t(INT64_MAX) + 1 : INT64_MAX;
  for (; i < token.size(); ++i) {
    char c = token[i];
    if (c < '0' || c > '9')
      return false;
    uint64_t digit = uint64_t(c - '0');
    if (magnitude > (limit - digit) / 10)
      return false;
    magnitude = magnitude * 10 + digit;
  }
  value = negative ? int64_t(0 - magnitude) : int64_t(magnitude);
  return true;
}

std::vector<std::string> tokenize(const std::string &line) {
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
      ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t')
      ++i;
    if (i > start)
      tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

class Parser {
public:
  Parser(std::vector<KernelMeta> &kernels, std::string &error)
      : kernels(kernels), error(error) {}

  bool run(const char *text) {
    const char *p = text;
    int lineNo = 0;
    while (*p) {
      const char *eol = std::strchr(p, '\n');
      size_t len = eol ? size_t(eol - p) : std::strlen(p);
      std::string line(p, len);
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      ++lineNo;
      if (!parseLine(lineNo, line))
        return false;
      p += len;
      if (*p == '\n')
        ++p;
    }
    if (inBlock)
      return fail(lineNo == 0 ? 1 : lineNo,
                  "missing 'end' of the block started on line " +
                      std::to_string(current.line) + describeCurrent());
    if (kernels.empty()) {
      error = "metadata declares no kernels (expected a 'tile-kernel v1' "
              "block)";
      return false;
    }
    return true;
  }

private:
  std::vector<KernelMeta> &kernels;
  std::string &error;
  bool inBlock = false;
  bool hasName = false, hasWarps = false, hasShared = false, hasCluster = false;
  KernelMeta current;

  bool fail(int lineNo, const std::string &message) {
    error = "metadata line " + std::to_string(lineNo) + ": " + message;
    return false;
  }

  std::string describeCurrent() const {
    return hasName ? " (kernel '" + current.name + "')" : std::string();
  }

  bool parseCount(int lineNo, const std::vector<std::string> &tokens,
                  size_t expected, const char *usage) {
    if (tokens.size() == expected)
      return true;
    return fail(lineNo, std::string("expected '") + usage + "', got " +
                            std::to_string(tokens.size()) + " tokens");
  }

  bool parseNumber(int lineNo, const std::string &token, const char *what,
                   int64_t min, int64_t max, int64_t &value) {
    if (!parseInt(token, value))
      return fail(lineNo, std::string("expected an integer for ") + what +
                              ", got '" + token + "'");
    if (value < min || value > max)
      return fail(lineNo, std::string(what) + " " + token +
                              " is out of range [" + std::to_string(min) +
                              ", " + std::to_string(max) + "]");
    return true;
  }

  bool parseArg(int lineNo, const std::vector<std::string> &tokens) {
    if (tokens.size() < 2)
      return fail(lineNo, "expected an argument kind after 'arg'");
    const std::string &kind = tokens[1];
    ArgMeta arg;
    if (kind == "ptr") {
      if (!parseCount(lineNo, tokens, 4, "arg ptr <dtype> <alignment>"))
        return false;
      if (!isDType(tokens[2]))
        return fail(lineNo, "unknown dtype '" + tokens[2] +
                                "' (expected f16, bf16, f32, f64, i1, i8, "
                                "i16, i32 or i64)");
      int64_t align = 0;
      if (!parseNumber(lineNo, tokens[3], "alignment", 0, INT64_MAX, align))
        return false;
      if (align & (align - 1))
        return fail(lineNo,
                    "alignment " + tokens[3] + " is not 0 or a power of two");
      arg.kind = TILE_ARG_PTR;
      arg.dtype = tokens[2];
      arg.constraint = align;
    } else if (kind == "i32" || kind == "i64") {
      if (!parseCount(lineNo, tokens, 3,
                      kind == "i32" ? "arg i32 <divisibility>"
                                    : "arg i64 <divisibility>"))
        return false;
      int64_t limit = kind == "i32" ? INT32_MAX : INT64_MAX;
      int64_t divisibility = 0;
      if (!parseNumber(lineNo, tokens[2], "divisibility", 0, limit,
                       divisibility))
        return false;
      arg.kind = kind == "i32" ? TILE_ARG_I32 : TILE_ARG_I64;
      arg.constraint = divisibility;
    } else if (kind == "f32" || kind == "f64" || kind == "i1") {
      if (tokens.size() != 2)
        return fail(lineNo, "expected nothing after 'arg " + kind + "', got '" +
                                tokens[2] + "'");
      arg.kind = kind == "f32"   ? TILE_ARG_F32
                 : kind == "f64" ? TILE_ARG_F64
                                 : TILE_ARG_I1;
    } else {
      return fail(lineNo, "unknown argument kind '" + kind +
                              "' (expected ptr, i32, i64, f32, f64 or i1)");
    }
    current.args.push_back(arg);
    return true;
  }

  /// "argN" (an argument index, checked at 'end') or a decimal constant.
  bool parseHostInt(int lineNo, const std::string &token, HostInt &out) {
    if (token.size() > 3 && token.compare(0, 3, "arg") == 0) {
      int64_t index = 0;
      if (!parseNumber(lineNo, token.substr(3), "argument index", 0, 4095,
                       index))
        return false;
      out.arg = int(index);
      return true;
    }
    out.arg = -1;
    if (token.size() > 4 && token.compare(0, 4, "grid") == 0) {
      int64_t axis = 0;
      if (!parseNumber(lineNo, token.substr(4), "grid axis", 0, 2, axis))
        return false;
      out.grid = int(axis);
      return true;
    }
    if (!parseInt(token, out.value))
      return fail(lineNo, "expected 'argN', 'gridN' or an integer, got '" +
                              token + "'");
    return true;
  }

  bool parseTensorMap(int lineNo, const std::vector<std::string> &tokens) {
    const char *usage =
        "tma argN <f16|bf16> shape <rows> <cols> strides <row> <col> box "
        "<rows> <cols> swizzle <bytes> groups <w> [batch <stride> <count> "
        "(up to 3 pairs)]";
    bool outer = tokens.size() > 16;
    if (!outer && !parseCount(lineNo, tokens, 16, usage))
      return false;
    if (outer &&
        (tokens[16] != "batch" || tokens.size() % 2 == 0 || tokens.size() > 23))
      return fail(lineNo, std::string("expected '") + usage + "'");
    if (tokens[3] != "shape" || tokens[6] != "strides" || tokens[9] != "box" ||
        tokens[12] != "swizzle" || tokens[14] != "groups")
      return fail(lineNo, std::string("expected '") + usage + "'");
    if (current.tensorMaps.size() >= size_t(kMaxTensorMaps))
      return fail(lineNo, "more than " + std::to_string(kMaxTensorMaps) +
                              " tensor maps");
    TensorMapMeta map;
    HostInt base;
    if (!parseHostInt(lineNo, tokens[1], base))
      return false;
    if (base.arg < 0)
      return fail(lineNo, "the base of a tensor map must be 'argN', got '" +
                              tokens[1] + "'");
    map.baseArg = base.arg;
    if (tokens[2] != "f16" && tokens[2] != "bf16" && tokens[2] != "f32")
      return fail(lineNo,
                  "tensor maps hold f16, bf16 or f32, got '" + tokens[2] + "'");
    map.dtype = tokens[2];
    if (!parseHostInt(lineNo, tokens[4], map.shape[0]) ||
        !parseHostInt(lineNo, tokens[5], map.shape[1]) ||
        !parseHostInt(lineNo, tokens[7], map.strides[0]) ||
        !parseHostInt(lineNo, tokens[8], map.strides[1]) ||
        !parseNumber(lineNo, tokens[10], "box rows", 1, 256, map.boxRows) ||
        !parseNumber(lineNo, tokens[11], "box columns", 1, 256, map.boxCols) ||
        !parseNumber(lineNo, tokens[13], "swizzle", 32, 128, map.swizzle))
      return false;
    if (map.swizzle != 32 && map.swizzle != 64 && map.swizzle != 128)
      return fail(lineNo, "swizzle " + tokens[13] + " is not 32, 64 or 128");
    if (!parseNumber(lineNo, tokens[15], "groups", 0, 32, map.groups))
      return false;
    if (map.groups && (map.boxRows != 8 || map.groups % 2 != 0))
      return fail(lineNo, "groups " + tokens[15] +
                              " must be even, with 8-row boxes (got " +
                              tokens[10] + ")");
    if (outer) {
      map.outerDims = int(tokens.size() - 17) / 2;
      for (int d = 0; d < map.outerDims; ++d)
        if (!parseHostInt(lineNo, tokens[17 + 2 * d], map.outerStrides[d]) ||
            !parseHostInt(lineNo, tokens[18 + 2 * d], map.outerCounts[d]))
          return false;
      if (map.groups)
        return fail(lineNo, "a batch of matrices takes no interleaved map "
                            "(groups " +
                                tokens[15] + ")");
    }
    if (map.boxCols * (map.dtype == "f32" ? 4 : 2) > map.swizzle)
      return fail(lineNo, "a box row of " + tokens[11] +
                              " elements exceeds the " + tokens[13] +
                              "-byte swizzle");
    current.tensorMaps.push_back(map);
    return true;
  }

  /// At 'end': every argument a tensor map names exists and has the kind
  /// it is read as.
  bool checkTensorMaps(int lineNo) {
    for (const TensorMapMeta &map : current.tensorMaps) {
      auto kindOf = [&](int arg) {
        return size_t(arg) < current.args.size()
                   ? current.args[size_t(arg)].kind
                   : tile_arg_kind(-1);
      };
      if (kindOf(map.baseArg) != TILE_ARG_PTR ||
          current.args[size_t(map.baseArg)].dtype != map.dtype)
        return fail(lineNo, "tensor map base arg" +
                                std::to_string(map.baseArg) + " is not a " +
                                map.dtype + " pointer argument");
      std::vector<const HostInt *> values{&map.shape[0], &map.shape[1],
                                          &map.strides[0], &map.strides[1]};
      for (int d = 0; d < map.outerDims; ++d) {
        values.push_back(&map.outerStrides[d]);
        values.push_back(&map.outerCounts[d]);
      }
      for (const HostInt *v : values)
        if (v->arg >= 0 && kindOf(v->arg) != TILE_ARG_I32 &&
            kindOf(v->arg) != TILE_ARG_I64)
          return fail(lineNo, "tensor map reads arg" + std::to_string(v->arg) +
                                  ", which is not an i32 or i64 argument");
    }
    return true;
  }

  bool parseLine(int lineNo, const std::string &line) {
    std::vector<std::string> tokens = tokenize(line);
    if (tokens.empty() || tokens[0][0] == '#')
      return true;
    const std::string &key = tokens[0];

    if (key == "tile-kernel") {
      if (inBlock)
        return fail(lineNo, "'tile-kernel' inside the block started on line " +
                                std::to_string(current.line) +
                                describeCurrent() + " (missing 'end')");
      if (tokens.size() != 2)
        return fail(lineNo, "expected 'tile-kernel v1'");
      if (tokens[1] != "v1")
        return fail(lineNo, "unsupported metadata version '" + tokens[1] +
                                "' (this runtime reads v1)");
      inBlock = true;
      hasName = hasWarps = hasShared = hasCluster = false;
      current = KernelMeta();
      current.line = lineNo;
      return true;
    }
    if (!inBlock)
      return fail(lineNo, "expected 'tile-kernel v1', got '" + key + "'");

    if (key == "name") {
      if (hasName)
        return fail(lineNo, "duplicate 'name' in the block");
      if (!parseCount(lineNo, tokens, 2, "name <kernel>"))
        return false;
      current.name = tokens[1];
      hasName = true;
      return true;
    }
    if (key == "base") {
      if (!current.base.empty())
        return fail(lineNo, "duplicate 'base' in the block");
      if (!parseCount(lineNo, tokens, 2, "base <kernel>"))
        return false;
      current.base = tokens[1];
      return true;
    }
    if (key == "param") {
      if (!parseCount(lineNo, tokens, 3, "param <name> <value>"))
        return false;
      for (const auto &p : current.params)
        if (p.first == tokens[1])
          return fail(lineNo, "duplicate 'param " + tokens[1] + "'");
      current.params.emplace_back(tokens[1], tokens[2]);
      return true;
    }
    if (key == "num_warps") {
      if (hasWarps)
        return fail(lineNo, "duplicate 'num_warps' in the block");
      int64_t warps = 0;
      if (!parseCount(lineNo, tokens, 2, "num_warps <n>") ||
          !parseNumber(lineNo, tokens[1], "num_warps", 1, 32, warps))
        return false;
      current.numWarps = int(warps);
      hasWarps = true;
      return true;
    }
    if (key == "shared_bytes") {
      if (hasShared)
        return fail(lineNo, "duplicate 'shared_bytes' in the block");
      int64_t bytes = 0;
      if (!parseCount(lineNo, tokens, 2, "shared_bytes <n>") ||
          !parseNumber(lineNo, tokens[1], "shared_bytes", 0, INT_MAX, bytes))
        return false;
      current.sharedBytes = int(bytes);
      hasShared = true;
      return true;
    }
    if (key == "cluster_size") {
      if (hasCluster)
        return fail(lineNo, "duplicate 'cluster_size' in the block");
      int64_t size = 0;
      if (!parseCount(lineNo, tokens, 2, "cluster_size <n>") ||
          !parseNumber(lineNo, tokens[1], "cluster_size", 1, 16, size))
        return false;
      current.clusterSize = int(size);
      hasCluster = true;
      return true;
    }
    if (key == "waits_for_prior_grid") {
      if (current.waitsForPriorGrid)
        return fail(lineNo, "duplicate 'waits_for_prior_grid' in the block");
      if (!parseCount(lineNo, tokens, 1, "waits_for_prior_grid"))
        return false;
      current.waitsForPriorGrid = true;
      return true;
    }
    if (key == "arg") {
      if (!current.tensorMaps.empty())
        return fail(lineNo, "'arg' after 'tma': tensor maps come last");
      return parseArg(lineNo, tokens);
    }
    if (key == "tma")
      return parseTensorMap(lineNo, tokens);
    if (key == "end") {
      if (!parseCount(lineNo, tokens, 1, "end"))
        return false;
      if (!hasName)
        return fail(lineNo, "the block started on line " +
                                std::to_string(current.line) +
                                " has no 'name'");
      if (!hasWarps)
        return fail(lineNo, "the block of kernel '" + current.name +
                                "' has no 'num_warps'");
      if (!checkTensorMaps(lineNo))
        return false;
      for (const KernelMeta &k : kernels)
        if (k.name == current.name)
          return fail(lineNo, "kernel '" + current.name +
                                  "' is already declared on line " +
                                  std::to_string(k.line));
      kernels.push_back(std::move(current));
      current = KernelMeta();
      inBlock = false;
      return true;
    }
    return fail(lineNo, "unknown key '" + key + "'");
  }
};

std::string kernelPrefix(const KernelMeta &kernel) {
  return "tile_kernel_launch(" + kernel.name + "): ";
}

std::string hex(uint64_t value) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), digits[value & 15]);
    value >>= 4;
  } while (value);
  return "0x" + out;
}

} // namespace

bool parseMetadata(const char *text, std::vector<KernelMeta> &kernels,
                   std::string &error) {
  kernels.clear();
  if (!text) {
    error = "metadata is null";
    return false;
  }
  Parser parser(kernels, error);
  if (parser.run(text))
    return true;
  kernels.clear();
  return false;
}

/// "BLOCK=1024 NUM_WARPS=8": a specialization's parameters, for messages.
static std::string describeParams(const KernelMeta &k) {
  std::string out;
  for (const auto &[name, value] : k.params)
    out += (out.empty() ? "" : " ") + name + "=" + value;
  return out;
}

static std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

const KernelMeta *findSpecialization(const std::vector<KernelMeta> &kernels,
                                     const std::string &base,
                                     const std::string &settings,
                                     std::string &error) {
  std::vector<const KernelMeta *> matches;
  for (const KernelMeta &k : kernels)
    if (k.base == base)
      matches.push_back(&k);
  if (matches.empty()) {
    error = "no specializations of kernel '" + base + "' in the module";
    return nullptr;
  }
  const std::vector<const KernelMeta *> specializations = matches;
  std::string all;
  for (const KernelMeta *k : specializations)
    all += "\n  " + describeParams(*k);
  size_t start = 0;
  while (start <= settings.size()) {
    size_t comma = settings.find(',', start);
    if (comma == std::string::npos)
      comma = settings.size();
    std::string setting = trim(settings.substr(start, comma - start));
    start = comma + 1;
    if (setting.empty())
      continue;
    size_t eq = setting.find('=');
    std::string name = trim(setting.substr(0, eq));
    std::string value =
        eq == std::string::npos ? "" : trim(setting.substr(eq + 1));
    if (eq == std::string::npos || name.empty() || value.empty()) {
      error = "setting '" + setting + "' is not NAME=VALUE";
      return nullptr;
    }
    bool known = false;
    for (const KernelMeta *k : specializations)
      for (const auto &param : k->params)
        known |= param.first == name;
    std::vector<const KernelMeta *> kept;
    for (const KernelMeta *k : matches)
      for (const auto &[pname, pvalue] : k->params)
        if (pname == name && pvalue == value)
          kept.push_back(k);
    if (!known) {
      error = "'" + name + "' is not a parameter of kernel '" + base +
              "'; its specializations:" + all;
      return nullptr;
    }
    matches = std::move(kept);
  }
  if (matches.size() == 1)
    return matches.front();
  if (matches.empty())
    error = "no specialization of kernel '" + base + "' has " + settings +
            "; compiled:" + all;
  else
    error = "'" + settings + "' matches " + std::to_string(matches.size()) +
            " specializations of kernel '" + base +
            "'; set more parameters. Compiled:" + all;
  return nullptr;
}

const char *argKindName(tile_arg_kind kind) {
  switch (kind) {
  case TILE_ARG_PTR:
    return "ptr";
  case TILE_ARG_I32:
    return "i32";
  case TILE_ARG_I64:
    return "i64";
  case TILE_ARG_F32:
    return "f32";
  case TILE_ARG_F64:
    return "f64";
  case TILE_ARG_I1:
    return "i1";
  }
  return "invalid";
}

tile_status validateLaunch(const KernelMeta &kernel, const uint32_t *grid,
                           const tile_arg *args, int numArgs,
                           std::string &error) {
  auto fail = [&](const std::string &message) {
    error = kernelPrefix(kernel) + message;
    return TILE_ERROR_INVALID_ARGUMENT;
  };

  if (!grid)
    return fail("grid is null");
  for (int d = 0; d < 3; ++d) {
    uint32_t limit = d == 0 ? kMaxGridX : kMaxGridYZ;
    if (grid[d] == 0 || grid[d] > limit)
      return fail("grid[" + std::to_string(d) +
                  "] = " + std::to_string(grid[d]) + " is outside [1, " +
                  std::to_string(limit) + "]");
  }

  if (numArgs < 0)
    return fail("num_args is negative (" + std::to_string(numArgs) + ")");
  if (numArgs > 0 && !args)
    return fail("args is null but num_args is " + std::to_string(numArgs));
  if (size_t(numArgs) != kernel.args.size())
    return fail("the kernel takes " + std::to_string(kernel.args.size()) +
                " arguments, got " + std::to_string(numArgs));

  if (grid[0] % uint32_t(kernel.clusterSize) != 0)
    return fail("grid[0] = " + std::to_string(grid[0]) +
                " is not a multiple of the kernel's cluster size (" +
                std::to_string(kernel.clusterSize) + ")");

  for (int i = 0; i < numArgs; ++i) {
    const ArgMeta &meta = kernel.args[size_t(i)];
    const tile_arg &arg = args[i];
    std::string which = "argument #" + std::to_string(i);
    if (arg.kind != meta.kind) {
      const char *got = argKindName(arg.kind);
      if (std::strcmp(got, "invalid") == 0)
        return fail(which + " has an invalid kind (" +
                    std::to_string(int(arg.kind)) + "); the kernel expects " +
                    argKindName(meta.kind));
      return fail(which + " is " + got + " but the kernel expects " +
                  argKindName(meta.kind));
    }
    switch (meta.kind) {
    case TILE_ARG_PTR:
      if (arg.value.ptr == 0)
        return fail(which + " (ptr) is null");
      if (meta.constraint > 1 && arg.value.ptr % uint64_t(meta.constraint) != 0)
        return fail(which + " (ptr " + meta.dtype + ") " + hex(arg.value.ptr) +
                    " is not aligned to " + std::to_string(meta.constraint) +
                    " bytes");
      break;
    case TILE_ARG_I32:
      if (meta.constraint > 1 && arg.value.i32 % meta.constraint != 0)
        return fail(which + " (i32) = " + std::to_string(arg.value.i32) +
                    " is not divisible by " + std::to_string(meta.constraint));
      break;
    case TILE_ARG_I64:
      if (meta.constraint > 1 && arg.value.i64 % meta.constraint != 0)
        return fail(which + " (i64) = " + std::to_string(arg.value.i64) +
                    " is not divisible by " + std::to_string(meta.constraint));
      break;
    case TILE_ARG_F32:
    case TILE_ARG_F64:
    case TILE_ARG_I1:
      break;
    }
  }
  return TILE_SUCCESS;
}

tile_status resolveTensorMaps(const KernelMeta &kernel, const uint32_t *grid,
                              const tile_arg *args, TensorMapArgs *out,
                              std::string &error) {
  for (size_t m = 0; m < kernel.tensorMaps.size(); ++m) {
    const TensorMapMeta &map = kernel.tensorMaps[m];
    auto fail = [&](const std::string &message) {
      error = kernelPrefix(kernel) + "the array at argument #" +
              std::to_string(map.baseArg) + " is copied with TMA, which " +
              message;
      return TILE_ERROR_INVALID_ARGUMENT;
    };
    auto value = [&](const HostInt &v) -> int64_t {
      if (v.grid >= 0)
        return int64_t(grid[v.grid]);
      if (v.arg < 0)
        return v.value;
      const tile_arg &arg = args[v.arg];
      return arg.kind == TILE_ARG_I32 ? int64_t(arg.value.i32) : arg.value.i64;
    };
    auto name = [&](const HostInt &v) {
      return v.grid >= 0 ? "the grid's size along " + std::to_string(v.grid)
             : v.arg < 0 ? std::string("the constant")
                         : "argument #" + std::to_string(v.arg);
    };
    const int64_t bytes = map.dtype == "f32" ? 4 : 2;
    uint64_t address = args[map.baseArg].value.ptr;
    if (address % 16 != 0)
      return fail("needs it 16-byte aligned; it is at " + hex(address));
    if (value(map.strides[1]) != 1)
      return fail("needs it contiguous along its last dimension; the stride "
                  "(" +
                  name(map.strides[1]) + ") is " +
                  std::to_string(value(map.strides[1])));
    int64_t rowStride = value(map.strides[0]);
    if (rowStride <= 0 || rowStride > (int64_t(1) << 39) / bytes ||
        (rowStride * bytes) % 16 != 0)
      return fail("needs a positive row stride of a multiple of 16 bytes "
                  "below 2^40; the row stride (" +
                  name(map.strides[0]) + ") is " + std::to_string(rowStride) +
                  " elements of " + std::to_string(bytes) + " bytes");
    TensorMapArgs &t = out[m];
    for (int d = 0; d < 2; ++d) {
      int64_t dim = value(map.shape[d]);
      if (dim < 1 || dim > (int64_t(1) << 32))
        return fail("needs dimensions from 1 to 2^32; dimension " +
                    std::to_string(d) + " (" + name(map.shape[d]) + ") is " +
                    std::to_string(dim));
      t.dims[1 - d] = uint64_t(dim);
    }
    t.address = address;
    t.rowStrideBytes = uint64_t(rowStride * bytes);
    t.box[0] = uint32_t(map.boxCols);
    t.box[1] = uint32_t(map.boxRows);
    t.swizzle = map.swizzle;
    t.bf16 = map.dtype == "bf16";
    t.f32 = map.dtype == "f32";
    t.groups = uint32_t(map.groups);
    t.outerDims = map.outerDims;
    for (int d = 0; d < map.outerDims; ++d) {
      int64_t count = value(map.outerCounts[d]);
      int64_t stride = value(map.outerStrides[d]);
      if (count < 1 || count > (int64_t(1) << 32))
        return fail("needs a batch count from 1 to 2^32; the count (" +
                    name(map.outerCounts[d]) + ") is " + std::to_string(count));
      if (count > 1 && (stride <= 0 || stride > (int64_t(1) << 39) / bytes ||
                        (stride * bytes) % 16 != 0))
        return fail("needs a positive batch stride of a multiple of 16 bytes "
                    "below 2^40; the batch stride (" +
                    name(map.outerStrides[d]) + ") is " +
                    std::to_string(stride) + " elements of " +
                    std::to_string(bytes) + " bytes");
      t.outerCounts[d] = uint64_t(count);
      // A dimension of one: any stride the encoding accepts.
      uint64_t strideBytes =
          count > 1 ? uint64_t(stride * bytes) : t.rowStrideBytes * t.dims[1];
      if (strideBytes % 16 || strideBytes >= (uint64_t(1) << 40))
        strideBytes = 16;
      t.outerStrideBytes[d] = strideBytes;
    }
  }
  return TILE_SUCCESS;
}

} // namespace internal
} // namespace tile
