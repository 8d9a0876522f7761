// A row_cluster plan needs thread-block clusters (sm_90); sm_90 launches up to 16 blocks (more
// than 8 with the kernel's opt-in to a non-portable size, which the runtime and the API make).
// RUN: softmax-opt %s --softmax-lower-to-gpu="chip=sm_80" --split-input-file -verify-diagnostics
// RUN: softmax-opt %s --softmax-lower-to-gpu="chip=sm_90" --split-input-file | FileCheck %s --check-prefix=SM90

// SM90: gpu.launch_func  @softmax_kernels::@four_0_row_cluster clusters in (%c4{{.*}}, %{{.+}}, %{{.+}})
// SM90: gpu.launch_func  @softmax_kernels::@sixteen_0_row_cluster clusters in (%c16{{.*}}, %{{.+}}, %{{.+}})

func.func @four(%x: tensor<4x65536xf32>) -> tensor<4x65536xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 4>) spreads a row over a cluster of 4 blocks, but sm_80 has no thread-block clusters (sm_90 on)}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 4>]} : tensor<4x65536xf32> -> tensor<4x65536xf32>
  return %0 : tensor<4x65536xf32>
}

// -----

func.func @sixteen(%x: tensor<4x65536xf32>) -> tensor<4x65536xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 8, cluster = 16>) spreads a row over a cluster of 16 blocks, but sm_80 has no thread-block clusters (sm_90 on)}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 8, cluster = 16>]} : tensor<4x65536xf32> -> tensor<4x65536xf32>
  return %0 : tensor<4x65536xf32>
}

// -----

// row_split over a cluster too (its three-launch form, cluster = 1, needs none).
func.func @split_cluster_sm80(%x: tensor<1x1048576xf32>) -> tensor<1x1048576xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<row_split, lanes = 512, rows = 1, vector = 4, chunks = 8, cluster = 16>) spreads a row over a cluster of 16 blocks, but sm_80 has no thread-block clusters (sm_90 on)}}
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_split, lanes = 512, rows = 1, vector = 4, chunks = 8, cluster = 16>]} : tensor<1x1048576xf32> -> tensor<1x1048576xf32>
  return %y : tensor<1x1048576xf32>
}

// -----

// A column over a cluster (strided_axis) likewise.
// SM90: gpu.launch_func  @softmax_kernels::@column_0_strided_axis clusters in (%c8{{.*}}, %{{.+}}, %{{.+}})
func.func @column(%x: tensor<4x4096x1024xf32>) -> tensor<4x4096x1024xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>) spreads a column over a cluster of 8 blocks, but sm_80 has no thread-block clusters (sm_90 on)}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>]} : tensor<4x4096x1024xf32> -> tensor<4x4096x1024xf32>
  return %0 : tensor<4x4096x1024xf32>
}
