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
  // expected-error @+1 {{'softmax.fused' op a dynamic row width needs a final chunked_online or row_split entry in 'strategies' (any width), got [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 1>]}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 1>]} : tensor<4x?xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// Alternatives of one tier: the entries of one maximum width but the last run only as fast
// kernels, which vectors of 1 do not have.
func.func @alternative_without_fast_kernel(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<row_registers, lanes = 64, rows = 1, vector = 1, chunks = 16>) is an alternative of entry 1 (the same maximum width) on vectors of 1, which has no fast kernel and would never run; put it last among them}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 1, vector = 1, chunks = 16>, #softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 4, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]} : tensor<4x?xf32> -> tensor<4x?xf32>
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

// -----

func.func @row_too_wide_for_cluster(%x: tensor<4x70000xf32>) -> tensor<4x70000xf32> {
  // expected-error @+1 {{'softmax.fused' op strategy #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 4> holds rows of at most 65536 elements (cluster * lanes * vector * chunks), but the row has 70000}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 4>]} : tensor<4x70000xf32> -> tensor<4x70000xf32>
  return %0 : tensor<4x70000xf32>
}

// -----

func.func @scale_by_f80(%x: tensor<4x8xf32>, %t: f80) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op prologue step #softmax.scale_by<0> needs an f16, bf16, f32 or f64 scalar, got 'f80'}}
  %0 = softmax.fused softmax %x (%t : f80) axis = 1 prologue [#softmax.scale_by<0>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @bias_f128(%x: tensor<4x8xf32>, %b: tensor<8xf128>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op prologue step #softmax.bias<0> needs a tensor of f16, bf16 or f32 elements, got 'tensor<8xf128>'}}
  %0 = softmax.fused softmax %x (%b : tensor<8xf128>) axis = 1 prologue [#softmax.bias<0>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @bias_f8(%x: tensor<4x8xf32>, %b: tensor<8xf8E5M2>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op prologue step #softmax.bias<0> needs a tensor of f16, bf16 or f32 elements, got 'tensor<8xf8E5M2>'}}
  %0 = softmax.fused softmax %x (%b : tensor<8xf8E5M2>) axis = 1 prologue [#softmax.bias<0>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @scale_overflows_f32(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op prologue step #softmax.scale<9.9999999999999994E+38> has a factor that is not finite in f32 (the kernels compute in f32, whose largest finite value is 3.40282347e+38)}}
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<1.0e39>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @fill_overflows_f32(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op prologue step #softmax.mask<causal, fill = -9.9999999999999994E+38> has a fill value that is not finite in f32}}
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.mask<causal, fill = -1.0e39>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @offset_on_padding(%x: tensor<4x8xf32>, %l: tensor<4xi32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op prologue step #softmax.mask<padding, operand = 0, offset = 3, fill = 0xFFF0000000000000>: 'offset' applies only to causal masks}}
  %0 = softmax.fused softmax %x (%l : tensor<4xi32>) axis = 1 prologue [#softmax.mask<padding, operand = 0, offset = 3, fill = 0xFFF0000000000000>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @offset_on_tensor_mask(%x: tensor<4x8xf32>, %m: tensor<4x8xi1>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'offset' applies only to causal masks}}
  %0 = softmax.fused softmax %x (%m : tensor<4x8xi1>) axis = 1 prologue [#softmax.mask<tensor, operand = 0, offset = -1, fill = 0xFFF0000000000000>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @operand_on_causal(%x: tensor<4x8xf32>, %m: tensor<4x8xi1>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op prologue step #softmax.mask<causal, operand = 0, fill = 0xFFF0000000000000>: a causal mask takes no operand, got operand = 0}}
  %0 = softmax.fused softmax %x (%m : tensor<4x8xi1>) axis = 1 prologue [#softmax.mask<causal, operand = 0, fill = 0xFFF0000000000000>, #softmax.mask<tensor, operand = 0, fill = 0xFFF0000000000000>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @causal_offset_wraps(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op causal offset -9223372036854775808 is out of range: its magnitude must be below 2^62}}
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.mask<causal, offset = -9223372036854775808, fill = 0xFFF0000000000000>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @side_operand_encoding(%x: tensor<4x8xf32>, %b: tensor<8xf32, "enc">) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op operand #1 has a tensor encoding, which the softmax ops do not support (it would be dropped), got 'tensor<8xf32, "enc">'}}
  %0 = softmax.fused softmax %x (%b : tensor<8xf32, "enc">) axis = 1 prologue [#softmax.bias<0>] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @strategies_entry_not_a_plan(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 1 must be a #softmax.strategy, got 7 : i64}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 1>, 7]} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @row_plan_on_non_last_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op a softmax over axis 0 of a rank-2 tensor (not the last) takes one strided_axis entry in 'strategies', got [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 1>]}}
  %0 = softmax.fused softmax %x axis = 0 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 1>]} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A static axis size takes one plan: tiers are for a dynamic one.
func.func @two_axis_plans(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{'softmax.fused' op a softmax over axis 0 of a rank-2 tensor (not the last) takes one strided_axis entry in 'strategies'}}
  %0 = softmax.fused softmax %x axis = 0 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 1>, #softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 2>]} : tensor<4x?xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

func.func @row_plan_among_axis_tiers(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'softmax.fused' op a softmax over axis 0 of a rank-2 tensor (not the last) takes strided_axis entries in 'strategies'}}
  %0 = softmax.fused softmax %x axis = 0 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 1>, #softmax.strategy<chunked_online, lanes = 32, rows = 1, vector = 4, chunks = 2>]} : tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// A column over a cluster is held in registers: the general plan of a dynamic C (which also
// takes the online path) has one block a column, and a static C must fit the cluster.
func.func @axis_cluster_general(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 1 (#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>) is the general plan of a dynamic axis size, which takes any C (two reads beyond its capacity): it needs cluster = 1; a cluster spreads the column of a tier before it}}
  %0 = softmax.fused softmax %x axis = 0 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 2>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>]} : tensor<?x1024xf32> -> tensor<?x1024xf32>
  return %0 : tensor<?x1024xf32>
}

// -----

func.func @axis_cluster_too_small(%x: tensor<4097x1024xf32>) -> tensor<4097x1024xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>) spreads a column over a cluster, which holds it in registers: at most rows * chunks * cluster = 4096 axis values, but C is 4097}}
  %0 = softmax.fused softmax %x axis = 0 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>]} : tensor<4097x1024xf32> -> tensor<4097x1024xf32>
  return %0 : tensor<4097x1024xf32>
}

// -----

func.func @axis_tier_on_scalars(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<strided_axis, lanes = 32, rows = 16, vector = 1, chunks = 1>) is a tier of a dynamic axis size, which runs on aligned vectors only: vector = 1 would never run}}
  %0 = softmax.fused softmax %x axis = 0 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 32, rows = 16, vector = 1, chunks = 1>, #softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 2>]} : tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

func.func @axis_tiers_out_of_order(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 1 (#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 1>) holds 16 axis values (rows * chunks), no more than the tier before it (32): the tiers of a dynamic axis size go from the smallest capacity to the largest}}
  %0 = softmax.fused softmax %x axis = 0 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 2>, #softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 1>, #softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 4>]} : tensor<?x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

func.func @strided_axis_on_last_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 1>): strided_axis is for a softmax over a non-last axis; this one is over the last (use a row plan)}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 1>]} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The kernel size bound (FusedOp::getUnrolledWork): vector * chunks * (4 + prologue steps) is at
// most 1024. 256 values a thread through 4 steps unroll 2048.
func.func @unrolls_too_much(%x: tensor<8x65536xf32>) -> tensor<8x65536xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<chunked_online, lanes = 256, rows = 1, vector = 4, chunks = 64>) unrolls 256 values a thread through 4 prologue steps: vector * chunks * (4 + steps) = 2048 exceeds the kernel size bound of 1024 (compile time grows with it); give a thread fewer values a span or split the prologue}}
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>] {strategies = [#softmax.strategy<chunked_online, lanes = 256, rows = 1, vector = 4, chunks = 64>]} : tensor<8x65536xf32> -> tensor<8x65536xf32>
  return %0 : tensor<8x65536xf32>
}

// -----

// At the bound: 256 values a thread and no step (4 * 256 = 1024).
func.func @at_the_bound(%x: tensor<8x65536xf32>) -> tensor<8x65536xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<chunked_online, lanes = 256, rows = 1, vector = 4, chunks = 64>]} : tensor<8x65536xf32> -> tensor<8x65536xf32>
  return %0 : tensor<8x65536xf32>
}

// -----

func.func @staged_vector(%x: tensor<4x100xbf16>) -> tensor<4x100xbf16> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<row_staged, lanes = 32, rows = 1, vector = 4, chunks = 1>): row_staged moves 16-byte words, vector = 8 elements of 'bf16'}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_staged, lanes = 32, rows = 1, vector = 4, chunks = 1>]} : tensor<4x100xbf16> -> tensor<4x100xbf16>
  return %0 : tensor<4x100xbf16>
}

// -----

func.func @staged_prologue(%x: tensor<4x100xbf16>) -> tensor<4x100xbf16> {
  // expected-error @+1 {{row_staged takes a softmax or log_softmax without a prologue whose result has the input's element type}}
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.5>] {strategies = [#softmax.strategy<row_staged, lanes = 32, rows = 1, vector = 8, chunks = 1>]} : tensor<4x100xbf16> -> tensor<4x100xbf16>
  return %0 : tensor<4x100xbf16>
}

// -----

func.func @staged_cast(%x: tensor<4x100xbf16>) -> tensor<4x100xf32> {
  // expected-error @+1 {{row_staged takes a softmax or log_softmax without a prologue whose result has the input's element type}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_staged, lanes = 32, rows = 1, vector = 8, chunks = 1>]} : tensor<4x100xbf16> -> tensor<4x100xf32>
  return %0 : tensor<4x100xf32>
}

// -----

func.func @staged_too_wide(%x: tensor<4x115705xbf16>) -> tensor<4x115705xbf16> {
  // expected-error @+1 {{holds rows of at most 115704 elements in shared memory, but the row has 115705}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>]} : tensor<4x115705xbf16> -> tensor<4x115705xbf16>
  return %0 : tensor<4x115705xbf16>
}

// -----

func.func @staged_cluster_too_wide(%x: tensor<4x231417xbf16>) -> tensor<4x231417xbf16> {
  // expected-error @+1 {{holds rows of at most 231416 elements in shared memory, but the row has 231417}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 2>]} : tensor<4x231417xbf16> -> tensor<4x231417xbf16>
  return %0 : tensor<4x231417xbf16>
}

// -----

// row_split hands each block's (max, sum) on through the output row: two f32 words in the
// first vector of the block's span.
func.func @split_vector_too_narrow(%x: tensor<2x100000xbf16>) -> tensor<2x100000xbf16> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 2, chunks = 4>): row_split passes each block's (max, sum) through the first vector of its span in the output, which needs 8 bytes: vector * 2 output bytes = 4}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 2, chunks = 4>]} : tensor<2x100000xbf16> -> tensor<2x100000xbf16>
  return %0 : tensor<2x100000xbf16>
}

// -----

func.func @split_rows(%x: tensor<2x100000xf32>) -> tensor<2x100000xf32> {
  // expected-error @+1 {{row_split gives each block a span of one row: rows must be 1, got 2}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_split, lanes = 128, rows = 2, vector = 4, chunks = 4>]} : tensor<2x100000xf32> -> tensor<2x100000xf32>
  return %0 : tensor<2x100000xf32>
}

// -----

func.func @split_without_normalization(%x: tensor<2x100000xf32>) -> tensor<2x100000xf32> {
  // expected-error @+1 {{row_split merges the max and sum of a row's blocks; this op has no normalization (use chunked_online)}}
  %0 = softmax.fused none %x axis = 1 prologue [#softmax.scale<0.5>] {strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 4, chunks = 4>]} : tensor<2x100000xf32> -> tensor<2x100000xf32>
  return %0 : tensor<2x100000xf32>
}

// -----

func.func @split_cluster_too_large(%x: tensor<2x100000xf32>) -> tensor<2x100000xf32> {
  // expected-error @+1 {{row_split spreads a row over a cluster of 1 (three launches) to 16 blocks: cluster must be in that range, got 32}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 4, chunks = 4, cluster = 32>]} : tensor<2x100000xf32> -> tensor<2x100000xf32>
  return %0 : tensor<2x100000xf32>
}
