// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-fuse))' --split-input-file | FileCheck %s

// The whole attention chain: widening cast, scale, causal mask, softmax, narrowing cast.
// CHECK-LABEL: func.func @attention
// CHECK-SAME: (%[[X:.+]]: tensor<4x64x64xbf16>)
// CHECK: %[[F:.+]] = softmax.fused softmax %[[X]] axis = 2
// CHECK-SAME: prologue [#softmax.scale<1.250000e-01>, #softmax.mask<causal, fill = 0xFFF0000000000000>]
// CHECK-SAME: : tensor<4x64x64xbf16> -> tensor<4x64x64xbf16>
// CHECK-NOT: softmax.cast
// CHECK: return %[[F]]
func.func @attention(%x: tensor<4x64x64xbf16>) -> tensor<4x64x64xbf16> {
  %0 = softmax.cast %x : tensor<4x64x64xbf16> to tensor<4x64x64xf32>
  %1 = softmax.scale %0 by 0.125 : tensor<4x64x64xf32>
  %2 = softmax.mask %1, causal : tensor<4x64x64xf32>
  %3 = softmax.softmax %2 : tensor<4x64x64xf32>
  %4 = softmax.cast %3 : tensor<4x64x64xf32> to tensor<4x64x64xbf16>
  return %4 : tensor<4x64x64xbf16>
}

// -----

// Side operands in order of first use; the same value used twice is one operand.
// CHECK-LABEL: func.func @side_operands
// CHECK: softmax.fused log_softmax %arg0(%arg2, %arg1, %arg3 : f32, tensor<128xf32>, tensor<8xi32>) axis = 1
// CHECK-SAME: prologue [#softmax.scale_by<0>, #softmax.bias<1>, #softmax.mask<padding, operand = 2, fill = 0xFFF0000000000000>, #softmax.bias<1>]
// CHECK-SAME: masked_rows = nan
func.func @side_operands(%x: tensor<8x128xf32>, %b: tensor<128xf32>, %t: f32, %len: tensor<8xi32>) -> tensor<8x128xf32> {
  %0 = softmax.scale %x by %t : tensor<8x128xf32>, f32
  %1 = softmax.add_bias %0, %b : tensor<8x128xf32>, tensor<128xf32>
  %2 = softmax.mask %1, padding %len : tensor<8x128xf32>, tensor<8xi32>
  %3 = softmax.add_bias %2, %b : tensor<8x128xf32>, tensor<128xf32>
  %4 = softmax.log_softmax %3 masked_rows = nan : tensor<8x128xf32>
  return %4 : tensor<8x128xf32>
}

// -----

// A narrowing cast inside the prologue rounds: it becomes a step. The widening one does not.
// CHECK-LABEL: func.func @rounding_in_prologue
// CHECK: softmax.fused softmax %arg0 axis = 1 prologue [#softmax.round<bf16>, #softmax.scale<2.000000e+00>] {{.*}}: tensor<2x16xf32> -> tensor<2x16xf32>
func.func @rounding_in_prologue(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %0 = softmax.cast %x : tensor<2x16xf32> to tensor<2x16xbf16>
  %1 = softmax.cast %0 : tensor<2x16xbf16> to tensor<2x16xf32>
  %2 = softmax.scale %1 by 2.0 : tensor<2x16xf32>
  %3 = softmax.softmax %2 : tensor<2x16xf32>
  return %3 : tensor<2x16xf32>
}

// -----

// The scaled value is also returned: fusing the scale would compute it twice. The softmax fuses
// from the scale's result, and the scale becomes an element-wise fused op of its own.
// CHECK-LABEL: func.func @shared_prologue_value
// CHECK: %[[S:.+]] = softmax.fused none %arg0 axis = 1 prologue [#softmax.scale<5.000000e-01>]
// CHECK: %[[P:.+]] = softmax.fused softmax %[[S]] axis = 1 prologue []
// CHECK: return %[[S]], %[[P]]
func.func @shared_prologue_value(%x: tensor<2x16xf32>) -> (tensor<2x16xf32>, tensor<2x16xf32>) {
  %0 = softmax.scale %x by 0.5 : tensor<2x16xf32>
  %1 = softmax.softmax %0 : tensor<2x16xf32>
  return %0, %1 : tensor<2x16xf32>, tensor<2x16xf32>
}

// -----

// The probabilities are used twice: the cast is not fused into the softmax (it would change
// the other user's type); it stays an element-wise op.
// CHECK-LABEL: func.func @shared_softmax_result
// CHECK: %[[P:.+]] = softmax.fused softmax %arg0 axis = 1 prologue [] {{.*}}-> tensor<2x16xf32>
// CHECK: %[[H:.+]] = softmax.fused none %[[P]] axis = 1 prologue [] {{.*}}-> tensor<2x16xf16>
// CHECK: return %[[P]], %[[H]]
func.func @shared_softmax_result(%x: tensor<2x16xf32>) -> (tensor<2x16xf32>, tensor<2x16xf16>) {
  %0 = softmax.softmax %x : tensor<2x16xf32>
  %1 = softmax.cast %0 : tensor<2x16xf32> to tensor<2x16xf16>
  return %0, %1 : tensor<2x16xf32>, tensor<2x16xf16>
}

// -----

// A mask along another axis means something else: it is not fused into the softmax.
// CHECK-LABEL: func.func @mask_on_other_axis
// CHECK: %[[M:.+]] = softmax.fused none %arg0(%arg1 : tensor<16xi32>) axis = 0 prologue [#softmax.mask<padding
// CHECK: softmax.fused softmax %[[M]] axis = 1 prologue []
func.func @mask_on_other_axis(%x: tensor<8x16xf32>, %len: tensor<16xi32>) -> tensor<8x16xf32> {
  %0 = softmax.mask %x, padding %len axis = 0 : tensor<8x16xf32>, tensor<16xi32>
  %1 = softmax.softmax %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// Two softmaxes in a row: the second starts from the first's result.
// CHECK-LABEL: func.func @two_softmaxes
// CHECK: %[[A:.+]] = softmax.fused softmax %arg0 axis = 1
// CHECK: %[[B:.+]] = softmax.fused log_softmax %[[A]] axis = 1 prologue [#softmax.scale<3.000000e+00>]
// CHECK: return %[[B]]
func.func @two_softmaxes(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = softmax.softmax %x : tensor<8x16xf32>
  %1 = softmax.scale %0 by 3.0 : tensor<8x16xf32>
  %2 = softmax.log_softmax %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

// A softmax over a non-last axis fuses too (the lowering takes a non-last axis to the
// strided_axis kernels, which reject the mask step with a diagnostic).
// CHECK-LABEL: func.func @first_axis
// CHECK: softmax.fused softmax %arg0(%arg1 : tensor<8x1xi1>) axis = 0 prologue [#softmax.mask<tensor, operand = 0, fill = -1.000000e+04>]
func.func @first_axis(%x: tensor<8x16xf16>, %m: tensor<8x1xi1>) -> tensor<8x16xf16> {
  %0 = softmax.mask %x, tensor %m axis = 0 fill = -1.0e4 : tensor<8x16xf16>, tensor<8x1xi1>
  %1 = softmax.softmax %0 axis = 0 : tensor<8x16xf16>
  return %1 : tensor<8x16xf16>
}

// -----

// Element-wise ops without a softmax become one element-wise fused op.
// CHECK-LABEL: func.func @elementwise_only
// CHECK: %[[E:.+]] = softmax.fused none %arg0(%arg1 : tensor<16xf32>) axis = 1 prologue [#softmax.scale<2.000000e+00>, #softmax.bias<0>] {{.*}}: tensor<8x16xf32> -> tensor<8x16xbf16>
// CHECK-NEXT: return %[[E]]
func.func @elementwise_only(%x: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<8x16xbf16> {
  %0 = softmax.scale %x by 2.0 : tensor<8x16xf32>
  %1 = softmax.add_bias %0, %b : tensor<8x16xf32>, tensor<16xf32>
  %2 = softmax.cast %1 : tensor<8x16xf32> to tensor<8x16xbf16>
  return %2 : tensor<8x16xbf16>
}

// -----

// An argument returned as is, and a value returned twice, get a copy each.
// CHECK-LABEL: func.func @copies
// CHECK: %[[P:.+]] = softmax.fused softmax %arg0
// CHECK: %[[C0:.+]] = softmax.fused none %[[P]] axis = 1 prologue []
// CHECK: %[[C1:.+]] = softmax.fused none %arg0 axis = 1 prologue []
// CHECK: return %[[P]], %[[C0]], %[[C1]]
func.func @copies(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = softmax.softmax %x : tensor<8x16xf32>
  return %0, %0, %x : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A cast after a softmax is that softmax's store, whichever chain the patterns meet first:
// the next softmax's prologue starts after it.
// CHECK-LABEL: func.func @epilogue_cast_then_softmax
// CHECK: %[[A:.+]] = softmax.fused softmax %arg0 axis = 1 prologue [] : tensor<8x16xf32> -> tensor<8x16xbf16>
// CHECK: %[[B:.+]] = softmax.fused softmax %[[A]] axis = 1 prologue [#softmax.scale<2.000000e+00>] : tensor<8x16xbf16> -> tensor<8x16xbf16>
// CHECK: return %[[B]]
func.func @epilogue_cast_then_softmax(%x: tensor<8x16xf32>) -> tensor<8x16xbf16> {
  %0 = softmax.softmax %x : tensor<8x16xf32>
  %1 = softmax.cast %0 : tensor<8x16xf32> to tensor<8x16xbf16>
  %2 = softmax.scale %1 by 2.0 : tensor<8x16xbf16>
  %3 = softmax.softmax %2 : tensor<8x16xbf16>
  return %3 : tensor<8x16xbf16>
}

// -----

// The fusion patterns run in the greedy driver: a chain whose result is unused is erased (its
// ops are pure), not lowered to a kernel.
// CHECK-LABEL: func.func @dead_chain
// CHECK-NEXT: %[[P:.+]] = softmax.fused softmax %arg0
// CHECK-NEXT: return %[[P]]
func.func @dead_chain(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = softmax.scale %x by 2.0 : tensor<8x16xf32>
  %1 = softmax.softmax %0 : tensor<8x16xf32>
  %2 = softmax.softmax %x : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

// A negation (a scale by exactly -1) moves after the roundings that follow it: round(-x) =
// -round(x), and the kernels then negate f32 values instead of 16-bit ones (neg.bf16 made ptxas
// spill: generator seed 8318). A scale by -2 or a negation before a mask stays where it is.
// CHECK-LABEL: func.func @negation_after_roundings
// CHECK: softmax.fused log_softmax %arg0 axis = 0 prologue [#softmax.round<bf16>, #softmax.round<f16>, #softmax.scale<-1.000000e+00>, #softmax.scale<-2.000000e+00>, #softmax.round<bf16>] {{.*}}: tensor<?xf32> -> tensor<?xf16>
func.func @negation_after_roundings(%x: tensor<?xf32>) -> tensor<?xf16> {
  %0 = softmax.scale %x by -1.0 : tensor<?xf32>
  %1 = softmax.cast %0 : tensor<?xf32> to tensor<?xbf16>
  %2 = softmax.cast %1 : tensor<?xbf16> to tensor<?xf16>
  %3 = softmax.scale %2 by -2.0 : tensor<?xf16>
  %4 = softmax.cast %3 : tensor<?xf16> to tensor<?xbf16>
  %5 = softmax.log_softmax %4 axis = 0 : tensor<?xbf16>
  %6 = softmax.cast %5 : tensor<?xbf16> to tensor<?xf16>
  return %6 : tensor<?xf16>
}

// CHECK-LABEL: func.func @negation_before_a_mask
// CHECK: prologue [#softmax.scale<-1.000000e+00>, #softmax.mask<causal{{.*}}>, #softmax.round<bf16>]
func.func @negation_before_a_mask(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = softmax.scale %x by -1.0 : tensor<4x4xf32>
  %1 = softmax.mask %0, causal : tensor<4x4xf32>
  %2 = softmax.cast %1 : tensor<4x4xf32> to tensor<4x4xbf16>
  %3 = softmax.cast %2 : tensor<4x4xbf16> to tensor<4x4xf32>
  %4 = softmax.softmax %3 : tensor<4x4xf32>
  return %4 : tensor<4x4xf32>
}
