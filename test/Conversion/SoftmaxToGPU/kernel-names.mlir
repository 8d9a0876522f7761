// Kernel and module names are PTX identifiers, unique, and clear of the user's symbols.
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-fuse,softmax-select-strategy),softmax-lower-to-gpu)' --split-input-file | FileCheck %s
// The names reach PTX (NVPTX aborts on a symbol with other characters).
// RUN: softmax-opt %s --split-input-file --softmax-to-nvvm="ptx-file=-" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: func.func @"a b.c$d"
// CHECK: gpu.launch_func @softmax_kernels::@a_b_c_d_0_multi_row
// CHECK-LABEL: func.func @"\C3\BCber"
// CHECK: gpu.launch_func @softmax_kernels::@__ber_0_multi_row
// CHECK-LABEL: func.func @"9lives"
// CHECK: gpu.launch_func @softmax_kernels::@_9lives_0_multi_row
// CHECK: gpu.module @softmax_kernels
// CHECK: gpu.func @a_b_c_d_0_multi_row
// CHECK: gpu.func @__ber_0_multi_row
// CHECK: gpu.func @_9lives_0_multi_row
// PTX-DAG: .entry a_b_c_d_0_multi_row(
// PTX-DAG: .entry __ber_0_multi_row(
// PTX-DAG: .entry _9lives_0_multi_row(
func.func @"a b.c$d"(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %0 = softmax.softmax %x : tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}
func.func @"über"(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %0 = softmax.softmax %x : tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}
func.func @"9lives"(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %0 = softmax.softmax %x : tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

// Two names that sanitize alike get distinct kernels.
// CHECK-LABEL: func.func @a.b(
// CHECK: gpu.launch_func @softmax_kernels::@a_b_0_multi_row{{ }}
// CHECK-LABEL: func.func @"a-b"
// CHECK: gpu.launch_func @softmax_kernels::@a_b_0_multi_row_0{{ }}
// PTX-DAG: .entry a_b_0_multi_row(
// PTX-DAG: .entry a_b_0_multi_row_0(
func.func @"a.b"(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %0 = softmax.softmax %x : tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}
func.func @"a-b"(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %0 = softmax.softmax %x : tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

// A user symbol named softmax_kernels: the kernels get a module of another name.
// CHECK-LABEL: func.func @softmax_kernels()
// CHECK-LABEL: func.func @user
// CHECK: gpu.launch_func @softmax_kernels_0::@user_0_multi_row
// CHECK: gpu.module @softmax_kernels_0
func.func @softmax_kernels() {
  return
}
func.func @user(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %0 = softmax.softmax %x : tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

// A user gpu.module @softmax_kernels holding @f_0_multi_row is left alone.
// CHECK: gpu.module @softmax_kernels {
// CHECK-NEXT: gpu.func @f_0_multi_row() kernel
// CHECK-LABEL: func.func @f
// CHECK: gpu.launch_func @softmax_kernels_0::@f_0_multi_row
// CHECK: gpu.module @softmax_kernels_0
// CHECK: gpu.func @f_0_multi_row(
module attributes {gpu.container_module} {
  gpu.module @softmax_kernels {
    gpu.func @f_0_multi_row() kernel {
      gpu.return
    }
  }
  func.func @f(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
    %0 = softmax.softmax %x : tensor<4x64xf32>
    return %0 : tensor<4x64xf32>
  }
}
