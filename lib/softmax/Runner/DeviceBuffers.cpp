//===- DeviceBuffers.cpp - The device buffers of one softmax-run case -----===//

#include "softmax/Runner/DeviceBuffers.h"

#include "softmax/Runner/Cases.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <optional>

namespace softmax::runner {

namespace {
std::string errorLine(llvm::Error error) {
  std::string text = llvm::toString(std::move(error));
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}
} // namespace

/// Lays out `tensor` with rows `stride` apart and builds its descriptor.
void layout(DeviceTensor &tensor, int64_t stride) {
  const std::vector<int64_t> &shape = tensor.spec.shape;
  int64_t rank = static_cast<int64_t>(shape.size());
  tensor.width = rank ? shape.back() : 1;
  tensor.stride = std::max(stride, tensor.width);
  int64_t rows = tensor.width ? tensor.spec.getNumElements() / tensor.width : 0;
  if (tensor.width == 0)
    rows = 0;
  tensor.allocated = rank <= 1 ? tensor.stride : rows * tensor.stride;
  std::vector<int64_t> strides(rank, 1);
  if (rank >= 2) {
    strides[rank - 2] = tensor.stride;
    for (int64_t d = rank - 3; d >= 0; --d)
      strides[d] = strides[d + 1] * shape[d + 1];
  }
  tensor.descriptor.assign(3 + 2 * rank, 0);
  for (int64_t d = 0; d < rank; ++d) {
    tensor.descriptor[3 + d] = shape[d];
    tensor.descriptor[3 + rank + d] = strides[d];
  }
}

/// Fills every output buffer (padding included) with the poison pattern, on the runtime's stream.
llvm::Error poison(const DeviceTensor &tensor, rt::CUstream stream) {
  rt::CudaDriver &driver = rt::CudaDriver::get();
  std::optional<uint64_t> bits = getPoisonBits(tensor.spec.element);
  if (!bits || tensor.allocated == 0)
    return llvm::Error::success();
  switch (tensor.elementBytes()) {
  case 4:
    return driver.memset32Async(tensor.pointer, static_cast<uint32_t>(*bits), tensor.allocated,
                                stream);
  case 2:
    return rt::CudaDriver::check(driver.api().cuMemsetD16Async(tensor.pointer,
                                                               static_cast<unsigned short>(*bits),
                                                               tensor.allocated, stream),
                                 "cuMemsetD16Async");
  default: {
    std::vector<uint8_t> image(tensor.allocatedBytes());
    fillPoison(tensor.spec.element, image.data(), tensor.allocated);
    return driver.copyToDevice(tensor.pointer, image.data(), image.size());
  }
  }
}

/// Lays out every tensor (the first float input and the outputs at --row-stride) and encodes
/// the scalars.
void layoutCase(const Signature &signature, const InputOptions &inputOptions, int64_t rowStride,
                CaseBuffers &buffers) {
  int firstFloat = findFirstFloat(signature.inputs);
  buffers.scalarSlots.assign(signature.inputs.size(), 0);
  buffers.scalarValues.assign(signature.inputs.size(), 0.0);
  for (auto [i, spec] : llvm::enumerate(signature.inputs)) {
    if (!spec.isTensor) {
      double value = getScalarInput(spec, inputOptions);
      encodeElements(spec.element, &value, 1, &buffers.scalarSlots[i]);
      buffers.scalarValues[i] = value;
      continue;
    }
    DeviceTensor tensor;
    tensor.spec = spec;
    layout(tensor, static_cast<int>(i) == firstFloat ? rowStride : 0);
    buffers.tensors.push_back(std::move(tensor));
  }
  buffers.numInputTensors = buffers.tensors.size();
  for (const ArgSpec &spec : signature.outputs) {
    DeviceTensor tensor;
    tensor.spec = spec;
    tensor.isOutput = true;
    layout(tensor, rowStride);
    buffers.tensors.push_back(std::move(tensor));
  }
}

/// The packed arguments: a pointer to each argument; a tensor argument is a pointer to (a
/// pointer to) its descriptor, a scalar its value. Call after the pointers are final.
void packArguments(const Signature &signature, CaseBuffers &buffers) {
  std::vector<DeviceTensor> &tensors = buffers.tensors;
  buffers.descriptorPointers.resize(tensors.size());
  for (size_t t = 0; t < tensors.size(); ++t)
    buffers.descriptorPointers[t] = tensors[t].descriptor.data();
  buffers.packedArgs.clear();
  size_t t = 0;
  for (auto [i, spec] : llvm::enumerate(signature.inputs))
    buffers.packedArgs.push_back(spec.isTensor
                                     ? static_cast<void *>(&buffers.descriptorPointers[t++])
                                     : static_cast<void *>(&buffers.scalarSlots[i]));
  for (; t < tensors.size(); ++t)
    buffers.packedArgs.push_back(&buffers.descriptorPointers[t]);
}

llvm::Error allocate(CaseBuffers &buffers) {
  for (DeviceTensor &tensor : buffers.tensors) {
    size_t bytes = std::max<size_t>(tensor.allocatedBytes(), 1);
    llvm::Expected<rt::CUdeviceptr> pointer = rt::CudaDriver::get().alloc(bytes);
    if (!pointer)
      return withContext("allocating " + std::to_string(bytes) + " bytes for " +
                             tensor.spec.name,
                         pointer.takeError());
    tensor.pointer = *pointer;
    tensor.descriptor[0] = tensor.descriptor[1] = static_cast<int64_t>(tensor.pointer);
  }
  return llvm::Error::success();
}

/// Uploads the host inputs, rows at their stride, padding poisoned. A strided input keeps its
/// image to check afterwards that the run left it unchanged.
llvm::Error uploadInputs(const Signature &signature, const std::vector<std::vector<double>> &values,
                         CaseBuffers &buffers) {
  size_t t = 0;
  for (auto [i, spec] : llvm::enumerate(signature.inputs)) {
    if (!spec.isTensor)
      continue;
    DeviceTensor &tensor = buffers.tensors[t++];
    size_t bytes = tensor.elementBytes();
    tensor.hostImage.assign(tensor.allocatedBytes(), 0);
    if (tensor.stride != tensor.width)
      fillPoison(spec.element, tensor.hostImage.data(), tensor.allocated);
    int64_t rows = tensor.width ? spec.getNumElements() / tensor.width : 0;
    for (int64_t r = 0; r < rows; ++r)
      encodeElements(spec.element, values[i].data() + r * tensor.width, tensor.width,
                     tensor.hostImage.data() + r * tensor.stride * bytes);
    if (llvm::Error err = rt::CudaDriver::get().copyToDevice(
            tensor.pointer, tensor.hostImage.data(), tensor.hostImage.size()))
      return withContext("uploading " + spec.name, std::move(err));
    if (tensor.stride == tensor.width)
      tensor.hostImage = {}; // only kept to check strided inputs afterwards
  }
  return llvm::Error::success();
}

llvm::Error withContext(const llvm::Twine &what, llvm::Error err) {
  return llvm::createStringError(what + ": " + errorLine(std::move(err)));
}

/// A tensor's bytes as they lie in device memory, rows at their stride.
llvm::Error download(const DeviceTensor &tensor, std::vector<uint8_t> &image) {
  image.resize(tensor.allocatedBytes());
  return rt::CudaDriver::get().copyToHost(image.data(), tensor.pointer, image.size());
}

/// The "device" outputs of --emulate-device: the reference, rows at their stride, padding
/// left poisoned.
void emulateOutputs(const CaseBuffers &buffers,
                    const std::vector<mlir::softmax::reference::HostValue> &referenceResults,
                    std::vector<std::vector<uint8_t>> &outputImages) {
  for (size_t o = 0; o < outputImages.size(); ++o) {
    const DeviceTensor &tensor = buffers.tensors[buffers.numInputTensors + o];
    std::vector<uint8_t> &image = outputImages[o];
    image.assign(tensor.allocatedBytes(), 0);
    fillPoison(tensor.spec.element, image.data(), tensor.allocated);
    const std::vector<double> &data = referenceResults[o].tensor.data;
    int64_t rows = tensor.width ? tensor.spec.getNumElements() / tensor.width : 0;
    for (int64_t r = 0; r < rows; ++r)
      encodeElements(tensor.spec.element, data.data() + r * tensor.width, tensor.width,
                     image.data() + r * tensor.stride * tensor.elementBytes());
  }
}

} // namespace softmax::runner
