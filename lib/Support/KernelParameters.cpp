//===- KernelParameters.cpp - Compile-time parameters of kernels ----------===//

#include "tile/Support/KernelParameters.h"
#include "tile/Support/FileIO.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;
using llvm::StringRef;

namespace {

bool isNameStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isNameChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// The value of an expression: an integer or a boolean.
struct ExprValue {
  bool isBool = false;
  int64_t value = 0;
};

/// Parses and evaluates one `${...}` expression. On an error, `error` holds
/// the message and `errorPos` the offset in the expression.
class ExprEvaluator {
public:
  ExprEvaluator(StringRef text, const llvm::StringMap<KernelParameter> &params)
      : text(text), params(params) {}

  std::optional<ExprValue> evaluate() {
    skipSpace();
    if (pos == text.size())
      return fail("expected an expression");
    std::optional<ExprValue> v = ternary();
    if (!v)
      return std::nullopt;
    skipSpace();
    if (pos != text.size())
      return fail("unexpected '" + text.substr(pos, 1).str() +
                  "' in the expression");
    return v;
  }

  std::string error;
  size_t errorPos = 0;

private:
  std::optional<ExprValue> fail(const llvm::Twine &message) {
    return failAt(pos, message);
  }
  std::optional<ExprValue> failAt(size_t at, const llvm::Twine &message) {
    if (error.empty()) {
      error = message.str();
      errorPos = at;
    }
    return std::nullopt;
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t'))
      ++pos;
  }
  bool consume(StringRef token) {
    skipSpace();
    if (!text.substr(pos).starts_with(token))
      return false;
    pos += token.size();
    return true;
  }
  /// `token` when it is not the start of a longer operator in `longer`.
  bool consumeOnly(StringRef token, StringRef notFollowedBy) {
    skipSpace();
    if (!text.substr(pos).starts_with(token))
      return false;
    size_t next = pos + token.size();
    if (next < text.size() && notFollowedBy.contains(text[next]))
      return false;
    pos = next;
    return true;
  }

  std::optional<int64_t> integer(const ExprValue &v, size_t at, StringRef op) {
    if (v.isBool) {
      failAt(at, "'" + op + "' takes integers, not a boolean");
      return std::nullopt;
    }
    return v.value;
  }
  /// Both operands of a binary integer operator, or std::nullopt (with the
  /// error) when one is a boolean.
  std::optional<std::pair<int64_t, int64_t>> integers(const ExprValue &lhs,
                                                      const ExprValue &rhs,
                                                      size_t at, StringRef op) {
    std::optional<int64_t> a = integer(lhs, at, op);
    std::optional<int64_t> b = a ? integer(rhs, at, op) : std::nullopt;
    if (!b)
      return std::nullopt;
    return std::make_pair(*a, *b);
  }
  std::optional<bool> boolean(const ExprValue &v, size_t at, StringRef op) {
    if (!v.isBool) {
      failAt(at, "'" + op + "' takes booleans, not an integer");
      return std::nullopt;
    }
    return v.value != 0;
  }
  static ExprValue makeInt(int64_t v) { return {false, v}; }
  static ExprValue makeBool(bool b) { return {true, b ? 1 : 0}; }

  std::optional<ExprValue> ternary() {
    DepthGuard guard(*this);
    if (guard.tooDeep())
      return fail("the expression nests deeper than 64 levels");
    size_t start = (skipSpace(), pos);
    std::optional<ExprValue> cond = logicalOr();
    if (!cond)
      return std::nullopt;
    if (!consume("?"))
      return cond;
    std::optional<bool> c = boolean(*cond, start, "?");
    if (!c)
      return std::nullopt;
    std::optional<ExprValue> a = ternary();
    if (!a)
      return std::nullopt;
    if (!consume(":"))
      return fail("expected ':' of 'c ? a : b'");
    std::optional<ExprValue> b = ternary();
    if (!b)
      return std::nullopt;
    if (a->isBool != b->isBool)
      return failAt(start, "the two choices of '?' differ in kind (integer "
                           "and boolean)");
    return *c ? a : b;
  }

  std::optional<ExprValue> logicalOr() { return logical(/*isOr=*/true); }

  /// `||` (over `&&` terms) or `&&` (over equalities), left to right.
  std::optional<ExprValue> logical(bool isOr) {
    StringRef op = isOr ? "||" : "&&";
    auto operand = [&] { return isOr ? logical(false) : equality(); };
    size_t start = (skipSpace(), pos);
    std::optional<ExprValue> lhs = operand();
    while (lhs && consume(op)) {
      std::optional<ExprValue> rhs = operand();
      if (!rhs)
        return std::nullopt;
      std::optional<bool> a = boolean(*lhs, start, op);
      std::optional<bool> b = a ? boolean(*rhs, start, op) : std::nullopt;
      if (!b)
        return std::nullopt;
      lhs = makeBool(isOr ? *a || *b : *a && *b);
    }
    return lhs;
  }

  std::optional<ExprValue> equality() {
    size_t start = (skipSpace(), pos);
    std::optional<ExprValue> lhs = relational();
    while (lhs) {
      bool equal;
      if (consume("=="))
        equal = true;
      else if (consume("!="))
        equal = false;
      else
        break;
      std::optional<ExprValue> rhs = relational();
      if (!rhs)
        return std::nullopt;
      if (lhs->isBool != rhs->isBool)
        return failAt(start, "'==' and '!=' compare two integers or two "
                             "booleans");
      lhs = makeBool((lhs->value == rhs->value) == equal);
    }
    return lhs;
  }

  std::optional<ExprValue> relational() {
    size_t start = (skipSpace(), pos);
    std::optional<ExprValue> lhs = shift();
    while (lhs) {
      StringRef op;
      if (consume("<="))
        op = "<=";
      else if (consume(">="))
        op = ">=";
      else if (consumeOnly("<", "<"))
        op = "<";
      else if (consumeOnly(">", ">"))
        op = ">";
      else
        break;
      std::optional<ExprValue> rhs = shift();
      if (!rhs)
        return std::nullopt;
      std::optional<std::pair<int64_t, int64_t>> ab =
          integers(*lhs, *rhs, start, op);
      if (!ab)
        return std::nullopt;
      auto [a, b] = *ab;
      bool r = op == "<"    ? a < b
               : op == "<=" ? a <= b
               : op == ">"  ? a > b
                            : a >= b;
      lhs = makeBool(r);
    }
    return lhs;
  }

  std::optional<ExprValue> shift() {
    size_t start = (skipSpace(), pos);
    std::optional<ExprValue> lhs = additive();
    while (lhs) {
      bool left;
      if (consume("<<"))
        left = true;
      else if (consume(">>"))
        left = false;
      else
        break;
      std::optional<ExprValue> rhs = additive();
      if (!rhs)
        return std::nullopt;
      StringRef op = left ? "<<" : ">>";
      std::optional<std::pair<int64_t, int64_t>> ab =
          integers(*lhs, *rhs, start, op);
      if (!ab)
        return std::nullopt;
      auto [a, b] = *ab;
      if (a < 0 || b < 0 || b > 62)
        return failAt(start, "'" + op +
                                 "' takes a non-negative value and a shift "
                                 "of 0 to 62");
      if (left) {
        if (a > (INT64_MAX >> b))
          return failAt(start, "the value overflows 64 bits");
        lhs = makeInt(a << b);
      } else {
        lhs = makeInt(a >> b);
      }
    }
    return lhs;
  }

  std::optional<ExprValue> additive() {
    size_t start = (skipSpace(), pos);
    std::optional<ExprValue> lhs = multiplicative();
    while (lhs) {
      bool add;
      if (consume("+"))
        add = true;
      else if (consume("-"))
        add = false;
      else
        break;
      std::optional<ExprValue> rhs = multiplicative();
      if (!rhs)
        return std::nullopt;
      StringRef op = add ? "+" : "-";
      std::optional<std::pair<int64_t, int64_t>> ab =
          integers(*lhs, *rhs, start, op);
      if (!ab)
        return std::nullopt;
      auto [a, b] = *ab;
      int64_t r;
      if (add ? llvm::AddOverflow(a, b, r) : llvm::SubOverflow(a, b, r))
        return failAt(start, "the value overflows 64 bits");
      lhs = makeInt(r);
    }
    return lhs;
  }

  std::optional<ExprValue> multiplicative() {
    size_t start = (skipSpace(), pos);
    std::optional<ExprValue> lhs = unary();
    while (lhs) {
      char op;
      if (consume("*"))
        op = '*';
      else if (consume("/"))
        op = '/';
      else if (consume("%"))
        op = '%';
      else
        break;
      std::optional<ExprValue> rhs = unary();
      if (!rhs)
        return std::nullopt;
      std::string opName(1, op);
      std::optional<std::pair<int64_t, int64_t>> ab =
          integers(*lhs, *rhs, start, opName);
      if (!ab)
        return std::nullopt;
      auto [a, b] = *ab;
      int64_t r;
      if (op == '*') {
        if (llvm::MulOverflow(a, b, r))
          return failAt(start, "the value overflows 64 bits");
      } else {
        if (b == 0)
          return failAt(start, "division by zero");
        if (a == INT64_MIN && b == -1)
          return failAt(start, "the value overflows 64 bits");
        r = op == '/' ? a / b : a % b;
      }
      lhs = makeInt(r);
    }
    return lhs;
  }

  std::optional<ExprValue> unary() {
    DepthGuard guard(*this);
    if (guard.tooDeep())
      return fail("the expression nests deeper than 64 levels");
    size_t start = (skipSpace(), pos);
    if (consume("-")) {
      std::optional<ExprValue> v = unary();
      if (!v)
        return std::nullopt;
      std::optional<int64_t> a = integer(*v, start, "-");
      if (!a)
        return std::nullopt;
      if (*a == INT64_MIN)
        return failAt(start, "the value overflows 64 bits");
      return makeInt(-*a);
    }
    if (consumeOnly("!", "=")) {
      std::optional<ExprValue> v = unary();
      if (!v)
        return std::nullopt;
      std::optional<bool> b = boolean(*v, start, "!");
      if (!b)
        return std::nullopt;
      return makeBool(!*b);
    }
    return primary();
  }

  std::optional<ExprValue> primary() {
    skipSpace();
    size_t start = pos;
    if (pos == text.size())
      return fail("expected a value");
    char c = text[pos];
    if (c == '(') {
      ++pos;
      std::optional<ExprValue> v = ternary();
      if (!v)
        return std::nullopt;
      if (!consume(")"))
        return fail("expected ')'");
      return v;
    }
    if (llvm::isDigit(c)) {
      while (pos < text.size() && isNameChar(text[pos]))
        ++pos;
      int64_t v;
      if (text.slice(start, pos).getAsInteger(10, v))
        return failAt(start, "'" + text.slice(start, pos) +
                                 "' is not a 64-bit decimal integer");
      return makeInt(v);
    }
    if (!isNameStart(c))
      return fail("expected a value, found '" + text.substr(pos, 1) + "'");
    while (pos < text.size() && isNameChar(text[pos]))
      ++pos;
    StringRef name = text.slice(start, pos);
    if (name == "true" || name == "false")
      return makeBool(name == "true");
    skipSpace();
    if (pos < text.size() && text[pos] == '(')
      return call(name, start);
    auto it = params.find(name);
    if (it == params.end())
      return failAt(start, "unknown parameter '" + name + "'" + declaredList());
    return ExprValue{it->second.isBool, it->second.value};
  }

  std::optional<ExprValue> call(StringRef name, size_t start) {
    unsigned arity = name == "log2" ? 1 : 2;
    if (name != "min" && name != "max" && name != "cdiv" && name != "log2")
      return failAt(start, "unknown function '" + name +
                               "' (there are min, max, cdiv and log2)");
    ++pos; // '('
    std::vector<int64_t> args;
    for (unsigned i = 0; i < arity; ++i) {
      if (i && !consume(","))
        return fail("expected ',' between the arguments of '" + name + "'");
      size_t argStart = (skipSpace(), pos);
      std::optional<ExprValue> v = ternary();
      if (!v)
        return std::nullopt;
      std::optional<int64_t> a = integer(*v, argStart, name);
      if (!a)
        return std::nullopt;
      args.push_back(*a);
    }
    if (!consume(")"))
      return fail("'" + name + "' takes " + llvm::Twine(arity) +
                  (arity == 1 ? " argument" : " arguments") + "; expected ')'");
    if (name == "min")
      return makeInt(std::min(args[0], args[1]));
    if (name == "max")
      return makeInt(std::max(args[0], args[1]));
    if (name == "cdiv") {
      if (args[1] <= 0 || args[0] < 0)
        return failAt(start, "'cdiv' takes a non-negative dividend and a "
                             "positive divisor");
      return makeInt(args[0] / args[1] + (args[0] % args[1] != 0));
    }
    if (args[0] <= 0 || !llvm::isPowerOf2_64(args[0]))
      return failAt(start,
                    "'log2' takes a power of two, not " + llvm::Twine(args[0]));
    return makeInt(llvm::Log2_64(args[0]));
  }

  std::string declaredList() const {
    if (params.empty())
      return " (the source declares no parameters)";
    std::vector<std::string> names;
    for (const auto &entry : params)
      names.push_back(entry.first().str());
    llvm::sort(names);
    return " (declared: " + llvm::join(names, ", ") + ")";
  }

  StringRef text;
  /// Nesting of the recursive rules (parentheses, `?:` and unary
  /// operators), bounded so that no expression exhausts the stack.
  struct DepthGuard {
    explicit DepthGuard(ExprEvaluator &e) : e(e) { ++e.depth; }
    ~DepthGuard() { --e.depth; }
    bool tooDeep() const { return e.depth > kMaxDepth; }
    ExprEvaluator &e;
  };
  static constexpr unsigned kMaxDepth = 64;

  size_t pos = 0;
  unsigned depth = 0;
  const llvm::StringMap<KernelParameter> &params;
};

/// A value as it is substituted and shown: decimal, or true/false.
std::string formatValue(bool isBool, int64_t value) {
  if (isBool)
    return value ? "true" : "false";
  return std::to_string(value);
}

std::string located(StringRef file, unsigned line, size_t column,
                    const llvm::Twine &message) {
  return (file + ":" + llvm::Twine(line) + ":" + llvm::Twine(column + 1) +
          ": error: " + message)
      .str();
}

/// Parses a value of a declaration or a setting: an integer, or true/false.
std::optional<ExprValue> parseLiteral(StringRef text) {
  if (text == "true" || text == "false")
    return ExprValue{true, text == "true"};
  int64_t v;
  if (text.empty() || text.getAsInteger(10, v))
    return std::nullopt;
  return ExprValue{false, v};
}

/// The declaration on `line`, if it is one: `tile.param NAME = VALUE`.
/// Returns false when the line is not a declaration; sets `error` when it
/// is a malformed one.
bool parseDeclaration(StringRef line, StringRef file, unsigned lineNo,
                      KernelParameter &param, std::string &error) {
  StringRef body = line.ltrim(" \t");
  size_t indent = line.size() - body.size();
  StringRef keyword = "tile.param";
  if (!body.starts_with(keyword) ||
      (body.size() > keyword.size() && body[keyword.size()] != ' ' &&
       body[keyword.size()] != '\t'))
    return false;
  size_t pos = indent + keyword.size();
  auto skip = [&] {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t'))
      ++pos;
  };
  auto fail = [&](const llvm::Twine &message) {
    error = located(file, lineNo, pos, message);
    return true;
  };
  skip();
  size_t nameStart = pos;
  if (pos == line.size() || !isNameStart(line[pos]))
    return fail("expected a parameter name after 'tile.param'");
  while (pos < line.size() && isNameChar(line[pos]))
    ++pos;
  param.name = line.slice(nameStart, pos).str();
  if (param.name == "true" || param.name == "false") {
    pos = nameStart;
    return fail("'" + param.name + "' cannot name a parameter");
  }
  skip();
  if (pos == line.size() || line[pos] != '=')
    return fail("expected '= VALUE' after the parameter name (its default: "
                "an integer, true or false)");
  ++pos;
  skip();
  size_t valueStart = pos;
  while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t' &&
         !line.substr(pos).starts_with("//"))
    ++pos;
  StringRef valueText = line.slice(valueStart, pos);
  std::optional<ExprValue> value = parseLiteral(valueText);
  if (!value) {
    pos = valueStart;
    return fail("the default of '" + param.name +
                "' must be an integer, true or false, not '" + valueText + "'");
  }
  skip();
  if (pos < line.size() && !line.substr(pos).starts_with("//"))
    return fail("unexpected text after the declaration of '" + param.name +
                "'");
  param.isBool = value->isBool;
  param.value = value->value;
  param.line = lineNo;
  return true;
}

} // namespace

std::optional<std::vector<ParameterSetting>>
mlir::tile::parseParameterSettings(llvm::ArrayRef<std::string> settings,
                                   std::string &error) {
  std::vector<ParameterSetting> result;
  llvm::StringSet<> seen;
  for (const std::string &setting : settings) {
    auto [name, value] = StringRef(setting).split('=');
    name = name.trim();
    value = value.trim();
    if (!StringRef(setting).contains('=') || name.empty() || value.empty() ||
        !isNameStart(name.front()) || !llvm::all_of(name, isNameChar)) {
      error = "'" + setting + "' is not a parameter setting NAME=VALUE";
      return std::nullopt;
    }
    if (!seen.insert(name).second) {
      error = "parameter '" + name.str() + "' is set twice";
      return std::nullopt;
    }
    result.push_back({name.str(), value.str()});
  }
  return result;
}

std::optional<SpecializedSource>
mlir::tile::specializeSource(const llvm::MemoryBuffer &source,
                             llvm::ArrayRef<ParameterSetting> settings,
                             std::string &error) {
  StringRef file = source.getBufferIdentifier();
  StringRef text = source.getBuffer();

  // Declarations first: a use may come before its declaration.
  llvm::StringMap<KernelParameter> params;
  std::vector<std::string> order;
  std::vector<bool> isDeclaration;
  {
    unsigned lineNo = 0;
    for (StringRef rest = text; !rest.empty();) {
      auto [line, tail] = rest.split('\n');
      rest = tail;
      ++lineNo;
      KernelParameter param;
      bool declared = parseDeclaration(line, file, lineNo, param, error);
      isDeclaration.push_back(declared);
      if (!error.empty())
        return std::nullopt;
      if (!declared)
        continue;
      auto [it, inserted] = params.try_emplace(param.name, param);
      if (!inserted) {
        error = located(file, lineNo, line.find(param.name),
                        "parameter '" + param.name +
                            "' is declared twice "
                            "(first on line " +
                            llvm::Twine(it->second.line) + ")");
        return std::nullopt;
      }
      order.push_back(param.name);
    }
  }

  for (const ParameterSetting &setting : settings) {
    auto it = params.find(setting.name);
    if (it == params.end()) {
      std::string declared = llvm::join(order, ", ");
      error = (file + ": error: unknown parameter '" + setting.name + "' " +
               (order.empty() ? "(the kernel declares no parameters)"
                              : "(the kernel declares " + declared + ")"))
                  .str();
      return std::nullopt;
    }
    KernelParameter &param = it->second;
    std::optional<ExprValue> value = parseLiteral(setting.value);
    if (!value || value->isBool != param.isBool) {
      error = (file + ": error: parameter '" + setting.name + "' takes " +
               (param.isBool ? "true or false" : "a 64-bit integer") +
               ", not '" + setting.value + "'")
                  .str();
      return std::nullopt;
    }
    param.value = value->value;
    param.isSet = true;
  }

  SpecializedSource result;
  for (const std::string &name : order)
    result.parameters.push_back(params.lookup(name));
  if (order.empty() && !text.contains("${")) {
    result.buffer = llvm::MemoryBuffer::getMemBufferCopy(text, file);
    return result;
  }

  std::string out;
  out.reserve(text.size());
  unsigned lineNo = 0;
  for (StringRef rest = text; !rest.empty();) {
    auto [line, tail] = rest.split('\n');
    bool hasNewline = rest.size() > line.size();
    rest = tail;
    ++lineNo;
    if (isDeclaration[lineNo - 1]) {
      // Kept as a comment: the lines below keep their numbers.
      out += "// ";
      out += line;
    } else {
      bool inString = false;
      size_t pos = 0;
      while (pos < line.size()) {
        char c = line[pos];
        if (inString && c == '\\' && pos + 1 < line.size()) {
          out += line.substr(pos, 2);
          pos += 2;
          continue;
        }
        if (c == '"') {
          inString = !inString;
        } else if (!inString && line.substr(pos).starts_with("//")) {
          out += line.substr(pos);
          break;
        } else if (line.substr(pos).starts_with("${")) {
          size_t close = line.find('}', pos + 2);
          if (close == StringRef::npos) {
            error = located(file, lineNo, pos,
                            "'${' without a closing '}' on its line");
            return std::nullopt;
          }
          StringRef expr = line.slice(pos + 2, close);
          ExprEvaluator evaluator(expr, params);
          std::optional<ExprValue> value = evaluator.evaluate();
          if (!value) {
            error = located(file, lineNo, pos + 2 + evaluator.errorPos,
                            evaluator.error);
            return std::nullopt;
          }
          out += formatValue(value->isBool, value->value);
          pos = close + 1;
          continue;
        }
        out += c;
        ++pos;
      }
    }
    if (hasNewline)
      out += '\n';
  }
  result.buffer = llvm::MemoryBuffer::getMemBufferCopy(out, file);
  return result;
}

std::optional<std::string>
mlir::tile::substituteParameters(StringRef text,
                                 llvm::ArrayRef<KernelParameter> parameters,
                                 std::string &error) {
  llvm::StringMap<KernelParameter> params;
  for (const KernelParameter &p : parameters)
    params[p.name] = p;
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t open = text.find("${", pos);
    if (open == StringRef::npos) {
      out += text.substr(pos);
      break;
    }
    out += text.slice(pos, open);
    size_t close = text.find('}', open + 2);
    if (close == StringRef::npos) {
      error = ("'" + text + "': '${' without a closing '}'").str();
      return std::nullopt;
    }
    ExprEvaluator evaluator(text.slice(open + 2, close), params);
    std::optional<ExprValue> value = evaluator.evaluate();
    if (!value) {
      error =
          ("'" + text + "', column " +
           llvm::Twine(open + 3 + evaluator.errorPos) + ": " + evaluator.error)
              .str();
      return std::nullopt;
    }
    out += formatValue(value->isBool, value->value);
    pos = close + 1;
  }
  return out;
}

std::string
mlir::tile::describeParameters(llvm::ArrayRef<KernelParameter> parameters) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      parameters, os,
      [&](const KernelParameter &p) {
        os << p.name << "=" << formatValue(p.isBool, p.value);
        if (p.isSet)
          os << " (set)";
      },
      ", ");
  return text;
}

std::unique_ptr<llvm::MemoryBuffer> mlir::tile::readKernelSource(
    StringRef path, llvm::ArrayRef<std::string> settings,
    std::vector<KernelParameter> &parameters, std::string &error) {
  std::optional<std::vector<ParameterSetting>> parsed =
      parseParameterSettings(settings, error);
  if (!parsed) {
    error = "--param: " + error;
    return nullptr;
  }
  std::unique_ptr<llvm::MemoryBuffer> source = readSource(path, error);
  if (!source)
    return nullptr;
  std::optional<SpecializedSource> specialized =
      specializeSource(*source, *parsed, error);
  if (!specialized)
    return nullptr;
  parameters = std::move(specialized->parameters);
  return std::move(specialized->buffer);
}

std::unique_ptr<ScopedDiagnosticHandler>
mlir::tile::noteParametersOnErrors(MLIRContext *context,
                                   llvm::ArrayRef<KernelParameter> parameters) {
  // With every parameter at its default the source says what was compiled.
  if (!llvm::any_of(parameters,
                    [](const KernelParameter &p) { return p.isSet; }))
    return nullptr;
  std::string values = describeParameters(parameters);
  // Returning failure passes the diagnostic, with its note, on to the
  // handler registered before this one (the tool's printer).
  return std::make_unique<ScopedDiagnosticHandler>(
      context, [values](Diagnostic &diag) -> LogicalResult {
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          diag.attachNote() << "with kernel parameters " << values;
        return failure();
      });
}
