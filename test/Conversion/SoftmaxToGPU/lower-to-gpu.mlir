// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-fuse,softmax-select-strategy),softmax-lower-to-gpu,canonicalize)' --split-input-file | FileCheck %s

// Host: tensors become strided memrefs, the result a trailing output argument; one launch
// of ceil(M / rows) blocks: of the plan's fast kernel when the rows are aligned whole vectors,
// else of its general kernel (RowKernel.h).
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @softmax(%[[X:.+]]: memref<4096x1024xf32, strided<[?, 1], offset: ?>>, %[[Y:.+]]: memref<4096x1024xf32, strided<[?, 1], offset: ?>>)
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-DAG: %[[BLOCKS:.+]] = arith.constant 1024 : index
// CHECK-DAG: %[[THREADS:.+]] = arith.constant 256 : index
// CHECK-DAG: %[[XR:.+]] = memref.cast %[[X]] : memref<4096x1024xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-DAG: %[[YR:.+]] = memref.cast %[[Y]]
// The fast variant: the input's offset and row stride are whole vectors (the static width is
// too, and the static row count below 2^30, so that row and column arithmetic is i32)...
// CHECK: %{{.+}}, %[[FOFF:.+]], %{{.+}}:2, %[[FSTRIDES:.+]]:2 = memref.extract_strided_metadata %[[X]]
// CHECK-NEXT: %[[SR:.+]] = arith.remui %[[FSTRIDES]]#0, %c4 : index
// CHECK-NEXT: %[[SW:.+]] = arith.cmpi eq, %[[SR]], %c0 : index
// CHECK-NEXT: %[[OR:.+]] = arith.remui %[[FOFF]], %c4 : index
// CHECK-NEXT: %[[OW:.+]] = arith.cmpi eq, %[[OR]], %c0 : index
// CHECK-NEXT: %[[WHOLE:.+]] = arith.andi %[[OW]], %[[SW]] : i1
// ...and vectors apply: both pointers are 16-byte aligned and the output's offset and row
// stride agree with the input's modulo a vector (so both rows have the same misalignment).
// CHECK: memref.extract_strided_metadata %[[Y]]
// CHECK: %[[OUTPTR:.+]] = memref.extract_aligned_pointer_as_index %[[YR]]
// CHECK-NEXT: arith.remui %[[OUTPTR]], %c16 : index
// CHECK: %[[INPTR:.+]] = memref.extract_aligned_pointer_as_index %[[XR]]
// CHECK-NEXT: arith.remui %[[INPTR]], %c16 : index
// CHECK: arith.remui %{{.+}}, %c4 : index
// CHECK: arith.remui %{{.+}}, %c4 : index
// CHECK: arith.remui %{{.+}}, %c4 : index
// CHECK: arith.remui %{{.+}}, %c4 : index
// CHECK: %[[APPLY:.+]] = arith.andi %{{.+}}, %{{.+}} : i1
// CHECK-NEXT: %[[FAST:.+]] = arith.andi %[[APPLY]], %[[WHOLE]] : i1
// CHECK-NEXT: scf.if %[[FAST]] {
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@softmax_0_row_registers blocks in (%[[BLOCKS]], %{{.+}}, %{{.+}}) threads in (%[[THREADS]], %{{.+}}, %{{.+}}) args(%[[XR]] : memref<?x?xf32, strided<[?, 1], offset: ?>>, %[[YR]] : memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT: } else {
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@softmax_0_row_registers_general blocks in (%[[BLOCKS]], %{{.+}}, %{{.+}}) threads in (%[[THREADS]], %{{.+}}, %{{.+}}) args(%[[XR]] : memref<?x?xf32, strided<[?, 1], offset: ?>>, %[[YR]] : memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK: gpu.module @softmax_kernels
// The fast kernel: nothing tests alignment; row and column arithmetic is i32; no edge columns.
// CHECK: gpu.func @softmax_0_row_registers(%[[FIN:.+]]: memref<?x?xf32, strided<[?, 1], offset: ?>>, %{{.+}}: memref<?x?xf32, strided<[?, 1], offset: ?>>, %{{.+}}: index)
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 256, 1, 1>, nvvm.maxnreg = 72 : i32}
// CHECK-NOT: memref.extract_aligned_pointer_as_index
// CHECK: %[[TID32:.+]] = arith.index_cast %{{.+}} : index to i32
// CHECK-NEXT: %[[FLANE:.+]] = arith.remui %[[TID32]], %c64_i32 : i32
// CHECK: %[[FROW:.+]] = arith.addi %{{.+}}, %{{.+}} : i32
// CHECK-NEXT: %[[FVALID:.+]] = arith.cmpi ult, %[[FROW]], %{{.+}} : i32
// CHECK-NEXT: %[[FLIMIT:.+]] = arith.select %[[FVALID]], %c1024_i32, %c0_i32 : i32
// No head: a thread's first vector is at lane * 4.
// CHECK-NEXT: %[[FCOL:.+]] = arith.muli %[[FLANE]], %c4_i32 : i32
// CHECK-NEXT: %[[FREAD:.+]] = arith.cmpi slt, %[[FCOL]], %[[FLIMIT]] : i32
// CHECK-NEXT: scf.if %[[FREAD]] -> (vector<4xf32>) {
// CHECK-NEXT: %[[FR:.+]] = arith.index_castui %[[FROW]] : i32 to index
// CHECK-NEXT: %[[FC:.+]] = arith.index_castui %[[FCOL]] : i32 to index
// CHECK-NEXT: vector.load %[[FIN]][%[[FR]], %[[FC]]] {alignment = 16 : i64}
// CHECK-NOT: memref.load %[[FIN]]
// CHECK: gpu.return
// The general kernel: vectors (rows split at vector boundaries) where input and output are
// misaligned alike and the sizes fit i32, else the scalar loop in 64-bit index arithmetic.
// CHECK: gpu.func @softmax_0_row_registers_general(%[[IN:.+]]: memref<?x?xf32, strided<[?, 1], offset: ?>>, %[[OUT:.+]]: memref<?x?xf32, strided<[?, 1], offset: ?>>, %{{.+}}: index)
// CHECK-SAME: workgroup(%[[SMEM:.+]] : memref<16xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 256, 1, 1>, nvvm.maxnreg = 72 : i32}
// CHECK-DAG: %[[NEGINF4:.+]] = arith.constant dense<0xFF800000> : vector<4xf32>
// CHECK-DAG: %[[LOG2E:.+]] = arith.constant 1.44269502 : f32
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[W:.+]] = arith.constant 1024 : i32
// CHECK: memref.extract_strided_metadata %[[IN]]
// CHECK: memref.extract_strided_metadata %[[OUT]]
// CHECK: %[[GOUTPTR:.+]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK: arith.remui %[[GOUTPTR]], %c16 : index
// CHECK: %[[GINPTR:.+]] = memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: arith.remui %[[GINPTR]], %c16 : index
// CHECK: arith.remui %{{.+}}, %c4 : index
// CHECK: arith.remui %{{.+}}, %c4 : index
// CHECK: arith.remui %{{.+}}, %c4 : index
// CHECK: arith.remui %{{.+}}, %c4 : index
// CHECK: %[[GALIKE:.+]] = arith.andi %{{.+}}, %{{.+}} : i1
// Row count and width below 2^30: row and column arithmetic fits i32.
// CHECK: arith.cmpi ult, %{{.+}}, %c1073741824 : index
// CHECK: arith.cmpi ult, %{{.+}}, %c1073741824 : index
// CHECK: %[[GFIT:.+]] = arith.andi %{{.+}}, %{{.+}} : i1
// CHECK: %[[GAPPLY:.+]] = arith.andi %[[GALIKE]], %[[GFIT]] : i1
// CHECK-NEXT: scf.if %[[GAPPLY]] {
// 64 lanes a row, 4 rows a block: lane = tid % 64, row = bid * 4 + tid / 64 (a pipelined
// kernel works through row groups instead: the bf16 case below).
// CHECK: %[[LANE:.+]] = arith.remui %{{.+}}, %c64_i32 : i32
// CHECK: %[[RIB:.+]] = arith.divui %{{.+}}, %c64_i32 : i32
// CHECK: %[[ROWS:.+]] = arith.index_cast %{{.+}} : index to i32
// CHECK: %[[BID:.+]] = arith.index_cast %block_id_x : index to i32
// f32 is not pipelined (TargetInfo.h): one row group a block, the block's own.
// CHECK-NEXT: %[[R0:.+]] = arith.muli %[[BID]], %c4_i32 : i32
// CHECK-NEXT: %[[ROW:.+]] = arith.addi %[[R0]], %[[RIB]] : i32
// CHECK-NEXT: %[[VALID:.+]] = arith.cmpi ult, %[[ROW]], %[[ROWS]] : i32
// Rows past the end read nothing: the read limit is 0 there.
// CHECK-NEXT: %[[LIMIT:.+]] = arith.select %[[VALID]], %[[W]], %c0_i32 : i32
// Each row splits at vector boundaries: head = (4 - (offset + row * stride) % 4) % 4 columns
// (in index arithmetic: the row's start), whole vectors up to mainEnd = head + (N - head) / 4 * 4,
// and the tail after it.
// CHECK: %[[START:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK: %[[MIS:.+]] = arith.remui %[[START]], %c4 : index
// CHECK: %[[DIST:.+]] = arith.subi %c4, %[[MIS]] : index
// CHECK: %[[H0:.+]] = arith.remui %[[DIST]], %c4 : index
// CHECK: %[[H0I:.+]] = arith.index_cast %[[H0]] : index to i32
// CHECK: %[[HEAD:.+]] = arith.minsi %[[H0I]], %[[W]] : i32
// CHECK: %[[MAINCOLS:.+]] = arith.subi %[[W]], %[[HEAD]] : i32
// CHECK: %[[NVEC:.+]] = arith.divui %[[MAINCOLS]], %c4_i32 : i32
// CHECK: %[[MAINLEN:.+]] = arith.muli %[[NVEC]], %c4_i32 : i32
// CHECK: %[[MAINEND:.+]] = arith.addi %[[HEAD]], %[[MAINLEN]] : i32
// CHECK: %[[LOADEND:.+]] = arith.minsi %[[LIMIT]], %[[MAINEND]] : i32
// A vector is read whole or not at all: one test a vector, no per-element bounds.
// CHECK: %[[C0:.+]] = arith.muli %[[LANE]], %c4_i32 : i32
// CHECK: %[[COL0:.+]] = arith.addi %[[HEAD]], %[[C0]] : i32
// CHECK: %[[READ0:.+]] = arith.cmpi slt, %[[COL0]], %[[LOADEND]] : i32
// CHECK: scf.if %[[READ0]] -> (vector<4xf32>) {
// CHECK-NEXT: %[[LR:.+]] = arith.index_castui %[[ROW]] : i32 to index
// CHECK-NEXT: %[[LC:.+]] = arith.index_castui %[[COL0]] : i32 to index
// CHECK-NEXT: vector.load %[[IN]][%[[LR]], %[[LC]]] {alignment = 16 : i64} : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[NEGINF4]] : vector<4xf32>
// The next chunk is 64 lanes further: column head + (lane + 64) * 4.
// CHECK: %[[L1:.+]] = arith.addi %[[LANE]], %c64_i32 : i32
// CHECK: %[[C1:.+]] = arith.muli %[[L1]], %c4_i32 : i32
// CHECK: %[[COL1:.+]] = arith.addi %[[HEAD]], %[[C1]] : i32
// CHECK: arith.cmpi slt, %[[COL1]], %[[LOADEND]] : i32
// The edges, one column a lane: the head (lane < head) and the tail (mainEnd + lane < N).
// CHECK: %[[INHEAD:.+]] = arith.cmpi ult, %[[LANE]], %[[HEAD]] : i32
// CHECK: %[[TAILCOL:.+]] = arith.addi %[[MAINEND]], %[[LANE]] : i32
// CHECK: %[[INTAIL:.+]] = arith.cmpi ult, %[[TAILCOL]], %[[W]] : i32
// CHECK: %[[HEADREAD:.+]] = arith.cmpi slt, %[[LANE]], %[[LIMIT]] : i32
// CHECK: arith.andi %[[INHEAD]], %[[HEADREAD]] : i1
// CHECK: %[[HC:.+]] = arith.index_castui %[[LANE]] : i32 to index
// CHECK-NEXT: memref.load %[[IN]][%{{.+}}, %[[HC]]]
// CHECK: %[[TC:.+]] = arith.index_castui %[[TAILCOL]] : i32 to index
// CHECK-NEXT: memref.load %[[IN]][%{{.+}}, %[[TC]]]
// The row max: a butterfly over the warp's 32 lanes (xor 16, 8, 4, 2, 1; width 32), then the
// two warps of the row through shared memory.
// CHECK: arith.maximumf
// CHECK: gpu.shuffle xor %{{.+}}, %c16_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.+}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.+}}, %c4_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.+}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.+}}, %c1_i32, %c32_i32 : f32
// CHECK: memref.store %{{.+}}, %[[SMEM]]
// CHECK: gpu.barrier
// CHECK: %[[W0:.+]] = memref.load %[[SMEM]]
// CHECK: %[[W1:.+]] = memref.load %[[SMEM]]
// CHECK: %[[MAX:.+]] = arith.maximumf %[[W0]], %[[W1]] : f32
// exp(x - max) = 2^((x - max) log2 e), with max = 0 for a row of -inf (no -inf - -inf = NaN).
// CHECK: %[[ALLNEG:.+]] = arith.cmpf oeq, %[[MAX]], %[[NEGINF]] : f32
// CHECK: %[[MAXSAFE:.+]] = arith.select %[[ALLNEG]], %[[ZERO]], %[[MAX]] : f32
// CHECK: %[[SHIFT:.+]] = arith.subf %{{.+}}, %[[MAXSAFE]] : f32
// CHECK: %[[SCALED:.+]] = arith.mulf %[[SHIFT]], %[[LOG2E]] : f32
// CHECK: %[[E0:.+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[SCALED]])
// The sum: the thread's exps added as a tree (and nothing else: no 1 added), then the same
// butterfly and a second shared buffer (slots 8..15).
// CHECK-NOT: arith.addf %{{.+}}, %[[ONE]] : f32
// CHECK: gpu.shuffle xor %{{.+}}, %c16_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.+}}, %c1_i32, %c32_i32 : f32
// CHECK: arith.addi %{{.+}}, %c8_i32 : i32
// CHECK: gpu.barrier
// CHECK: %[[S0:.+]] = memref.load %[[SMEM]]
// CHECK: %[[S1:.+]] = memref.load %[[SMEM]]
// CHECK: %[[SUM:.+]] = arith.addf %[[S0]], %[[S1]] : f32
// The masked-row policy (zero) once a row, through the factor: y = e * (masked ? 0 : 1 / sum).
// CHECK: %[[MASKED:.+]] = arith.cmpf oeq, %[[MAX]], %[[NEGINF]] : f32
// CHECK: %[[INV:.+]] = arith.divf %[[ONE]], %[[SUM]] : f32
// CHECK: %[[FACTOR:.+]] = arith.select %[[MASKED]], %[[ZERO]], %[[INV]] : f32
// CHECK: arith.mulf %[[E0]], %[[FACTOR]] : f32
// Stores: whole vectors before mainEnd of valid rows, then the edges.
// CHECK: %[[SCOL0:.+]] = arith.addi %[[HEAD]], %{{.+}} : i32
// CHECK: %[[SIN:.+]] = arith.cmpi slt, %[[SCOL0]], %[[MAINEND]] : i32
// CHECK: %[[SOK:.+]] = arith.andi %[[VALID]], %[[SIN]] : i1
// CHECK: scf.if %[[SOK]] {
// CHECK-NEXT: %[[SR:.+]] = arith.index_castui %[[ROW]] : i32 to index
// CHECK-NEXT: %[[SC:.+]] = arith.index_castui %[[SCOL0]] : i32 to index
// CHECK-NEXT: vector.store %{{.+}}, %[[OUT]][%[[SR]], %[[SC]]] {alignment = 16 : i64}
// CHECK: arith.andi %[[VALID]], %{{.+}} : i1
// CHECK: %[[EC:.+]] = arith.index_castui %[[LANE]] : i32 to index
// CHECK-NEXT: memref.store %{{.+}}, %[[OUT]][%{{.+}}, %[[EC]]]
// CHECK: arith.andi %[[VALID]], %{{.+}} : i1
// CHECK: memref.store %{{.+}}, %[[OUT]][%{{.+}}, %{{.+}}]
// Operands misaligned differently: a loop of one scalar column a lane, (max, sum) running.
// CHECK: } else {
// CHECK: scf.for %{{.+}} = %c0 to %{{.+}} step %c1 iter_args(%{{.+}} = %[[NEGINF]], %{{.+}} = %[[ZERO]]) -> (f32, f32)
// CHECK: memref.load %[[IN]]
// CHECK: scf.for
// CHECK: memref.store %{{.+}}, %[[OUT]]
// CHECK: gpu.return
func.func @softmax(%x: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %0 = softmax.softmax %x : tensor<4096x1024xf32>
  return %0 : tensor<4096x1024xf32>
}

// -----

// A dynamic width: one kernel a power-of-two tier, dispatched on N; the last one takes any width.
// Scaled, so that its rows beyond the register tiers go to shared memory (a plain 16-bit softmax
// goes to clusters there: lower-to-gpu-cluster.mlir).
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[N:.+]] = memref.dim %{{.+}}, %c1
// CHECK: arith.cmpi ule, %[[N]], %c8
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_multi_row_0
// CHECK: arith.cmpi ule, %[[N]], %c16
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_multi_row_1
// CHECK: arith.cmpi ule, %[[N]], %c32
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_multi_row_2
// CHECK: arith.cmpi ule, %[[N]], %c64
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_multi_row_3
// CHECK: arith.cmpi ule, %[[N]], %c128
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_multi_row_4
// CHECK: arith.cmpi ule, %[[N]], %c256
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_multi_row_5
// CHECK: arith.cmpi ule, %[[N]], %c512
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_6
// CHECK: arith.cmpi ule, %[[N]], %c1024
// A tier's alternatives (513 to 4096 columns of 16 bits): its plan where every row is whole
// vectors of 8 on their boundary, its plan on vectors of 4 (8 bytes) where they are whole
// vectors of 4, else the general kernel of the last. The first has a Full kernel for rows of
// its span (its fast kernel takes its lanes from the launch).
// CHECK: arith.cmpi eq, %[[N]], %c1024 : index
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_7_full blocks
// CHECK-NEXT: } else {
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_7 blocks
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK: arith.remui %{{.+}}, %c4 : index
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_8 blocks
// CHECK-NEXT: } else {
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_8_general blocks
// Between two tiers of 16-bit rows, tiers on vectors of 4 of the 16 values a thread that the
// upper tier's alternative takes, on fewer warps (1536 columns: 96 lanes), with a fast and a
// general kernel.
// CHECK: arith.cmpi ule, %[[N]], %c1536
// CHECK: arith.remui %{{.+}}, %c4 : index
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_9 blocks
// CHECK-NEXT: } else {
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_9_general blocks
// CHECK-SAME: threads in (%c96, %c1, %c1)
// CHECK: arith.cmpi ule, %[[N]], %c2048
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_10 blocks
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_11 blocks
// CHECK-NEXT: } else {
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_11_general blocks
// CHECK: arith.cmpi ule, %[[N]], %c2560
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_12_general blocks
// CHECK-SAME: threads in (%c160, %c1, %c1)
// CHECK: arith.cmpi ule, %[[N]], %c3072
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_13_general blocks
// CHECK-SAME: threads in (%c192, %c1, %c1)
// CHECK: arith.cmpi ule, %[[N]], %c3584
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_14_general blocks
// CHECK-SAME: threads in (%c224, %c1, %c1)
// CHECK: arith.cmpi ule, %[[N]], %c4096
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_15 blocks
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_16 blocks
// CHECK-NEXT: } else {
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_16_general blocks
// CHECK: arith.cmpi ule, %[[N]], %c8192
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_17_full
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_17 blocks
// The 12288-column tier of 24 values (three vectors) a thread, between those of 16 and 32.
// CHECK: arith.cmpi ule, %[[N]], %c12288
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_18 blocks
// CHECK: arith.cmpi ule, %[[N]], %c16384
// The 512-thread tier of 32 values: rows as wide as its span take its Full kernel (the static kernel of
// 16384 columns, at the occupancy budget its fast kernel cannot keep), narrower ones the fast
// kernel, rows off vector boundaries the general one.
// CHECK: %[[ISSPAN:.+]] = arith.cmpi eq, %[[N]], %c16384
// CHECK-NEXT: scf.if %[[ISSPAN]] {
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_19_full
// CHECK: } else {
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_19 blocks
// CHECK: } else {
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_registers_19_general
// CHECK: arith.cmpi ule, %[[N]], %c57856
// The row in shared memory (scaled 16-bit rows are not clustered): the reductions' 32 slots
// (128 bytes), then the row as f32.
// CHECK: %[[VECTORS:.+]] = arith.ceildivui %[[N]], %c8
// CHECK: %[[ROW:.+]] = arith.muli %[[VECTORS]], %c32
// CHECK: %[[BYTES:.+]] = arith.addi %[[ROW]], %c128
// CHECK: %[[BYTES32:.+]] = arith.index_cast %[[BYTES]] : index to i32
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_shared_20 {{.*}} dynamic_shared_memory_size %[[BYTES32]]
// CHECK: } else {
// Rows wider than every tier: fewer rows than the multiprocessors split over blocks where the
// split applies (row_split, the row-count alternative), else the chunked plan, fast or general.
// CHECK: %[[FEW:.+]] = arith.cmpi ult, %{{.+}}, %c132 : index
// CHECK: %[[SPLIT:.+]] = arith.andi %[[FEW]], %{{.+}} : i1
// CHECK: scf.if %[[SPLIT]] {
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_0_row_split_21_partial blocks
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@dynamic_0_row_split_21_combine blocks
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@dynamic_0_row_split_21_normalize blocks
// CHECK-NEXT: } else {
// CHECK: scf.if %{{.+}} {
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@dynamic_0_chunked_online_22 blocks
// CHECK-NEXT: } else {
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@dynamic_0_chunked_online_22_general blocks
// The first alternative of a tier has no general kernel, the last no Full one (a width of the
// span is whole vectors of every alternative). The narrower alternative keeps fixed lanes and
// one row a block (RowKernel.cpp, hasElasticLanes; SelectStrategy.cpp).
// CHECK: gpu.func @dynamic_0_row_registers_7(
// CHECK-NOT: gpu.func @dynamic_0_row_registers_7_general(
// CHECK: gpu.func @dynamic_0_row_registers_8(
// CHECK-SAME: known_block_size = array<i32: 64, 1, 1>
// CHECK: vector.load {{.+}} vector<4xbf16>
// CHECK-NOT: gpu.func @dynamic_0_row_registers_8_full(
// CHECK: gpu.func @dynamic_0_row_registers_8_general(
// The Full kernel takes its width from the plan, not from the memref: a valid row reads to
// column 16384.
// CHECK: gpu.func @dynamic_0_row_registers_19_full(
// CHECK-SAME: nvvm.maxnreg = 64 : i32
// CHECK-NOT: memref.dim %arg0, %c1
// CHECK: arith.select %{{.+}}, %c16384_i32, %c0_i32 : i32
// 16-bit inputs pipeline the register plans: the first group's raw vectors are loaded before the
// loop, each iteration loads the next group's (and only then reduces the current one), and the
// raw values cross the iteration.
// Rows of 4096 columns or more (8 KB of bf16 a group) take the groups a grid apart, narrower
// ones consecutive groups (RowKernel.cpp, kStridedGroupBytes).
// CHECK: gpu.func @dynamic_0_row_registers_19_general(
// CHECK: %[[GRID:.+]] = arith.index_cast %grid_dim_x : index to i32
// CHECK: %[[BLOCK:.+]] = arith.index_cast %block_id_x : index to i32
// CHECK: %[[STRIDED:.+]] = arith.cmpi uge, %{{.+}}, %c4096_i32 : i32
// CHECK-NEXT: %[[BEGIN:.+]] = arith.select %[[STRIDED]], %[[BLOCK]], %{{.+}} : i32
// CHECK-NEXT: %[[END:.+]] = arith.select %[[STRIDED]], %{{.+}}, %{{.+}} : i32
// CHECK-NEXT: %[[STEP:.+]] = arith.select %[[STRIDED]], %[[GRID]], %c1_i32 : i32
// CHECK: vector.load %{{.+}} {alignment = 16 : i64} : memref<?x?xbf16, strided<[?, 1], offset: ?>>, vector<8xbf16>
// CHECK: scf.for %[[GR:.+]] = %[[BEGIN]] to %[[END]] step %[[STEP]] iter_args({{.+}}) -> (vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, bf16, bf16)  : i32
// CHECK-NEXT: %[[NEXTG:.+]] = arith.addi %[[GR]], %[[STEP]] : i32
// CHECK: vector.load
// CHECK-NOT: gpu.shuffle
// CHECK: vector.load
// CHECK-NOT: gpu.shuffle
// CHECK: vector.load
// CHECK-NOT: gpu.shuffle
// CHECK: vector.load
// CHECK: gpu.shuffle xor
// CHECK: scf.yield %{{.+}} : vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, vector<8xbf16>, bf16, bf16
// CHECK: gpu.func @dynamic_0_row_shared_20
// CHECK: gpu.dynamic_shared_memory
// The chunked kernel: a running max and sum over the spans, then a second pass that stores.
// CHECK: gpu.func @dynamic_0_chunked_online_22
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (f32, f32)
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: memref.store
func.func @dynamic(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %s = softmax.scale %x by 0.5 : tensor<?x?xbf16>
  %0 = softmax.softmax %s : tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// -----

// A row_shared tier (chosen where a chip has no clusters; written here): the launch sizes the
// dynamic shared memory from N: the reductions' 32 slots (128 bytes), then the row as f32.
// CHECK-LABEL: func.func @shared_tier
// CHECK: %[[N:.+]] = memref.dim %{{.+}}, %c1
// CHECK: arith.cmpi ule, %[[N]], %c57856
// CHECK: %[[VECTORS:.+]] = arith.ceildivui %[[N]], %c8
// CHECK: %[[ROW:.+]] = arith.muli %[[VECTORS]], %c32
// CHECK: %[[BYTES:.+]] = arith.addi %[[ROW]], %c128
// CHECK: %[[BYTES32:.+]] = arith.index_cast %[[BYTES]] : index to i32
// CHECK: gpu.launch_func @softmax_kernels::@shared_tier_0_row_shared_0 {{.*}} dynamic_shared_memory_size %[[BYTES32]]
// CHECK: gpu.func @shared_tier_0_row_shared_0
// CHECK: gpu.dynamic_shared_memory
// CHECK: memref.view %{{.+}}[%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32xf32, #gpu.address_space<workgroup>>
// CHECK: memref.view
// CHECK-SAME: to memref<?xf32, #gpu.address_space<workgroup>>
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}] {alignment = 32 : i64} : memref<?xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: vector.load %{{.+}}[%{{.+}}] {alignment = 32 : i64} : memref<?xf32, #gpu.address_space<workgroup>>, vector<8xf32>
func.func @shared_tier(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// -----

// An intermediate lives in a device buffer (async forms: gpu-to-llvm lowers those); an argument
// returned as is gets a copy kernel; a 3-d input is viewed as rows; a padding mask reads its
// length once a row.
// CHECK-LABEL: func.func @plumbing
// CHECK-SAME: (%[[X:.+]]: memref<2x4x64xf32, strided<[?, ?, 1], offset: ?>>, %[[L:.+]]: memref<2x4xi32, strided<[?, 1], offset: ?>>, %[[R0:.+]]: memref<2x4x64xf32, strided<[?, ?, 1], offset: ?>>, %[[R1:.+]]: memref<2x4x64xf32, strided<[?, ?, 1], offset: ?>>)
// CHECK: %[[T0:.+]] = gpu.wait async
// CHECK: %[[TMP:.+]], %[[T1:.+]] = gpu.alloc async [%[[T0]]] () : memref<2x4x64xf16>
// CHECK: gpu.wait [%[[T1]]]
// CHECK: memref.collapse_shape %[[X]] {{\[\[}}0, 1], [2]]
// CHECK: gpu.launch_func @softmax_kernels::@plumbing_0_multi_row
// CHECK: gpu.launch_func @softmax_kernels::@plumbing_1_multi_row
// CHECK: memref.collapse_shape %[[R1]]
// CHECK: gpu.launch_func @softmax_kernels::@plumbing_2_multi_row
// CHECK: gpu.dealloc async [%{{.+}}] %[[TMP]]
// CHECK: gpu.func @plumbing_0_multi_row
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<2x4xi32, strided<[?, 1], offset: ?>>
// CHECK: arith.minsi
func.func @plumbing(%x: tensor<2x4x64xf32>, %len: tensor<2x4xi32>) -> (tensor<2x4x64xf32>, tensor<2x4x64xf32>) {
  %m = softmax.mask %x, padding %len : tensor<2x4x64xf32>, tensor<2x4xi32>
  %0 = softmax.softmax %m : tensor<2x4x64xf32>
  %1 = softmax.cast %0 : tensor<2x4x64xf32> to tensor<2x4x64xf16>
  %2 = softmax.cast %1 : tensor<2x4x64xf16> to tensor<2x4x64xf32>
  %3 = softmax.log_softmax %2 : tensor<2x4x64xf32>
  return %3, %x : tensor<2x4x64xf32>, tensor<2x4x64xf32>
}

// -----

// Rows narrower than 256 bytes a span whose lanes hold several vectors (here bf16 N = 32 written
// as one lane a row of 4 vectors: 64 bytes) get no fast variant (measured slower on the H200):
// only the general variant and the scalar loop, both in index arithmetic.
// CHECK-LABEL: gpu.func @narrow_0_multi_row(
// CHECK-NOT: arith.index_cast %{{.+}} : index to i32
// CHECK: gpu.return
// CHECK-NOT: arith.index_cast %{{.+}} : index to i32
// CHECK-NOT: gpu.func @narrow_0_multi_row_general
func.func @narrow(%x: tensor<4096x32xbf16>) -> tensor<4096x32xbf16> {
  %p = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 1, rows = 256, vector = 8, chunks = 4>]} : tensor<4096x32xbf16> -> tensor<4096x32xbf16>
  return %p : tensor<4096x32xbf16>
}

// -----

// One vector a lane (what the selection gives bf16 N = 32: 4 lanes of 8) reads consecutive bytes
// across a warp and keeps the fast variant (i32, no edge columns) beside the general one.
// CHECK: scf.if
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@narrow_vector_0_multi_row blocks
// CHECK: } else {
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@narrow_vector_0_multi_row_general blocks
// CHECK-LABEL: gpu.func @narrow_vector_0_multi_row(
// CHECK: arith.index_cast %{{.+}} : index to i32
// CHECK: vector.load %{{.+}} : memref<?x?xbf16, strided<[?, 1], offset: ?>>, vector<8xbf16>
// CHECK-NOT: memref.load %{{.+}} : memref<?x?xbf16
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @narrow_vector_0_multi_row_general(
func.func @narrow_vector(%x: tensor<4096x32xbf16>) -> tensor<4096x32xbf16> {
  %p = softmax.softmax %x : tensor<4096x32xbf16>
  return %p : tensor<4096x32xbf16>
}

// -----

// Elastic lanes: the register tiers of a dynamic width with several warps a row launch the
// warps that the row's values fill (ceil(ceil(N / values a thread) / 32) warps, within
// [1 warp, the plan's lanes]) as the block's x, its rows as y; their kernels read the lanes
// from blockDim.x and combine the slots of the warps they have. The Full kernel (rows as wide
// as the span) keeps its plan's block.
// CHECK-LABEL: func.func @elastic
// CHECK: arith.cmpi ule, %[[N:.+]], %c2048
// CHECK: arith.cmpi ule, %[[N]], %c4096
// CHECK: %[[VALUES:.+]] = arith.ceildivui %[[N]], %c8 : index
// CHECK-NEXT: %[[WARPS:.+]] = arith.ceildivui %[[VALUES]], %c32 : index
// CHECK-NEXT: %[[LANES:.+]] = arith.muli %[[WARPS]], %c32 : index
// CHECK-NEXT: %[[ATLEAST:.+]] = arith.maxui %[[LANES]], %c32 : index
// CHECK-NEXT: %[[ATMOST:.+]] = arith.minui %[[ATLEAST]], %c512 : index
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@elastic_0_row_registers_15 blocks in ({{.+}}) threads in (%[[ATMOST]], %c1, %c1)
// CHECK: gpu.launch_func @softmax_kernels::@elastic_0_row_registers_19_full blocks in ({{.+}}) threads in (%c512, %c1, %c1)
// CHECK: gpu.func @elastic_0_row_registers_7(
// CHECK-NOT: known_block_size
// CHECK-SAME: nvvm.maxnreg
// CHECK: %[[TX:.+]] = gpu.thread_id x
// CHECK: %[[BX:.+]] = gpu.block_dim x
// CHECK: %[[LANECOUNT:.+]] = arith.index_cast %[[BX]] : index to i32
// CHECK: %[[TY:.+]] = gpu.thread_id y
// CHECK: %[[ROW:.+]] = arith.index_cast %[[TY]] : index to i32
// The slots of the warps the row lacks (of the plan's 4) hold -inf (max) and 0 (sum) before any
// reduction, which then combines all 4 slots, as with a fixed block.
// CHECK: %[[PRESENT:.+]] = arith.divui %[[LANECOUNT]], %c32_i32 : i32
// CHECK: %[[INPLAN:.+]] = arith.cmpi ult, %[[LANE:.+]], %c4_i32 : i32
// CHECK: %[[LACKS:.+]] = arith.cmpi uge, %[[LANE]], %[[PRESENT]] : i32
// CHECK: %[[ABSENT:.+]] = arith.andi %[[LACKS]], %[[INPLAN]] : i1
// CHECK: scf.if %[[ABSENT]] {
// CHECK: %[[FIRST:.+]] = arith.muli %[[ROW]], %c4_i32 : i32
// CHECK: %[[SLOT:.+]] = arith.addi %[[FIRST]], %[[LANE]] : i32
// CHECK: memref.store %cst{{.*}}, %arg3[%{{.+}}] : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SUMSLOT:.+]] = arith.addi %[[SLOT]], %c8_i32 : i32
// CHECK: memref.store %cst{{.*}}, %arg3[%{{.+}}] : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-NOT: arith.select
// CHECK: memref.load %arg3
// CHECK-NOT: arith.select
// CHECK: memref.load %arg3
// CHECK-NOT: arith.select
// CHECK: memref.load %arg3
// CHECK-NOT: arith.select
// CHECK: memref.load %arg3
// CHECK: gpu.func @elastic_0_row_registers_19_full(
// CHECK-SAME: known_block_size = array<i32: 512, 1, 1>
func.func @elastic(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.softmax %x : tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// -----

// A bias along the row (a side operand): the tiers keep fixed lanes (their chunk addresses would
// cost registers twice), so their kernels keep a known block and the launch a constant one.
// CHECK-LABEL: func.func @fixed_with_bias
// CHECK: gpu.launch_func @softmax_kernels::@fixed_with_bias_0_row_registers_13 blocks in ({{.+}}) threads in (%c256, %c1, %c1)
// CHECK: gpu.func @fixed_with_bias_0_row_registers_13(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-NOT: gpu.block_dim
// CHECK: gpu.return
func.func @fixed_with_bias(%x: tensor<?x?xf32>, %b: tensor<1x?xf32>) -> tensor<?x?xf32> {
  %a = softmax.add_bias %x, %b : tensor<?x?xf32>, tensor<1x?xf32>
  %p = softmax.softmax %a : tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}
