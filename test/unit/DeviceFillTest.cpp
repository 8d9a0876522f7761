//===- DeviceFillTest.cpp - Seeded inputs generated on the GPU ------------===//
//
// The host twins of the fill kernels (softmax/Runtime/DeviceFill.h) run everywhere: they define
// the values, so their distributions are checked here. Where there is a GPU, the kernels' output
// is compared with the twins element by element (rows at a stride, padding untouched).
//
//===----------------------------------------------------------------------===//

#include "softmax/Runtime/DeviceFill.h"
#include "softmax/Runtime/MgpuRuntime.h"

#include "HaveGpu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace softmax::runtime;

namespace {

constexpr uint64_t kSeed = 0x1234567ull;

TEST(DeviceFillTwin, HashDependsOnSeedAndIndex) {
  EXPECT_EQ(fillHash(kSeed, 7), fillHash(kSeed, 7));
  EXPECT_NE(fillHash(kSeed, 7), fillHash(kSeed, 8));
  EXPECT_NE(fillHash(kSeed, 7), fillHash(kSeed + 1, 7));
}

/// Mean, variance, bounds and zeros of `count` values of a float distribution.
void checkMoments(FillDistribution distribution, float scale, double wantVariance,
                  double bound) {
  const int count = 200000;
  double sum = 0, sumSquares = 0;
  int zeros = 0;
  for (int i = 0; i < count; ++i) {
    double value = fillFloatValue(distribution, scale, kSeed, i);
    ASSERT_LE(std::fabs(value), bound) << "at " << i;
    sum += value;
    sumSquares += value * value;
    zeros += value == 0;
  }
  double mean = sum / count;
  double variance = sumSquares / count - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.01 * scale);
  EXPECT_NEAR(variance, wantVariance, 0.02 * wantVariance);
  EXPECT_LT(zeros, count / 1000); // never (almost) zeros
}

TEST(DeviceFillTwin, NormalHasUnitVariance) {
  checkMoments(FillDistribution::Normal, 1.0f, 1.0, std::sqrt(12.0) + 1e-6);
  checkMoments(FillDistribution::Normal, 3.0f, 9.0, 3 * std::sqrt(12.0) + 1e-5);
}

TEST(DeviceFillTwin, UniformCoversTheRange) {
  // Uniform in [-s, s): variance s^2 / 3.
  checkMoments(FillDistribution::Uniform, 2.0f, 4.0 / 3.0, 2.0);
}

TEST(DeviceFillTwin, IntegersStayInRangeWithBothEnds) {
  const uint64_t max = 4096;
  uint64_t largest = 0;
  for (uint64_t i = 0; i < 100000; ++i) {
    uint64_t value = fillIntegerValue(max, kSeed, i);
    ASSERT_LE(value, max);
    largest = std::max(largest, value);
    if (i % 16 == 0) {
      ASSERT_EQ(value, 0u);
    }
    if (i % 16 == 1) {
      ASSERT_EQ(value, max);
    }
  }
  EXPECT_EQ(largest, max);
}

TEST(DeviceFillTwin, MaskDensity) {
  const int count = 200000;
  int kept = 0;
  for (int i = 0; i < count; ++i)
    kept += fillMaskValue(0.9, kSeed, i);
  EXPECT_NEAR(static_cast<double>(kept) / count, 0.9, 0.005);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_FALSE(fillMaskValue(0.0, kSeed, i));
    EXPECT_TRUE(fillMaskValue(1.0, kSeed, i));
  }
}

TEST(DeviceFillTwin, PtxNamesItsKernels) {
  std::string ptx = getFillPtx();
  EXPECT_NE(ptx.find(".entry softmax_fill_float("), std::string::npos);
  EXPECT_NE(ptx.find(".entry softmax_fill_integer("), std::string::npos);
  EXPECT_NE(ptx.find(".entry softmax_fill_mask("), std::string::npos);
}

using softmax::test::haveGpu;

/// Fills a strided buffer of `rows` x `width` (rows `stride` apart, padding 0xAB) with `fill` and
/// returns its bytes.
template <typename Fill>
std::vector<uint8_t> fillOnDevice(uint64_t rows, uint64_t width, uint64_t stride, size_t bytes,
                                  Fill fill) {
  CudaDriver &driver = CudaDriver::get();
  size_t size = rows * stride * bytes;
  llvm::Expected<CUdeviceptr> pointer = driver.alloc(size);
  EXPECT_TRUE(static_cast<bool>(pointer));
  if (!pointer) {
    llvm::consumeError(pointer.takeError());
    return {};
  }
  EXPECT_FALSE(static_cast<bool>(driver.memset8(*pointer, 0xAB, size)));
  llvm::Expected<CUstream> stream = runtimeStream();
  EXPECT_TRUE(static_cast<bool>(stream));
  FillLayout layout{*pointer, rows * width, width, stride};
  llvm::Error err = fill(layout, *stream);
  EXPECT_FALSE(static_cast<bool>(err)) << (err ? llvm::toString(std::move(err)) : "");
  EXPECT_FALSE(static_cast<bool>(driver.synchronizeStream(*stream)));
  std::vector<uint8_t> host(size);
  EXPECT_FALSE(static_cast<bool>(driver.copyToHost(host.data(), *pointer, size)));
  llvm::consumeError(driver.free(*pointer));
  return host;
}

TEST(DeviceFillGpu, KernelsMatchTheirHostTwins) {
  if (!haveGpu())
    GTEST_SKIP() << "no GPU on this machine";
  const uint64_t rows = 37, width = 1000, stride = 1003;
  std::vector<uint8_t> floats = fillOnDevice(rows, width, stride, 4, [](auto &layout, auto s) {
    return fillFloatOnDevice(layout, FillFloatType::F32, FillDistribution::Normal, 1.5f, kSeed,
                             s);
  });
  std::vector<uint8_t> ints = fillOnDevice(rows, width, stride, 4, [](auto &layout, auto s) {
    return fillIntegersOnDevice(layout, 4, 999, kSeed, s);
  });
  std::vector<uint8_t> masks = fillOnDevice(rows, width, stride, 1, [](auto &layout, auto s) {
    return fillMaskOnDevice(layout, 0.3, kSeed, s);
  });
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t c = 0; c < stride; ++c) {
      uint64_t at = r * stride + c, index = r * width + c;
      float f;
      uint32_t i;
      std::memcpy(&f, floats.data() + at * 4, 4);
      std::memcpy(&i, ints.data() + at * 4, 4);
      if (c >= width) {
        ASSERT_EQ(masks[at], 0xAB) << "padding at " << r << ", " << c;
        ASSERT_EQ(i, 0xABABABABu) << "padding at " << r << ", " << c;
        continue;
      }
      ASSERT_EQ(f, fillFloatValue(FillDistribution::Normal, 1.5f, kSeed, index)) << index;
      ASSERT_EQ(i, fillIntegerValue(999, kSeed, index)) << index;
      ASSERT_EQ(masks[at], fillMaskValue(0.3, kSeed, index) ? 1 : 0) << index;
    }
}

} // namespace
