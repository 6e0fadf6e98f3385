//===- TuningFile.cpp - Tuning tables as JSON -----------------------------===//

#include "tile/Catalogue/TuningFile.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace tile {
namespace catalogue {

namespace {
/// Reads an enumerator by the name getName gives it.
template <typename E>
bool enumFromJSON(const json::Value &v, E &out, json::Path p,
                  std::initializer_list<E> values) {
  std::optional<StringRef> s = v.getAsString();
  if (!s) {
    p.report("expected a string");
    return false;
  }
  for (E e : values)
    if (*s == getName(e)) {
      out = e;
      return true;
    }
  p.report("unknown name");
  return false;
}

bool fromJSONDType(const json::Value &v, DType &t, json::Path p) {
  return enumFromJSON(v, t, p, {DType::F32, DType::F16, DType::BF16});
}
bool fromJSONPrecision(const json::Value &v, Precision &t, json::Path p) {
  return enumFromJSON(v, t, p,
                      {Precision::IEEE, Precision::TF32, Precision::TF32x3});
}
bool fromJSONAlignment(const json::Value &v, RowAlignment &t, json::Path p) {
  return enumFromJSON(
      v, t, p,
      {RowAlignment::Element, RowAlignment::Rows16, RowAlignment::Whole16});
}

/// An optional integer field (0 when absent).
bool readInt(const json::Object &o, StringRef key, int32_t &out, json::Path p) {
  const json::Value *v = o.get(key);
  out = 0;
  if (!v)
    return true;
  std::optional<int64_t> i = v->getAsInteger();
  if (!i || *i < INT32_MIN || *i > INT32_MAX) {
    p.field(key).report("expected a 32-bit integer");
    return false;
  }
  out = (int32_t)*i;
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
  o["op"] = k.op == Op::Softmax ? "softmax" : "softmax_matmul";
  auto setNonZero = [&](StringRef key, int64_t v) {
    if (v)
      o[key] = v;
  };
  if (k.op == Op::Softmax) {
    const SoftmaxKernel &s = k.softmax;
    o["scheme"] = getName(s.scheme);
    o["dtype"] = getName(s.dtype);
    o["alignment"] = getName(s.alignment);
    o["block"] = s.block;
    o["warps"] = s.warps;
    setNonZero("tail", s.tail);
    setNonZero("rows", s.rows);
    setNonZero("cluster_size", s.clusterSize);
    setNonZero("min_programs_per_sm", s.minProgramsPerSM);
    if (s.rematerialize)
      o["rematerialize"] = true;
    return o;
  }
  const SoftmaxMatmulKernel &m = k.softmaxMatmul;
  o["dtype"] = getName(m.dtype);
  o["precision"] = getName(m.precision);
  o["block_m"] = m.blockM;
  o["block_k"] = m.blockK;
  o["block_n"] = m.blockN;
  o["warps"] = m.warps;
  setNonZero("stages", m.stages);
  setNonZero("min_programs_per_sm", m.minProgramsPerSM);
  o["product"] = getName(m.product);
  if (m.tma)
    o["tma"] = true;
  setNonZero("resident_products", m.residentProducts);
  return o;
}

bool fromJSON(const json::Value &v, KernelDesc &k, json::Path p) {
  const json::Object *o = v.getAsObject();
  if (!o) {
    p.report("expected a kernel object");
    return false;
  }
  std::optional<StringRef> op = o->getString("op");
  k = KernelDesc();
  if (op == "softmax") {
    k.op = Op::Softmax;
    SoftmaxKernel &s = k.softmax;
    const json::Value *scheme = o->get("scheme");
    if (!scheme ||
        !enumFromJSON(*scheme, s.scheme, p.field("scheme"),
                      {SoftmaxScheme::Rows, SoftmaxScheme::PersistentRows,
                       SoftmaxScheme::Online, SoftmaxScheme::Cluster,
                       SoftmaxScheme::ClusterLoop, SoftmaxScheme::Grid}))
      return false;
    const json::Value *dtype = o->get("dtype"), *align = o->get("alignment");
    if (!dtype || !fromJSONDType(*dtype, s.dtype, p.field("dtype")) || !align ||
        !fromJSONAlignment(*align, s.alignment, p.field("alignment")))
      return false;
    if (!readInt(*o, "block", s.block, p) ||
        !readInt(*o, "warps", s.warps, p) || !readInt(*o, "tail", s.tail, p) ||
        !readInt(*o, "rows", s.rows, p) ||
        !readInt(*o, "cluster_size", s.clusterSize, p) ||
        !readInt(*o, "min_programs_per_sm", s.minProgramsPerSM, p))
      return false;
    s.rematerialize = o->getBoolean("rematerialize").value_or(false);
  } else if (op == "softmax_matmul") {
    k.op = Op::SoftmaxMatmul;
    SoftmaxMatmulKernel &m = k.softmaxMatmul;
    const json::Value *dtype = o->get("dtype"),
                      *precision = o->get("precision"),
                      *product = o->get("product");
    if (!dtype || !fromJSONDType(*dtype, m.dtype, p.field("dtype")) ||
        !precision ||
        !fromJSONPrecision(*precision, m.precision, p.field("precision")) ||
        !product ||
        !enumFromJSON(*product, m.product, p.field("product"),
                      {MatmulProduct::Mma, MatmulProduct::Wgmma,
                       MatmulProduct::WgmmaInFlight,
                       MatmulProduct::WgmmaTransposed,
                       MatmulProduct::WgmmaTransposedInFlight}))
      return false;
    if (!readInt(*o, "block_m", m.blockM, p) ||
        !readInt(*o, "block_k", m.blockK, p) ||
        !readInt(*o, "block_n", m.blockN, p) ||
        !readInt(*o, "warps", m.warps, p) ||
        !readInt(*o, "stages", m.stages, p) ||
        !readInt(*o, "min_programs_per_sm", m.minProgramsPerSM, p) ||
        !readInt(*o, "resident_products", m.residentProducts, p))
      return false;
    m.tma = o->getBoolean("tma").value_or(false);
  } else {
    p.field("op").report("expected \"softmax\" or \"softmax_matmul\"");
    return false;
  }
  return true; // (readTuningFile checks that the kernel is valid)
}

json::Value toJSON(const TuningFile &f) {
  json::Array softmax, matmul;
  for (const SoftmaxEntry &e : f.softmax)
    softmax.push_back(json::Object{{"dtype", getName(e.dtype)},
                                   {"alignment", getName(e.alignment)},
                                   {"rows", e.rows},
                                   {"cols", e.cols},
                                   {"ranked", rankedToJSON(e.ranked)}});
  for (const SoftmaxMatmulEntry &e : f.softmaxMatmul)
    matmul.push_back(json::Object{{"dtype", getName(e.dtype)},
                                  {"precision", getName(e.precision)},
                                  {"batch", e.batch},
                                  {"d1", e.d1},
                                  {"d2", e.d2},
                                  {"d3", e.d3},
                                  {"tma_readable", e.tmaReadable},
                                  {"ranked", rankedToJSON(e.ranked)}});
  return json::Object{
      {"device", json::Object{{"name", f.deviceName},
                              {"compute_capability",
                               formatv("{0}.{1}", f.ccMajor, f.ccMinor).str()},
                              {"sms", f.sms}}},
      {"date", f.date},
      {"commit", f.commit},
      {"softmax", std::move(softmax)},
      {"softmax_matmul", std::move(matmul)}};
}

bool fromJSON(const json::Value &v, TuningFile &f, json::Path p) {
  json::ObjectMapper o(v, p);
  if (!o)
    return false;
  const json::Object *device = v.getAsObject()->getObject("device");
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
  if (const json::Array *a = v.getAsObject()->getArray("softmax"))
    for (auto [i, e] : llvm::enumerate(*a)) {
      json::Path ep = p.field("softmax").index(i);
      const json::Object *eo = e.getAsObject();
      SoftmaxEntry entry;
      json::ObjectMapper m(e, ep);
      if (!eo || !m || !eo->get("dtype") ||
          !fromJSONDType(*eo->get("dtype"), entry.dtype, ep.field("dtype")) ||
          !eo->get("alignment") ||
          !fromJSONAlignment(*eo->get("alignment"), entry.alignment,
                             ep.field("alignment")) ||
          !m.map("rows", entry.rows) || !m.map("cols", entry.cols) ||
          !eo->get("ranked") ||
          !rankedFromJSON(*eo->get("ranked"), entry.ranked, ep.field("ranked")))
        return false;
      f.softmax.push_back(std::move(entry));
    }
  if (const json::Array *a = v.getAsObject()->getArray("softmax_matmul"))
    for (auto [i, e] : llvm::enumerate(*a)) {
      json::Path ep = p.field("softmax_matmul").index(i);
      const json::Object *eo = e.getAsObject();
      SoftmaxMatmulEntry entry;
      json::ObjectMapper m(e, ep);
      if (!eo || !m || !eo->get("dtype") ||
          !fromJSONDType(*eo->get("dtype"), entry.dtype, ep.field("dtype")) ||
          !eo->get("precision") ||
          !fromJSONPrecision(*eo->get("precision"), entry.precision,
                             ep.field("precision")) ||
          !m.map("batch", entry.batch) || !m.map("d1", entry.d1) ||
          !m.map("d2", entry.d2) || !m.map("d3", entry.d3) ||
          !m.map("tma_readable", entry.tmaReadable) || !eo->get("ranked") ||
          !rankedFromJSON(*eo->get("ranked"), entry.ranked, ep.field("ranked")))
        return false;
      f.softmaxMatmul.push_back(std::move(entry));
    }
  return true;
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
  auto check = [&](const std::vector<RankedKernel> &ranked, Op op, DType t,
                   const char *what, size_t index) -> Error {
    if (ranked.empty() || ranked.size() > (size_t)kMaxRanked)
      return createStringError(inconvertibleErrorCode(),
                               "%s: %s entry %zu ranks %zu kernels (1 to %d)",
                               path.str().c_str(), what, index, ranked.size(),
                               kMaxRanked);
    for (const RankedKernel &r : ranked) {
      std::string why = whyInvalid(r.kernel);
      if (!why.empty())
        return createStringError(inconvertibleErrorCode(),
                                 "%s: %s entry %zu ranks an invalid kernel: %s",
                                 path.str().c_str(), what, index, why.c_str());
      DType kt = r.kernel.op == Op::Softmax ? r.kernel.softmax.dtype
                                            : r.kernel.softmaxMatmul.dtype;
      if (r.kernel.op != op || kt != t)
        return createStringError(inconvertibleErrorCode(),
                                 "%s: %s entry %zu ranks a kernel of another "
                                 "operation or dtype",
                                 path.str().c_str(), what, index);
    }
    return Error::success();
  };
  for (auto [i, e] : llvm::enumerate(file.softmax))
    if (Error err = check(e.ranked, Op::Softmax, e.dtype, "softmax", i))
      return std::move(err);
  for (auto [i, e] : llvm::enumerate(file.softmaxMatmul))
    if (Error err =
            check(e.ranked, Op::SoftmaxMatmul, e.dtype, "softmax_matmul", i))
      return std::move(err);
  return file;
}

} // namespace catalogue
} // namespace tile
