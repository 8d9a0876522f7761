// RUN: softmax-opt %s -split-input-file -verify-diagnostics

func.func @rank_zero(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'softmax.softmax' op expects a tensor of rank >= 1, got 'tensor<f32>'}}
  %0 = softmax.softmax %x : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @axis_too_large(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'softmax.softmax' op axis 2 is out of range for a tensor of rank 2 (expected -2 <= axis < 2)}}
  %0 = softmax.softmax %x axis = 2 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @axis_too_negative(%x: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
  // expected-error @+1 {{'softmax.log_softmax' op axis -3 is out of range for a tensor of rank 2 (expected -2 <= axis < 2)}}
  %0 = softmax.log_softmax %x axis = -3 : tensor<2x3xbf16>
  return %0 : tensor<2x3xbf16>
}

// -----

func.func @integer_elements(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'softmax.softmax' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<4xi32>'}}
  %0 = softmax.softmax %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @f64_elements(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<4xf64>'}}
  %0 = softmax.softmax %x : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<*xf32>'}}
  %0 = "softmax.softmax"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @result_type_differs(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'softmax.softmax' op requires the same type for all operands and results}}
  %0 = "softmax.softmax"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @bad_masked_rows(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'softmax.softmax' expected string or keyword containing one of the following enum values for attribute 'masked_rows' [zero, nan]}}
  %0 = softmax.softmax %x masked_rows = uniform : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scale_without_factor(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'softmax.scale' op requires exactly one factor: a constant ('by 0.5') or a scalar operand ('by %f : tensor<...>, f32')}}
  %0 = softmax.scale %x by : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scale_with_two_factors(%x: tensor<4xf32>, %t: f32) -> tensor<4xf32> {
  // expected-error @+1 {{'softmax.scale' op requires exactly one factor}}
  %0 = softmax.scale %x by %t 2.0 : tensor<4xf32>, f32
  return %0 : tensor<4xf32>
}

// -----

func.func @scale_by_infinity(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'softmax.scale' op constant factor must be finite, got INF}}
  %0 = softmax.scale %x by 0x7FF0000000000000 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scale_by_integer(%x: tensor<4xf32>, %t: i32) -> tensor<4xf32> {
  // expected-error @+1 {{'softmax.scale' op operand #1 must be floating-point, but got 'i32'}}
  %0 = softmax.scale %x by %t : tensor<4xf32>, i32
  return %0 : tensor<4xf32>
}

// -----

func.func @bias_too_many_dims(%x: tensor<8xf32>, %b: tensor<2x8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'softmax.add_bias' op bias of shape 2x8 has more dimensions than the input shape 8}}
  %0 = softmax.add_bias %x, %b : tensor<8xf32>, tensor<2x8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @bias_mismatch(%x: tensor<4x8xf32>, %b: tensor<3x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.add_bias' op bias of shape 3x8 does not broadcast to the input shape 4x8: its dimension 0 has size 3, expected 1 or 4}}
  %0 = softmax.add_bias %x, %b : tensor<4x8xf32>, tensor<3x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @mask_fill_nan(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'softmax.mask' op fill value must not be NaN}}
  %0 = softmax.mask %x, causal fill = 0x7FF8000000000000 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @mask_axis(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'softmax.mask' op axis 5 is out of range for a tensor of rank 2 (expected -2 <= axis < 2)}}
  %0 = softmax.mask %x, causal axis = 5 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @offset_on_padding(%x: tensor<2x8xf32>, %l: tensor<2xi32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'softmax.mask' op 'offset' applies only to causal masks}}
  %0 = softmax.mask %x, padding %l offset = 1 : tensor<2x8xf32>, tensor<2xi32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @padding_without_lengths(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'softmax.mask' op padding mask requires a lengths operand ('padding %lengths')}}
  %0 = softmax.mask %x, padding : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @padding_i1_lengths(%x: tensor<2x8xf32>, %l: tensor<2xi1>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'softmax.mask' op padding lengths must have i32 or i64 elements, got 'i1'}}
  %0 = softmax.mask %x, padding %l : tensor<2x8xf32>, tensor<2xi1>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @padding_float_lengths(%x: tensor<2x8xf32>, %l: tensor<2xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'softmax.mask' op operand #1 must be ranked tensor of 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = softmax.mask %x, padding %l : tensor<2x8xf32>, tensor<2xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @padding_lengths_shape(%x: tensor<2x3x8xf32>, %l: tensor<2x8xi32>) -> tensor<2x3x8xf32> {
  // expected-error @+1 {{'softmax.mask' op lengths of shape 2x8 does not broadcast to the row shape 2x3: its dimension 1 has size 8, expected 1 or 3}}
  %0 = softmax.mask %x, padding %l : tensor<2x3x8xf32>, tensor<2x8xi32>
  return %0 : tensor<2x3x8xf32>
}

// -----

func.func @causal_with_operand(%x: tensor<2x8xf32>, %m: tensor<2x8xi1>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'softmax.mask' op causal mask takes no operand}}
  %0 = softmax.mask %x, causal %m : tensor<2x8xf32>, tensor<2x8xi1>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @causal_without_query_dim(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'softmax.mask' op causal mask needs a query dimension before the column axis, but the column axis is dimension 0}}
  %0 = softmax.mask %x, causal : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @tensor_without_mask(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'softmax.mask' op tensor mask requires an i1 mask operand ('tensor %mask')}}
  %0 = softmax.mask %x, tensor : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @tensor_mask_i32(%x: tensor<2x8xf32>, %m: tensor<2x8xi32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'softmax.mask' op tensor mask must have i1 elements, got 'i32'}}
  %0 = softmax.mask %x, tensor %m : tensor<2x8xf32>, tensor<2x8xi32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @tensor_mask_shape(%x: tensor<2x8xf32>, %m: tensor<7xi1>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'softmax.mask' op mask of shape 7 does not broadcast to the input shape 2x8: its dimension 0 has size 7, expected 1 or 8}}
  %0 = softmax.mask %x, tensor %m : tensor<2x8xf32>, tensor<7xi1>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @unknown_mask_kind(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{custom op 'softmax.mask' expected string or keyword containing one of the following enum values for attribute 'kind' [padding, causal, tensor]}}
  %0 = softmax.mask %x, sliding : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @cast_shape(%x: tensor<2x8xf32>) -> tensor<8x2xbf16> {
  // expected-error @+1 {{'softmax.cast' op changes the element type only, but the shapes differ: 'tensor<2x8xf32>' to 'tensor<8x2xbf16>'}}
  %0 = softmax.cast %x : tensor<2x8xf32> to tensor<8x2xbf16>
  return %0 : tensor<8x2xbf16>
}

// -----

func.func @cast_to_f64(%x: tensor<2x8xf32>) -> tensor<2x8xf64> {
  // expected-error @+1 {{'softmax.cast' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<2x8xf64>'}}
  %0 = softmax.cast %x : tensor<2x8xf32> to tensor<2x8xf64>
  return %0 : tensor<2x8xf64>
}

// -----

// expected-error @+1 {{lanes must be a power of two up to 32 or a multiple of 32 up to 1024, got 48}}
func.func @strategy_lanes() attributes {s = #softmax.strategy<row_registers, lanes = 48, rows = 1, vector = 4, chunks = 1>} { return }

// -----

// expected-error @+1 {{lanes must be a power of two up to 32 or a multiple of 32 up to 1024, got 24}}
func.func @strategy_lanes_in_warp() attributes {s = #softmax.strategy<multi_row, lanes = 24, rows = 4, vector = 4, chunks = 1>} { return }

// -----

// expected-error @+1 {{strided_axis needs lanes a power of two, got 96}}
func.func @strategy_axis_lanes() attributes {s = #softmax.strategy<strided_axis, lanes = 96, rows = 1, vector = 4, chunks = 1>} { return }

// -----

// expected-error @+1 {{rows must be in [1, 1024], got 0}}
func.func @strategy_rows() attributes {s = #softmax.strategy<multi_row, lanes = 8, rows = 0, vector = 4, chunks = 1>} { return }

// -----

// expected-error @+1 {{a block of lanes * rows = 16 threads must be a multiple of 32 and at most 1024}}
func.func @strategy_block() attributes {s = #softmax.strategy<multi_row, lanes = 8, rows = 2, vector = 4, chunks = 1>} { return }

// -----

// expected-error @+1 {{vector must be 1, 2, 4 or 8 elements, got 3}}
func.func @strategy_vector() attributes {s = #softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 3, chunks = 1>} { return }

// -----

// expected-error @+1 {{chunks must be in [1, 64], got 0}}
func.func @strategy_chunks() attributes {s = #softmax.strategy<chunked_online, lanes = 256, rows = 1, vector = 4, chunks = 0>} { return }

// -----

// expected-error @+1 {{multi_row shares a warp between rows: lanes must be at most 32, got 64}}
func.func @strategy_multi_row() attributes {s = #softmax.strategy<multi_row, lanes = 64, rows = 1, vector = 4, chunks = 1>} { return }

// -----

// expected-error @+1 {{row_registers gives each row at least a warp: lanes must be at least 32, got 16 (use multi_row)}}
func.func @strategy_row_registers() attributes {s = #softmax.strategy<row_registers, lanes = 16, rows = 2, vector = 4, chunks = 1>} { return }

// -----

// expected-error @+1 {{row_shared keeps one row a block in shared memory: rows must be 1, got 2}}
func.func @strategy_row_shared() attributes {s = #softmax.strategy<row_shared, lanes = 512, rows = 2, vector = 4, chunks = 4>} { return }

// -----

// expected-error @+1 {{row_staged keeps one row a block in shared memory: rows must be 1, got 2}}
func.func @strategy_row_staged_rows() attributes {s = #softmax.strategy<row_staged, lanes = 256, rows = 2, vector = 8, chunks = 1>} { return }

// -----

// expected-error @+1 {{row_staged moves 16-byte words: vector must be 4 (f32) or 8 (f16, bf16), got 2}}
func.func @strategy_row_staged_vector() attributes {s = #softmax.strategy<row_staged, lanes = 256, rows = 1, vector = 2, chunks = 1>} { return }

// -----

// expected-error @+1 {{row_staged takes one word a thread at a time: chunks must be 1, got 4}}
func.func @strategy_row_staged_chunks() attributes {s = #softmax.strategy<row_staged, lanes = 256, rows = 1, vector = 8, chunks = 4>} { return }

// -----

// expected-error @+1 {{row_staged stages a row across 1 to 16 blocks: cluster must be in that range, got 17}}
func.func @strategy_row_staged_cluster() attributes {s = #softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 17>} { return }

// -----

// expected-error @+1 {{row_staged stages a row across 1 to 16 blocks: cluster must be in that range, got 0}}
func.func @strategy_row_staged_cluster_zero() attributes {s = #softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 0>} { return }

// -----

// expected-error @+1 {{row_cluster spreads a row over 2 to 16 blocks: cluster must be in that range, got 1}}
func.func @strategy_cluster_one() attributes {s = #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 4>} { return }

// -----

// expected-error @+1 {{row_cluster spreads a row over 2 to 16 blocks: cluster must be in that range, got 17}}
func.func @strategy_cluster_big() attributes {s = #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 4, cluster = 17>} { return }

// -----

// expected-error @+1 {{row_cluster gives a row whole blocks: rows must be 1, got 2}}
func.func @strategy_cluster_rows() attributes {s = #softmax.strategy<row_cluster, lanes = 256, rows = 2, vector = 4, chunks = 4, cluster = 2>} { return }

// -----

// expected-error @+1 {{a block of lanes * rows = 16 threads must be a multiple of 32 and at most 1024}}
func.func @strategy_cluster_lanes() attributes {s = #softmax.strategy<row_cluster, lanes = 16, rows = 1, vector = 4, chunks = 4, cluster = 2>} { return }

// -----

// expected-error @+1 {{row_cluster keeps vector * chunks = 512 values a thread in registers, at most 256}}
func.func @strategy_cluster_values() attributes {s = #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 64, cluster = 2>} { return }

// -----

// expected-error @+1 {{cluster is a parameter of row_cluster, row_staged, row_split and strided_axis: row_registers needs cluster = 1 (or none), got 4}}
func.func @strategy_cluster_elsewhere() attributes {s = #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 4, cluster = 4>} { return }

// -----

// expected-error @+2 {{expected ::mlir::softmax::KernelPlan to be one of: multi_row, row_registers, chunked_online, row_shared, row_cluster}}
// expected-error @+1 {{failed to parse Softmax_StrategyAttr parameter 'plan'}}
func.func @strategy_plan() attributes {s = #softmax.strategy<tiled, lanes = 16, rows = 2, vector = 4, chunks = 1>} { return }

// -----

// expected-error @+1 {{struct is missing required parameter: chunks}}
func.func @strategy_missing() attributes {s = #softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4>} { return }

// -----

func.func @syntax_error(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected ':'}}
  %0 = softmax.softmax %x tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unranked_custom_form(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{custom op 'softmax.softmax' expects a ranked tensor type (the softmax ops work on ranked tensors), got 'tensor<*xf32>'}}
  %0 = softmax.softmax %x : tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @encoding(%x: tensor<4x8xf32, "sparse">) -> tensor<4x8xf32, "sparse"> {
  // expected-error @+1 {{'softmax.softmax' op operand #0 has a tensor encoding, which the softmax ops do not support (it would be dropped), got 'tensor<4x8xf32, "sparse">'}}
  %0 = softmax.softmax %x : tensor<4x8xf32, "sparse">
  return %0 : tensor<4x8xf32, "sparse">
}

// -----

func.func @bias_encoding(%x: tensor<4x8xf32>, %b: tensor<8xf32, "enc">) -> tensor<4x8xf32> {
  // expected-error @+1 {{'softmax.add_bias' op operand #1 has a tensor encoding}}
  %0 = softmax.add_bias %x, %b : tensor<4x8xf32>, tensor<8xf32, "enc">
  return %0 : tensor<4x8xf32>
}

// -----

func.func @row_width_too_large(%x: tensor<2x4611686018427387904xf32>) -> tensor<2x4611686018427387904xf32> {
  // expected-error @+1 {{'softmax.softmax' op row width 4611686018427387904 is too large: a row holds fewer than 2^62 elements}}
  %0 = softmax.softmax %x : tensor<2x4611686018427387904xf32>
  return %0 : tensor<2x4611686018427387904xf32>
}

// -----

func.func @too_many_elements(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  // expected-error @+1 {{'softmax.log_softmax' op tensor 'tensor<4294967296x4294967296xf32>' has 2^62 elements or more, more than the kernels index}}
  %0 = softmax.log_softmax %x : tensor<4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296xf32>
}

// -----

func.func @scale_rank_zero(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'softmax.scale' op expects a tensor of rank >= 1, got 'tensor<f32>'}}
  %0 = softmax.scale %x by 2.0 : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @bias_rank_zero(%x: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'softmax.add_bias' op expects a tensor of rank >= 1, got 'tensor<f32>'}}
  %0 = softmax.add_bias %x, %b : tensor<f32>, tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @cast_rank_zero(%x: tensor<f32>) -> tensor<bf16> {
  // expected-error @+1 {{'softmax.cast' op expects a tensor of rank >= 1, got 'tensor<f32>'}}
  %0 = softmax.cast %x : tensor<f32> to tensor<bf16>
  return %0 : tensor<bf16>
}

// -----

func.func @scale_by_f80(%x: tensor<4xf32>, %t: f80) -> tensor<4xf32> {
  // expected-error @+1 {{'softmax.scale' op scalar factor must be f16, bf16, f32 or f64, got 'f80'}}
  %0 = softmax.scale %x by %t : tensor<4xf32>, f80
  return %0 : tensor<4xf32>
}

// -----

func.func @scale_by_f128(%x: tensor<4xf32>, %t: f128) -> tensor<4xf32> {
  // expected-error @+1 {{'softmax.scale' op scalar factor must be f16, bf16, f32 or f64, got 'f128'}}
  %0 = softmax.scale %x by %t : tensor<4xf32>, f128
  return %0 : tensor<4xf32>
}

// -----

func.func @scale_by_f8(%x: tensor<4xf32>, %t: f8E4M3FN) -> tensor<4xf32> {
  // expected-error @+1 {{'softmax.scale' op scalar factor must be f16, bf16, f32 or f64, got 'f8E4M3FN'}}
  %0 = softmax.scale %x by %t : tensor<4xf32>, f8E4M3FN
  return %0 : tensor<4xf32>
}

// -----

func.func @scale_by_tf32(%x: tensor<4xf32>, %t: tf32) -> tensor<4xf32> {
  // expected-error @+1 {{'softmax.scale' op scalar factor must be f16, bf16, f32 or f64, got 'tf32'}}
  %0 = softmax.scale %x by %t : tensor<4xf32>, tf32
  return %0 : tensor<4xf32>
}

// -----

func.func @scale_overflows_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'softmax.scale' op constant factor 1.000000e+39 is not finite in f32 (the kernels compute in f32, whose largest finite value is 3.40282347e+38)}}
  %0 = softmax.scale %x by 1.0e39 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @fill_overflows_f32(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'softmax.mask' op fill value -1.000000e+39 is not finite in f32 (the kernels compute in f32, whose largest finite value is 3.40282347e+38; write -inf for an infinite fill)}}
  %0 = softmax.mask %x, causal fill = -1.0e39 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @causal_offset_wraps(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'softmax.mask' op causal offset 9223372036854775807 is out of range: its magnitude must be below 2^62}}
  %0 = softmax.mask %x, causal offset = 9223372036854775807 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// expected-error @+1 {{rows must be in [1, 1024], got 2305843009213693952}}
func.func @strategy_rows_overflow() attributes {s = #softmax.strategy<multi_row, lanes = 8, rows = 2305843009213693952, vector = 4, chunks = 1>} { return }

// -----

// expected-error @+1 {{row_registers keeps vector * chunks = 512 values a thread in registers, at most 256}}
func.func @strategy_too_many_values() attributes {s = #softmax.strategy<row_registers, lanes = 32, rows = 1, vector = 8, chunks = 64>} { return }

// -----

// expected-error @+1 {{strided_axis combines the rows of a column in 65536 bytes of shared memory (2 * rows / max(1, 32 / lanes) * lanes * vector * 4, and 4 * lanes * vector * 4 over a cluster), at most 49152}}
func.func @strided_axis_shared() attributes {s = #softmax.strategy<strided_axis, lanes = 32, rows = 32, vector = 8, chunks = 1>} { return }

// -----

// expected-error @+1 {{strided_axis keeps vector * chunks = 512 values a thread in registers, at most 256}}
func.func @strided_axis_too_many_values() attributes {s = #softmax.strategy<strided_axis, lanes = 32, rows = 1, vector = 8, chunks = 64>} { return }

// -----

// The exchange slots of a cluster count against the shared memory of a block.
// expected-error @+1 {{strided_axis combines the rows of a column in 65536 bytes of shared memory (2 * rows / max(1, 32 / lanes) * lanes * vector * 4, and 4 * lanes * vector * 4 over a cluster), at most 49152}}
func.func @strided_axis_cluster_shared() attributes {s = #softmax.strategy<strided_axis, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 2>} { return }

// -----

// expected-error @+1 {{strided_axis spreads a column over a cluster of 1 to 16 blocks: cluster must be in that range, got 32}}
func.func @strided_axis_cluster_range() attributes {s = #softmax.strategy<strided_axis, lanes = 32, rows = 8, vector = 4, chunks = 8, cluster = 32>} { return }
