//===- HaveGpu.h - Whether the unit tests can reach a GPU -------*- C++ -*-===//
//
// Shared by the unit tests that skip without a CUDA driver and device.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_TEST_UNIT_HAVEGPU_H
#define SOFTMAX_TEST_UNIT_HAVEGPU_H

#include "softmax/Runtime/CudaDriver.h"

namespace softmax::test {

/// The driver's load outcome, computed once (load() is idempotent anyway).
inline bool haveGpu() {
  static bool loaded = [] {
    llvm::Error error = runtime::CudaDriver::get().load();
    if (!error)
      return true;
    llvm::consumeError(std::move(error));
    return false;
  }();
  return loaded;
}

} // namespace softmax::test

#endif // SOFTMAX_TEST_UNIT_HAVEGPU_H
