//===- KernelParametersTest.cpp - Specializing kernel sources -------------===//
//
// specializeSource: declarations, settings, every operator of `${...}`
// expressions, and each error with the line and column it names.
//
//===----------------------------------------------------------------------===//

#include "tile/Support/KernelParameters.h"

#include "gtest/gtest.h"

using namespace mlir::tile;

namespace {

/// The specialized text of `source` (or "ERROR: message").
std::string specialize(const std::string &source,
                       const std::vector<std::string> &settings = {}) {
  std::string error;
  std::optional<std::vector<ParameterSetting>> parsed =
      parseParameterSettings(settings, error);
  if (!parsed)
    return "ERROR: " + error;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBufferCopy(source, "k.mlir");
  std::optional<SpecializedSource> result =
      specializeSource(*buffer, *parsed, error);
  if (!result)
    return "ERROR: " + error;
  EXPECT_EQ(result->buffer->getBufferIdentifier(), "k.mlir");
  return result->buffer->getBuffer().str();
}

/// The value of one expression over parameters A = 12, B = 5, T = true,
/// F = false.
std::string eval(const std::string &expr) {
  std::string out = specialize("tile.param A = 12\ntile.param B = 5\n"
                               "tile.param T = true\ntile.param F = false\n"
                               "${" +
                               expr + "}");
  if (llvm::StringRef(out).starts_with("ERROR: "))
    return out;
  return llvm::StringRef(out).rsplit('\n').second.str();
}

TEST(KernelParameters, SourceWithoutParametersIsUnchanged) {
  std::string source = "func.func @f() {\n  return\n}\n";
  EXPECT_EQ(specialize(source), source);
}

TEST(KernelParameters, DefaultsAndSettingsAreSubstituted) {
  std::string source = "tile.param BLOCK = 128 // columns\n"
                       "tile.param EVEN = false\n"
                       "%r = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>\n"
                       "%e = arith.constant ${EVEN}\n";
  EXPECT_EQ(specialize(source), "// tile.param BLOCK = 128 // columns\n"
                                "// tile.param EVEN = false\n"
                                "%r = tile.range 0, 128 : tensor<128xi32>\n"
                                "%e = arith.constant false\n");
  EXPECT_EQ(specialize(source, {"BLOCK=256", "EVEN=true"}),
            "// tile.param BLOCK = 128 // columns\n"
            "// tile.param EVEN = false\n"
            "%r = tile.range 0, 256 : tensor<256xi32>\n"
            "%e = arith.constant true\n");
}

TEST(KernelParameters, UseBeforeDeclarationAndIndentedDeclarations) {
  EXPECT_EQ(specialize("x = ${N}\n  tile.param N = 3"),
            "x = 3\n//   tile.param N = 3");
}

TEST(KernelParameters, CommentsAreLeftAloneAndStringsSubstituted) {
  EXPECT_EQ(specialize("tile.param N = 3\n"
                       "tile.print \"N=${N} \\\"${N}\\\"\" // ${UNKNOWN}\n"),
            "// tile.param N = 3\n"
            "tile.print \"N=3 \\\"3\\\"\" // ${UNKNOWN}\n");
}

TEST(KernelParameters, Operators) {
  EXPECT_EQ(eval("A + B * 2"), "22");
  EXPECT_EQ(eval("(A + B) * 2"), "34");
  EXPECT_EQ(eval("A - B - 1"), "6");
  EXPECT_EQ(eval("A / B"), "2");
  EXPECT_EQ(eval("A % B"), "2");
  EXPECT_EQ(eval("-A + 1"), "-11");
  EXPECT_EQ(eval("1 << 10"), "1024");
  EXPECT_EQ(eval("A >> 2"), "3");
  EXPECT_EQ(eval("A < B"), "false");
  EXPECT_EQ(eval("A >= 12"), "true");
  EXPECT_EQ(eval("A == 12 && B != 5"), "false");
  EXPECT_EQ(eval("A == 12 || F"), "true");
  EXPECT_EQ(eval("!T"), "false");
  EXPECT_EQ(eval("T == F"), "false");
  EXPECT_EQ(eval("T ? A : B"), "12");
  EXPECT_EQ(eval("F ? A : B > 3 ? 7 : 8"), "7");
  EXPECT_EQ(eval("min(A, B)"), "5");
  EXPECT_EQ(eval("max(A, B)"), "12");
  EXPECT_EQ(eval("cdiv(A, B)"), "3");
  EXPECT_EQ(eval("cdiv(10, B)"), "2");
  EXPECT_EQ(eval("log2(1024)"), "10");
  EXPECT_EQ(eval("  A  "), "12");
}

TEST(KernelParameters, ExpressionErrorsNameTheColumn) {
  // The expression starts at column 3 of line 5 ("${" is columns 1-2).
  EXPECT_EQ(eval("A / (B - 5)"), "ERROR: k.mlir:5:3: error: division by zero");
  EXPECT_EQ(eval("A + T"),
            "ERROR: k.mlir:5:3: error: '+' takes integers, not a boolean");
  EXPECT_EQ(eval("A && T"),
            "ERROR: k.mlir:5:3: error: '&&' takes booleans, not an integer");
  EXPECT_EQ(eval("A + NOPE"),
            "ERROR: k.mlir:5:7: error: unknown parameter 'NOPE' (declared: A, "
            "B, F, T)");
  EXPECT_EQ(eval("A +"), "ERROR: k.mlir:5:6: error: expected a value");
  EXPECT_EQ(eval(""), "ERROR: k.mlir:5:3: error: expected an expression");
  EXPECT_EQ(eval("A B"),
            "ERROR: k.mlir:5:5: error: unexpected 'B' in the expression");
  EXPECT_EQ(eval("log2(A)"),
            "ERROR: k.mlir:5:3: error: 'log2' takes a power of two, not 12");
  EXPECT_EQ(eval("pow(A, B)"),
            "ERROR: k.mlir:5:3: error: unknown function 'pow' (there are "
            "min, max, cdiv and log2)");
  EXPECT_EQ(eval("9223372036854775807 + 1"),
            "ERROR: k.mlir:5:3: error: the value overflows 64 bits");
  EXPECT_EQ(eval("99999999999999999999"),
            "ERROR: k.mlir:5:3: error: '99999999999999999999' is not a 64-bit "
            "decimal integer");
  EXPECT_EQ(eval("T ? A : F"),
            "ERROR: k.mlir:5:3: error: the two choices of '?' differ in kind "
            "(integer and boolean)");
  // Deep nesting is an error, not a stack overflow.
  EXPECT_EQ(eval(std::string(100000, '-') + "A"),
            "ERROR: k.mlir:5:66: error: the expression nests deeper than 64 "
            "levels");
  EXPECT_EQ(eval(std::string(200, '(') + "A" + std::string(200, ')')),
            "ERROR: k.mlir:5:35: error: the expression nests deeper than 64 "
            "levels");
  std::string chain;
  for (int i = 0; i < 100; ++i)
    chain += "T ? 1 : ";
  EXPECT_EQ(eval(chain + "2"),
            "ERROR: k.mlir:5:503: error: the expression nests deeper than 64 "
            "levels");
  EXPECT_EQ(specialize("x = ${1 + 2\n}"),
            "ERROR: k.mlir:1:5: error: '${' without a closing '}' on its line");
}

TEST(KernelParameters, DeclarationErrors) {
  EXPECT_EQ(specialize("tile.param"),
            "ERROR: k.mlir:1:11: error: expected a parameter name after "
            "'tile.param'");
  EXPECT_EQ(specialize("tile.param N 4"),
            "ERROR: k.mlir:1:14: error: expected '= VALUE' after the "
            "parameter name (its default: an integer, true or false)");
  EXPECT_EQ(specialize("tile.param N = 4x"),
            "ERROR: k.mlir:1:16: error: the default of 'N' must be an "
            "integer, true or false, not '4x'");
  EXPECT_EQ(specialize("tile.param N = 4 5"),
            "ERROR: k.mlir:1:18: error: unexpected text after the declaration "
            "of 'N'");
  EXPECT_EQ(specialize("tile.param true = 4"),
            "ERROR: k.mlir:1:12: error: 'true' cannot name a parameter");
  EXPECT_EQ(specialize("tile.param N = 4\n\ntile.param N = 5"),
            "ERROR: k.mlir:3:12: error: parameter 'N' is declared twice (first "
            "on line 1)");
  // Not a declaration: the keyword is part of a longer word.
  EXPECT_EQ(specialize("tile.params = 4"), "tile.params = 4");
}

TEST(KernelParameters, SettingErrors) {
  std::string source = "tile.param N = 4\ntile.param B = true\n";
  EXPECT_EQ(specialize(source, {"M=1"}),
            "ERROR: k.mlir: error: unknown parameter 'M' (the kernel declares "
            "N, B)");
  EXPECT_EQ(specialize("x", {"M=1"}),
            "ERROR: k.mlir: error: unknown parameter 'M' (the kernel declares "
            "no parameters)");
  EXPECT_EQ(specialize(source, {"N=true"}),
            "ERROR: k.mlir: error: parameter 'N' takes a 64-bit integer, not "
            "'true'");
  EXPECT_EQ(specialize(source, {"B=1"}),
            "ERROR: k.mlir: error: parameter 'B' takes true or false, not '1'");
  EXPECT_EQ(specialize(source, {"N"}),
            "ERROR: 'N' is not a parameter setting NAME=VALUE");
  EXPECT_EQ(specialize(source, {"=4"}),
            "ERROR: '=4' is not a parameter setting NAME=VALUE");
  EXPECT_EQ(specialize(source, {"N=1", "N=2"}),
            "ERROR: parameter 'N' is set twice");
}

TEST(KernelParameters, DescribeSaysWhichWereSet) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBufferCopy(
          "tile.param N = 4\ntile.param B = true\n", "k.mlir");
  std::optional<SpecializedSource> result =
      specializeSource(*buffer, {{"N", "8"}}, error);
  ASSERT_TRUE(result) << error;
  EXPECT_EQ(describeParameters(result->parameters), "N=8 (set), B=true");
}

TEST(KernelParameters, CommandLineValuesAreSubstituted) {
  std::vector<KernelParameter> params = {{"BM", false, 64, false, 1},
                                         {"BN", false, 128, true, 2}};
  std::string error;
  EXPECT_EQ(
      substituteParameters("${cdiv(200, BM) * cdiv(150, BN)},1", params, error),
      "8,1");
  EXPECT_EQ(substituteParameters("12", params, error), "12");
  EXPECT_FALSE(substituteParameters("${BM / 0}", params, error));
  EXPECT_EQ(error, "'${BM / 0}', column 3: division by zero");
  EXPECT_FALSE(substituteParameters("${BK}", params, error));
  EXPECT_EQ(error, "'${BK}', column 3: unknown parameter 'BK' (declared: BM, "
                   "BN)");
  EXPECT_FALSE(substituteParameters("${BM", params, error));
  EXPECT_EQ(error, "'${BM': '${' without a closing '}'");
}

} // namespace
