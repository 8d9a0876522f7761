// Forms that look like a softmax but do not compute one (or compute it differently) stay as they
// are, and the IR stays valid.
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-raise))' --split-input-file | FileCheck %s --implicit-check-not=softmax.softmax --implicit-check-not=softmax.log_softmax

// exp / sum without subtracting the row maximum overflows for large logits: not a softmax.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @no_max_subtraction
// CHECK-COUNT-3: linalg.generic
func.func @no_max_subtraction(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %exp = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<8x32xf32>) outs(%sinit : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// The sum runs along the rows (dimension 1) but the division broadcasts it along dimension 0
// (a square tensor, so the IR is valid): element (i, j) is divided by the sum of row j.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @sum_over_other_dimension
// CHECK-COUNT-4: linalg.generic
func.func @sum_over_other_dimension(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<16xf32>
  %e = tensor.empty() : tensor<16x16xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x16xf32>) outs(%minit : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<16xf32>
  %exp = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<16x16xf32>, tensor<16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<16x16xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<16x16xf32>) outs(%sinit : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#map, #col, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<16x16xf32>, tensor<16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<16x16xf32>
  return %y : tensor<16x16xf32>
}

// -----

// The row maximum is also returned: raising would leave it computed separately, and the
// reduction would not disappear.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @max_has_other_users
// CHECK-COUNT-4: linalg.generic
func.func @max_has_other_users(%x: tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x32xf32>) outs(%minit : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %exp = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8x32xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<8x32xf32>) outs(%sinit : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  return %y, %max : tensor<8x32xf32>, tensor<8xf32>
}

// -----

// The same with the sum returned too (a softmax that also hands out its normaliser).
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @sum_has_other_users
// CHECK-COUNT-4: linalg.generic
func.func @sum_has_other_users(%x: tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x32xf32>) outs(%minit : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %exp = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8x32xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<8x32xf32>) outs(%sinit : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  return %y, %sum : tensor<8x32xf32>, tensor<8xf32>
}

// -----

// A max that starts from NaN with maximumf is NaN for every row (maximumf propagates NaN), so
// the program computes NaN everywhere, not a softmax.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @nan_start_with_maximumf
// CHECK-COUNT-4: linalg.generic
func.func @nan_start_with_maximumf(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %nan = arith.constant 0x7FC00000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %minit = linalg.fill ins(%nan : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x32xf32>) outs(%minit : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %exp = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8x32xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<8x32xf32>) outs(%sinit : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// A max that starts from 0: the subtracted value is max(0, row max), not the row maximum (rows of
// large negative logits underflow to 0 / 0).
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @max_from_zero
// CHECK-COUNT-4: linalg.generic
func.func @max_from_zero(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x32xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %exp = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8x32xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<8x32xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// The maximum of one tensor subtracted from another.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @max_of_another_tensor
// CHECK-COUNT-4: linalg.generic
func.func @max_of_another_tensor(%x: tensor<8x32xf32>, %z: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%z : tensor<8x32xf32>) outs(%minit : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %exp = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8x32xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<8x32xf32>) outs(%sinit : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<8x32xf32>, tensor<8xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// Element-wise code that feeds no softmax is not touched, even when it looks like a scale.
#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @scale_without_softmax
// CHECK: linalg.generic
// CHECK-NOT: softmax.
func.func @scale_without_softmax(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %c : f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// Neighbours that cannot be raised: a scale whose result is also returned (raising it would
// compute it twice), and a mask that is true where elements are removed (the dialect's tensor
// mask keeps them). The softmax itself is raised; the generics stay.
#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @neighbours_left_alone
// CHECK: %[[S:.+]] = linalg.generic
// CHECK: arith.mulf
// CHECK: %[[K:.+]] = linalg.generic
// CHECK: arith.select
// CHECK: softmax.softmax %[[K]] masked_rows = nan
// CHECK: return %{{.*}}, %[[S]]
func.func @neighbours_left_alone(%x: tensor<8x32xf32>, %removed: tensor<8x32xi1>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %c = arith.constant 0.125 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %s = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %c : f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  %k = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%s, %removed : tensor<8x32xf32>, tensor<8x32xi1>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %r: i1, %out: f32):
    %0 = arith.select %r, %ninf, %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  %p = linalg.softmax dimension(1) ins(%k : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %p, %s : tensor<8x32xf32>, tensor<8x32xf32>
}

// -----

// linalg.softmax on memrefs: the dialect has value semantics only.
// CHECK-LABEL: func.func @memref_softmax
// CHECK: linalg.softmax
func.func @memref_softmax(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// -----

// A chain that starts from f64 (narrowed to f32 in the body) has no dialect form: the generic
// stays, the softmax is raised.
#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @chain_from_f64
// CHECK: %[[N:.+]] = linalg.generic
// CHECK: arith.truncf
// CHECK: softmax.softmax %[[N]] masked_rows = nan
func.func @chain_from_f64(%x: tensor<8x32xf64>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %n = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x32xf64>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f64, %out: f32):
    %0 = arith.truncf %in : f64 to f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  %p = linalg.softmax dimension(1) ins(%n : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %p : tensor<8x32xf32>
}
