//===- Npy.cpp - NumPy .npy files for the runner's inputs and outputs -----===//

#include "softmax/Runner/Npy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <optional>

using namespace softmax::runner;
using llvm::StringRef;

namespace {

constexpr StringRef kMagic("\x93NUMPY", 6);

struct DescrEntry {
  ElementKind element;
  char type;   ///< numpy's kind character: f, i, b, V
  size_t size; ///< bytes per element
};

/// The element type of a descr such as "<f4" (byte order, kind, size).
std::optional<ElementKind> elementOfDescr(StringRef descr, std::string &why) {
  if (descr.size() < 3) {
    why = "is not a simple type such as '<f4'";
    return std::nullopt;
  }
  char order = descr.front();
  if (order == '>') {
    why = "is big-endian; save the array little-endian (arr.astype(arr.dtype.newbyteorder('<')))";
    return std::nullopt;
  }
  if (order != '<' && order != '|' && order != '=') {
    why = "is not a simple type such as '<f4' (structured and object arrays are not supported)";
    return std::nullopt;
  }
  static const DescrEntry entries[] = {
      {ElementKind::F64, 'f', 8},  {ElementKind::F32, 'f', 4}, {ElementKind::F16, 'f', 2},
      {ElementKind::BF16, 'V', 2}, {ElementKind::I1, 'b', 1},  {ElementKind::I8, 'i', 1},
      {ElementKind::I16, 'i', 2},  {ElementKind::I32, 'i', 4}, {ElementKind::I64, 'i', 8},
  };
  unsigned size = 0;
  if (descr.drop_front(2).getAsInteger(10, size)) {
    why = "is not a simple type such as '<f4'";
    return std::nullopt;
  }
  for (const DescrEntry &entry : entries)
    if (entry.type == descr[1] && entry.size == size)
      return entry.element;
  why = "is not one of the supported types (<f8 <f4 <f2 <V2 (bf16) |b1 |i1 <i2 <i4 <i8)";
  return std::nullopt;
}

/// A reader of the header's Python dict literal: only what numpy writes (strings, True/False,
/// tuples of integers) is accepted.
class HeaderParser {
public:
  explicit HeaderParser(StringRef text) : text(text) {}

  void skipSpace() { text = text.ltrim(" \t\r\n"); }
  bool consume(char c) {
    skipSpace();
    if (text.empty() || text.front() != c)
      return false;
    text = text.drop_front();
    return true;
  }
  bool peek(char c) {
    skipSpace();
    return !text.empty() && text.front() == c;
  }
  std::optional<std::string> parseString() {
    skipSpace();
    if (text.empty() || (text.front() != '\'' && text.front() != '"'))
      return std::nullopt;
    char quote = text.front();
    size_t end = text.find(quote, 1);
    if (end == StringRef::npos)
      return std::nullopt;
    std::string value = text.slice(1, end).str();
    text = text.drop_front(end + 1);
    return value;
  }
  std::optional<bool> parseBool() {
    skipSpace();
    if (text.consume_front("True"))
      return true;
    if (text.consume_front("False"))
      return false;
    return std::nullopt;
  }
  /// A tuple of non-negative integers: "()", "(3,)", "(3, 4)" (Python 2's "3L" accepted).
  std::optional<std::vector<int64_t>> parseShape() {
    if (!consume('('))
      return std::nullopt;
    std::vector<int64_t> shape;
    while (!consume(')')) {
      skipSpace();
      size_t digits = text.find_first_not_of("0123456789");
      int64_t dim;
      if (digits == 0 || text.take_front(digits).getAsInteger(10, dim))
        return std::nullopt;
      text = text.drop_front(digits == StringRef::npos ? text.size() : digits);
      text.consume_front("L");
      shape.push_back(dim);
      if (!consume(',') && !peek(')'))
        return std::nullopt;
    }
    return shape;
  }
  /// Skips a value of a key this reader does not use.
  bool skipValue() {
    skipSpace();
    if (peek('\'') || peek('"'))
      return parseString().has_value();
    if (peek('('))
      return parseShape().has_value();
    return parseBool().has_value();
  }
  bool atEnd() {
    skipSpace();
    return text.empty();
  }

private:
  StringRef text;
};

llvm::Error fail(StringRef name, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 name + ": not a valid .npy file: " + message);
}

std::string shapeToString(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (int64_t dim : shape)
    text += std::to_string(dim) + (shape.size() == 1 ? ",)" : ", ");
  if (shape.size() != 1) {
    if (!shape.empty())
      text.resize(text.size() - 2);
    text += ")";
  }
  return text;
}

} // namespace

int64_t NpyArray::getNumElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

const char *softmax::runner::getNpyDescr(ElementKind element) {
  switch (element) {
  case ElementKind::F64:
    return "<f8";
  case ElementKind::F32:
    return "<f4";
  case ElementKind::F16:
    return "<f2";
  case ElementKind::BF16:
    return "<V2";
  case ElementKind::I1:
    return "|b1";
  case ElementKind::I8:
    return "|i1";
  case ElementKind::I16:
    return "<i2";
  case ElementKind::I32:
    return "<i4";
  case ElementKind::I64:
  case ElementKind::Index:
    return "<i8";
  }
  return "?";
}

llvm::Expected<NpyArray> softmax::runner::parseNpy(StringRef bytes, StringRef name) {
  if (!bytes.starts_with(kMagic))
    return fail(name, "it does not start with \\x93NUMPY");
  if (bytes.size() < 10)
    return fail(name, "it ends inside the header");
  unsigned major = static_cast<uint8_t>(bytes[6]);
  unsigned minor = static_cast<uint8_t>(bytes[7]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = static_cast<uint8_t>(bytes[8]) | static_cast<uint8_t>(bytes[9]) << 8;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return fail(name, "it ends inside the header");
    headerLength = 0;
    for (int i = 3; i >= 0; --i)
      headerLength = headerLength << 8 | static_cast<uint8_t>(bytes[8 + i]);
    headerStart = 12;
  } else {
    return fail(name, "format version " + llvm::Twine(major) + "." + llvm::Twine(minor) +
                          " (known: 1.0, 2.0, 3.0)");
  }
  if (bytes.size() - headerStart < headerLength)
    return fail(name, "it ends inside the header (" + llvm::Twine(headerLength) +
                          " bytes announced)");
  StringRef header = bytes.substr(headerStart, headerLength);

  // {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
  HeaderParser parser(header);
  std::optional<std::string> descr;
  std::optional<bool> fortranOrder;
  std::optional<std::vector<int64_t>> shape;
  auto bad = [&](const llvm::Twine &what) {
    return fail(name, "the header " + what + " (header: " + header.trim().str() + ")");
  };
  if (!parser.consume('{'))
    return bad("is not a Python dict");
  while (!parser.consume('}')) {
    std::optional<std::string> key = parser.parseString();
    if (!key || !parser.consume(':'))
      return bad("is not a Python dict of 'descr', 'fortran_order' and 'shape'");
    if (*key == "descr") {
      if (!(descr = parser.parseString()))
        return bad("has a 'descr' that is not a string such as '<f4'");
    } else if (*key == "fortran_order") {
      if (!(fortranOrder = parser.parseBool()))
        return bad("has a 'fortran_order' that is not True or False");
    } else if (*key == "shape") {
      if (!(shape = parser.parseShape()))
        return bad("has a 'shape' that is not a tuple of non-negative integers");
    } else if (!parser.skipValue()) {
      return bad("has a value of '" + *key + "' that cannot be read");
    }
    if (!parser.consume(',') && !parser.peek('}'))
      return bad("is not a Python dict (expected ',' or '}')");
  }
  if (!parser.atEnd())
    return bad("has text after the dict");
  if (!descr || !fortranOrder || !shape)
    return bad("lacks one of 'descr', 'fortran_order' and 'shape'");
  if (*fortranOrder)
    return fail(name, "Fortran order is not supported; save a C-order array "
                      "(np.save(f, np.ascontiguousarray(a)))");
  std::string why;
  std::optional<ElementKind> element = elementOfDescr(*descr, why);
  if (!element)
    return fail(name, "the element type '" + *descr + "' " + why);

  NpyArray array;
  array.element = *element;
  array.shape = *shape;
  // The element count and byte size, overflow-checked: a corrupt header must not allocate.
  uint64_t count = 1;
  const uint64_t limit = std::numeric_limits<int64_t>::max() / 8;
  for (int64_t dim : array.shape) {
    if (dim != 0 && count > limit / static_cast<uint64_t>(dim))
      return fail(name, "its shape " + shapeToString(array.shape) +
                            " has more elements than a 64-bit byte count can address");
    count *= static_cast<uint64_t>(dim);
  }
  uint64_t dataBytes = count * getElementBytes(array.element);
  StringRef data = bytes.drop_front(headerStart + headerLength);
  if (data.size() != dataBytes)
    return fail(name, llvm::Twine("it holds ") + llvm::Twine(data.size()) +
                          " bytes of data, but its shape " + shapeToString(array.shape) +
                          " of '" + *descr + "' needs " + llvm::Twine(dataBytes) +
                          (data.size() < dataBytes ? " (truncated?)" : ""));
  array.data.assign(data.bytes_begin(), data.bytes_end());
  if (array.element == ElementKind::I1)
    for (auto [i, byte] : llvm::enumerate(array.data))
      if (byte > 1)
        return fail(name, "boolean element " + llvm::Twine(i) + " is " +
                              llvm::Twine(unsigned(byte)) + ", not 0 or 1");
  return array;
}

llvm::Expected<NpyArray> softmax::runner::readNpy(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read '" + path + "': " + buffer.getError().message());
  return parseNpy((*buffer)->getBuffer(), path);
}

std::string softmax::runner::serializeNpy(const NpyArray &array) {
  std::string dict = std::string("{'descr': '") + getNpyDescr(array.element) +
                     "', 'fortran_order': False, 'shape': " + shapeToString(array.shape) + ", }";
  // numpy pads the header with spaces and a final '\n' so that the data starts at a multiple of
  // 64 bytes (aligned for memory mapping); 1.0 has a 2-byte header length, 2.0 four.
  size_t preamble = 10;
  size_t total = (preamble + dict.size() + 1 + 63) / 64 * 64;
  if (total - preamble > 65535) {
    preamble = 12;
    total = (preamble + dict.size() + 1 + 63) / 64 * 64;
  }
  size_t headerLength = total - preamble;
  std::string out(kMagic);
  out += static_cast<char>(preamble == 10 ? 1 : 2);
  out += '\0';
  for (size_t i = 0; i < preamble - 8; ++i)
    out += static_cast<char>((headerLength >> (8 * i)) & 0xff);
  out += dict;
  out.append(headerLength - dict.size() - 1, ' ');
  out += '\n';
  out.append(reinterpret_cast<const char *>(array.data.data()), array.data.size());
  return out;
}

llvm::Error softmax::runner::writeNpy(const NpyArray &array, StringRef path) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError(ec, "cannot write '" + path + "': " + ec.message());
  os << serializeNpy(array);
  os.close();
  if (os.has_error())
    return llvm::createStringError(os.error(),
                                   "cannot write '" + path + "': " + os.error().message());
  return llvm::Error::success();
}
