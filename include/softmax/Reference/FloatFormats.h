//===- FloatFormats.h - f32 / f16 / bf16 bit patterns from doubles -*- C++ -*-===//
//
// Conversions between doubles and the storage formats of the softmax dialect (f32, f16, bf16),
// rounding to nearest, ties to even, directly from the double (never through an intermediate
// format, which could round twice). Overflow gives a signed infinity, values below the smallest
// subnormal round to a signed zero or to the smallest subnormal as IEEE 754 says, NaN stays NaN
// (quiet, with its sign and leading payload bits).
//
// Plain C++ without MLIR, header-only and inline so that the float64 reference and the runner can
// convert ~1e8 elements quickly.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_REFERENCE_FLOATFORMATS_H
#define SOFTMAX_REFERENCE_FLOATFORMATS_H

#include <cstdint>
#include <cstring>

namespace mlir::softmax::reference {

/// The floating-point formats the reference rounds to.
enum class FloatFormat { F64, F32, F16, BF16 };

namespace detail {

inline uint64_t bitsOf(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline double doubleOf(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// Rounds `value` to a binary format with `ExpBits` exponent bits and `ManBits` stored mantissa
/// bits (IEEE layout: sign, biased exponent, mantissa; exponent all ones is inf/NaN) and returns
/// its bit pattern in the low 1 + ExpBits + ManBits bits.
template <int ExpBits, int ManBits> inline uint32_t roundDoubleToBits(double value) {
  constexpr int bias = (1 << (ExpBits - 1)) - 1;
  constexpr int minExp = 1 - bias; // exponent of the smallest normal number
  constexpr int maxExp = bias;     // exponent of the largest finite number
  constexpr uint32_t expMask = (1u << ExpBits) - 1;
  constexpr uint32_t infBits = expMask << ManBits;
  constexpr int shiftNormal = 52 - ManBits; // dropped mantissa bits of a normal result

  uint64_t bits = bitsOf(value);
  uint32_t sign = static_cast<uint32_t>(bits >> 63) << (ExpBits + ManBits);
  int biasedExp = static_cast<int>((bits >> 52) & 0x7ff);
  uint64_t fraction = bits & ((uint64_t(1) << 52) - 1);

  if (biasedExp == 0x7ff) {
    if (fraction == 0)
      return sign | infBits;
    // NaN: keep the leading payload bits and make it quiet (top mantissa bit set).
    uint32_t payload = static_cast<uint32_t>(fraction >> shiftNormal);
    return sign | infBits | (1u << (ManBits - 1)) | payload;
  }
  // Zero or a double subnormal (< 2^-1022): far below the smallest subnormal of every target
  // format, so it rounds to a signed zero.
  if (biasedExp == 0)
    return sign;

  int exp = biasedExp - 1023;
  if (exp > maxExp)
    return sign | infBits;

  // The 53-bit significand with its implicit leading one: value = sig * 2^(exp - 52).
  uint64_t sig = fraction | (uint64_t(1) << 52);
  // Bits to drop: the surplus mantissa bits, plus the denormalisation shift below minExp.
  int shift = shiftNormal + (exp < minExp ? minExp - exp : 0);
  if (shift > 53) // value < 2^(minExp - ManBits - 1), half the smallest subnormal: rounds to 0
    return sign;

  uint64_t kept = sig >> shift;
  uint64_t rest = sig & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept; // may carry into the next binade; the encoding below absorbs that

  uint32_t result;
  if (exp < minExp) {
    // Subnormal: the exponent field is 0 and `kept` is the mantissa. A carry to 2^ManBits is the
    // encoding of the smallest normal number, so it is right as it stands.
    result = static_cast<uint32_t>(kept);
  } else {
    // Normal: `kept` holds the implicit one at bit ManBits; adding (biased exponent - 1) there
    // yields the biased exponent, and a rounding carry moves on to the next exponent.
    result = (static_cast<uint32_t>(exp + bias - 1) << ManBits) + static_cast<uint32_t>(kept);
    if (result >= infBits) // rounded above the largest finite number
      result = infBits;
  }
  return sign | result;
}

/// Decodes a bit pattern of the format above into the (exactly representable) double.
template <int ExpBits, int ManBits> inline double bitsToDouble(uint32_t bits) {
  constexpr int bias = (1 << (ExpBits - 1)) - 1;
  constexpr uint32_t expMask = (1u << ExpBits) - 1;
  uint64_t sign = static_cast<uint64_t>((bits >> (ExpBits + ManBits)) & 1) << 63;
  uint32_t exp = (bits >> ManBits) & expMask;
  uint64_t mantissa = bits & ((1u << ManBits) - 1);

  if (exp == expMask) // inf or NaN: the payload moves to the top of the double's mantissa
    return doubleOf(sign | (uint64_t(0x7ff) << 52) | (mantissa << (52 - ManBits)));
  if (exp == 0) {
    if (mantissa == 0)
      return doubleOf(sign);
    // Subnormal: normalise the mantissa so that its leading one becomes the implicit bit.
    int lead = 63 - __builtin_clzll(mantissa); // position of the leading one, < ManBits
    int unbiased = (1 - bias) - (ManBits - lead);
    uint64_t fraction = (mantissa << (52 - lead)) & ((uint64_t(1) << 52) - 1);
    return doubleOf(sign | (static_cast<uint64_t>(unbiased + 1023) << 52) | fraction);
  }
  int unbiased = static_cast<int>(exp) - bias;
  return doubleOf(sign | (static_cast<uint64_t>(unbiased + 1023) << 52) |
                  (mantissa << (52 - ManBits)));
}

} // namespace detail

//===----------------------------------------------------------------------===//
// Bit patterns
//===----------------------------------------------------------------------===//

/// IEEE binary32 (f32): 8 exponent bits, 23 mantissa bits.
inline uint32_t doubleToF32Bits(double value) { return detail::roundDoubleToBits<8, 23>(value); }
inline double f32BitsToDouble(uint32_t bits) { return detail::bitsToDouble<8, 23>(bits); }

/// IEEE binary16 (f16): 5 exponent bits, 10 mantissa bits.
inline uint16_t doubleToF16Bits(double value) {
  return static_cast<uint16_t>(detail::roundDoubleToBits<5, 10>(value));
}
inline double f16BitsToDouble(uint16_t bits) { return detail::bitsToDouble<5, 10>(bits); }

/// bfloat16 (bf16): 8 exponent bits, 7 mantissa bits (the top half of an f32).
inline uint16_t doubleToBF16Bits(double value) {
  return static_cast<uint16_t>(detail::roundDoubleToBits<8, 7>(value));
}
inline double bf16BitsToDouble(uint16_t bits) { return detail::bitsToDouble<8, 7>(bits); }

//===----------------------------------------------------------------------===//
// Rounding
//===----------------------------------------------------------------------===//

/// `value` rounded to nearest even in `format`, returned as the double holding it exactly.
inline double roundTo(double value, FloatFormat format) {
  switch (format) {
  case FloatFormat::F64:
    return value;
  case FloatFormat::F32:
    return f32BitsToDouble(doubleToF32Bits(value));
  case FloatFormat::F16:
    return f16BitsToDouble(doubleToF16Bits(value));
  case FloatFormat::BF16:
    return bf16BitsToDouble(doubleToBF16Bits(value));
  }
  return value;
}

/// Rounds `count` values in place (a loop over roundTo with the format hoisted out).
inline void roundAllTo(double *values, int64_t count, FloatFormat format) {
  switch (format) {
  case FloatFormat::F64:
    return;
  case FloatFormat::F32:
    for (int64_t i = 0; i < count; ++i)
      values[i] = f32BitsToDouble(doubleToF32Bits(values[i]));
    return;
  case FloatFormat::F16:
    for (int64_t i = 0; i < count; ++i)
      values[i] = f16BitsToDouble(doubleToF16Bits(values[i]));
    return;
  case FloatFormat::BF16:
    for (int64_t i = 0; i < count; ++i)
      values[i] = bf16BitsToDouble(doubleToBF16Bits(values[i]));
    return;
  }
}

/// The name of a format as MLIR spells the type ("f32", "bf16", ...).
inline const char *getFloatFormatName(FloatFormat format) {
  switch (format) {
  case FloatFormat::F64:
    return "f64";
  case FloatFormat::F32:
    return "f32";
  case FloatFormat::F16:
    return "f16";
  case FloatFormat::BF16:
    return "bf16";
  }
  return "?";
}

} // namespace mlir::softmax::reference

#endif // SOFTMAX_REFERENCE_FLOATFORMATS_H
