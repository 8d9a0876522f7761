// RUN: softmax-opt %s --pass-pipeline='builtin.module(softmax-lower-to-gpu,canonicalize)' --split-input-file | FileCheck %s

// row_split (RowKernel.h, RowSplitPhase): each row split into spans of lanes * vector * chunks
// = 4096 columns, a block each, in three launches on one stream: Partial (rows * G blocks,
// G = ceil(100000 / 4096) = 25), Combine (a block a row), Normalize (rows * G). They run only
// where the input and output rows are misaligned alike and the two do not overlap (the partial
// results travel through the output); anything else takes the chunked_online fallback.
// CHECK-LABEL: func.func @split_bf16(
// The output's bytes [outBegin, outEnd) against the input's [inBegin, inEnd): disjoint.
// CHECK: %[[IN_BEGIN:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK: %[[IN_LAST:.+]] = arith.muli %{{.+}}, %c3 : index
// CHECK: %[[IN_COLS:.+]] = arith.addi %[[IN_LAST]], %c100000 : index
// CHECK: %[[IN_BYTES:.+]] = arith.muli %[[IN_COLS]], %c2 : index
// CHECK: %[[IN_END:.+]] = arith.addi %[[IN_BEGIN]], %[[IN_BYTES]] : index
// CHECK: %[[OUT_BEGIN:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK: %[[OUT_END:.+]] = arith.addi %[[OUT_BEGIN]], %{{.+}} : index
// CHECK: %[[BEFORE:.+]] = arith.cmpi ule, %[[OUT_END]], %[[IN_BEGIN]] : index
// CHECK: %[[AFTER:.+]] = arith.cmpi ule, %[[IN_END]], %[[OUT_BEGIN]] : index
// CHECK: %[[DISJOINT:.+]] = arith.ori %[[AFTER]], %[[BEFORE]] : i1
// CHECK: %[[APPLIES:.+]] = arith.andi %{{.+}}, %[[DISJOINT]] : i1
// CHECK: scf.if %[[APPLIES]] {
// Combine and Normalize start as programmatic dependent launches of the phase before them (sm_90:
// their blocks wait at griddepcontrol.wait, below); Partial follows whatever ran before it.
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@split_bf16_0_row_split_partial blocks in (%c100, %c1, %c1) threads in (%c256, %c1, %c1) args({{[^{}]*}}){{$}}
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@split_bf16_0_row_split_combine blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args({{.*}}) {softmax.dependent_launch}
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@split_bf16_0_row_split_normalize blocks in (%c100, %c1, %c1) threads in (%c256, %c1, %c1) args({{.*}}) {softmax.dependent_launch}
// (sm_80 has no dependent launches: lower-to-gpu-split-sm80.mlir.)
// CHECK-NEXT: } else {
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@split_bf16_0_row_split_fallback blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1)
// Partial: block b takes span b % 25 of row b / 25; its (max, sum) go, as two f32 words, into
// the first 8 bytes of its span in the output row (bf16 elements: the words' address from the
// row's offset, stride and column, in bytes), by thread 0.
// CHECK-LABEL: gpu.func @split_bf16_0_row_split_partial(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// Partial lets Combine's blocks be scheduled at once and waits for nothing.
// CHECK-NOT: griddepcontrol wait
// CHECK: nvvm.griddepcontrol launch_dependents
// CHECK-NOT: griddepcontrol
// CHECK: %[[TID:.+]] = arith.remui %{{.+}}, %c256_i32 : i32
// CHECK: %[[BID:.+]] = arith.index_cast %block_id_x : index to i32
// CHECK: %[[SPAN:.+]] = arith.remui %[[BID]], %c25_i32 : i32
// CHECK: %[[ROW:.+]] = arith.divui %[[BID]], %c25_i32 : i32
// The row's edge columns are its first block's.
// CHECK: arith.cmpi eq, %[[SPAN]], %c0_i32 : i32
// One span: [min(b, n), min(b + 1, n)).
// CHECK: %[[LO:.+]] = arith.minsi %[[SPAN]], %{{.+}} : i32
// CHECK: %[[NEXT:.+]] = arith.addi %[[SPAN]], %c1_i32 : i32
// CHECK: %[[HI:.+]] = arith.minsi %[[NEXT]], %{{.+}} : i32
// CHECK: scf.for %{{.+}} = %[[LO]] to %[[HI]] step %c1_i32 iter_args
// CHECK: gpu.barrier
// CHECK: %[[OWNS:.+]] = arith.cmpi slt, %[[SPAN]], %{{.+}} : i32
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[TID]], %c0_i32 : i32
// CHECK: %[[WRITES:.+]] = arith.andi %[[OWNS]], %[[FIRST]] : i1
// CHECK: scf.if %[[WRITES]] {
// CHECK: %[[SLOT:.+]] = arith.muli %[[SPAN]], %c4096_i32 : i32
// CHECK: %[[COLUMN:.+]] = arith.addi %{{.+}}, %[[SLOT]] : i32
// CHECK: %{{.+}}, %[[OFFSET:.+]], %{{.+}}:2, %[[STRIDES:.+]]:2 = memref.extract_strided_metadata %arg1
// CHECK: %[[C:.+]] = arith.index_castui %[[COLUMN]] : i32 to index
// CHECK: %[[R:.+]] = arith.index_castui %[[ROW]] : i32 to index
// CHECK: %[[RS:.+]] = arith.muli %[[R]], %[[STRIDES]]#0 : index
// CHECK: %[[RC:.+]] = arith.addi %[[RS]], %[[C]] : index
// CHECK: %[[E:.+]] = arith.addi %[[OFFSET]], %[[RC]] : index
// CHECK: %[[BYTES:.+]] = arith.muli %[[E]], %c2 : index
// CHECK: %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[ADDRESS:.+]] = arith.addi %[[BASE]], %[[BYTES]] : index
// CHECK: %[[A64:.+]] = arith.index_castui %[[ADDRESS]] : index to i64
// CHECK: %[[P:.+]] = llvm.inttoptr %[[A64]] : i64 to !llvm.ptr
// CHECK: %[[P1:.+]] = llvm.getelementptr %[[P]][1] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK: llvm.store %{{.+}}, %[[P]] {alignment = 8 : i64} : f32, !llvm.ptr
// CHECK: llvm.store %{{.+}}, %[[P1]] {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NOT: vector.store
// CHECK: gpu.return
// Combine: lane l merges the slots l, l + 256, ... of its row, the block reduces them, and the
// same lanes write the row's (max, sum) back.
// CHECK-LABEL: gpu.func @split_bf16_0_row_split_combine(
// Combine lets Normalize's blocks be scheduled, then waits for Partial's words.
// CHECK: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: %[[LANE:.+]] = arith.remui %{{.+}}, %c256_i32 : i32
// CHECK: %[[SPANS:.+]] = arith.ceildivui %{{.+}}, %c4096_i32 : i32
// CHECK: scf.for %[[J:.+]] = %[[LANE]] to %[[SPANS]] step %c256_i32 iter_args
// CHECK: arith.muli %[[J]], %c4096_i32 : i32
// CHECK-COUNT-2: llvm.load
// CHECK: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: scf.for %[[K:.+]] = %[[LANE]] to %[[SPANS]] step %c256_i32 : i32 {
// CHECK: arith.muli %[[K]], %c4096_i32 : i32
// CHECK-COUNT-2: llvm.store
// Normalize: every thread reads its block's slot, a barrier, then the span is stored.
// CHECK-LABEL: gpu.func @split_bf16_0_row_split_normalize(
// Normalize waits for Combine's words and has no dependent of its own.
// CHECK-NOT: launch_dependents
// CHECK: nvvm.griddepcontrol wait
// CHECK-NOT: griddepcontrol
// CHECK: %[[NSPAN:.+]] = arith.remui %{{.+}}, %c25_i32 : i32
// CHECK: %[[NOWNS:.+]] = arith.cmpi slt, %[[NSPAN]], %{{.+}} : i32
// CHECK: scf.if %[[NOWNS]] -> (f32, f32) {
// CHECK: %[[NP:.+]] = llvm.inttoptr
// CHECK: %[[NP1:.+]] = llvm.getelementptr %[[NP]][1]
// CHECK: %[[NMAX:.+]] = llvm.load %[[NP]] {alignment = 8 : i64} : !llvm.ptr -> f32
// CHECK: %[[NSUM:.+]] = llvm.load %[[NP1]] {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK: scf.yield %[[NMAX]], %[[NSUM]] : f32, f32
// CHECK: } else {
// CHECK-NEXT: scf.yield %cst{{.*}}, %cst{{.*}} : f32, f32
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: vector.store %{{.+}}, %arg1
// CHECK: gpu.return
// The fallback: the chunked_online kernel of the same lanes, vector and chunks.
// CHECK-LABEL: gpu.func @split_bf16_0_row_split_fallback(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
func.func @split_bf16(%x: tensor<4x100000xbf16>) -> tensor<4x100000xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 2>]} : tensor<4x100000xbf16> -> tensor<4x100000xbf16>
  return %0 : tensor<4x100000xbf16>
}

// -----

// f32 output (its words are two columns). A dynamic width: G = ceil(width / 1024) at
// run time, and the split only where every row holds a whole span past its head (width >=
// span + vector) and the grid fits i32.
// CHECK-LABEL: func.func @split_dynamic(
// CHECK: %[[W:.+]] = memref.dim %{{.+}}, %c1 : memref<?x?xf32
// CHECK-DAG: arith.cmpi uge, %[[W]], %c1028 : index
// CHECK-DAG: %[[G:.+]] = arith.ceildivui %[[W]], %c1024 : index
// CHECK-DAG: %[[GRID:.+]] = arith.muli %{{.+}}, %[[G]] : index
// CHECK-DAG: arith.cmpi ule, %[[GRID]], %c2147483647 : index
// CHECK: gpu.launch_func @softmax_kernels::@split_dynamic_0_row_split_partial blocks in
// CHECK-LABEL: gpu.func @split_dynamic_0_row_split_partial(
// CHECK: scf.if
// CHECK: arith.muli %{{.+}}, %c4 : index
// CHECK: llvm.store %{{.+}} {alignment = 8 : i64} : f32, !llvm.ptr
func.func @split_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 4, chunks = 1>]} : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Over a cluster (cluster = 16): one launch of rows * 16 blocks in clusters of 16, each block
// taking ceil(spans / 16) consecutive spans of 16384 columns; the blocks' (max, sum) merged
// through distributed shared memory, no words through the output (so no overlap test), and the
// chunked_online fallback for misaligned operands.
// CHECK-LABEL: func.func @split_cluster(
// CHECK-NOT: arith.ori
// CHECK: scf.if %{{.+}} {
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@split_cluster_0_row_split_cluster clusters in (%c16, %c1, %c1) blocks in (%{{.+}}, %c1, %c1) threads in (%c512, %c1, %c1)
// CHECK-NEXT: } else {
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@split_cluster_0_row_split_fallback
// CHECK-LABEL: gpu.func @split_cluster_0_row_split_cluster(
// CHECK-SAME: workgroup(%{{.+}} : memref<32xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[EXCHANGE:.+]] : memref<2xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[RANK:.+]] = arith.remui %{{.+}}, %c16_i32 : i32
// CHECK: nvvm.cluster.arrive
// CHECK: arith.divui %{{.+}}, %c16_i32 : i32
// CHECK: %[[SPANS:.+]] = arith.ceildivui %{{.+}}, %c16384_i32 : i32
// CHECK: %[[SHARE:.+]] = arith.ceildivui %[[SPANS]], %c16_i32 : i32
// CHECK: %[[FIRST:.+]] = arith.muli %[[RANK]], %[[SHARE]] : i32
// CHECK: %[[LO:.+]] = arith.minsi %[[FIRST]], %{{.+}} : i32
// CHECK: %[[END:.+]] = arith.addi %[[FIRST]], %[[SHARE]] : i32
// CHECK: %[[HI:.+]] = arith.minsi %[[END]], %{{.+}} : i32
// CHECK: scf.for %{{.+}} = %[[LO]] to %[[HI]] step %c1_i32 iter_args
// CHECK: nvvm.cluster.wait
// CHECK: memref.store %{{.+}}, %[[EXCHANGE]][%c0]
// CHECK: nvvm.mapa
// CHECK: nvvm.cluster.arrive
// CHECK: scf.for
// CHECK: vector.store
// CHECK: nvvm.cluster.wait
// CHECK-NEXT: gpu.return
func.func @split_cluster(%x: tensor<1x1048576xf32>) -> tensor<1x1048576xf32> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_split, lanes = 512, rows = 1, vector = 4, chunks = 8, cluster = 16>]} : tensor<1x1048576xf32> -> tensor<1x1048576xf32>
  return %y : tensor<1x1048576xf32>
}
