// softmax-serialize-kernels: a module it cannot compile and a format it does not know are
// errors, not silently skipped.
// RUN: softmax-opt %s --split-input-file --verify-diagnostics --softmax-serialize-kernels
// RUN: not softmax-opt %s --softmax-serialize-kernels=format=bogus 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: softmax-serialize-kernels: format must be isa, bin or fatbin, got 'bogus'

// expected-error @+1 {{the module has no target attributes}}
gpu.module @untargeted {
  llvm.func @k() attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

// A PTX ISA below the chip's minimum: LLVM's NVPTX back end aborted the process on it (a
// fuzzer finding, 2026-12-05); now a located error.
// expected-error @+1 {{asks for PTX ISA 6.0, but sm_90 needs 7.8 or later}}
gpu.module @old_ptx [#nvvm.target<chip = "sm_90", features = "+ptx60">] {
  llvm.func @k2() attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

// The minimum itself is fine.
gpu.module @minimum_ptx [#nvvm.target<chip = "sm_80", features = "+ptx70">] {
  llvm.func @k3() attributes {nvvm.kernel} {
    llvm.return
  }
}
