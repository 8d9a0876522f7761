//===- Storage.h - Element types as the runner stores them ------*- C++ -*-===//
//
// The runner moves tensors between the host and the device in their storage types (f32, f16,
// bf16, i1 as one byte, i32, i64, ...) and hands the float64 reference doubles. This file names
// those types, converts between doubles and storage bytes, and defines the poison pattern that
// marks output elements no kernel has written.
//
// Plain C++ (no MLIR), so that the conversions stay cheap to compile and easy to test.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_STORAGE_H
#define SOFTMAX_RUNNER_STORAGE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace softmax::runner {

/// The element types a softmax program's arguments and results can have.
enum class ElementKind { F64, F32, F16, BF16, I1, I8, I16, I32, I64, Index };

/// Bytes one element takes in device memory (i1: one byte, as LLVM stores it; index: 8).
size_t getElementBytes(ElementKind kind);
/// The MLIR spelling ("f32", "bf16", "i1", "index", ...).
const char *getElementName(ElementKind kind);
bool isFloatKind(ElementKind kind);

/// Converts `count` doubles into storage bytes at `out`: floats round to nearest even (through
/// the reference's FloatFormats.h), integers are converted from their (integral) values.
void encodeElements(ElementKind kind, const double *values, size_t count, void *out);
/// The inverse: storage bytes to the doubles that hold them exactly.
void decodeElements(ElementKind kind, const void *in, size_t count, double *values);
/// `value` rounded to what `kind` can hold (floats: nearest even; integers: truncated).
double roundToKind(ElementKind kind, double value);

/// The poison pattern of an output type: a NaN with a payload that no arithmetic produces
/// (GPUs write the canonical NaN 0x7FFFFFFF / 0x7FFF), so that an element still holding it after
/// a run was never written. f32 0x7FBADBAD, f16 0x7DBD, bf16 0x7FBD (signalling NaNs); f64
/// 0x7FF4BADBADBADBAD. Other types have none.
std::optional<uint64_t> getPoisonBits(ElementKind kind);
/// Whether the element at `element` (of `kind`) holds the poison pattern.
bool isPoison(ElementKind kind, const void *element);
/// Fills `count` elements at `out` with the poison pattern.
void fillPoison(ElementKind kind, void *out, size_t count);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_STORAGE_H
