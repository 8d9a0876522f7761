// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-raise))' --split-input-file | FileCheck %s
// Raised chains are what softmax-fuse takes: one fused op each (masks get the softmax's axis).
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-raise,softmax-fuse))' --split-input-file | FileCheck %s --check-prefix=FUSE

// linalg.softmax on tensors, any dimension. The init operand is only a destination: dropped.
// A row of -inf gives NaN in linalg (-inf - -inf), hence masked_rows = nan.

// CHECK-LABEL: func.func @last_axis
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x1000xf32>)
// CHECK: %[[Y:.+]] = softmax.softmax %[[X]] masked_rows = nan : tensor<4x1000xf32>
// CHECK-NOT: linalg.softmax
// CHECK: return %[[Y]]
func.func @last_axis(%x: tensor<4x1000xf32>) -> tensor<4x1000xf32> {
  %e = tensor.empty() : tensor<4x1000xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<4x1000xf32>) outs(%e : tensor<4x1000xf32>) -> tensor<4x1000xf32>
  return %y : tensor<4x1000xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_middle_axis
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<?x?x?xbf16>
// CHECK: softmax.softmax %[[X]] axis = 1 masked_rows = nan : tensor<?x?x?xbf16>
func.func @dynamic_middle_axis(%x: tensor<?x?x?xbf16>, %init: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %y = linalg.softmax dimension(1) ins(%x : tensor<?x?x?xbf16>) outs(%init : tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16>
  return %y : tensor<?x?x?xbf16>
}

// -----

// CHECK-LABEL: func.func @first_axis_rank4
// CHECK: softmax.softmax %{{.*}} axis = 0 masked_rows = nan : tensor<2x8x16x?xf16>
func.func @first_axis_rank4(%x: tensor<2x8x16x?xf16>, %init: tensor<2x8x16x?xf16>) -> tensor<2x8x16x?xf16> {
  %y = linalg.softmax dimension(0) ins(%x : tensor<2x8x16x?xf16>) outs(%init : tensor<2x8x16x?xf16>) -> tensor<2x8x16x?xf16>
  return %y : tensor<2x8x16x?xf16>
}

// -----

// f64 has no place in the dialect: left as it is.
// CHECK-LABEL: func.func @f64_left_alone
// CHECK: linalg.softmax
// CHECK-NOT: softmax.softmax
func.func @f64_left_alone(%x: tensor<4x8xf64>, %init: tensor<4x8xf64>) -> tensor<4x8xf64> {
  %y = linalg.softmax dimension(1) ins(%x : tensor<4x8xf64>) outs(%init : tensor<4x8xf64>) -> tensor<4x8xf64>
  return %y : tensor<4x8xf64>
}

// -----

// Attention scores as torch-mlir hands them over: bf16 widened, divided by sqrt(d) = 8, a
// per-column bias added, softmax in f32, narrowed back. Each element-wise generic becomes one op.
#map = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @neighbours
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x64xbf16>, %[[B:[a-z0-9]+]]: tensor<64xf32>)
// CHECK: %[[W:.+]] = softmax.cast %[[X]] : tensor<4x64xbf16> to tensor<4x64xf32>
// CHECK: %[[S:.+]] = softmax.scale %[[W]] by 1.250000e-01 : tensor<4x64xf32>
// CHECK: %[[A:.+]] = softmax.add_bias %[[S]], %[[B]] : tensor<4x64xf32>, tensor<64xf32>
// CHECK: %[[P:.+]] = softmax.softmax %[[A]] masked_rows = nan : tensor<4x64xf32>
// CHECK: %[[Y:.+]] = softmax.cast %[[P]] : tensor<4x64xf32> to tensor<4x64xbf16>
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]
func.func @neighbours(%x: tensor<4x64xbf16>, %b: tensor<64xf32>) -> tensor<4x64xbf16> {
  %e = tensor.empty() : tensor<4x64xf32>
  %w = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xbf16>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %0 = arith.extf %in : bf16 to f32
    linalg.yield %0 : f32
  } -> tensor<4x64xf32>
  %c8 = arith.constant 8.0 : f32
  %s = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %c8 : f32
    linalg.yield %0 : f32
  } -> tensor<4x64xf32>
  %a = linalg.generic {indexing_maps = [#map, #col, #map], iterator_types = ["parallel", "parallel"]}
      ins(%s, %b : tensor<4x64xf32>, tensor<64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %0 = arith.addf %in, %bias : f32
    linalg.yield %0 : f32
  } -> tensor<4x64xf32>
  %p = linalg.softmax dimension(1) ins(%a : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %eh = tensor.empty() : tensor<4x64xbf16>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<4x64xf32>) outs(%eh : tensor<4x64xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<4x64xbf16>
  return %y : tensor<4x64xbf16>
}

// -----

// The same neighbours fused into one generic (as after elementwise fusion) give the same chain;
// a scale by a scalar argument; a boolean mask broadcast over the rows, with a large negative fill.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#mask = affine_map<(d0, d1, d2) -> (d1, d2)>
#bias = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// FUSE-LABEL: func.func @fused_neighbours
// FUSE-NEXT: softmax.fused softmax %arg0(%arg1, %arg3, %arg2 : f32, tensor<2x1x32xbf16>, tensor<16x32xi1>) axis = 2
// FUSE-SAME: prologue [#softmax.scale_by<0>, #softmax.bias<1>, #softmax.mask<tensor, operand = 2, fill = -1.000000e+04>] masked_rows = nan
// FUSE-NEXT: return
// CHECK-LABEL: func.func @fused_neighbours
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<2x16x32xf16>, %[[T:[a-z0-9]+]]: f32, %[[M:[a-z0-9]+]]: tensor<16x32xi1>, %[[B:[a-z0-9]+]]: tensor<2x1x32xbf16>)
// CHECK: %[[W:.+]] = softmax.cast %[[X]] : tensor<2x16x32xf16> to tensor<2x16x32xf32>
// CHECK: %[[S:.+]] = softmax.scale %[[W]] by %[[T]] : tensor<2x16x32xf32>, f32
// CHECK: %[[A:.+]] = softmax.add_bias %[[S]], %[[B]] : tensor<2x16x32xf32>, tensor<2x1x32xbf16>
// CHECK: %[[K:.+]] = softmax.mask %[[A]], tensor %[[M]] fill = -1.000000e+04 : tensor<2x16x32xf32>, tensor<16x32xi1>
// CHECK: softmax.softmax %[[K]] masked_rows = nan : tensor<2x16x32xf32>
// CHECK-NOT: linalg.generic
func.func @fused_neighbours(%x: tensor<2x16x32xf16>, %t: f32, %m: tensor<16x32xi1>, %b: tensor<2x1x32xbf16>) -> tensor<2x16x32xf32> {
  %e = tensor.empty() : tensor<2x16x32xf32>
  %fill = arith.constant -1.0e4 : f32
  %k = linalg.generic {indexing_maps = [#map, #mask, #bias, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m, %b : tensor<2x16x32xf16>, tensor<16x32xi1>, tensor<2x1x32xbf16>) outs(%e : tensor<2x16x32xf32>) {
  ^bb0(%in: f16, %keep: i1, %bias: bf16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    %1 = arith.mulf %t, %0 : f32
    %2 = arith.extf %bias : bf16 to f32
    %3 = arith.addf %1, %2 : f32
    %4 = arith.select %keep, %3, %fill : f32
    linalg.yield %4 : f32
  } -> tensor<2x16x32xf32>
  %p = linalg.softmax dimension(2) ins(%k : tensor<2x16x32xf32>) outs(%e : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %p : tensor<2x16x32xf32>
}

// -----

// Division by a scalar argument: a scale by its reciprocal.
#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @divide_by_temperature
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<8x128xf32>, %[[T:[a-z0-9]+]]: f32)
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[R:.+]] = arith.divf %[[ONE]], %[[T]] : f32
// CHECK: %[[S:.+]] = softmax.scale %[[X]] by %[[R]] : tensor<8x128xf32>, f32
// CHECK: softmax.softmax %[[S]] masked_rows = nan
func.func @divide_by_temperature(%x: tensor<8x128xf32>, %t: f32) -> tensor<8x128xf32> {
  %e = tensor.empty() : tensor<8x128xf32>
  %s = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x128xf32>) outs(%e : tensor<8x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %t : f32
    linalg.yield %0 : f32
  } -> tensor<8x128xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<8x128xf32>) outs(%e : tensor<8x128xf32>) -> tensor<8x128xf32>
  return %p : tensor<8x128xf32>
}

// -----

// A causal mask from indices: column j of query i removed when j > i + 2.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @causal
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x64x64xf32>)
// CHECK: %[[M:.+]] = softmax.mask %[[X]], causal offset = 2 : tensor<4x64x64xf32>
// CHECK: softmax.softmax %[[M]] masked_rows = nan
func.func @causal(%x: tensor<4x64x64xf32>) -> tensor<4x64x64xf32> {
  %e = tensor.empty() : tensor<4x64x64xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %c2 = arith.constant 2 : index
  %m = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x64x64xf32>) outs(%e : tensor<4x64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %row = linalg.index 1 : index
    %col = linalg.index 2 : index
    %limit = arith.addi %row, %c2 : index
    %removed = arith.cmpi sgt, %col, %limit : index
    %0 = arith.select %removed, %ninf, %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x64x64xf32>
  %p = linalg.softmax dimension(2) ins(%m : tensor<4x64x64xf32>) outs(%e : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  return %p : tensor<4x64x64xf32>
}

// -----

// The keep form of the same comparison (row >= col) is causal with offset 0.
#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @causal_keep_form
// CHECK: softmax.mask %{{.*}}, causal : tensor<64x64xf16>
func.func @causal_keep_form(%x: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %e = tensor.empty() : tensor<64x64xf16>
  %ninf = arith.constant 0xFC00 : f16
  %m = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %row = linalg.index 0 : index
    %col = linalg.index 1 : index
    %keep = arith.cmpi sge, %row, %col : index
    %0 = arith.select %keep, %in, %ninf : f16
    linalg.yield %0 : f16
  } -> tensor<64x64xf16>
  %p = linalg.softmax dimension(1) ins(%m : tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %p : tensor<64x64xf16>
}

// -----

// A padding mask: column j of row i removed when j >= lengths[i].
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @padding
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<?x?xf32>, %[[L:[a-z0-9]+]]: tensor<?xi32>,
// CHECK: %[[M:.+]] = softmax.mask %[[X]], padding %[[L]] : tensor<?x?xf32>, tensor<?xi32>
// CHECK: softmax.log_softmax %[[M]] masked_rows = nan
func.func @padding(%x: tensor<?x?xf32>, %len: tensor<?xi32>, %e: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %m = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %len : tensor<?x?xf32>, tensor<?xi32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%in: f32, %l: i32, %out: f32):
    %col = linalg.index 1 : index
    %li = arith.index_cast %l : i32 to index
    %removed = arith.cmpi sge, %col, %li : index
    %0 = arith.select %removed, %ninf, %in : f32
    linalg.yield %0 : f32
  } -> tensor<?x?xf32>
  %p = softmax.log_softmax %m masked_rows = nan : tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}

// -----

// A temperature held in a 0-d tensor (torch-mlir's tensor scalars), read with an empty map.
#map = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @divide_by_0d_tensor
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<8x128xf32>, %[[T:[a-z0-9]+]]: tensor<f32>)
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[V:.+]] = tensor.extract %[[T]][] : tensor<f32>
// CHECK: %[[R:.+]] = arith.divf %[[ONE]], %[[V]] : f32
// CHECK: %[[S:.+]] = softmax.scale %[[X]] by %[[R]] : tensor<8x128xf32>, f32
// CHECK: softmax.softmax %[[S]] masked_rows = nan
func.func @divide_by_0d_tensor(%x: tensor<8x128xf32>, %t: tensor<f32>) -> tensor<8x128xf32> {
  %e = tensor.empty() : tensor<8x128xf32>
  %s = linalg.generic {indexing_maps = [#map, #scalar, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %t : tensor<8x128xf32>, tensor<f32>) outs(%e : tensor<8x128xf32>) {
  ^bb0(%in: f32, %temperature: f32, %out: f32):
    %0 = arith.divf %in, %temperature : f32
    linalg.yield %0 : f32
  } -> tensor<8x128xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<8x128xf32>) outs(%e : tensor<8x128xf32>) -> tensor<8x128xf32>
  return %p : tensor<8x128xf32>
}

// -----

// The causal condition computed into an i1 tensor by its own generic (used only by the select):
// both generics become one causal mask. A padding condition likewise, with an i64 column.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#len = affine_map<(d0, d1, d2) -> (d0, d1)>
// FUSE-LABEL: func.func @conditions_in_tensors
// FUSE-NEXT: softmax.fused softmax %arg0(%arg1 : tensor<2x64xi64>) axis = 2
// FUSE-SAME: prologue [#softmax.mask<causal, offset = -1, fill = 0xFFF0000000000000>, #softmax.mask<padding, operand = 0, fill = -1.000000e+09>] masked_rows = nan
// FUSE-NEXT: return
// CHECK-LABEL: func.func @conditions_in_tensors
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<2x64x64xf32>, %[[L:[a-z0-9]+]]: tensor<2x64xi64>)
// CHECK: %[[C:.+]] = softmax.mask %[[X]], causal offset = -1 : tensor<2x64x64xf32>
// CHECK: %[[P:.+]] = softmax.mask %[[C]], padding %[[L]] fill = -1.000000e+09 : tensor<2x64x64xf32>, tensor<2x64xi64>
// CHECK: softmax.softmax %[[P]] masked_rows = nan
// CHECK-NOT: linalg.generic
func.func @conditions_in_tensors(%x: tensor<2x64x64xf32>, %len: tensor<2x64xi64>) -> tensor<2x64x64xf32> {
  %e = tensor.empty() : tensor<2x64x64xf32>
  %ei = tensor.empty() : tensor<2x64x64xi1>
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -1.0e9 : f32
  %c1 = arith.constant 1 : index
  %keep = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%ei : tensor<2x64x64xi1>) {
  ^bb0(%out: i1):
    %row = linalg.index 1 : index
    %col = linalg.index 2 : index
    %col1 = arith.addi %col, %c1 : index
    %0 = arith.cmpi sle, %col1, %row : index
    linalg.yield %0 : i1
  } -> tensor<2x64x64xi1>
  %pad = linalg.generic {indexing_maps = [#len, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%len : tensor<2x64xi64>) outs(%ei : tensor<2x64x64xi1>) {
  ^bb0(%l: i64, %out: i1):
    %col = linalg.index 2 : index
    %coli = arith.index_cast %col : index to i64
    %0 = arith.cmpi slt, %coli, %l : i64
    linalg.yield %0 : i1
  } -> tensor<2x64x64xi1>
  %m = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %keep, %pad : tensor<2x64x64xf32>, tensor<2x64x64xi1>, tensor<2x64x64xi1>) outs(%e : tensor<2x64x64xf32>) {
  ^bb0(%in: f32, %k: i1, %p: i1, %out: f32):
    %0 = arith.select %k, %in, %ninf : f32
    %1 = arith.select %p, %0, %big : f32
    linalg.yield %1 : f32
  } -> tensor<2x64x64xf32>
  %y = linalg.softmax dimension(2) ins(%m : tensor<2x64x64xf32>) outs(%e : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  return %y : tensor<2x64x64xf32>
}

// -----

// A program already in the dialect is left exactly as it is: the pass neither folds nor
// canonicalizes (a scale by 1 stays, and so does the default masked_rows).
// CHECK-LABEL: func.func @dialect_untouched
// CHECK: %[[S:.+]] = softmax.scale %{{.*}} by 1.000000e+00 : tensor<4x8xf32>
// CHECK: softmax.softmax %[[S]] : tensor<4x8xf32>
func.func @dialect_untouched(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.scale %x by 1.0 : tensor<4x8xf32>
  %1 = softmax.softmax %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// masked-rows=zero: the dialect's policy for rows of -inf instead of linalg's NaN.
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-raise{masked-rows=zero}))' --split-input-file | FileCheck %s --check-prefix=ZERO
// ZERO-LABEL: func.func @masked_rows_option
// ZERO: softmax.softmax %{{.*}} : tensor<4x1000xf32>
// ZERO-NOT: masked_rows
// CHECK-LABEL: func.func @masked_rows_option
// CHECK: softmax.softmax %{{.*}} masked_rows = nan : tensor<4x1000xf32>
func.func @masked_rows_option(%x: tensor<4x1000xf32>) -> tensor<4x1000xf32> {
  %e = tensor.empty() : tensor<4x1000xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<4x1000xf32>) outs(%e : tensor<4x1000xf32>) -> tensor<4x1000xf32>
  return %y : tensor<4x1000xf32>
}

// -----

// bias + x with the broadcast bias first: the in-place operand is the chain whichever side it is on.
#map = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @bias_first
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x64xf32>, %[[B:[a-z0-9]+]]: tensor<64xf32>)
// CHECK: %[[A:.+]] = softmax.add_bias %[[X]], %[[B]] : tensor<4x64xf32>, tensor<64xf32>
// CHECK: softmax.softmax %[[A]] masked_rows = nan
func.func @bias_first(%x: tensor<4x64xf32>, %b: tensor<64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %a = linalg.generic {indexing_maps = [#col, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%b, %x : tensor<64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%bias: f32, %in: f32, %out: f32):
    %0 = arith.addf %bias, %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x64xf32>
  %p = linalg.softmax dimension(1) ins(%a : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  return %p : tensor<4x64xf32>
}
