// Bad options fail the tool before any pass runs (upstream's gpu-module-to-binary would print
// an unknown format and exit 0).
// RUN: not softmax-opt %s --split-input-file --softmax-to-nvvm="format=bogus" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not softmax-opt %s --split-input-file --softmax-to-nvvm="chip=sm_99" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not softmax-opt %s --split-input-file --softmax-to-nvvm="opt-level=4" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not softmax-opt %s --split-input-file --softmax-to-nvvm="features=ptx80" 2>&1 | FileCheck %s --check-prefix=FEATURES
// RUN: not softmax-opt %s --split-input-file --softmax-to-nvvm="format=bin ptx-file=%t.ptx" 2>&1 | FileCheck %s --check-prefix=PTXFILE
// RUN: not softmax-opt %s --split-input-file --softmax-to-nvvm="loop-strength-reduction=maybe" 2>&1 | FileCheck %s --check-prefix=LSR
// FORMAT: error: softmax-to-nvvm: format must be isa (PTX), bin (cubin) or fatbin, got 'bogus'
// CHIP: error: softmax-to-nvvm: unknown chip 'sm_99' (known: sm_80, sm_86, sm_89, sm_90, sm_90a)
// OPT: error: softmax-to-nvvm: opt-level must be 0, 1, 2 or 3, got 4
// FEATURES: error: softmax-to-nvvm: features must be a comma-separated list of +feature or -feature (e.g. +ptx80), got 'ptx80'
// PTXFILE: error: softmax-to-nvvm: ptx-file needs format=isa (with format=bin there is no PTX to write)
// LSR: for the --loop-strength-reduction option: 'maybe' is invalid value for boolean argument

// Code the pipeline does not lower fails it, at the op, instead of passing through.
// RUN: softmax-opt %s --split-input-file --softmax-to-nvvm -verify-diagnostics -o /dev/null

module {
  module @inner {
    func.func @nested(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
      // expected-error @+1 {{'softmax.softmax' op is not lowered by softmax-lower-to-gpu, which lowers the softmax ops of func.func functions directly in the top-level module; this one is inside 'func.func' in 'builtin.module' @inner}}
      %0 = softmax.softmax %x : tensor<4x64xf32>
      return %0 : tensor<4x64xf32>
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @device {
    gpu.func @in_kernel(%x: tensor<4x64xf32>) kernel {
      // expected-error @+1 {{'softmax.softmax' op is not lowered by softmax-lower-to-gpu, which lowers the softmax ops of func.func functions directly in the top-level module; this one is inside 'gpu.func' in 'gpu.module' @device}}
      %0 = softmax.softmax %x : tensor<4x64xf32>
      gpu.return
    }
  }
}

// -----

// expected-error @+1 {{softmax-lower-to-gpu: function @no_softmax has tensors but no softmax op, and nothing lowers it}}
func.func @no_softmax() -> tensor<4x64xf32> {
  %0 = tensor.empty() : tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

// A row_shared plan written by hand for a row that the chip's shared memory cannot hold (the
// sm_90 run above compiles it).
// RUN: not softmax-opt %s --split-input-file --softmax-to-nvvm="chip=sm_86" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM86
// SM86: error: 'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>) needs 160128 bytes of shared memory for a row of 40000 elements, but sm_86 gives a block at most 101376
func.func @shared_row_on_sm86(%x: tensor<4x40000xf32>) -> tensor<4x40000xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>]} : tensor<4x40000xf32> -> tensor<4x40000xf32>
  return %0 : tensor<4x40000xf32>
}
