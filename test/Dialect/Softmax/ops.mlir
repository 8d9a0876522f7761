// RUN: softmax-opt %s | FileCheck %s
// Round trip through the generic form too: the custom printer and parser must agree with it.
// RUN: softmax-opt %s --mlir-print-op-generic | softmax-opt | FileCheck %s

// CHECK-LABEL: func.func @normalize
func.func @normalize(%x: tensor<4x1000xf32>, %y: tensor<?x8x?xbf16>, %z: tensor<7xf16>)
    -> (tensor<4x1000xf32>, tensor<?x8x?xbf16>, tensor<7xf16>, tensor<4x1000xf32>) {
  // CHECK: softmax.softmax %{{.*}} : tensor<4x1000xf32>
  %0 = softmax.softmax %x : tensor<4x1000xf32>
  // CHECK: softmax.log_softmax %{{.*}} axis = 1 masked_rows = nan : tensor<?x8x?xbf16>
  %1 = softmax.log_softmax %y axis = 1 masked_rows = nan : tensor<?x8x?xbf16>
  // CHECK: softmax.softmax %{{.*}} axis = 0 : tensor<7xf16>
  %2 = softmax.softmax %z axis = 0 : tensor<7xf16>
  // The defaults are elided when written explicitly.
  // CHECK: softmax.softmax %{{.*}} : tensor<4x1000xf32>
  %3 = softmax.softmax %x axis = -1 masked_rows = zero : tensor<4x1000xf32>
  return %0, %1, %2, %3 : tensor<4x1000xf32>, tensor<?x8x?xbf16>, tensor<7xf16>, tensor<4x1000xf32>
}

// CHECK-LABEL: func.func @scale
func.func @scale(%x: tensor<8x64xf32>, %t: f32, %h: f16) -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>) {
  // CHECK: softmax.scale %{{.*}} by 1.250000e-01 : tensor<8x64xf32>
  %0 = softmax.scale %x by 0.125 : tensor<8x64xf32>
  // CHECK: softmax.scale %{{.*}} by %{{.*}} : tensor<8x64xf32>, f32
  %1 = softmax.scale %x by %t : tensor<8x64xf32>, f32
  // CHECK: softmax.scale %{{.*}} by %{{.*}} : tensor<8x64xf32>, f16
  %2 = softmax.scale %x by %h : tensor<8x64xf32>, f16
  return %0, %1, %2 : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>
}

// CHECK-LABEL: func.func @add_bias
func.func @add_bias(%x: tensor<16x8x128xf32>, %b1: tensor<128xf32>, %b2: tensor<8x1xbf16>,
                    %b3: tensor<16x8x128xf32>, %d: tensor<?x?xf16>, %db: tensor<?xf16>)
    -> (tensor<16x8x128xf32>, tensor<16x8x128xf32>, tensor<16x8x128xf32>, tensor<?x?xf16>) {
  // CHECK: softmax.add_bias %{{.*}}, %{{.*}} : tensor<16x8x128xf32>, tensor<128xf32>
  %0 = softmax.add_bias %x, %b1 : tensor<16x8x128xf32>, tensor<128xf32>
  // CHECK: softmax.add_bias %{{.*}}, %{{.*}} : tensor<16x8x128xf32>, tensor<8x1xbf16>
  %1 = softmax.add_bias %x, %b2 : tensor<16x8x128xf32>, tensor<8x1xbf16>
  // CHECK: softmax.add_bias %{{.*}}, %{{.*}} : tensor<16x8x128xf32>, tensor<16x8x128xf32>
  %2 = softmax.add_bias %x, %b3 : tensor<16x8x128xf32>, tensor<16x8x128xf32>
  // CHECK: softmax.add_bias %{{.*}}, %{{.*}} : tensor<?x?xf16>, tensor<?xf16>
  %3 = softmax.add_bias %d, %db : tensor<?x?xf16>, tensor<?xf16>
  return %0, %1, %2, %3 : tensor<16x8x128xf32>, tensor<16x8x128xf32>, tensor<16x8x128xf32>, tensor<?x?xf16>
}

// A per-head bias on attention scores [B, H, S, S].
// CHECK-LABEL: func.func @per_head_bias
// CHECK: softmax.add_bias %{{.*}}, %{{.*}} : tensor<2x8x16x16xf32>, tensor<8x1x16xf16>
func.func @per_head_bias(%x: tensor<2x8x16x16xf32>, %b: tensor<8x1x16xf16>) -> tensor<2x8x16x16xf32> {
  %0 = softmax.add_bias %x, %b : tensor<2x8x16x16xf32>, tensor<8x1x16xf16>
  return %0 : tensor<2x8x16x16xf32>
}

// CHECK-LABEL: func.func @mask
func.func @mask(%x: tensor<4x128xf32>, %len: tensor<4xi32>, %len64: tensor<1xi64>,
                %s: tensor<8x128x128xbf16>, %m: tensor<1x128xi1>, %d: tensor<?x?xf16>)
    -> (tensor<4x128xf32>, tensor<4x128xf32>, tensor<8x128x128xbf16>, tensor<4x128xf32>, tensor<?x?xf16>) {
  // CHECK: softmax.mask %{{.*}}, padding %{{.*}} : tensor<4x128xf32>, tensor<4xi32>
  %0 = softmax.mask %x, padding %len : tensor<4x128xf32>, tensor<4xi32>
  // CHECK: softmax.mask %{{.*}}, padding %{{.*}} fill = -1.000000e+09 : tensor<4x128xf32>, tensor<1xi64>
  %1 = softmax.mask %x, padding %len64 fill = -1.0e9 : tensor<4x128xf32>, tensor<1xi64>
  // CHECK: softmax.mask %{{.*}}, causal offset = 2 : tensor<8x128x128xbf16>
  %2 = softmax.mask %s, causal offset = 2 : tensor<8x128x128xbf16>
  // CHECK: softmax.mask %{{.*}}, tensor %{{.*}} fill = -1.000000e+04 : tensor<4x128xf32>, tensor<1x128xi1>
  %3 = softmax.mask %x, tensor %m fill = -1.000000e+04 : tensor<4x128xf32>, tensor<1x128xi1>
  // CHECK: softmax.mask %{{.*}}, causal offset = -1 axis = 1 : tensor<?x?xf16>
  %4 = softmax.mask %d, causal offset = -1 axis = 1 : tensor<?x?xf16>
  return %0, %1, %2, %3, %4 : tensor<4x128xf32>, tensor<4x128xf32>, tensor<8x128x128xbf16>, tensor<4x128xf32>, tensor<?x?xf16>
}

// CHECK-LABEL: func.func @cast
func.func @cast(%x: tensor<4x1000xf32>, %h: tensor<?x3xf16>) -> (tensor<4x1000xbf16>, tensor<?x3xf32>) {
  // CHECK: softmax.cast %{{.*}} : tensor<4x1000xf32> to tensor<4x1000xbf16>
  %0 = softmax.cast %x : tensor<4x1000xf32> to tensor<4x1000xbf16>
  // CHECK: softmax.cast %{{.*}} : tensor<?x3xf16> to tensor<?x3xf32>
  %1 = softmax.cast %h : tensor<?x3xf16> to tensor<?x3xf32>
  return %0, %1 : tensor<4x1000xbf16>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @strategy_attribute
// CHECK-SAME: strategy = #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 4>
func.func @strategy_attribute() attributes {
    strategy = #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 4>} {
  return
}

// CHECK-LABEL: func.func @fused
// CHECK: softmax.fused softmax %{{.*}}(%{{.*}}, %{{.*}}, %{{.*}} : f32, tensor<64xf32>, tensor<4xi32>) axis = 1
// CHECK-SAME: prologue [#softmax.scale<1.250000e-01>, #softmax.scale_by<0>, #softmax.bias<1>, #softmax.mask<padding, operand = 2, fill = 0xFFF0000000000000>, #softmax.mask<causal, offset = -2, fill = -1.000000e+04>, #softmax.round<bf16>]
// CHECK-SAME: masked_rows = nan
// CHECK-SAME: {strategies = [#softmax.strategy<multi_row, lanes = 16, rows = 2, vector = 4, chunks = 1>, #softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>]}
// CHECK-SAME: : tensor<4x64xf32> -> tensor<4x64xbf16>
// CHECK: softmax.fused none %{{.*}} axis = 1 prologue [] : tensor<4x64xf32> -> tensor<4x64xf32>
// CHECK: softmax.fused log_softmax %{{.*}} axis = 1 prologue [#softmax.mask<tensor, operand = 0, fill = 0xFFF0000000000000>] {strategies = [#softmax.strategy<chunked_online, lanes = 64, rows = 1, vector = 2, chunks = 3>]} : tensor<?x?xf16> -> tensor<?x?xf32>
func.func @fused(%x: tensor<4x64xf32>, %t: f32, %b: tensor<64xf32>, %len: tensor<4xi32>,
                 %d: tensor<?x?xf16>, %m: tensor<1x?xi1>) -> (tensor<4x64xbf16>, tensor<4x64xf32>, tensor<?x?xf32>) {
  %0 = softmax.fused softmax %x (%t, %b, %len : f32, tensor<64xf32>, tensor<4xi32>) axis = 1
         prologue [#softmax.scale<0.125>, #softmax.scale_by<0>, #softmax.bias<1>,
                   #softmax.mask<padding, operand = 2, fill = 0xFFF0000000000000>,
                   #softmax.mask<causal, offset = -2, fill = -1.0e4>, #softmax.round<bf16>]
         masked_rows = nan
         {strategies = [#softmax.strategy<multi_row, lanes = 16, rows = 2, vector = 4, chunks = 1>,
                        #softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>]}
         : tensor<4x64xf32> -> tensor<4x64xbf16>
  %1 = softmax.fused none %x axis = 1 prologue [] : tensor<4x64xf32> -> tensor<4x64xf32>
  %2 = softmax.fused log_softmax %d (%m : tensor<1x?xi1>) axis = 1
         prologue [#softmax.mask<tensor, operand = 0, fill = 0xFFF0000000000000>]
         {strategies = [#softmax.strategy<chunked_online, lanes = 64, rows = 1, vector = 2, chunks = 3>]}
         : tensor<?x?xf16> -> tensor<?x?xf32>
  return %0, %1, %2 : tensor<4x64xbf16>, tensor<4x64xf32>, tensor<?x?xf32>
}
