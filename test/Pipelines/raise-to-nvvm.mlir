// The front door end to end: decomposed linalg (upstream's form) and linalg.softmax raised, then
// compiled to PTX by the usual pipeline.
// RUN: softmax-opt %s --softmax-raise --softmax-to-nvvm="ptx-file=%t.ptx" -o %t.mlir
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=HOST

// CHECK: .target sm_90
// CHECK: .entry decomposed_0_row_registers(
// CHECK: shfl.sync.bfly.b32
// CHECK: ex2.approx.ftz.f32
// CHECK: .entry attention_0_

// HOST: llvm.func @decomposed(
// HOST: llvm.func @attention(
// HOST: gpu.binary @decomposed_0_row_registers [
// HOST-NOT: linalg.

#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @decomposed(%x: tensor<256x4096xf32>) -> tensor<256x4096xf32> {
  %e = tensor.empty() : tensor<256x4096xf32>
  %er = tensor.empty() : tensor<256xf32>
  %nan = arith.constant 0x7FC00000 : f32
  %zero = arith.constant 0.0 : f32
  %minit = linalg.fill ins(%nan : f32) outs(%er : tensor<256xf32>) -> tensor<256xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x4096xf32>) outs(%minit : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maxnumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<256xf32>
  %exp = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<256x4096xf32>, tensor<256xf32>) outs(%e : tensor<256x4096xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<256x4096xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<256xf32>) -> tensor<256xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<256x4096xf32>) outs(%sinit : tensor<256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<256xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<256x4096xf32>, tensor<256xf32>) outs(%e : tensor<256x4096xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<256x4096xf32>
  return %y : tensor<256x4096xf32>
}

// Scaled, causally masked scores through linalg.softmax.
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @attention(%x: tensor<8x512x512xf32>) -> tensor<8x512x512xf32> {
  %e = tensor.empty() : tensor<8x512x512xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.125 : f32
  %m = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<8x512x512xf32>) outs(%e : tensor<8x512x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %row = linalg.index 1 : index
    %col = linalg.index 2 : index
    %removed = arith.cmpi ugt, %col, %row : index
    %0 = arith.mulf %in, %c : f32
    %1 = arith.select %removed, %ninf, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8x512x512xf32>
  %p = linalg.softmax dimension(2) ins(%m : tensor<8x512x512xf32>) outs(%e : tensor<8x512x512xf32>) -> tensor<8x512x512xf32>
  return %p : tensor<8x512x512xf32>
}
