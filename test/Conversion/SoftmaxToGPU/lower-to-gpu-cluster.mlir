// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-fuse,softmax-select-strategy),softmax-lower-to-gpu,canonicalize)' --split-input-file | FileCheck %s

// A row wider than a block's registers, on sm_90: row_cluster over 4 blocks of 16384 columns.
// The host launches a cluster of 4 blocks a row; block `rank` of a cluster (its id modulo 4)
// holds the columns [rank * 16384, (rank + 1) * 16384) in registers.
// CHECK-LABEL: func.func @wide
// CHECK: gpu.launch_func @softmax_kernels::@wide_0_row_cluster clusters in (%c4, %c1, %c1) blocks in (%c256, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK: gpu.launch_func @softmax_kernels::@wide_0_row_cluster_general clusters in (%c4, %c1, %c1) blocks in (%c256, %c1, %c1)
// The kernel: the block's reductions (shared slots of its 8 warps), then its (max, sum) pair in
// a slot of its own that the cluster reads.
// CHECK: gpu.func @wide_0_row_cluster({{.*}}) workgroup(%{{.+}} : memref<16xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[SLOTS:.+]] : memref<2xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[BID:.+]] = arith.index_cast %block_id_x : index to i32
// CHECK: %[[RANK:.+]] = arith.remui %[[BID]], %c4_i32 : i32
// CHECK: %[[CLUSTER:.+]] = arith.divui %[[BID]], %c4_i32 : i32
// CHECK: %[[BASE:.+]] = arith.muli %[[RANK]], %c16384_i32 : i32
// The barrier's phases alternate: the kernel's first arrival is at its start, and each
// exchange first waits on the last one (every block started, and done reading the previous
// row's slots).
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK: %[[ROW:.+]] = arith.addi %[[CLUSTER]], %{{.+}} : i32
// CHECK: %[[COLUMN:.+]] = arith.addi %[[BASE]], %{{.+}} : i32
// CHECK: vector.load %arg0
// Thread 0 publishes the block's max and sum; after the cluster barrier every thread reads the
// four blocks' pairs from their shared memory (mapa: the same slot in block r).
// CHECK: nvvm.cluster.wait {aligned}
// CHECK: memref.store %{{.+}}, %[[SLOTS]][%c0]
// CHECK: memref.store %{{.+}}, %[[SLOTS]][%c1]
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: %[[P:.+]] = llvm.inttoptr %{{.+}} : i64 to !llvm.ptr<3>
// CHECK: nvvm.mapa %[[P]], %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: llvm.load %{{.+}} : !llvm.ptr<7> -> f32
// CHECK: nvvm.mapa %[[P]], %c1_i32
// CHECK: nvvm.mapa %[[P]], %c2_i32
// CHECK: nvvm.mapa %[[P]], %c3_i32
// CHECK-NOT: nvvm.mapa
// Done reading: arrive, store the block's columns, and wait before exiting, so that no block
// frees its slots while another reads them.
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK: vector.store
// CHECK: nvvm.cluster.wait {aligned}
// CHECK-NEXT: gpu.return
func.func @wide(%x: tensor<64x65536xf32>) -> tensor<64x65536xf32> {
  %0 = softmax.softmax %x : tensor<64x65536xf32>
  return %0 : tensor<64x65536xf32>
}

// -----

// The general kernel of an odd width: the row's edge columns (before its first vector boundary
// and after its last) are the first block's; the vector path ends with the cluster's wait, the
// scalar loop (operands misaligned differently, or sizes past i32) is the first block's alone
// and has no cluster barrier. The vector path works in i32 (the sizes were checked to fit).
// CHECK-LABEL: gpu.func @odd_0_row_cluster(
// CHECK: arith.cmpi ult, %{{.+}}, %c1073741824 : index
// CHECK: arith.cmpi ult, %{{.+}}, %c1073741824 : index
// CHECK: scf.if
// CHECK: %[[RANK:.+]] = arith.remui %{{.+}}, %c2_i32 : i32
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[RANK]], %c0_i32 : i32
// CHECK: arith.andi %{{.+}}, %[[FIRST]] : i1
// CHECK: nvvm.cluster.wait {aligned}
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK: nvvm.cluster.wait {aligned}
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK: nvvm.cluster.wait {aligned}
// CHECK-NEXT: } else {
// CHECK-NOT: nvvm.cluster
// CHECK: gpu.return
func.func @odd(%x: tensor<64x20001xf32>) -> tensor<64x20001xf32> {
  %0 = softmax.softmax %x : tensor<64x20001xf32>
  return %0 : tensor<64x20001xf32>
}

// -----

// -----

// A dynamic f32 width: after the register tiers, a cluster of 2, 4 and 8 blocks of 16384 columns
// each (a cluster a row: M x blocks blocks), then the chunked plan.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[N:.+]] = memref.dim %{{.+}}, %c1
// CHECK: arith.cmpi ule, %[[N]], %c16384
// CHECK: arith.cmpi ule, %[[N]], %c32768
// CHECK: %[[G2:.+]] = arith.muli %{{.+}}, %c2 : index
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_cluster_{{[0-9]+}} clusters in (%c2, %c1, %c1) blocks in (%[[G2]], %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK: arith.cmpi ule, %[[N]], %c65536
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_cluster_{{[0-9]+}} clusters in (%c4, %c1, %c1)
// CHECK: arith.cmpi ule, %[[N]], %c131072
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_cluster_{{[0-9]+}} clusters in (%c8, %c1, %c1)
// CHECK: } else {
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_chunked_online
func.func @dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = softmax.softmax %x : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Without a normalisation (a cast alone) the blocks share nothing: no slots, no barrier.
// CHECK-LABEL: gpu.func @cast_only_0_row_cluster(
// CHECK-NOT: workgroup
// CHECK-NOT: nvvm.cluster
// CHECK: gpu.return
func.func @cast_only(%x: tensor<64x65536xf32>) -> tensor<64x65536xbf16> {
  %0 = softmax.fused none %x axis = 1 prologue [#softmax.round<bf16>] {strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 4>]} : tensor<64x65536xf32> -> tensor<64x65536xbf16>
  return %0 : tensor<64x65536xbf16>
}

// -----

// A 16-block cluster (sm_90's non-portable size) without values of side operands along the row:
// capped at two blocks a multiprocessor (128 registers for 256 threads), below the budget of the
// register plan and the exchange; with a bias along the row the budget stays (its values are
// held in registers too).
// CHECK-LABEL: func.func @sixteen(
// CHECK: gpu.launch_func @softmax_kernels::@sixteen_0_row_cluster clusters in (%c16
// CHECK: gpu.func @sixteen_0_row_cluster(
// CHECK-SAME: nvvm.maxnreg = 128 : i32
// CHECK: gpu.func @sixteen_0_row_cluster_general(
// CHECK-SAME: nvvm.maxnreg = 128 : i32
func.func @sixteen(%x: tensor<8x262144xf32>) -> tensor<8x262144xf32> {
  %0 = softmax.softmax %x : tensor<8x262144xf32>
  return %0 : tensor<8x262144xf32>
}

// -----

// CHECK-LABEL: func.func @sixteen_bias(
// CHECK: gpu.func @sixteen_bias_0_row_cluster(
// CHECK-SAME: nvvm.maxnreg = 248 : i32
func.func @sixteen_bias(%x: tensor<8x262144xf32>, %b: tensor<262144xf32>) -> tensor<8x262144xf32> {
  %a = softmax.add_bias %x, %b : tensor<8x262144xf32>, tensor<262144xf32>
  %0 = softmax.softmax %a : tensor<8x262144xf32>
  return %0 : tensor<8x262144xf32>
}

// -----

// log_softmax keeps its values to the end and needs more than 128 registers (ptxas spilled 8
// bytes at 128 in the dynamic tiers): no cap, the budget of the plan and the exchange.
// CHECK-LABEL: func.func @sixteen_log(
// CHECK: gpu.func @sixteen_log_0_row_cluster(
// CHECK-SAME: nvvm.maxnreg = 184 : i32
func.func @sixteen_log(%x: tensor<8x262144xf32>) -> tensor<8x262144xf32> {
  %0 = softmax.log_softmax %x : tensor<8x262144xf32>
  return %0 : tensor<8x262144xf32>
}

// -----

// A plain bf16 softmax over 131072 columns on the row_cluster plan (which the selection gives
// 16-bit rows of fused programs; plain ones are staged): 8 blocks of 256 lanes of 64 values,
// held packed
// (two a register, RowKernel.h holdsPackedRowValues). The max is taken on the 16-bit vectors
// as loaded (arith.maximumf on vector<8xbf16>: max.NaN.bf16x2 in PTX), then the values are
// converted for the block's sum and again for the normalisation after the cluster's exchange,
// each 32-bit word through an opaque move so that LLVM keeps no f32 copy live (32 words a use).
// The budget is the packed one (64 / 2 + 48).
// CHECK-LABEL: func.func @packed
// CHECK: gpu.launch_func @softmax_kernels::@packed_0_row_cluster clusters in (%c8, %c1, %c1) blocks in (%c512, %c1, %c1) threads in (%c256, %c1, %c1)
// CHECK-LABEL: gpu.func @packed_0_row_cluster(
// CHECK-SAME: nvvm.maxnreg = 80
// CHECK-COUNT-8: vector.load %arg0{{.*}} vector<8xbf16>
// CHECK-NOT: llvm.inline_asm
// CHECK-COUNT-7: arith.maximumf {{.*}} : vector<8xbf16>
// CHECK-NOT: llvm.inline_asm
// CHECK: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK-COUNT-32: llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=r,r"
// CHECK: gpu.shuffle xor
// CHECK: nvvm.mapa
// CHECK-COUNT-32: llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=r,r"
// CHECK-NOT: llvm.inline_asm
// CHECK: vector.store {{.*}} vector<8xbf16>
// CHECK-NOT: llvm.inline_asm
// CHECK: gpu.return
func.func @packed(%x: tensor<64x131072xbf16>) -> tensor<64x131072xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 8>]} : tensor<64x131072xbf16> -> tensor<64x131072xbf16>
  return %0 : tensor<64x131072xbf16>
}

// -----

// 32 values a thread (a few rows: 512 lanes a block) fit f32 values without costing
// occupancy: held as f32, no opaque moves.
// CHECK-LABEL: gpu.func @few_0_row_cluster(
// CHECK-NOT: llvm.inline_asm
// CHECK: gpu.return
func.func @few(%x: tensor<8x65536xbf16>) -> tensor<8x65536xbf16> {
  %0 = softmax.softmax %x : tensor<8x65536xbf16>
  return %0 : tensor<8x65536xbf16>
}
