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

// -----

// A feature LLVM's NVPTX back end does not know: it printed "'+ptw60' is not a recognized feature
// for this target (ignoring feature)" and compiled for its default PTX ISA (a fuzzer's input).
// expected-error @+1 {{has feature '+ptw60', which LLVM's NVPTX back end does not know}}
gpu.module @unknown_feature [#nvvm.target<chip = "sm_90", features = "+ptw60">] {
  llvm.func @k4() attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

// A feature without its sign, which LLVM would take as disabled.
// expected-error @+1 {{has feature 'ptx80', which is not +name or -name}}
gpu.module @unsigned_feature [#nvvm.target<chip = "sm_90", features = "ptx80">] {
  llvm.func @k5() attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

// A chip the back end does not know, rather than a PTX ISA it would need.
// expected-error @+1 {{names chip 'sm_999', which LLVM's NVPTX back end does not know}}
gpu.module @unknown_chip [#nvvm.target<chip = "sm_999", features = "+ptx80">] {
  llvm.func @k6() attributes {nvvm.kernel} {
    llvm.return
  }
}

// -----

// Several known features, an arch-specific chip.
gpu.module @known [#nvvm.target<chip = "sm_90a", features = "+ptx80,+ptx81">] {
  llvm.func @k7() attributes {nvvm.kernel} {
    llvm.return
  }
}
