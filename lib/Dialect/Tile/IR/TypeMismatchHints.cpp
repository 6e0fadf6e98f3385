//===- TypeMismatchHints.cpp - What to write when a value's type is wrong -===//
//
// MLIR's parser reports a value used with another type than its own as
// "use of value '%v' expects different type than prior uses: 'A' vs 'B'".
// In a tile kernel that is almost always a missing shape change: a scalar
// where a tile is needed (tile.splat), a tile of another shape
// (tile.broadcast, tile.expand_dims) or another element type (a
// conversion). A handler registered with the dialect attaches a note
// saying which, with the op to write, and passes the diagnostic on.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>

using namespace mlir;

namespace {

/// A tensor type's text split into its shape and element type (the
/// element type without any encoding).
struct TileText {
  SmallVector<int64_t> shape;
  std::string element;
};

std::optional<TileText> parseTileText(StringRef text) {
  if (!text.consume_front("tensor<") || !text.consume_back(">"))
    return std::nullopt;
  // Drop an encoding: the first comma outside angle brackets.
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '<')
      ++depth;
    else if (text[i] == '>')
      --depth;
    else if (text[i] == ',' && depth == 0) {
      text = text.take_front(i);
      break;
    }
  }
  TileText t;
  while (!text.empty() && llvm::isDigit(text.front())) {
    int64_t dim;
    size_t digits = text.find_first_not_of("0123456789");
    if (digits == StringRef::npos ||
        text.substr(0, digits).getAsInteger(10, dim))
      return std::nullopt;
    t.shape.push_back(dim);
    text = text.drop_front(digits);
    if (!text.consume_front("x"))
      return std::nullopt;
  }
  t.element = text.trim().str();
  return t;
}

std::string shapeText(ArrayRef<int64_t> shape) {
  return "[" +
         llvm::join(llvm::map_range(
                        shape, [](int64_t d) { return std::to_string(d); }),
                    ", ") +
         "]";
}

std::string tileText(ArrayRef<int64_t> shape, StringRef element) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + element.str() + ">";
}

/// Whether `from` broadcasts to `to`: same rank, each dimension equal or 1.
bool broadcastsTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (from.size() != to.size())
    return false;
  for (auto [f, t] : llvm::zip(from, to))
    if (f != t && f != 1)
      return false;
  return true;
}

/// The note for value `name` of type `actual` used where `expected` is
/// needed, or "" when there is nothing more to say.
std::string getHint(StringRef name, StringRef expected, StringRef actual) {
  std::optional<TileText> want = parseTileText(expected);
  std::optional<TileText> have = parseTileText(actual);
  if (want && !have) {
    if (want->element == actual)
      return llvm::formatv("'{0}' is a scalar where a tile is needed: splat "
                           "it first, %t = tile.splat {0} : {1}",
                           name, expected)
          .str();
    return llvm::formatv("'{0}' is a scalar of type {1} where a tile of "
                         "{2} is needed: convert it and splat it "
                         "(tile.splat)",
                         name, actual, want->element)
        .str();
  }
  if (!want && have)
    return llvm::formatv("'{0}' is a tile where a scalar is needed: reduce "
                         "it (tile.reduce) or take one element",
                         name)
        .str();
  if (!want || !have)
    return "";
  if (want->element != have->element)
    return llvm::formatv("'{0}' holds {1} where {2} is needed: convert the "
                         "elements (arith.extf, arith.truncf, arith.sitofp, "
                         "arith.fptosi, ...)",
                         name, have->element, want->element)
        .str();
  if (broadcastsTo(have->shape, want->shape))
    return llvm::formatv("'{0}' has shape {1} where {2} is needed: broadcast "
                         "it first, tile.broadcast {0} : {3} -> {4}",
                         name, shapeText(have->shape), shapeText(want->shape),
                         actual, expected)
        .str();
  // One axis short: where a new axis of 1 makes it broadcastable.
  if (have->shape.size() + 1 == want->shape.size())
    for (size_t axis = 0; axis < want->shape.size(); ++axis) {
      SmallVector<int64_t> expanded(have->shape);
      expanded.insert(expanded.begin() + axis, 1);
      if (!broadcastsTo(expanded, want->shape))
        continue;
      std::string mid = tileText(expanded, have->element);
      std::string hint =
          llvm::formatv("'{0}' has shape {1} where {2} is needed: add the "
                        "axis, tile.expand_dims {0} axis = {3} : {4} -> {5}",
                        name, shapeText(have->shape), shapeText(want->shape),
                        axis, actual, mid)
              .str();
      if (expanded != want->shape)
        hint += llvm::formatv(", then tile.broadcast it to {0}", expected);
      return hint;
    }
  return llvm::formatv("'{0}' has shape {1} where {2} is needed (tile.reshape "
                       "keeps the element count; tile.broadcast repeats "
                       "dimensions of size 1)",
                       name, shapeText(have->shape), shapeText(want->shape))
      .str();
}

} // namespace

void mlir::tile::registerTypeMismatchHints(MLIRContext *context) {
  context->getDiagEngine().registerHandler([](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return failure();
    std::string message = diag.str();
    StringRef text(message);
    if (!text.consume_front("use of value '"))
      return failure();
    auto [name, rest] = text.split("' expects different type than prior "
                                   "uses: '");
    auto [expected, actual] = rest.split("' vs '");
    if (name.empty() || !actual.consume_back("'"))
      return failure();
    std::string hint = getHint(name, expected, actual);
    if (!hint.empty())
      diag.attachNote(diag.getLocation()) << hint;
    // The tool's own handler prints it.
    return failure();
  });
}
