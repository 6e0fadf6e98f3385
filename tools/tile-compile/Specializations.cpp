//===- Specializations.cpp - Several specializations in one module --------===//

#include "Specializations.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Support/FileIO.h"
#include "tile/Support/KernelParameters.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <set>

using namespace mlir;
using namespace mlir::tile;

namespace {
struct Sweep {
  std::string name;
  std::vector<std::string> values;
};
} // namespace

/// "NAME=V1,V2,..." lists; std::nullopt and `error` on a malformed one or
/// a name given twice.
static std::optional<std::vector<Sweep>>
parseSweeps(llvm::ArrayRef<std::string> texts,
            llvm::ArrayRef<ParameterSetting> fixed, std::string &error) {
  std::vector<Sweep> sweeps;
  std::set<std::string> names;
  for (const ParameterSetting &s : fixed)
    names.insert(s.name);
  for (llvm::StringRef text : texts) {
    auto [name, list] = text.split('=');
    name = name.trim();
    Sweep sweep{name.str(), {}};
    llvm::SmallVector<llvm::StringRef> values;
    list.split(values, ',');
    for (llvm::StringRef v : values)
      if (!v.trim().empty())
        sweep.values.push_back(v.trim().str());
    if (name.empty() || !text.contains('=') || sweep.values.empty()) {
      error = "--specialize '" + text.str() +
              "' is not NAME=VALUE1,VALUE2,... (a parameter and its values)";
      return std::nullopt;
    }
    if (!names.insert(sweep.name).second) {
      error = "parameter '" + sweep.name +
              "' is given twice (--param and --specialize, or two "
              "--specialize)";
      return std::nullopt;
    }
    sweeps.push_back(std::move(sweep));
  }
  return sweeps;
}

/// The part of a symbol naming one value: letters, digits and '_'
/// (a minus sign becomes 'm').
static std::string symbolPart(llvm::StringRef value) {
  std::string out;
  for (char c : value)
    out += llvm::isAlnum(c) ? c : c == '-' ? 'm' : '_';
  return out;
}

OwningOpRef<ModuleOp>
mlir::tile::buildSpecializations(llvm::StringRef path,
                                 llvm::ArrayRef<std::string> fixedTexts,
                                 llvm::ArrayRef<std::string> sweepTexts,
                                 MLIRContext *context, std::string &error) {
  std::optional<std::vector<ParameterSetting>> fixed =
      parseParameterSettings(fixedTexts, error);
  if (!fixed)
    return {};
  std::optional<std::vector<Sweep>> sweeps =
      parseSweeps(sweepTexts, *fixed, error);
  if (!sweeps)
    return {};
  size_t count = 1;
  for (const Sweep &s : *sweeps) {
    count *= s.values.size();
    if (count > kMaxSpecializations) {
      error = "--specialize names more than " +
              std::to_string(kMaxSpecializations) +
              " combinations; compile them in several images";
      return {};
    }
  }
  std::unique_ptr<llvm::MemoryBuffer> source = readSource(path, error);
  if (!source)
    return {};

  OwningOpRef<ModuleOp> merged =
      ModuleOp::create(FileLineColLoc::get(context, path, 1, 1));
  std::set<std::string> symbols;
  for (size_t index = 0; index < count; ++index) {
    // The index-th combination, the last sweep varying fastest.
    std::vector<ParameterSetting> settings = *fixed;
    std::string suffix;
    size_t rest = index;
    std::vector<ParameterSetting> chosen(sweeps->size());
    for (size_t k = sweeps->size(); k-- > 0;) {
      const Sweep &s = (*sweeps)[k];
      chosen[k] = {s.name, s.values[rest % s.values.size()]};
      rest /= s.values.size();
    }
    for (const ParameterSetting &c : chosen) {
      settings.push_back(c);
      suffix += "__" + c.name + "_" + symbolPart(c.value);
    }
    std::optional<SpecializedSource> specialized =
        specializeSource(*source, settings, error);
    if (!specialized)
      return {};

    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(specialized->buffer), llvm::SMLoc());
    SourceMgrDiagnosticHandler handler(sourceMgr, context);
    std::unique_ptr<ScopedDiagnosticHandler> notes =
        noteParametersOnErrors(context, specialized->parameters);
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(sourceMgr, context);
    if (!module)
      return {};

    Builder b(context);
    SmallVector<NamedAttribute> values;
    for (const KernelParameter &p : specialized->parameters)
      values.push_back(b.getNamedAttr(
          p.name, p.isBool ? (Attribute)b.getBoolAttr(p.value != 0)
                           : (Attribute)b.getI64IntegerAttr(p.value)));
    DictionaryAttr parameters = b.getDictionaryAttr(values);
    SymbolTable table(*module);
    for (auto func :
         llvm::make_early_inc_range(module->getOps<func::FuncOp>())) {
      std::string base = func.getSymName().str();
      std::string renamed = base + suffix;
      if (!symbols.insert(renamed).second ||
          failed(table.rename(func, b.getStringAttr(renamed)))) {
        error =
            "the specializations' function names collide at '" + renamed + "'";
        return {};
      }
      if (func->hasAttr(TileDialect::getKernelAttrName()))
        func->setAttr(TileDialect::getSpecializationAttrName(),
                      b.getDictionaryAttr(
                          {b.getNamedAttr("kernel", b.getStringAttr(base)),
                           b.getNamedAttr("parameters", parameters)}));
    }
    for (Operation &op : llvm::make_early_inc_range(*module->getBody()))
      op.moveBefore(merged->getBody(), merged->getBody()->end());
  }
  return merged;
}
