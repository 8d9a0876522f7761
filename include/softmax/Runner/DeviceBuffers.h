//===- DeviceBuffers.h - The device buffers of one softmax-run case -*- C++ -*-===//
//
// Every tensor argument and result of a case in device memory: its layout (rows at --row-stride
// for the first float input and the results, padding poisoned), its memref descriptor as
// _mlir_ciface_<entry> takes it, allocation, upload, download, the seeded fill kernels' inputs,
// and the "device" results of --emulate-device. Over the project's CUDA driver wrapper
// (softmax/Runtime/CudaDriver.h); errors are llvm::Error with the buffer named.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_DEVICEBUFFERS_H
#define SOFTMAX_RUNNER_DEVICEBUFFERS_H

#include "softmax/Reference/Evaluator.h"
#include "softmax/Runner/Inputs.h"
#include "softmax/Runner/Signature.h"
#include "softmax/Runtime/CudaDriver.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace softmax::runner {

namespace rt = ::softmax::runtime;

/// A tensor argument or result in device memory, and its memref descriptor
/// {allocated, aligned, offset, sizes[rank], strides[rank]} as the C interface expects it.
struct DeviceTensor {
  ArgSpec spec;
  bool isOutput = false;
  int64_t width = 1;     ///< row width (last dimension)
  int64_t stride = 1;    ///< elements between rows in memory (>= width)
  int64_t allocated = 0; ///< elements allocated
  rt::CUdeviceptr pointer = 0;
  std::vector<int64_t> descriptor;
  std::vector<uint8_t> hostImage; ///< inputs: the uploaded bytes (with poisoned padding)

  size_t elementBytes() const { return getElementBytes(spec.element); }
  size_t allocatedBytes() const { return static_cast<size_t>(allocated) * elementBytes(); }
};

/// Lays out `tensor` with rows `stride` apart and builds its descriptor.
void layout(DeviceTensor &tensor, int64_t stride);

/// Fills every output buffer (padding included) with the poison pattern, on the runtime's stream.
llvm::Error poison(const DeviceTensor &tensor, rt::CUstream stream);

/// The device buffers of one case: every tensor argument, then every result. Freed with it.
struct CaseBuffers {
  std::vector<DeviceTensor> tensors;
  size_t numInputTensors = 0;
  std::vector<uint64_t> scalarSlots; ///< one per argument (scalars only are used)
  std::vector<double> scalarValues;  ///< the same scalars' values (for the C++ API's call)
  std::vector<void *> descriptorPointers;
  std::vector<void *> packedArgs; ///< the packed arguments of _mlir_ciface_<entry>

  CaseBuffers() = default;
  CaseBuffers(const CaseBuffers &) = delete;
  CaseBuffers &operator=(const CaseBuffers &) = delete;
  ~CaseBuffers() {
    for (DeviceTensor &tensor : tensors)
      if (tensor.pointer)
        llvm::consumeError(rt::CudaDriver::get().free(tensor.pointer));
  }
  llvm::ArrayRef<DeviceTensor> inputs() const {
    return llvm::ArrayRef(tensors).take_front(numInputTensors);
  }
};

/// Lays out every tensor (the first float input and the outputs at `rowStride`) and encodes
/// the scalars.
void layoutCase(const Signature &signature, const InputOptions &inputOptions, int64_t rowStride,
                CaseBuffers &buffers);

/// The packed arguments: a pointer to each argument; a tensor argument is a pointer to (a
/// pointer to) its descriptor, a scalar its value. Call after the pointers are final.
void packArguments(const Signature &signature, CaseBuffers &buffers);

/// `err` as one line after `what: `.
llvm::Error withContext(const llvm::Twine &what, llvm::Error err);

/// Allocates every tensor of the case and puts the pointers in the descriptors.
llvm::Error allocate(CaseBuffers &buffers);

/// Uploads the host inputs, rows at their stride, padding poisoned. A strided input keeps its
/// image to check afterwards that the run left it unchanged.
llvm::Error uploadInputs(const Signature &signature, const std::vector<std::vector<double>> &values,
                         CaseBuffers &buffers);

/// Generates every tensor input in place with the seeded fill kernels (rt::fill*OnDevice),
/// padding poisoned, and checks a sample against their host twin.
llvm::Error fillInputsOnDevice(const Signature &signature, const InputOptions &options,
                               CaseBuffers &buffers, rt::CUstream stream);

/// A tensor's bytes as they lie in device memory, rows at their stride.
llvm::Error download(const DeviceTensor &tensor, std::vector<uint8_t> &image);

/// The "device" outputs of --emulate-device: the reference, rows at their stride, padding
/// left poisoned.
void emulateOutputs(const CaseBuffers &buffers,
                    const std::vector<mlir::softmax::reference::HostValue> &referenceResults,
                    std::vector<std::vector<uint8_t>> &outputImages);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_DEVICEBUFFERS_H
