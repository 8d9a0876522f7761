// row_shared (the row in shared memory, chosen where a chip has no thread-block clusters) x
// f32/f16/bf16, plain and scale + causal + softmax + cast, assembles with ptxas for sm_80
// without spills.
// REQUIRES: ptxas
// RUN: softmax-opt %s --softmax-to-nvvm="chip=sm_80 ptx-file=%t.ptx" -o /dev/null
// RUN: %ptxas-each -arch=sm_80 -v %t.ptx -o %t.cubin > %t.log 2>&1
// RUN: FileCheck %s < %t.log
// RUN: grep "bytes spill" %t.log | sort -u | FileCheck %s --check-prefix=NOSPILL

// CHECK-DAG: Compiling entry function 'plain_row_shared_f32_0_row_shared' for 'sm_80'
// CHECK-DAG: Compiling entry function 'fused_row_shared_f32_0_row_shared' for 'sm_80'
// CHECK-DAG: Compiling entry function 'plain_row_shared_f16_0_row_shared' for 'sm_80'
// CHECK-DAG: Compiling entry function 'fused_row_shared_f16_0_row_shared' for 'sm_80'
// CHECK-DAG: Compiling entry function 'plain_row_shared_bf16_0_row_shared' for 'sm_80'
// CHECK-DAG: Compiling entry function 'fused_row_shared_bf16_0_row_shared' for 'sm_80'
// NOSPILL: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// NOSPILL-NOT: bytes

func.func @plain_row_shared_f32(%x: tensor<256x40000xf32>) -> tensor<256x40000xf32> {
  %p = softmax.softmax %x : tensor<256x40000xf32>
  return %p : tensor<256x40000xf32>
}

func.func @fused_row_shared_f32(%x: tensor<256x40000xf32>) -> tensor<256x40000xbf16> {
  %s = softmax.scale %x by 0.125 : tensor<256x40000xf32>
  %c = softmax.mask %s, causal offset = 20000 : tensor<256x40000xf32>
  %p = softmax.softmax %c : tensor<256x40000xf32>
  %y = softmax.cast %p : tensor<256x40000xf32> to tensor<256x40000xbf16>
  return %y : tensor<256x40000xbf16>
}

func.func @plain_row_shared_f16(%x: tensor<256x40000xf16>) -> tensor<256x40000xf16> {
  %p = softmax.softmax %x : tensor<256x40000xf16>
  return %p : tensor<256x40000xf16>
}

func.func @fused_row_shared_f16(%x: tensor<256x40000xf16>) -> tensor<256x40000xf16> {
  %w = softmax.cast %x : tensor<256x40000xf16> to tensor<256x40000xf32>
  %s = softmax.scale %w by 0.125 : tensor<256x40000xf32>
  %c = softmax.mask %s, causal offset = 20000 : tensor<256x40000xf32>
  %p = softmax.softmax %c : tensor<256x40000xf32>
  %y = softmax.cast %p : tensor<256x40000xf32> to tensor<256x40000xf16>
  return %y : tensor<256x40000xf16>
}

func.func @plain_row_shared_bf16(%x: tensor<256x40000xbf16>) -> tensor<256x40000xbf16> {
  %p = softmax.softmax %x : tensor<256x40000xbf16>
  return %p : tensor<256x40000xbf16>
}

func.func @fused_row_shared_bf16(%x: tensor<256x40000xbf16>) -> tensor<256x40000xbf16> {
  %w = softmax.cast %x : tensor<256x40000xbf16> to tensor<256x40000xf32>
  %s = softmax.scale %w by 0.125 : tensor<256x40000xf32>
  %c = softmax.mask %s, causal offset = 20000 : tensor<256x40000xf32>
  %p = softmax.softmax %c : tensor<256x40000xf32>
  %y = softmax.cast %p : tensor<256x40000xf32> to tensor<256x40000xbf16>
  return %y : tensor<256x40000xbf16>
}

