//===- DeviceInputs.cpp - Inputs generated on the device ------------------===//
//
// The seeded fill kernels (softmax/Runtime/DeviceFill.h) write every tensor input in place; a
// sample of each is compared bit for bit with the kernels' host twins.
//
//===----------------------------------------------------------------------===//

#include "softmax/Runner/DeviceBuffers.h"

#include "softmax/Runtime/DeviceFill.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstring>

namespace softmax::runner {

namespace {

/// What the fill kernels write at packed index `index` of `spec`, in storage bytes.
void expectedFill(const ArgSpec &spec, uint64_t argSeed, const InputOptions &options,
                  int64_t lengthsMax, uint64_t index, uint8_t *out) {
  double value;
  if (isFloatKind(spec.element)) {
    auto distribution = options.distribution == Distribution::Uniform
                            ? rt::FillDistribution::Uniform
                            : rt::FillDistribution::Normal;
    value = rt::fillFloatValue(distribution, static_cast<float>(options.scale), argSeed, index);
  } else if (spec.element == ElementKind::I1) {
    value = rt::fillMaskValue(options.maskDensity, argSeed, index) ? 1.0 : 0.0;
  } else {
    value = static_cast<double>(
        rt::fillIntegerValue(static_cast<uint64_t>(std::max<int64_t>(0, lengthsMax)), argSeed,
                             index));
  }
  encodeElements(spec.element, &value, 1, out);
}

/// Compares the first (up to) 256 elements of the first and the last row of a filled tensor
/// with the host twin of the fill kernels: a wrong address or conversion shows at once.
llvm::Error verifyFill(const DeviceTensor &tensor, uint64_t argSeed, const InputOptions &options,
                       int64_t lengthsMax) {
  int64_t count = tensor.spec.getNumElements();
  if (count <= 0)
    return llvm::Error::success();
  int64_t rows = count / tensor.width;
  int64_t sample = std::min<int64_t>(tensor.width, 256);
  size_t bytes = tensor.elementBytes();
  for (int64_t row : {int64_t(0), rows - 1}) {
    std::vector<uint8_t> got(sample * bytes), want(sample * bytes);
    rt::CUdeviceptr address = tensor.pointer + row * tensor.stride * bytes;
    if (llvm::Error err = rt::CudaDriver::get().copyToHost(got.data(), address, got.size()))
      return err;
    for (int64_t j = 0; j < sample; ++j)
      expectedFill(tensor.spec, argSeed, options, lengthsMax, row * tensor.width + j,
                   want.data() + j * bytes);
    for (int64_t j = 0; j < sample; ++j)
      if (std::memcmp(got.data() + j * bytes, want.data() + j * bytes, bytes) != 0)
        return llvm::createStringError(
            "the device-generated " + tensor.spec.name + " differs from the fill kernels' host "
            "twin at row " + std::to_string(row) + ", column " + std::to_string(j) +
            " (a defect of the fill kernels)");
  }
  return llvm::Error::success();
}

} // namespace

/// Generates every tensor input in place with the seeded fill kernels (rt::fill*OnDevice),
/// padding poisoned, and checks a sample against their host twin.
llvm::Error fillInputsOnDevice(const Signature &signature, const InputOptions &options,
                               CaseBuffers &buffers, rt::CUstream stream) {
  rt::CudaDriver &driver = rt::CudaDriver::get();
  int64_t lengthsMax = resolveLengthsMax(signature.inputs, options);
  size_t t = 0;
  for (auto [i, spec] : llvm::enumerate(signature.inputs)) {
    if (!spec.isTensor)
      continue;
    DeviceTensor &tensor = buffers.tensors[t++];
    uint64_t argSeed = getArgumentSeed(options.seed, i);
    if (tensor.stride != tensor.width)
      if (llvm::Error err = poison(tensor, stream))
        return withContext("poisoning the padding of " + spec.name, std::move(err));
    rt::FillLayout layout;
    layout.pointer = tensor.pointer;
    layout.count = static_cast<uint64_t>(std::max<int64_t>(0, spec.getNumElements()));
    layout.width = static_cast<uint64_t>(std::max<int64_t>(1, tensor.width));
    layout.stride = static_cast<uint64_t>(std::max<int64_t>(1, tensor.stride));
    llvm::Error err = llvm::Error::success();
    switch (spec.element) {
    case ElementKind::F32:
    case ElementKind::F16:
    case ElementKind::BF16: {
      rt::FillFloatType type = spec.element == ElementKind::F32   ? rt::FillFloatType::F32
                               : spec.element == ElementKind::F16 ? rt::FillFloatType::F16
                                                                  : rt::FillFloatType::BF16;
      auto distribution = options.distribution == Distribution::Uniform
                              ? rt::FillDistribution::Uniform
                              : rt::FillDistribution::Normal;
      err = rt::fillFloatOnDevice(layout, type, distribution, static_cast<float>(options.scale),
                                  argSeed, stream);
      break;
    }
    case ElementKind::I1:
      err = rt::fillMaskOnDevice(layout, options.maskDensity, argSeed, stream);
      break;
    case ElementKind::F64:
      err = llvm::createStringError("f64 inputs are generated on the host only (use "
                                    "--inputs=host)");
      break;
    default:
      err = rt::fillIntegersOnDevice(layout, static_cast<unsigned>(tensor.elementBytes()),
                                     static_cast<uint64_t>(std::max<int64_t>(0, lengthsMax)),
                                     argSeed, stream);
      break;
    }
    if (err)
      return withContext("generating " + spec.name + " on the device", std::move(err));
    if (llvm::Error err = driver.synchronizeStream(stream))
      return withContext("generating " + spec.name + " on the device", std::move(err));
    if (llvm::Error err = verifyFill(tensor, argSeed, options, lengthsMax))
      return withContext("checking the generated " + spec.name, std::move(err));
    if (tensor.stride != tensor.width) {
      // The run must leave a strided input unchanged, padding included: keep its image.
      tensor.hostImage.resize(tensor.allocatedBytes());
      if (llvm::Error err = driver.copyToHost(tensor.hostImage.data(), tensor.pointer,
                                              tensor.hostImage.size()))
        return withContext("reading " + spec.name, std::move(err));
    }
  }
  return llvm::Error::success();
}

} // namespace softmax::runner
