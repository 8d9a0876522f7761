// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-raise))' --split-input-file | FileCheck %s

// Upstream's decomposition of linalg.softmax (MLIR 22): the max starts from NaN with maxnumf,
// the subtraction is fused into the exp, then a sum and a division.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @upstream
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<2x16x?xf32>)
// CHECK-NEXT: %[[Y:.+]] = softmax.softmax %[[X]] masked_rows = nan : tensor<2x16x?xf32>
// CHECK-NEXT: return %[[Y]]
func.func @upstream(%arg0: tensor<2x16x?xf32>) -> tensor<2x16x?xf32> {
  %c2 = arith.constant 2 : index
  %dim = tensor.dim %arg0, %c2 : tensor<2x16x?xf32>
  %0 = tensor.empty(%dim) : tensor<2x16x?xf32>
  %1 = tensor.empty() : tensor<2x16xf32>
  %cst = arith.constant 0xFFC00000 : f32
  %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %3 = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<2x16x?xf32>) outs(%2 : tensor<2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %8 = arith.maxnumf %in, %out : f32
    linalg.yield %8 : f32
  } -> tensor<2x16xf32>
  %4 = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %3 : tensor<2x16x?xf32>, tensor<2x16xf32>) outs(%0 : tensor<2x16x?xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %8 = arith.subf %in, %in_3 : f32
    %9 = math.exp %8 : f32
    linalg.yield %9 : f32
  } -> tensor<2x16x?xf32>
  %cst_2 = arith.constant 0.000000e+00 : f32
  %5 = linalg.fill ins(%cst_2 : f32) outs(%1 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %6 = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%4 : tensor<2x16x?xf32>) outs(%5 : tensor<2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %8 = arith.addf %in, %out : f32
    linalg.yield %8 : f32
  } -> tensor<2x16xf32>
  %7 = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %6 : tensor<2x16x?xf32>, tensor<2x16xf32>) outs(%0 : tensor<2x16x?xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %8 = arith.divf %in, %in_3 : f32
    linalg.yield %8 : f32
  } -> tensor<2x16x?xf32>
  return %7 : tensor<2x16x?xf32>
}

// -----

// IREE's / torch-mlir's form: -inf and maximumf, one generic per step, and a multiplication by
// the reciprocal of the sum computed on the rows.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @iree_reciprocal
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<128x1024xf16>)
// CHECK-NEXT: %[[Y:.+]] = softmax.softmax %[[X]] masked_rows = nan : tensor<128x1024xf16>
// CHECK-NEXT: return %[[Y]]
func.func @iree_reciprocal(%x: tensor<128x1024xf16>) -> tensor<128x1024xf16> {
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %er = tensor.empty() : tensor<128xf16>
  %e = tensor.empty() : tensor<128x1024xf16>
  %minit = linalg.fill ins(%ninf : f16) outs(%er : tensor<128xf16>) -> tensor<128xf16>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x1024xf16>) outs(%minit : tensor<128xf16>) {
  ^bb0(%in: f16, %out: f16):
    %0 = arith.maximumf %in, %out : f16
    linalg.yield %0 : f16
  } -> tensor<128xf16>
  %sub = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<128x1024xf16>, tensor<128xf16>) outs(%e : tensor<128x1024xf16>) {
  ^bb0(%in: f16, %m: f16, %out: f16):
    %0 = arith.subf %in, %m : f16
    linalg.yield %0 : f16
  } -> tensor<128x1024xf16>
  %exp = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<128x1024xf16>) outs(%e : tensor<128x1024xf16>) {
  ^bb0(%in: f16, %out: f16):
    %0 = math.exp %in : f16
    linalg.yield %0 : f16
  } -> tensor<128x1024xf16>
  %sinit = linalg.fill ins(%zero : f16) outs(%er : tensor<128xf16>) -> tensor<128xf16>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<128x1024xf16>) outs(%sinit : tensor<128xf16>) {
  ^bb0(%in: f16, %out: f16):
    %0 = arith.addf %in, %out : f16
    linalg.yield %0 : f16
  } -> tensor<128xf16>
  %rcp = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<128xf16>) outs(%er : tensor<128xf16>) {
  ^bb0(%in: f16, %out: f16):
    %0 = arith.divf %one, %in : f16
    linalg.yield %0 : f16
  } -> tensor<128xf16>
  %y = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %rcp : tensor<128x1024xf16>, tensor<128xf16>) outs(%e : tensor<128x1024xf16>) {
  ^bb0(%in: f16, %r: f16, %out: f16):
    %0 = arith.mulf %in, %r : f16
    linalg.yield %0 : f16
  } -> tensor<128x1024xf16>
  return %y : tensor<128x1024xf16>
}

// -----

// Named ops (linalg.reduce, linalg.broadcast, linalg.sub / exp / div), over the first axis, the
// max starting from the lowest finite bf16.
// CHECK-LABEL: func.func @named_ops_first_axis
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<?x64xbf16>
// CHECK-NEXT: %[[Y:.+]] = softmax.softmax %[[X]] axis = 0 masked_rows = nan : tensor<?x64xbf16>
// CHECK-NEXT: return %[[Y]]
func.func @named_ops_first_axis(%x: tensor<?x64xbf16>, %e: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %lowest = arith.constant -3.38953139e38 : bf16
  %zero = arith.constant 0.0 : bf16
  %er = tensor.empty() : tensor<64xbf16>
  %minit = linalg.fill ins(%lowest : bf16) outs(%er : tensor<64xbf16>) -> tensor<64xbf16>
  %max = linalg.reduce ins(%x : tensor<?x64xbf16>) outs(%minit : tensor<64xbf16>) dimensions = [0]
    (%in: bf16, %acc: bf16) {
      %0 = arith.maximumf %in, %acc : bf16
      linalg.yield %0 : bf16
    }
  %bmax = linalg.broadcast ins(%max : tensor<64xbf16>) outs(%e : tensor<?x64xbf16>) dimensions = [0]
  %sub = linalg.sub ins(%x, %bmax : tensor<?x64xbf16>, tensor<?x64xbf16>) outs(%e : tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %exp = linalg.exp ins(%sub : tensor<?x64xbf16>) outs(%e : tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %sinit = linalg.fill ins(%zero : bf16) outs(%er : tensor<64xbf16>) -> tensor<64xbf16>
  %sum = linalg.reduce ins(%exp : tensor<?x64xbf16>) outs(%sinit : tensor<64xbf16>) dimensions = [0]
    (%in: bf16, %acc: bf16) {
      %0 = arith.addf %in, %acc : bf16
      linalg.yield %0 : bf16
    }
  %bsum = linalg.broadcast ins(%sum : tensor<64xbf16>) outs(%e : tensor<?x64xbf16>) dimensions = [0]
  %y = linalg.div ins(%exp, %bsum : tensor<?x64xbf16>, tensor<?x64xbf16>) outs(%e : tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}

// -----

// Reductions that keep the reduced dimension (size 1, read at 0), as with keepdim=True.
#map = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @keepdim
// CHECK-NEXT: softmax.softmax %{{.*}} masked_rows = nan : tensor<8x32xf32>
// CHECK-NEXT: return
func.func @keepdim(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<8x1xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%er : tensor<8x1xf32>) -> tensor<8x1xf32>
  %max = linalg.generic {indexing_maps = [#map, #keep], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x32xf32>) outs(%minit : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %out, %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x1xf32>
  %exp = linalg.generic {indexing_maps = [#map, #keep, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<8x32xf32>, tensor<8x1xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8x32xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<8x1xf32>) -> tensor<8x1xf32>
  %sum = linalg.generic {indexing_maps = [#map, #keep], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<8x32xf32>) outs(%sinit : tensor<8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8x1xf32>
  %y = linalg.generic {indexing_maps = [#map, #keep, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<8x32xf32>, tensor<8x1xf32>) outs(%e : tensor<8x32xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// log_softmax as torch-mlir decomposes it: shifted = x - max; shifted - log(sum(exp(shifted))),
// the log taken on the rows.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @log_softmax
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<4x50257xf32>)
// CHECK-NEXT: %[[Y:.+]] = softmax.log_softmax %[[X]] masked_rows = nan : tensor<4x50257xf32>
// CHECK-NEXT: return %[[Y]]
func.func @log_softmax(%x: tensor<4x50257xf32>) -> tensor<4x50257xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<4xf32>
  %e = tensor.empty() : tensor<4x50257xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x50257xf32>) outs(%minit : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %shifted = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4x50257xf32>, tensor<4xf32>) outs(%e : tensor<4x50257xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<4x50257xf32>
  %exp = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%shifted : tensor<4x50257xf32>) outs(%e : tensor<4x50257xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x50257xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<4x50257xf32>) outs(%sinit : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %log = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<4xf32>) outs(%er : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.log %in : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%shifted, %log : tensor<4x50257xf32>, tensor<4xf32>) outs(%e : tensor<4x50257xf32>) {
  ^bb0(%in: f32, %l: f32, %out: f32):
    %0 = arith.subf %in, %l : f32
    linalg.yield %0 : f32
  } -> tensor<4x50257xf32>
  return %y : tensor<4x50257xf32>
}

// -----

// log_softmax with every element-wise step fused into the last generic (upstream style maxnumf).
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @log_softmax_fused
// CHECK-NEXT: softmax.log_softmax %{{.*}} masked_rows = nan : tensor<16x100xf32>
// CHECK-NEXT: return
func.func @log_softmax_fused(%x: tensor<16x100xf32>) -> tensor<16x100xf32> {
  %nan = arith.constant 0x7FC00000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<16xf32>
  %e = tensor.empty() : tensor<16x100xf32>
  %minit = linalg.fill ins(%nan : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x100xf32>) outs(%minit : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maxnumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<16xf32>
  %exp = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<16x100xf32>, tensor<16xf32>) outs(%e : tensor<16x100xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<16x100xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<16x100xf32>) outs(%sinit : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<16x100xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16x100xf32>) {
  ^bb0(%in: f32, %m: f32, %s: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.log %s : f32
    %2 = arith.subf %0, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<16x100xf32>
  return %y : tensor<16x100xf32>
}

// -----

// A decomposed softmax with its neighbours: a bf16 input widened, scaled, masked by a boolean
// tensor, then the softmax narrowed back.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @with_neighbours
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<8x256xbf16>, %[[M:[a-z0-9]+]]: tensor<8x256xi1>)
// CHECK: %[[W:.+]] = softmax.cast %[[X]] : tensor<8x256xbf16> to tensor<8x256xf32>
// CHECK: %[[S:.+]] = softmax.scale %[[W]] by 5.000000e-01 : tensor<8x256xf32>
// CHECK: %[[K:.+]] = softmax.mask %[[S]], tensor %[[M]] : tensor<8x256xf32>, tensor<8x256xi1>
// CHECK: %[[P:.+]] = softmax.softmax %[[K]] masked_rows = nan : tensor<8x256xf32>
// CHECK: %[[Y:.+]] = softmax.cast %[[P]] : tensor<8x256xf32> to tensor<8x256xbf16>
// CHECK-NOT: linalg.
// CHECK: return %[[Y]]
func.func @with_neighbours(%x: tensor<8x256xbf16>, %mask: tensor<8x256xi1>) -> tensor<8x256xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %er = tensor.empty() : tensor<8xf32>
  %e = tensor.empty() : tensor<8x256xf32>
  %logits = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mask : tensor<8x256xbf16>, tensor<8x256xi1>) outs(%e : tensor<8x256xf32>) {
  ^bb0(%in: bf16, %keep: i1, %out: f32):
    %0 = arith.extf %in : bf16 to f32
    %1 = arith.mulf %0, %half : f32
    %2 = arith.select %keep, %1, %ninf : f32
    linalg.yield %2 : f32
  } -> tensor<8x256xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%logits : tensor<8x256xf32>) outs(%minit : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %exp = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%logits, %max : tensor<8x256xf32>, tensor<8xf32>) outs(%e : tensor<8x256xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8x256xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<8x256xf32>) outs(%sinit : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %eh = tensor.empty() : tensor<8x256xbf16>
  %p = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<8x256xf32>, tensor<8xf32>) outs(%e : tensor<8x256xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<8x256xf32>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<8x256xf32>) outs(%eh : tensor<8x256xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %0 = arith.truncf %in : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<8x256xbf16>
  return %y : tensor<8x256xbf16>
}

// -----

// torch-mlir's keepdim: reduce, then tensor.expand_shape the unit dimension back in, and read it
// at 0.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-LABEL: func.func @keepdim_expand_shape
// CHECK-NEXT: softmax.softmax %{{.*}} masked_rows = nan : tensor<?x12x128xf32>
// CHECK-NEXT: return
func.func @keepdim_expand_shape(%x: tensor<?x12x128xf32>, %e: tensor<?x12x128xf32>, %er: tensor<?x12xf32>) -> tensor<?x12x128xf32> {
  %c0 = arith.constant 0 : index
  %b = tensor.dim %x, %c0 : tensor<?x12x128xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %minit = linalg.fill ins(%ninf : f32) outs(%er : tensor<?x12xf32>) -> tensor<?x12xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<?x12x128xf32>) outs(%minit : tensor<?x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<?x12xf32>
  %maxk = tensor.expand_shape %max [[0], [1, 2]] output_shape [%b, 12, 1] : tensor<?x12xf32> into tensor<?x12x1xf32>
  %sub = linalg.generic {indexing_maps = [#map, #keep, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %maxk : tensor<?x12x128xf32>, tensor<?x12x1xf32>) outs(%e : tensor<?x12x128xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<?x12x128xf32>
  %exp = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sub : tensor<?x12x128xf32>) outs(%e : tensor<?x12x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<?x12x128xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<?x12xf32>) -> tensor<?x12xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%exp : tensor<?x12x128xf32>) outs(%sinit : tensor<?x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<?x12xf32>
  %sumk = tensor.expand_shape %sum [[0], [1, 2]] output_shape [%b, 12, 1] : tensor<?x12xf32> into tensor<?x12x1xf32>
  %y = linalg.generic {indexing_maps = [#map, #keep, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%exp, %sumk : tensor<?x12x128xf32>, tensor<?x12x1xf32>) outs(%e : tensor<?x12x128xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<?x12x128xf32>
  return %y : tensor<?x12x128xf32>
}

// -----

// StableHLO lowered to linalg: reduction inits extracted from 0-d splat constants, the max and sum
// broadcast with linalg.broadcast, the division a named op.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @stablehlo
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<32x1000xf32>)
// CHECK-NEXT: %[[Y:.+]] = softmax.softmax %[[X]] masked_rows = nan : tensor<32x1000xf32>
// CHECK-NEXT: return %[[Y]]
func.func @stablehlo(%x: tensor<32x1000xf32>) -> tensor<32x1000xf32> {
  %cst = arith.constant dense<0xFF800000> : tensor<f32>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<f32>
  %ninf = tensor.extract %cst[] : tensor<f32>
  %er = tensor.empty() : tensor<32xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x1000xf32>) outs(%minit : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %out, %in : f32
    linalg.yield %0 : f32
  } -> tensor<32xf32>
  %e = tensor.empty() : tensor<32x1000xf32>
  %bmax = linalg.broadcast ins(%max : tensor<32xf32>) outs(%e : tensor<32x1000xf32>) dimensions = [1]
  %sub = linalg.sub ins(%x, %bmax : tensor<32x1000xf32>, tensor<32x1000xf32>) outs(%e : tensor<32x1000xf32>) -> tensor<32x1000xf32>
  %exp = linalg.exp ins(%sub : tensor<32x1000xf32>) outs(%e : tensor<32x1000xf32>) -> tensor<32x1000xf32>
  %zero = tensor.extract %cst_0[] : tensor<f32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<32x1000xf32>) outs(%sinit : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  } -> tensor<32xf32>
  %bsum = linalg.broadcast ins(%sum : tensor<32xf32>) outs(%e : tensor<32x1000xf32>) dimensions = [1]
  %y = linalg.div ins(%exp, %bsum : tensor<32x1000xf32>, tensor<32x1000xf32>) outs(%e : tensor<32x1000xf32>) -> tensor<32x1000xf32>
  return %y : tensor<32x1000xf32>
}

// -----

// The reciprocal of the sum computed in the last body and written first: (1 / s) * e.
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @reciprocal_first
// CHECK-NEXT: softmax.softmax %{{.*}} masked_rows = nan : tensor<8x32xf32>
// CHECK-NEXT: return
func.func @reciprocal_first(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
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
    %0 = arith.divf %one, %s : f32
    %1 = arith.mulf %0, %in : f32
    linalg.yield %1 : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}
