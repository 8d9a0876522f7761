//===- NpyTest.cpp - The runner's .npy reader and writer ------------------===//

#include "softmax/Runner/Npy.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace softmax::runner;

namespace {

/// A .npy file with `dict` as its header, version 1.0, followed by `data`.
std::string npyFile(const std::string &dict, const std::string &data) {
  std::string header = dict + "\n";
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

std::string parseError(const std::string &bytes) {
  llvm::Expected<NpyArray> array = parseNpy(bytes, "x.npy");
  if (array)
    return "(parsed)";
  return llvm::toString(array.takeError());
}

TEST(NpyTest, RoundTripsEveryElementType) {
  for (ElementKind kind : {ElementKind::F64, ElementKind::F32, ElementKind::F16, ElementKind::BF16,
                           ElementKind::I1, ElementKind::I8, ElementKind::I16, ElementKind::I32,
                           ElementKind::I64}) {
    NpyArray array;
    array.element = kind;
    array.shape = {2, 3};
    array.data.resize(6 * getElementBytes(kind));
    for (size_t i = 0; i < array.data.size(); ++i)
      array.data[i] = kind == ElementKind::I1 ? i % 2 : static_cast<uint8_t>(i * 7 + 1);
    std::string bytes = serializeNpy(array);
    // numpy's layout: the data starts at a multiple of 64 and the header ends with '\n'.
    size_t headerLength = static_cast<uint8_t>(bytes[8]) | static_cast<uint8_t>(bytes[9]) << 8;
    EXPECT_EQ((10 + headerLength) % 64, 0u) << getElementName(kind);
    EXPECT_EQ(bytes[10 + headerLength - 1], '\n');
    llvm::Expected<NpyArray> back = parseNpy(bytes, "x.npy");
    ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
    EXPECT_EQ(back->element, kind) << getElementName(kind);
    EXPECT_EQ(back->shape, array.shape);
    EXPECT_EQ(back->data, array.data);
  }
}

TEST(NpyTest, WritesTheDescrsNumpyUses) {
  NpyArray array;
  array.element = ElementKind::BF16;
  array.shape = {4};
  array.data.resize(8);
  EXPECT_NE(serializeNpy(array).find("{'descr': '<V2', 'fortran_order': False, 'shape': (4,), }"),
            std::string::npos);
  array.element = ElementKind::I1;
  array.shape = {};
  array.data.resize(1);
  EXPECT_NE(serializeNpy(array).find("'descr': '|b1'"), std::string::npos);
  EXPECT_NE(serializeNpy(array).find("'shape': ()"), std::string::npos);
}

TEST(NpyTest, ReadsWhatNumpyWrites) {
  // Key order, quotes and spacing vary between numpy versions; Python 2 wrote 3L.
  float values[3] = {1.0f, -2.5f, 0.125f};
  std::string data(reinterpret_cast<const char *>(values), sizeof(values));
  for (const char *dict : {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
                           "{\"shape\": (3L,), \"fortran_order\": False, \"descr\": \"<f4\"}",
                           "{'descr':'=f4','fortran_order':False,'shape':(3,)}   "}) {
    llvm::Expected<NpyArray> array = parseNpy(npyFile(dict, data), "x.npy");
    ASSERT_TRUE(static_cast<bool>(array)) << dict << ": " << llvm::toString(array.takeError());
    EXPECT_EQ(array->element, ElementKind::F32);
    EXPECT_EQ(array->shape, std::vector<int64_t>{3});
    float back[3];
    std::memcpy(back, array->data.data(), sizeof(back));
    EXPECT_EQ(back[1], -2.5f);
  }
  // Version 2.0: a 4-byte header length.
  std::string dict = "{'descr': '|V2', 'fortran_order': False, 'shape': (1, 1), }\n";
  std::string v2("\x93NUMPY\x02\x00", 8);
  for (int i = 0; i < 4; ++i)
    v2 += static_cast<char>((dict.size() >> (8 * i)) & 0xff);
  llvm::Expected<NpyArray> array = parseNpy(v2 + dict + "\x80\x3f", "x.npy");
  ASSERT_TRUE(static_cast<bool>(array)) << llvm::toString(array.takeError());
  EXPECT_EQ(array->element, ElementKind::BF16);
  EXPECT_EQ(array->shape, (std::vector<int64_t>{1, 1}));
}

TEST(NpyTest, RejectsMalformedFiles) {
  const std::string f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  const std::string eight(8, '\0');
  auto expectError = [&](const std::string &bytes, const std::string &message) {
    std::string error = parseError(bytes);
    EXPECT_NE(error.find("x.npy: not a valid .npy file: "), std::string::npos) << error;
    EXPECT_NE(error.find(message), std::string::npos) << error;
  };
  expectError("PK\x03\x04 a zip file", "it does not start with \\x93NUMPY");
  expectError(std::string("\x93NUMPY\x01", 7), "it ends inside the header");
  expectError(std::string("\x93NUMPY\x01\x00\xff\x00{'descr'", 17),
              "it ends inside the header (255 bytes announced)");
  expectError(std::string("\x93NUMPY\x04\x00\x00\x00", 10), "format version 4.0");
  expectError(npyFile(f4, eight + "x"), "it holds 9 bytes of data, but its shape (2,) of '<f4' "
                                        "needs 8");
  expectError(npyFile(f4, "1234"), "needs 8 (truncated?)");
  expectError(npyFile("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", eight),
              "is big-endian");
  expectError(npyFile("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", eight),
              "the element type '<c8' is not one of the supported types");
  expectError(npyFile("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", ""),
              "has a 'descr' that is not a string");
  expectError(npyFile("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", eight),
              "Fortran order is not supported");
  expectError(npyFile("{'descr': '<f4', 'shape': (2,), }", eight),
              "lacks one of 'descr', 'fortran_order' and 'shape'");
  expectError(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", eight),
              "has a 'shape' that is not a tuple of non-negative integers");
  expectError(npyFile("['<f4', False, (2,)]", eight), "is not a Python dict");
  expectError(npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, "
                      "4294967296), }",
                      ""),
              "more elements than a 64-bit byte count can address");
  expectError(npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", "\x01\x07"),
              "boolean element 1 is 7, not 0 or 1");
}

TEST(NpyTest, ReportsUnreadableFiles) {
  llvm::Expected<NpyArray> array = readNpy("/nonexistent/x.npy");
  ASSERT_FALSE(static_cast<bool>(array));
  EXPECT_NE(llvm::toString(array.takeError()).find("cannot read '/nonexistent/x.npy'"),
            std::string::npos);
}

} // namespace
