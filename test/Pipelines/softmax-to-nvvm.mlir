// The whole pipeline in one command: PTX for the kernels, LLVM dialect for the host.
// RUN: softmax-opt %s --softmax-to-nvvm="ptx-file=%t.ptx" -o %t.mlir
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=CLEAN
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=HOST

// CHECK: .target sm_90
// Row in registers over 16-byte aligned rows: vector loads and stores, butterfly shuffles,
// exp through ex2.approx.ftz, one barrier per cross-warp reduction.
// CHECK-LABEL: .entry scores_0_row_registers(
// CHECK: .maxntid 256, 1, 1
// CHECK: ld.global.v4.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync
// CHECK: ex2.approx.ftz.f32
// CHECK: rcp.rn.f32
// The f32 input sets the vector (4); the bf16 output is stored 4 at a time (two packed pairs).
// CHECK: st.global.v2.b32
// Narrow bf16 rows: 8 elements (16 bytes) a vector.
// CHECK-LABEL: .entry narrow_0_multi_row(
// CHECK: ld.global.v4.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: st.global.v4.b32
// Rows beyond a block's registers (sm_90): the row over a thread-block cluster, each block's
// part in registers, the blocks' max and sum read from each other's shared memory.
// CHECK-LABEL: .entry shared_0_row_cluster(
// CHECK: ld.global.v4.b32
// CHECK: barrier.cluster.arrive.aligned
// CHECK: barrier.cluster.wait.aligned
// CHECK: mapa.shared::cluster.u64
// CHECK: ld.shared::cluster.v2.b32
// CHECK: barrier.cluster.arrive.aligned
// CHECK: st.global.v4.b32
// CHECK: barrier.cluster.wait.aligned
// An odd width keeps 16-byte accesses: each row is peeled to a vector boundary first (16-bit
// rows are not clustered: the row in shared memory).
// CHECK-LABEL: .entry odd_0_row_shared(
// CHECK: ld.global.v4.b32
// CHECK: st.global.v4.b32
// The row in shared memory (written here; chosen where clusters are not): one read, the row
// kept in dynamic shared memory between the passes.
// CHECK-LABEL: .entry in_shared_0_row_shared(
// CHECK: ld.global.v4.b32
// CHECK: st.shared.v4.b32
// CHECK: ld.shared.v4.b32
// CHECK: st.global.v4.b32

// Rows wider than 16 blocks hold: the chunked online plan loops.
// CHECK-LABEL: .entry wide_0_chunked_online(
// CHECK: ld.global.v4.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: st.global.v4.b32

// No local memory (spills, stack arrays) and no unresolved externs (libdevice) anywhere.
// CLEAN-NOT: .local
// CLEAN-NOT: .extern

// HOST: llvm.func @scores(
// HOST: llvm.func @_mlir_ciface_scores(
// HOST: gpu.binary @softmax_kernels

func.func @scores(%x: tensor<64x4096xf32>) -> tensor<64x4096xbf16> {
  %s = softmax.scale %x by 0.0883883 : tensor<64x4096xf32>
  %m = softmax.mask %s, causal offset = 4000 : tensor<64x4096xf32>
  %p = softmax.softmax %m : tensor<64x4096xf32>
  %y = softmax.cast %p : tensor<64x4096xf32> to tensor<64x4096xbf16>
  return %y : tensor<64x4096xbf16>
}

func.func @narrow(%x: tensor<8192x64xbf16>) -> tensor<8192x64xbf16> {
  %p = softmax.softmax %x : tensor<8192x64xbf16>
  return %p : tensor<8192x64xbf16>
}

func.func @shared(%x: tensor<64x40000xf32>) -> tensor<64x40000xf32> {
  %p = softmax.softmax %x : tensor<64x40000xf32>
  return %p : tensor<64x40000xf32>
}

func.func @odd(%x: tensor<64x50257xbf16>) -> tensor<64x50257xbf16> {
  %p = softmax.softmax %x : tensor<64x50257xbf16>
  return %p : tensor<64x50257xbf16>
}

func.func @in_shared(%x: tensor<64x40000xf32>) -> tensor<64x40000xf32> {
  %p = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>]} : tensor<64x40000xf32> -> tensor<64x40000xf32>
  return %p : tensor<64x40000xf32>
}

func.func @wide(%x: tensor<8x300000xf32>) -> tensor<8x300000xf32> {
  %p = softmax.log_softmax %x : tensor<8x300000xf32>
  return %p : tensor<8x300000xf32>
}
