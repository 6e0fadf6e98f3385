//===- TestData.h - Data of the operations' test cases ----------*- C++ -*-===//
//
// Helpers for OpSpec::makeTestCase: random patterns of elements and the
// values of elements in them or in sampled outputs.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CATALOGUE_TESTDATA_H
#define TILE_CATALOGUE_TESTDATA_H

#include "tile/Catalogue/Catalogue.h"

#include <vector>

namespace tile {
namespace catalogue {

/// `elements` normal values times `scale`, rounded to `t`, as bytes.
std::vector<char> randomPattern(DType t, size_t elements, double scale,
                                uint64_t seed);
/// The element of type `t` at `bytes`.
double decode(DType t, const char *bytes);
/// The element at `byteOffset` of a tensor filled by repeating `pattern`.
double elementAt(const std::vector<char> &pattern, DType t, size_t byteOffset);
/// The relative error of `got` against `expected` if above `tolerance`
/// ("" if within): max |got - expected| / max(max |expected|, tiny); NaN
/// is always an error.
std::string compareValues(const std::vector<double> &got,
                          const std::vector<double> &expected,
                          double tolerance);

} // namespace catalogue
} // namespace tile

#endif // TILE_CATALOGUE_TESTDATA_H
