//===- FileIO.h - Sources and outputs of the tools --------------*- C++ -*-===//
//
// What tile-opt, tile-compile and tile-run read and write goes through these
// functions, so that hostile input (a device file, an endless stream, a
// source nested deeper than the parser's stack allows) and failing output
// (a full disk) end in an error message and a non-zero exit instead of an
// abort, and a rejected run leaves no output file behind.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_FILEIO_H
#define TILE_SUPPORT_FILEIO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace mlir {
namespace tile {

/// The largest source file the tools read: 64 MiB.
constexpr uint64_t kMaxSourceBytes = uint64_t(64) << 20;
/// The deepest nesting of brackets ((), [], {}, <>) a source may have. The
/// MLIR parser recurses once per level: far deeper nesting would exhaust
/// the stack.
constexpr unsigned kMaxSourceNesting = 256;

/// Reads the source at `path` ("-": standard input) and checks it with
/// checkSourceLimits. Device files, pipes and standard input are read up to
/// kMaxSourceBytes. On failure returns null and sets `error` to a message
/// that starts with the file name (and line and column where there is one).
std::unique_ptr<llvm::MemoryBuffer> readSource(llvm::StringRef path,
                                               std::string &error);

/// Whether the MLIR parser can take `buffer` safely: its brackets nest at
/// most kMaxSourceNesting deep, and it has no dense array of `index`
/// elements (`array<index: ...>`, on which MLIR's parser crashes), outside
/// comments and string literals. Otherwise sets `error` to
/// "NAME:LINE:COL: error: ..." at the offending text.
bool checkSourceLimits(const llvm::MemoryBuffer &buffer, llvm::StringRef name,
                       std::string &error);

/// A copy of `buffer` (same name) in which the `expected-error`,
/// `expected-warning`, `expected-remark` and `expected-note` markers of
/// comments read `expected_...`, so that a diagnostic verifier finds none.
std::unique_ptr<llvm::MemoryBuffer>
withoutDiagnosticExpectations(const llvm::MemoryBuffer &buffer);

/// Reads a whole regular file of exactly `bytes` bytes (an input buffer).
/// Fails with `error` for anything else: a missing file, a directory, a
/// device such as /dev/zero, or a file of another size.
std::unique_ptr<llvm::MemoryBuffer>
readFileOfSize(llvm::StringRef path, uint64_t bytes, std::string &error);

/// Writes `data` to `path` ("-": standard output). I/O errors (a full disk)
/// are returned in `error`; a file that could not be written completely is
/// removed.
bool writeOutput(llvm::StringRef path, llvm::StringRef data,
                 std::string &error);

/// Prints `message` on standard error as "TOOL: error: MESSAGE", or as it is
/// when it is already a located diagnostic ("FILE:LINE:COL: error: ...").
void reportError(llvm::StringRef tool, llvm::StringRef message);

/// Flushes standard output; false (with `error`) when writing it failed.
/// Clears the stream's error so that it does not abort at exit.
bool flushStandardOutput(std::string &error);

/// The exit status of a tool whose run ended with `status`: standard output
/// is flushed, and a write error there is reported and makes the status
/// non-zero (1 when it was 0).
int finishTool(llvm::StringRef tool, int status);

} // namespace tile
} // namespace mlir

#endif // TILE_SUPPORT_FILEIO_H
