// RUN: softmax-opt %s -split-input-file -verify-diagnostics

func.func @bad_operand_index(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op prologue step #softmax.bias<0> refers to operand 0, but the op has 0 side operands}}
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.bias<0>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @unused_operand(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op side operand 0 is not used by any prologue step}}
  %0 = softmax.fused softmax %x (%b : tensor<8xf32>) axis = 1 prologue [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @scale_by_tensor(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op prologue step #softmax.scale_by<0> needs a float scalar operand, got 'tensor<8xf32>'}}
  %0 = softmax.fused softmax %x (%b : tensor<8xf32>) axis = 1 prologue [#softmax.scale_by<0>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @bias_shape(%x: tensor<4x8xf32>, %b: tensor<5xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op bias of shape 5 does not broadcast to the input shape 4x8: its dimension 0 has size 5, expected 1 or 8}}
  %0 = softmax.fused softmax %x (%b : tensor<5xf32>) axis = 1 prologue [#softmax.bias<0>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @lengths_type(%x: tensor<4x8xf32>, %l: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op padding lengths must have i32 or i64 elements, got 'tensor<4xf32>'}}
  %0 = softmax.fused softmax %x (%l : tensor<4xf32>) axis = 1 prologue [#softmax.mask<padding, operand = 0, fill = 0xFFF0000000000000>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @mask_type(%x: tensor<4x8xf32>, %m: tensor<4x8xi32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op a tensor mask must have i1 elements, got 'tensor<4x8xi32>'}}
  %0 = softmax.fused softmax %x (%m : tensor<4x8xi32>) axis = 1 prologue [#softmax.mask<tensor, operand = 0, fill = 0xFFF0000000000000>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @causal_first_axis(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'softmax.fused' op a causal mask needs a query dimension before the column axis}}
  %0 = softmax.fused softmax %x axis = 0 prologue [#softmax.mask<causal, fill = 0xFFF0000000000000>] : tensor<8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @round_to_f64(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op prologue step #softmax.round<f64> must round to f16, bf16 or f32}}
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.round<f64>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @not_a_step(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op prologue entries must be #softmax.scale, #softmax.scale_by, #softmax.bias, #softmax.mask or #softmax.round, got 1 : i64}}
  %0 = softmax.fused softmax %x axis = 1 prologue [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @nan_fill(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op prologue step #softmax.mask<causal, fill = 0x7FF8000000000000> has a NaN fill value}}
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.mask<causal, fill = 0x7FF8000000000000>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @shape_change(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'softmax.fused' op result shape must match the input shape, got 'tensor<4x8xf32>' and 'tensor<8x4xf32>'}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// An impossible plan: a register plan for a row wider than it can hold.
func.func @register_plan_too_narrow(%x: tensor<4x40000xf32>) -> tensor<4x40000xf32> {
  // expected-error @+1 {{'softmax.fused' op strategy #softmax.strategy<row_registers, lanes = 1024, rows = 1, vector = 4, chunks = 8> holds rows of at most 32768 elements (lanes * vector * chunks), but the row has 40000}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 1024, rows = 1, vector = 4, chunks = 8>]} : tensor<4x40000xf32> -> tensor<4x40000xf32>
  return %0 : tensor<4x40000xf32>
}

// -----

func.func @dynamic_without_fallback(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{'softmax.fused' op a dynamic row width needs a final chunked_online entry in 'strategies' (any width), got [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 1>]}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 1>]} : tensor<4x?xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

func.func @empty_strategies(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' must list at least one kernel plan}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = []} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @row_too_wide_for_shared(%x: tensor<4x60000xf32>) -> tensor<4x60000xf32> {
  // expected-error @+1 {{'softmax.fused' op strategy #softmax.strategy<row_shared, lanes = 1024, rows = 1, vector = 4, chunks = 4> holds rows of at most 57856 elements in shared memory, but the row has 60000}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_shared, lanes = 1024, rows = 1, vector = 4, chunks = 4>]} : tensor<4x60000xf32> -> tensor<4x60000xf32>
  return %0 : tensor<4x60000xf32>
}
