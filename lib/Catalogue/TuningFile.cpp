//===- TuningFile.cpp - Tuning tables as JSON -----------------------------===//

#include "tile/Catalogue/TuningFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace tile {
namespace catalogue {

namespace {
json::Value fieldToJSON(const Field &f, int64_t v) {
  switch (f.kind) {
  case FieldKind::Enum:
    return v >= 0 && (size_t)v < f.enumerators.size() ? f.enumerators[v] : "?";
  case FieldKind::Bool:
    return v != 0;
  case FieldKind::Int:
    break;
  }
  return v;
}

/// A field's value; 32-bit for kernel parameters.
bool fieldFromJSON(const Field &f, const json::Value &v, int64_t &out,
                   bool int32, json::Path p) {
  switch (f.kind) {
  case FieldKind::Enum: {
    std::optional<StringRef> s = v.getAsString();
    if (!s) {
      p.report("expected a string");
      return false;
    }
    for (auto [i, name] : llvm::enumerate(f.enumerators))
      if (*s == name) {
        out = (int64_t)i;
        return true;
      }
    p.report("unknown name");
    return false;
  }
  case FieldKind::Bool: {
    std::optional<bool> b = v.getAsBoolean();
    if (!b) {
      p.report("expected true or false");
      return false;
    }
    out = *b;
    return true;
  }
  case FieldKind::Int:
    break;
  }
  std::optional<int64_t> i = v.getAsInteger();
  if (!i || (int32 && (*i < INT32_MIN || *i > INT32_MAX))) {
    if (int32)
      p.report("expected a 32-bit integer");
    else
      p.report("expected an integer");
    return false;
  }
  out = *i;
  return true;
}

json::Array rankedToJSON(const std::vector<RankedKernel> &ranked) {
  json::Array a;
  for (const RankedKernel &r : ranked)
    a.push_back(json::Object{{"ms", r.ms}, {"kernel", toJSON(r.kernel)}});
  return a;
}

bool rankedFromJSON(const json::Value &v, std::vector<RankedKernel> &out,
                    json::Path p) {
  const json::Array *a = v.getAsArray();
  if (!a) {
    p.report("expected an array");
    return false;
  }
  for (auto [i, e] : llvm::enumerate(*a)) {
    json::ObjectMapper o(e, p.index(i));
    RankedKernel r;
    if (!o || !o.map("ms", r.ms) || !o.map("kernel", r.kernel))
      return false;
    out.push_back(r);
  }
  return true;
}
} // namespace

json::Value toJSON(const KernelDesc &k) {
  json::Object o;
  o["op"] = k.op;
  const OpSpec *op = findOp(k);
  if (!op)
    return o;
  for (auto [i, f] : llvm::enumerate(op->getParams()))
    if (f.kind == FieldKind::Enum || k.params[i])
      o[f.name] = fieldToJSON(f, k.params[i]);
  return o;
}

bool fromJSON(const json::Value &v, KernelDesc &k, json::Path p) {
  const json::Object *o = v.getAsObject();
  if (!o) {
    p.report("expected a kernel object");
    return false;
  }
  std::optional<StringRef> name = o->getString("op");
  const OpSpec *op = name ? findOp(name->str()) : nullptr;
  if (!op) {
    p.field("op").report("expected the name of an operation");
    return false;
  }
  k = op->makeKernel();
  for (const auto &[key, value] : *o) {
    if (key == "op")
      continue;
    int i = op->findParam(key.str());
    if (i < 0) {
      p.field(key).report("not a parameter of the operation");
      return false;
    }
    int64_t out = 0;
    if (!fieldFromJSON(op->getParams()[i], value, out, true, p.field(key)))
      return false;
    k.params[i] = (int32_t)out;
  }
  for (auto [i, f] : llvm::enumerate(op->getParams()))
    if (f.kind == FieldKind::Enum && !o->get(f.name)) {
      p.field(f.name).report("missing");
      return false;
    }
  return true; // (readTuningFile checks that the kernel is valid)
}

json::Object problemToJSON(const OpSpec &op, const Problem &p) {
  json::Object o;
  for (auto [i, f] : llvm::enumerate(op.getProblemFields()))
    o[f.name] = fieldToJSON(f, p.values[i]);
  return o;
}

bool problemFromJSON(const OpSpec &op, const json::Object &o, Problem &p,
                     json::Path path) {
  p = Problem();
  for (auto [i, f] : llvm::enumerate(op.getProblemFields())) {
    const json::Value *v = o.get(f.name);
    if (!v) {
      path.field(f.name).report("missing");
      return false;
    }
    if (!fieldFromJSON(f, *v, p.values[i], false, path.field(f.name)))
      return false;
    // Integer problem fields are sizes and counts.
    if (f.kind == FieldKind::Int && p.values[i] < 1) {
      path.field(f.name).report("expected a positive integer");
      return false;
    }
  }
  return true;
}

json::Value toJSON(const TuningFile &f) {
  json::Object o{
      {"device", json::Object{{"name", f.deviceName},
                              {"compute_capability",
                               formatv("{0}.{1}", f.ccMajor, f.ccMinor).str()},
                              {"sms", f.sms}}},
      {"date", f.date},
      {"commit", f.commit}};
  for (const OpSpec *op : getOps()) {
    json::Array entries;
    for (const TuningEntry &e : f.entries)
      if (e.op == op) {
        json::Object entry = problemToJSON(*op, e.problem);
        entry["ranked"] = rankedToJSON(e.ranked);
        entries.push_back(std::move(entry));
      }
    if (!entries.empty())
      o[op->getName()] = std::move(entries);
  }
  return o;
}

bool fromJSON(const json::Value &v, TuningFile &f, json::Path p) {
  json::ObjectMapper o(v, p);
  if (!o)
    return false;
  const json::Object &top = *v.getAsObject();
  const json::Object *device = top.getObject("device");
  if (!device) {
    p.field("device").report("expected an object");
    return false;
  }
  std::optional<StringRef> name = device->getString("name");
  std::optional<StringRef> cc = device->getString("compute_capability");
  std::optional<int64_t> sms = device->getInteger("sms");
  if (!name || !cc || !sms) {
    p.field("device").report("needs name, compute_capability and sms");
    return false;
  }
  f.deviceName = name->str();
  f.sms = (int)*sms;
  auto [major, minor] = cc->split('.');
  if (major.getAsInteger(10, f.ccMajor) || minor.getAsInteger(10, f.ccMinor)) {
    p.field("device").report("compute_capability must be \"major.minor\"");
    return false;
  }
  o.mapOptional("date", f.date);
  o.mapOptional("commit", f.commit);
  for (const auto &[key, value] : top)
    if (key != "device" && key != "date" && key != "commit" &&
        !findOp(key.str())) {
      p.field(key).report("not an operation");
      return false;
    }
  // In the catalogue's order of operations (the object's is unordered).
  for (const OpSpec *op : getOps()) {
    const json::Value *value = top.get(op->getName());
    if (!value)
      continue;
    json::Path ap = p.field(op->getName());
    const json::Array *a = value->getAsArray();
    if (!a) {
      ap.report("expected an array");
      return false;
    }
    for (auto [i, e] : llvm::enumerate(*a)) {
      json::Path ep = ap.index(i);
      const json::Object *eo = e.getAsObject();
      if (!eo) {
        ep.report("expected an object");
        return false;
      }
      TuningEntry entry;
      entry.op = op;
      if (!problemFromJSON(*op, *eo, entry.problem, ep))
        return false;
      const json::Value *ranked = eo->get("ranked");
      if (!ranked) {
        ep.field("ranked").report("missing");
        return false;
      }
      if (!rankedFromJSON(*ranked, entry.ranked, ep.field("ranked")))
        return false;
      f.entries.push_back(std::move(entry));
    }
  }
  return true;
}

std::string whyNotRankable(const TuningEntry &e, const KernelDesc &k) {
  std::string why = whyInvalid(k);
  if (!why.empty())
    return "an invalid kernel: " + why;
  if (!e.op->owns(k))
    return std::string("a kernel of another operation (") + k.op + ")";
  for (auto [i, f] : llvm::enumerate(e.op->getProblemFields())) {
    int param = f.key ? e.op->findParam(f.name) : -1;
    if (param >= 0 && k.params[param] != e.problem.values[i])
      return "a kernel of another " + f.name;
  }
  return "";
}

Expected<TuningFile> readTuningFile(StringRef path) {
  auto buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    return createStringError(buffer.getError(), "%s: %s", path.str().c_str(),
                             buffer.getError().message().c_str());
  Expected<json::Value> value = json::parse((*buffer)->getBuffer());
  if (!value)
    return createStringError(inconvertibleErrorCode(), "%s: %s",
                             path.str().c_str(),
                             toString(value.takeError()).c_str());
  TuningFile file;
  json::Path::Root root("tuning file");
  if (!fromJSON(*value, file, root)) {
    std::string message;
    raw_string_ostream os(message);
    os << path << ": " << toString(root.getError());
    return createStringError(inconvertibleErrorCode(), message);
  }
  for (auto [i, e] : llvm::enumerate(file.entries)) {
    if (e.ranked.empty() || e.ranked.size() > (size_t)kMaxRanked)
      return createStringError(inconvertibleErrorCode(),
                               "%s: %s entry (%s) ranks %zu kernels (1 to %d)",
                               path.str().c_str(), e.op->getName(),
                               e.op->describe(e.problem).c_str(),
                               e.ranked.size(), kMaxRanked);
    for (const RankedKernel &r : e.ranked) {
      std::string why = whyNotRankable(e, r.kernel);
      if (!why.empty())
        return createStringError(
            inconvertibleErrorCode(), "%s: %s entry (%s) ranks %s",
            path.str().c_str(), e.op->getName(),
            e.op->describe(e.problem).c_str(), why.c_str());
    }
  }
  return file;
}

} // namespace catalogue
} // namespace tile
