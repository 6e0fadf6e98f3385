//===- TuningCache.cpp - Tuned parameters of user kernels -----------------===//

#include "tile/Support/TuningCache.h"
#include "tile/Support/FileIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::tile;
namespace json = llvm::json;

static constexpr llvm::StringLiteral kFormat = "tile-tuning-cache";

std::string mlir::tile::hashKernelSource(llvm::StringRef text) {
  std::string hex;
  llvm::raw_string_ostream os(hex);
  os << "xxh3:" << llvm::format_hex_no_prefix(llvm::xxh3_64bits(text), 16);
  return hex;
}

std::string
mlir::tile::describeSettings(llvm::ArrayRef<ParameterSetting> settings) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      settings, os,
      [&](const ParameterSetting &s) { os << s.name << "=" << s.value; }, ", ");
  return text;
}

static json::Object toJSON(const TuningEntry &entry) {
  json::Object params;
  for (const ParameterSetting &p : entry.parameters) {
    int64_t v;
    if (p.value == "true" || p.value == "false")
      params[p.name] = p.value == "true";
    else if (!llvm::StringRef(p.value).getAsInteger(10, v))
      params[p.name] = v;
    else
      params[p.name] = p.value;
  }
  return json::Object{{"device", entry.key.device},
                      {"source", entry.key.source},
                      {"kernel", entry.key.kernel},
                      {"problem", entry.key.problem},
                      {"parameters", std::move(params)},
                      {"ms", entry.ms},
                      {"candidates", (int64_t)entry.candidates},
                      {"date", entry.date}};
}

static bool fromJSON(const json::Value &value, TuningEntry &entry,
                     std::string &error) {
  const json::Object *obj = value.getAsObject();
  if (!obj) {
    error = "an entry is not an object";
    return false;
  }
  auto text = [&](llvm::StringRef field, std::string &out) {
    std::optional<llvm::StringRef> s = obj->getString(field);
    if (!s) {
      error = ("an entry has no string '" + field + "'").str();
      return false;
    }
    out = s->str();
    return true;
  };
  if (!text("device", entry.key.device) || !text("source", entry.key.source) ||
      !text("kernel", entry.key.kernel) || !text("problem", entry.key.problem))
    return false;
  const json::Object *params = obj->getObject("parameters");
  if (!params) {
    error = "an entry has no object 'parameters'";
    return false;
  }
  for (const auto &[name, v] : *params) {
    std::string valueText;
    if (std::optional<bool> b = v.getAsBoolean())
      valueText = *b ? "true" : "false";
    else if (std::optional<int64_t> i = v.getAsInteger())
      valueText = std::to_string(*i);
    else {
      error = "parameter '" + name.str() + "' is not an integer or boolean";
      return false;
    }
    entry.parameters.push_back({name.str(), valueText});
  }
  // The object's keys are unordered: settings in name order.
  llvm::sort(entry.parameters,
             [](const auto &a, const auto &b) { return a.name < b.name; });
  entry.ms = obj->getNumber("ms").value_or(0);
  entry.candidates = (unsigned)obj->getInteger("candidates").value_or(0);
  if (std::optional<llvm::StringRef> d = obj->getString("date"))
    entry.date = d->str();
  return true;
}

bool mlir::tile::readTuningCache(llvm::StringRef path,
                                 std::vector<TuningEntry> &entries,
                                 std::string &error) {
  entries.clear();
  if (!llvm::sys::fs::exists(path))
    return true;
  std::unique_ptr<llvm::MemoryBuffer> file = readSource(path, error);
  if (!file)
    return false;
  llvm::Expected<json::Value> parsed = json::parse(file->getBuffer());
  if (!parsed) {
    error = (path + ": not JSON: " + llvm::toString(parsed.takeError())).str();
    return false;
  }
  const json::Object *root = parsed->getAsObject();
  const json::Array *list = root ? root->getArray("entries") : nullptr;
  if (!root || root->getString("format") != kFormat || !list) {
    error = (path + ": not a tuning cache (expected {\"format\": \"" + kFormat +
             "\", \"entries\": [...]})")
                .str();
    return false;
  }
  for (const json::Value &value : *list) {
    TuningEntry entry;
    if (!fromJSON(value, entry, error)) {
      error = (path + ": " + error).str();
      return false;
    }
    entries.push_back(std::move(entry));
  }
  return true;
}

bool mlir::tile::updateTuningCache(llvm::StringRef path,
                                   const TuningEntry &entry,
                                   std::string &error) {
  std::vector<TuningEntry> entries;
  if (!readTuningCache(path, entries, error))
    return false;
  json::Array list;
  bool replaced = false;
  for (const TuningEntry &old : entries) {
    if (old.key == entry.key) {
      list.push_back(toJSON(entry));
      replaced = true;
    } else {
      list.push_back(toJSON(old));
    }
  }
  if (!replaced)
    list.push_back(toJSON(entry));
  json::Object root{
      {"format", kFormat}, {"version", 1}, {"entries", std::move(list)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", json::Value(std::move(root))) << "\n";
  return writeOutput(path, text, error);
}

const TuningEntry *mlir::tile::findTuning(llvm::ArrayRef<TuningEntry> entries,
                                          const TuningKey &key) {
  for (const TuningEntry &entry : entries)
    if (entry.key == key)
      return &entry;
  return nullptr;
}
