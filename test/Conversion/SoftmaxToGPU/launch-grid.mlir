// The host launches ceil(rows / rows-per-block) blocks: a last, partial block of rows is
// launched too; and nothing when there are no rows (a grid of zero blocks is a launch error).
// RUN: softmax-opt %s --softmax-lower-to-gpu --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @static_rows
// CHECK-DAG: %[[BLOCKS:.+]] = arith.constant 10 : index
// CHECK: gpu.launch_func @softmax_kernels::@static_rows_0_multi_row blocks in (%[[BLOCKS]],
func.func @static_rows(%x: tensor<37x64xf32>) -> tensor<37x64xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 2>]} : tensor<37x64xf32> -> tensor<37x64xf32>
  return %0 : tensor<37x64xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_rows
// CHECK: %[[NONEMPTY:.+]] = arith.cmpi ugt, %{{.+}}, %c0 : index
// CHECK-NEXT: scf.if %[[NONEMPTY]] {
// CHECK: %[[BLOCKS:.+]] = arith.ceildivui %{{.+}}, %c4 : index
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_rows_0_multi_row blocks in (%[[BLOCKS]],
func.func @dynamic_rows(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 2>]} : tensor<?x64xf32> -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}
