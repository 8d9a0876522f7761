// RUN: softmax-opt %s --pass-pipeline='builtin.module(softmax-lower-to-gpu{chip=sm_80},canonicalize)' | FileCheck %s

// row_split on a chip without programmatic dependent launches (sm_80): the three phases are
// ordinary launches one after the other on the stream, and no kernel waits at griddepcontrol
// (sm_90's form: lower-to-gpu-split.mlir).
// CHECK-LABEL: func.func @split_bf16(
// CHECK: gpu.launch_func @softmax_kernels::@split_bf16_0_row_split_partial {{.*}}args({{[^{}]*}}){{$}}
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@split_bf16_0_row_split_combine {{.*}}args({{[^{}]*}}){{$}}
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@split_bf16_0_row_split_normalize {{.*}}args({{[^{}]*}}){{$}}
// CHECK-NOT: griddepcontrol
// CHECK-NOT: softmax.dependent_launch
func.func @split_bf16(%x: tensor<4x100000xbf16>) -> tensor<4x100000xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 2>]} : tensor<4x100000xbf16> -> tensor<4x100000xbf16>
  return %0 : tensor<4x100000xbf16>
}
