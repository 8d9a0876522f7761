// RUN: softmax-opt %s --pass-pipeline='builtin.module(softmax-lower-to-gpu,canonicalize,cse)' --split-input-file | FileCheck %s

// row_staged over a cluster (RowStagedKernel.cpp): a static width launches the blocks its row
// needs (StrategyAttr::getStagedClusterBlocks: 65536 bf16 columns are 8193 words, two slices
// of 4097 within 113 KB) as clusters of them, each block with the shared memory of its slice
// (4097 * 16 + 272 bytes).
// CHECK-LABEL: func.func @two(
// CHECK: gpu.launch_func @softmax_kernels::@two_0_row_staged clusters in (%c2, %c1, %c1) blocks in (%c4098, %c1, %c1) threads in (%c512, %c1, %c1) dynamic_shared_memory_size %c65824_i32
// The kernel reads the cluster's size and its rank (the launch's, which follows the width),
// takes its slice of the words, and the rows a cluster at a time.
// CHECK-LABEL: gpu.func @two_0_row_staged(
// CHECK: %[[SIZE32:.+]] = nvvm.read.ptx.sreg.cluster.nctaid.x : i32
// CHECK: %[[SIZE:.+]] = arith.index_castui %[[SIZE32]] : i32 to index
// CHECK: %[[RANK32:.+]] = nvvm.read.ptx.sreg.cluster.ctaid.x : i32
// CHECK: %[[RANK:.+]] = arith.index_castui %[[RANK32]] : i32 to index
// CHECK: %[[SLICE:.+]] = arith.ceildivui %c8193, %[[SIZE]] : index
// CHECK: %[[BEGIN:.+]] = arith.muli %[[RANK]], %[[SLICE]] : index
// CHECK: %[[FIRST:.+]] = arith.divui %block_id_x, %[[SIZE]] : index
// CHECK: %[[STEP:.+]] = arith.divui %grid_dim_x, %[[SIZE]] : index
// The block's (max, sum) slots sit after the mbarrier; the first cluster arrival, only where a
// row is spread (a launch of one block a row has no cluster).
// CHECK: memref.view %{{.+}}[%c8][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SPREAD:.+]] = arith.cmpi ugt, %[[SIZE]], %c1 : index
// CHECK: scf.if %[[SPREAD]] {
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK: scf.for %{{.+}} = %[[FIRST]] to %{{.+}} step %[[STEP]]
// The copy takes the row's interior words within the slice, to the slice's own offset.
// CHECK: arith.maxui %{{.+}}, %[[BEGIN]] : index
// CHECK: arith.minui
// CHECK: nvvm.cp.async.bulk.shared.cluster.global
// The exchange: wait for the previous arrival, publish, arrive and wait, read every block's
// pair through distributed shared memory in rank order, arrive.
// CHECK: scf.if %[[SPREAD]] -> (f32, f32) {
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: memref.store
// CHECK: memref.store
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: scf.for %{{.+}} = %c0 to %[[SIZE]] step %c1 iter_args(
// CHECK: nvvm.mapa %{{.+}}, %{{.+}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: llvm.load %{{.+}} : !llvm.ptr<7> -> f32
// CHECK: llvm.load %{{.+}} : !llvm.ptr<7> -> f32
// CHECK: nvvm.cluster.arrive {aligned}
// The last arrival's wait before the blocks exit.
// CHECK: scf.if %[[SPREAD]] {
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: gpu.return
func.func @two(%x: tensor<2049x65536xbf16>) -> tensor<2049x65536xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 2>]} : tensor<2049x65536xbf16> -> tensor<2049x65536xbf16>
  return %0 : tensor<2049x65536xbf16>
}

// -----

// A dynamic width: the row_staged tier of one block takes the rows it holds (115704 columns),
// the one over a cluster those whose blocks stay within 113 KB (7215 words a block over 16:
// StrategyAttr::getDispatchWidth); the host computes the blocks a row needs, at most 16, and
// launches one block a row without a cluster, more as a cluster.
// CHECK-LABEL: func.func @dynamic(
// CHECK: arith.cmpi ule, %{{.+}}, %c115704 : index
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_staged_0 blocks in
// CHECK: %[[FITS:.+]] = arith.cmpi ule, %{{.+}}, %c923512 : index
// CHECK: scf.if %[[FITS]] {
// CHECK: %[[NEEDED:.+]] = arith.ceildivui %{{.+}}, %c7215 : index
// CHECK: %[[BLOCKS:.+]] = arith.minui %[[NEEDED]], %c16 : index
// CHECK: %[[ONE:.+]] = arith.cmpi eq, %[[BLOCKS]], %c1 : index
// CHECK: scf.if %[[ONE]] {
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@dynamic_0_row_staged_1 blocks in
// CHECK: } else {
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@dynamic_0_row_staged_1 clusters in (%[[BLOCKS]], %c1, %c1) blocks in
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_chunked_online_2
func.func @dynamic(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 16>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// -----

// sm_80 has no clusters (and no bulk copies): lower-to-gpu-staged.mlir has the diagnostic.
