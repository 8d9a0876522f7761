// softmax-serialize-kernels: a module it cannot compile and a format it does not know are
// errors, not silently skipped.
// RUN: softmax-opt %s --verify-diagnostics --softmax-serialize-kernels
// RUN: not softmax-opt %s --softmax-serialize-kernels=format=bogus 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: softmax-serialize-kernels: format must be isa, bin or fatbin, got 'bogus'

// expected-error @+1 {{the module has no target attributes}}
gpu.module @untargeted {
  llvm.func @k() attributes {nvvm.kernel} {
    llvm.return
  }
}
