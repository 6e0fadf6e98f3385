//===- FileIO.cpp - Reading sources and writing outputs of the tools ------===//

#include "tile/Support/FileIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;
using llvm::MemoryBuffer;
using llvm::StringRef;
namespace fs = llvm::sys::fs;

/// Reads a stream (standard input, a pipe, a device) up to kMaxSourceBytes.
static std::unique_ptr<MemoryBuffer>
readStream(fs::file_t handle, StringRef name, std::string &error) {
  llvm::SmallString<0> data;
  constexpr size_t kChunk = 1 << 16;
  while (true) {
    if (data.size() > kMaxSourceBytes) {
      error = (name + ": the input is larger than " +
               llvm::Twine(kMaxSourceBytes >> 20) + " MiB")
                  .str();
      return nullptr;
    }
    size_t size = data.size();
    data.resize_for_overwrite(size + kChunk);
    llvm::Expected<size_t> read = fs::readNativeFile(
        handle, llvm::MutableArrayRef<char>(data.data() + size, kChunk));
    if (!read) {
      error = (name + ": " + llvm::toString(read.takeError())).str();
      return nullptr;
    }
    data.truncate(size + *read);
    if (*read == 0)
      break;
  }
  return MemoryBuffer::getMemBufferCopy(data, name);
}

std::unique_ptr<MemoryBuffer> mlir::tile::readSource(StringRef path,
                                                     std::string &error) {
  std::unique_ptr<MemoryBuffer> buffer;
  auto cannotOpen = [&](const llvm::Twine &reason) {
    error = ("cannot open input file '" + path + "': " + reason).str();
    return nullptr;
  };
  if (path == "-") {
    buffer = readStream(fs::getStdinHandle(), "<stdin>", error);
  } else {
    fs::file_status status;
    if (std::error_code ec = fs::status(path, status))
      return cannotOpen(ec.message());
    if (fs::is_directory(status))
      return cannotOpen("Is a directory");
    if (fs::is_regular_file(status)) {
      if (status.getSize() > kMaxSourceBytes)
        return cannotOpen("larger than " + llvm::Twine(kMaxSourceBytes >> 20) +
                          " MiB");
      auto file = MemoryBuffer::getFile(path, /*IsText=*/false,
                                        /*RequiresNullTerminator=*/true);
      if (!file)
        return cannotOpen(file.getError().message());
      buffer = std::move(*file);
    } else {
      llvm::Expected<fs::file_t> handle = fs::openNativeFileForRead(path);
      if (!handle)
        return cannotOpen(llvm::toString(handle.takeError()));
      buffer = readStream(*handle, path, error);
      fs::closeFile(*handle);
    }
  }
  if (!buffer ||
      !checkSourceLimits(*buffer, buffer->getBufferIdentifier(), error))
    return nullptr;
  return buffer;
}

bool mlir::tile::checkSourceLimits(const MemoryBuffer &buffer, StringRef name,
                                   std::string &error) {
  StringRef text = buffer.getBuffer();
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  auto fail = [&](size_t at, const llvm::Twine &message) {
    error = (name + ":" + llvm::Twine(line) + ":" +
             llvm::Twine(at - lineStart + 1) + ": error: " + message)
                .str();
    return false;
  };
  auto isIdentifierChar = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$';
  };
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    switch (c) {
    case '\n':
      ++line;
      lineStart = i + 1;
      break;
    case '/': // a comment runs to the end of the line
      if (i + 1 < e && text[i + 1] == '/')
        while (i + 1 < e && text[i + 1] != '\n')
          ++i;
      break;
    case '"': // a string literal, with backslash escapes
      for (++i; i < e && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      if (i < e && text[i] == '\n')
        --i; // an unterminated string: the parser reports it
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > kMaxSourceNesting)
        return fail(i, "brackets nest more than " +
                           llvm::Twine(kMaxSourceNesting) +
                           " levels deep; Tile reads sources nested at most "
                           "that deep");
      // `array<index: ...>`: MLIR's dense array parser takes `index` for a
      // float type and crashes.
      if (c == '<' && i >= 5 && text.substr(i - 5, 5) == "array" &&
          (i == 5 || !isIdentifierChar(text[i - 6]))) {
        StringRef element = text.substr(i + 1).ltrim();
        if (element.starts_with("index") &&
            (element.size() == 5 || !isIdentifierChar(element[5])))
          return fail(i, "dense arrays of 'index' elements are not "
                         "supported (use i64)");
      }
      break;
    case '>':
      if (i > 0 && text[i - 1] == '-')
        break; // the arrow of a function type
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return true;
}

std::unique_ptr<MemoryBuffer>
mlir::tile::withoutDiagnosticExpectations(const MemoryBuffer &buffer) {
  std::string text = buffer.getBuffer().str();
  for (StringRef kind : {"error", "warning", "remark", "note"}) {
    std::string marker = ("expected-" + kind).str();
    for (size_t at = text.find(marker); at != std::string::npos;
         at = text.find(marker, at + 1)) {
      // Only in a comment: after "//" on the same line.
      size_t lineStart = text.rfind('\n', at);
      lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
      if (StringRef(text).slice(lineStart, at).contains("//"))
        text[at + 8] = '_';
    }
  }
  return MemoryBuffer::getMemBufferCopy(text, buffer.getBufferIdentifier());
}

std::unique_ptr<MemoryBuffer>
mlir::tile::readFileOfSize(StringRef path, uint64_t bytes, std::string &error) {
  fs::file_status status;
  if (std::error_code ec = fs::status(path, status)) {
    error = ("cannot read '" + path + "': " + ec.message()).str();
    return nullptr;
  }
  if (!fs::is_regular_file(status)) {
    error = ("cannot read '" + path + "': not a regular file").str();
    return nullptr;
  }
  if (status.getSize() != bytes) {
    error = ("'" + path + "' holds " + llvm::Twine(status.getSize()) +
             " bytes but " + llvm::Twine(bytes) + " are needed")
                .str();
    return nullptr;
  }
  auto file = MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
  if (!file) {
    error = ("cannot read '" + path + "': " + file.getError().message()).str();
    return nullptr;
  }
  if ((*file)->getBufferSize() != bytes) {
    error = ("'" + path + "' changed while it was read").str();
    return nullptr;
  }
  return std::move(*file);
}

bool mlir::tile::writeOutput(StringRef path, StringRef data,
                             std::string &error) {
  if (path == "-") {
    llvm::outs() << data;
    return flushStandardOutput(error);
  }
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, fs::OF_None);
  if (ec) {
    error = ("cannot open output file '" + path + "': " + ec.message()).str();
    return false;
  }
  out.os() << data;
  out.os().close();
  if (out.os().has_error()) {
    error =
        ("cannot write '" + path + "': " + out.os().error().message()).str();
    // The stream would abort at destruction with its error pending; the
    // incomplete file is removed because it is not kept.
    out.os().clear_error();
    return false;
  }
  out.keep();
  return true;
}

bool mlir::tile::flushStandardOutput(std::string &error) {
  llvm::raw_fd_ostream &os = llvm::outs();
  os.flush();
  if (!os.has_error())
    return true;
  error = "cannot write standard output: " + os.error().message();
  os.clear_error();
  return false;
}

void mlir::tile::reportError(StringRef tool, StringRef message) {
  if (message.contains(": error: "))
    llvm::errs() << message << "\n";
  else
    llvm::errs() << tool << ": error: " << message << "\n";
}

int mlir::tile::finishTool(StringRef tool, int status) {
  std::string error;
  if (flushStandardOutput(error))
    return status;
  reportError(tool, error);
  return status ? status : 1;
}
