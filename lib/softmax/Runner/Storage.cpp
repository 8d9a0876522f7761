//===- Storage.cpp - Element types as the runner stores them --------------===//

#include "softmax/Runner/Storage.h"

#include "softmax/Reference/FloatFormats.h"

#include <cmath>
#include <cstring>

using namespace softmax::runner;
namespace ref = mlir::softmax::reference;

size_t softmax::runner::getElementBytes(ElementKind kind) {
  switch (kind) {
  case ElementKind::F64:
  case ElementKind::I64:
  case ElementKind::Index:
    return 8;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F16:
  case ElementKind::BF16:
  case ElementKind::I16:
    return 2;
  case ElementKind::I1:
  case ElementKind::I8:
    return 1;
  }
  return 1;
}

const char *softmax::runner::getElementName(ElementKind kind) {
  switch (kind) {
  case ElementKind::F64:
    return "f64";
  case ElementKind::F32:
    return "f32";
  case ElementKind::F16:
    return "f16";
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::I1:
    return "i1";
  case ElementKind::I8:
    return "i8";
  case ElementKind::I16:
    return "i16";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I64:
    return "i64";
  case ElementKind::Index:
    return "index";
  }
  return "?";
}

bool softmax::runner::isFloatKind(ElementKind kind) {
  return kind == ElementKind::F64 || kind == ElementKind::F32 || kind == ElementKind::F16 ||
         kind == ElementKind::BF16;
}

namespace {
template <typename T> void storeAll(const double *values, size_t count, void *out) {
  T *typed = static_cast<T *>(out);
  for (size_t i = 0; i < count; ++i)
    typed[i] = static_cast<T>(values[i]);
}
template <typename T> void loadAll(const void *in, size_t count, double *values) {
  const T *typed = static_cast<const T *>(in);
  for (size_t i = 0; i < count; ++i)
    values[i] = static_cast<double>(typed[i]);
}
} // namespace

void softmax::runner::encodeElements(ElementKind kind, const double *values, size_t count,
                                     void *out) {
  switch (kind) {
  case ElementKind::F64:
    std::memcpy(out, values, count * sizeof(double));
    return;
  case ElementKind::F32: {
    auto *bits = static_cast<uint32_t *>(out);
    for (size_t i = 0; i < count; ++i)
      bits[i] = ref::doubleToF32Bits(values[i]);
    return;
  }
  case ElementKind::F16: {
    auto *bits = static_cast<uint16_t *>(out);
    for (size_t i = 0; i < count; ++i)
      bits[i] = ref::doubleToF16Bits(values[i]);
    return;
  }
  case ElementKind::BF16: {
    auto *bits = static_cast<uint16_t *>(out);
    for (size_t i = 0; i < count; ++i)
      bits[i] = ref::doubleToBF16Bits(values[i]);
    return;
  }
  case ElementKind::I1: {
    auto *bytes = static_cast<uint8_t *>(out);
    for (size_t i = 0; i < count; ++i)
      bytes[i] = values[i] != 0.0 ? 1 : 0;
    return;
  }
  case ElementKind::I8:
    return storeAll<int8_t>(values, count, out);
  case ElementKind::I16:
    return storeAll<int16_t>(values, count, out);
  case ElementKind::I32:
    return storeAll<int32_t>(values, count, out);
  case ElementKind::I64:
  case ElementKind::Index:
    return storeAll<int64_t>(values, count, out);
  }
}

void softmax::runner::decodeElements(ElementKind kind, const void *in, size_t count,
                                     double *values) {
  switch (kind) {
  case ElementKind::F64:
    std::memcpy(values, in, count * sizeof(double));
    return;
  case ElementKind::F32: {
    auto *bits = static_cast<const uint32_t *>(in);
    for (size_t i = 0; i < count; ++i)
      values[i] = ref::f32BitsToDouble(bits[i]);
    return;
  }
  case ElementKind::F16: {
    auto *bits = static_cast<const uint16_t *>(in);
    for (size_t i = 0; i < count; ++i)
      values[i] = ref::f16BitsToDouble(bits[i]);
    return;
  }
  case ElementKind::BF16: {
    auto *bits = static_cast<const uint16_t *>(in);
    for (size_t i = 0; i < count; ++i)
      values[i] = ref::bf16BitsToDouble(bits[i]);
    return;
  }
  case ElementKind::I1: {
    auto *bytes = static_cast<const uint8_t *>(in);
    for (size_t i = 0; i < count; ++i)
      values[i] = (bytes[i] & 1) ? 1.0 : 0.0;
    return;
  }
  case ElementKind::I8:
    return loadAll<int8_t>(in, count, values);
  case ElementKind::I16:
    return loadAll<int16_t>(in, count, values);
  case ElementKind::I32:
    return loadAll<int32_t>(in, count, values);
  case ElementKind::I64:
  case ElementKind::Index:
    return loadAll<int64_t>(in, count, values);
  }
}

double softmax::runner::roundToKind(ElementKind kind, double value) {
  switch (kind) {
  case ElementKind::F64:
    return value;
  case ElementKind::F32:
    return ref::roundTo(value, ref::FloatFormat::F32);
  case ElementKind::F16:
    return ref::roundTo(value, ref::FloatFormat::F16);
  case ElementKind::BF16:
    return ref::roundTo(value, ref::FloatFormat::BF16);
  case ElementKind::I1:
    return value != 0.0 ? 1.0 : 0.0;
  default:
    return std::trunc(value);
  }
}

std::optional<uint64_t> softmax::runner::getPoisonBits(ElementKind kind) {
  switch (kind) {
  case ElementKind::F64:
    return 0x7FF4BADBADBADBADull;
  case ElementKind::F32:
    return 0x7FBADBADull;
  case ElementKind::F16:
    return 0x7DBDull;
  case ElementKind::BF16:
    return 0x7FBDull;
  default:
    return std::nullopt;
  }
}

bool softmax::runner::isPoison(ElementKind kind, const void *element) {
  std::optional<uint64_t> poison = getPoisonBits(kind);
  if (!poison)
    return false;
  uint64_t bits = 0;
  std::memcpy(&bits, element, getElementBytes(kind)); // little-endian: low bytes
  return bits == *poison;
}

void softmax::runner::fillPoison(ElementKind kind, void *out, size_t count) {
  std::optional<uint64_t> poison = getPoisonBits(kind);
  if (!poison)
    return;
  size_t bytes = getElementBytes(kind);
  auto *dst = static_cast<uint8_t *>(out);
  for (size_t i = 0; i < count; ++i)
    std::memcpy(dst + i * bytes, &*poison, bytes);
}
