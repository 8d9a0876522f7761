// RUN: softmax-opt %s --softmax-lower-to-gpu --split-input-file -verify-diagnostics

func.func @unfused(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.softmax' op must be fused before softmax-lower-to-gpu: run softmax-fuse first}}
  %0 = softmax.softmax %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @no_strategy(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op has no 'strategies': run softmax-select-strategy first}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A non-last axis takes the strided_axis kernels, which compute scales and roundings only: the
// masks and biases are rejected, not miscompiled.
func.func @causal_non_last_axis(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op softmax-lower-to-gpu: prologue step #softmax.mask<causal, fill = -1.000000e+04> is not supported over a non-last axis (axis 1 of a rank-3 tensor): the strided_axis kernels take scale, scale_by and round steps only; move the axis last (a transpose) to use the row kernels}}
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.mask<causal, offset = 0, fill = -1.0e4>] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 1>]} : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @bias_non_last_axis(%x: tensor<4x8xf32>, %b: tensor<4x1xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{prologue step #softmax.bias<0> is not supported over a non-last axis (axis 0 of a rank-2 tensor)}}
  %0 = softmax.fused softmax %x (%b : tensor<4x1xf32>) axis = 0 prologue [#softmax.bias<0>] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 1>]} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @padding_non_last_axis(%x: tensor<4x8xf32>, %len: tensor<8xi32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{prologue step #softmax.mask<padding, operand = 0, fill = 0xFFF0000000000000> is not supported over a non-last axis (axis 0 of a rank-2 tensor)}}
  %0 = softmax.fused softmax %x (%len : tensor<8xi32>) axis = 0 prologue [#softmax.mask<padding, operand = 0, fill = 0xFFF0000000000000>] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 1>]} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// expected-error @+1 {{softmax-lower-to-gpu: results must be ranked tensors, got 'f32'}}
func.func @scalar_result(%x: tensor<4x8xf32>, %t: f32) -> (tensor<4x8xf32>, f32) {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 1>]} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0, %t : tensor<4x8xf32>, f32
}

// -----

func.func @foreign_tensor_op(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 1>]} : tensor<4x8xf32> -> tensor<4x8xf32>
  // expected-error @+1 {{'tensor.empty' op on tensors is not supported by softmax-lower-to-gpu}}
  %1 = tensor.empty() : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @returns_argument(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 1>]} : tensor<4x8xf32> -> tensor<4x8xf32>
  // expected-error @+1 {{'func.return' op result 0 is not a softmax.fused result of its own (an argument, or a value returned twice): run softmax-fuse, which inserts the copy}}
  return %x : tensor<4x8xf32>
}

// -----

module @outer {
  module @inner {
    func.func @nested(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
      // expected-error @+1 {{'softmax.fused' op is not lowered by softmax-lower-to-gpu, which lowers the softmax ops of func.func functions directly in the top-level module; this one is inside 'func.func' in 'builtin.module' @inner}}
      %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 1>]} : tensor<4x8xf32> -> tensor<4x8xf32>
      return %0 : tensor<4x8xf32>
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @device {
    gpu.func @in_kernel(%x: tensor<4x8xf32>) kernel {
      // expected-error @+1 {{'softmax.softmax' op is not lowered by softmax-lower-to-gpu, which lowers the softmax ops of func.func functions directly in the top-level module; this one is inside 'gpu.func' in 'gpu.module' @device}}
      %0 = softmax.softmax %x : tensor<4x8xf32>
      gpu.return
    }
  }
}

// -----

// expected-error @+1 {{softmax-lower-to-gpu: function @no_softmax has tensors but no softmax op, and nothing lowers it (a returned argument becomes a softmax op in softmax-fuse)}}
func.func @no_softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}

// -----

func.func @tensor_in_body() {
  // expected-error @+1 {{'tensor.empty' op on tensors is not supported by softmax-lower-to-gpu (function @tensor_in_body has no softmax op)}}
  %0 = tensor.empty() : tensor<4x8xf32>
  return
}

// -----

// expected-error @+1 {{softmax-lower-to-gpu: the C interface of @f would be named '_mlir_ciface_f', but the module already has a symbol of that name}}
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 1>]} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// expected-note @+1 {{that symbol}}
func.func private @_mlir_ciface_f()

// -----

// expected-error @+1 {{softmax-lower-to-gpu: declaration @external has tensors in its signature, and nothing lowers it}}
func.func private @external(tensor<4x8xf32>) -> tensor<4x8xf32>
