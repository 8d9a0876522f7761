// module-per-kernel (the softmax-to-nvvm pipeline's choice): each kernel moves into a gpu.module
// of its own, named after it and unique among the module's symbols, in the order the kernels
// were built; the launches follow them; the user's own gpu.module is left alone. Without the
// option the kernels share one module (lower-to-gpu.mlir).
// RUN: softmax-opt %s --softmax-fuse --softmax-select-strategy \
// RUN:   --softmax-lower-to-gpu=module-per-kernel | FileCheck %s
// RUN: softmax-opt %s --softmax-fuse --softmax-select-strategy --softmax-lower-to-gpu \
// RUN:   | FileCheck %s --check-prefix=ONE

// CHECK-LABEL: func.func @f(
// CHECK: gpu.launch_func @f_0_row_registers_0::@f_0_row_registers blocks
// CHECK: gpu.launch_func @f_0_row_registers_general::@f_0_row_registers_general blocks
// CHECK-LABEL: func.func @g(
// CHECK: gpu.launch_func @g_0_multi_row::@g_0_multi_row blocks
// CHECK: gpu.launch_func @g_0_multi_row_general::@g_0_multi_row_general blocks
// CHECK: func.func private @f_0_row_registers(f32) -> f32
// CHECK: gpu.module @device {
// CHECK-NEXT: gpu.func @k() kernel
// A user symbol already has the first kernel's name: its module takes a suffix, the kernel
// keeps its name (the PTX entry).
// CHECK: gpu.module @f_0_row_registers_0 {
// CHECK-NEXT: gpu.func @f_0_row_registers(
// CHECK-NOT: gpu.func
// CHECK: gpu.module @f_0_row_registers_general {
// CHECK-NEXT: gpu.func @f_0_row_registers_general(
// CHECK: gpu.module @g_0_multi_row {
// CHECK-NEXT: gpu.func @g_0_multi_row(
// CHECK: gpu.module @g_0_multi_row_general {
// CHECK-NEXT: gpu.func @g_0_multi_row_general(
// CHECK-NOT: gpu.module

// ONE: gpu.launch_func @softmax_kernels::@f_0_row_registers blocks
// ONE: gpu.module @softmax_kernels {
// ONE: gpu.func @f_0_row_registers(
// ONE: gpu.func @f_0_row_registers_general(
// ONE: gpu.func @g_0_multi_row(
// ONE-NOT: gpu.module

func.func @f(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %y = softmax.softmax %x : tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}

func.func @g(%x: tensor<256x64xbf16>) -> tensor<256x64xbf16> {
  %y = softmax.softmax %x : tensor<256x64xbf16>
  return %y : tensor<256x64xbf16>
}

func.func private @f_0_row_registers(%x: f32) -> f32

gpu.module @device {
  gpu.func @k() kernel {
    gpu.return
  }
}
