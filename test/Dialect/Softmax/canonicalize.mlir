// RUN: softmax-opt %s --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @scale_by_one
// CHECK-NOT: softmax.scale
// CHECK: return %arg0
func.func @scale_by_one(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.scale %x by 1.0 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @constant_scales_combine
// CHECK: %[[S:.+]] = softmax.scale %arg0 by 2.500000e-01 : tensor<4x8xf32>
// CHECK-NOT: softmax.scale
// CHECK: return %[[S]]
func.func @constant_scales_combine(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.scale %x by 0.5 : tensor<4x8xf32>
  %1 = softmax.scale %0 by 0.5 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Scales that multiply to 1 vanish altogether.
// CHECK-LABEL: func.func @scales_cancel
// CHECK-NOT: softmax.scale
// CHECK: return %arg0
func.func @scales_cancel(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.scale %x by 4.0 : tensor<4x8xf32>
  %1 = softmax.scale %0 by 0.25 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// The inner scale has another user: combining would compute both products, so keep the chain.
// CHECK-LABEL: func.func @shared_scale_kept
// CHECK: %[[A:.+]] = softmax.scale %arg0 by 5.000000e-01
// CHECK: %[[B:.+]] = softmax.scale %[[A]] by 3.000000e+00
// CHECK: return %[[A]], %[[B]]
func.func @shared_scale_kept(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = softmax.scale %x by 0.5 : tensor<4x8xf32>
  %1 = softmax.scale %0 by 3.0 : tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A scale by a run-time value is not combined with a constant one.
// CHECK-LABEL: func.func @dynamic_scale_kept
// CHECK: softmax.scale %arg0 by 5.000000e-01
// CHECK: softmax.scale %{{.*}} by %arg1
func.func @dynamic_scale_kept(%x: tensor<4x8xf32>, %t: f32) -> tensor<4x8xf32> {
  %0 = softmax.scale %x by 0.5 : tensor<4x8xf32>
  %1 = softmax.scale %0 by %t : tensor<4x8xf32>, f32
  return %1 : tensor<4x8xf32>
}

// -----

// An overflowing product is not formed (the verifier requires a factor finite in f32, which
// 1.0e40 is not although it is a finite double).
// CHECK-LABEL: func.func @overflowing_scales_kept
// CHECK: softmax.scale %arg0 by 1.000000e+20
// CHECK: softmax.scale %{{.*}} by 1.000000e+20
func.func @overflowing_scales_kept(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.scale %x by 1.0e20 : tensor<4x8xf32>
  %1 = softmax.scale %0 by 1.0e20 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @same_type_cast
// CHECK-NOT: softmax.cast
// CHECK: return %arg0
func.func @same_type_cast(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %0 = softmax.cast %x : tensor<4x8xbf16> to tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

// bf16 -> f32 -> bf16 is exact.
// CHECK-LABEL: func.func @widening_round_trip
// CHECK-NOT: softmax.cast
// CHECK: return %arg0
func.func @widening_round_trip(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %0 = softmax.cast %x : tensor<4x8xbf16> to tensor<4x8xf32>
  %1 = softmax.cast %0 : tensor<4x8xf32> to tensor<4x8xbf16>
  return %1 : tensor<4x8xbf16>
}

// -----

// f32 -> bf16 -> f32 rounds: it stays.
// CHECK-LABEL: func.func @narrowing_round_trip_kept
// CHECK: softmax.cast %arg0 : tensor<4x8xf32> to tensor<4x8xbf16>
// CHECK: softmax.cast %{{.*}} : tensor<4x8xbf16> to tensor<4x8xf32>
func.func @narrowing_round_trip_kept(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = softmax.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
  %1 = softmax.cast %0 : tensor<4x8xbf16> to tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// f16 -> bf16 -> f16 is not exact either.
// CHECK-LABEL: func.func @cross_half_round_trip_kept
// CHECK-COUNT-2: softmax.cast
func.func @cross_half_round_trip_kept(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = softmax.cast %x : tensor<4x8xf16> to tensor<4x8xbf16>
  %1 = softmax.cast %0 : tensor<4x8xbf16> to tensor<4x8xf16>
  return %1 : tensor<4x8xf16>
}
