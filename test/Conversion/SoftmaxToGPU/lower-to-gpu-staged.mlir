// RUN: softmax-opt %s --pass-pipeline='builtin.module(softmax-lower-to-gpu,canonicalize)' --split-input-file | FileCheck %s
// RUN: not softmax-opt %s --softmax-lower-to-gpu="chip=sm_80" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80

// row_staged (RowStagedKernel.cpp): one block a row, the row's 16-byte-aligned interior
// brought into dynamic shared memory by one bulk copy that an mbarrier counts, the edge words by
// threads, then three passes over the buffer. The host launches a block a row with the header
// (272 bytes: the mbarrier and the slots) and ceil(N / 8) + 1 words of the row.
// CHECK-LABEL: func.func @log_dynamic(
// CHECK: %[[WIDTH:.+]] = memref.dim %{{.+}}, %c1
// CHECK: %[[WORDS:.+]] = arith.ceildivui %[[WIDTH]], %c8 : index
// CHECK: %[[PLUS:.+]] = arith.addi %[[WORDS]], %c1 : index
// CHECK: %[[BYTES:.+]] = arith.muli %[[PLUS]], %c16 : index
// CHECK: %[[ALL:.+]] = arith.addi %[[BYTES]], %c272 : index
// CHECK: %[[SHARED:.+]] = arith.index_cast %[[ALL]] : index to i32
// CHECK: gpu.launch_func @softmax_kernels::@log_dynamic_0_row_staged_0 blocks in (%{{.+}}, %c1, %c1) threads in (%c512, %c1, %c1) dynamic_shared_memory_size %[[SHARED]]
// The kernel: one mbarrier of one arrival a phase, set up by thread 0 before any row.
// CHECK-LABEL: gpu.func @log_dynamic_0_row_staged_0(
// CHECK-SAME: known_block_size = array<i32: 512, 1, 1>, nvvm.maxnreg = 40 : i32
// CHECK: %[[SMEM:.+]] = gpu.dynamic_shared_memory
// CHECK: memref.view %[[SMEM]][%c16][]
// CHECK: memref.view %[[SMEM]][%c144][]
// CHECK: %[[BUFFER:.+]] = memref.view %[[SMEM]][%c272][%{{.+}}] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[BARRIER:.+]] = llvm.inttoptr %{{.+}} : i64 to !llvm.ptr<3>
// CHECK: nvvm.mbarrier.init %[[BARRIER]], %c1_i32
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// The rows of the block, the wait's parity alternating.
// CHECK: scf.for %[[ROW:.+]] = %block_id_x to %{{.+}} step %grid_dim_x iter_args(%[[PHASE:.+]] = %c0_i32) -> (i32)
// Where the row starts in its 16-byte word (h columns), its words and the copied ones [k0, k1).
// CHECK: %[[MIS:.+]] = arith.andi %[[START:.+]], %c15_i64 : i64
// CHECK: %[[H64:.+]] = arith.divui %[[MIS]], %c2_i64 : i64
// CHECK: %[[H:.+]] = arith.index_cast %[[H64]] : i64 to index
// CHECK: %[[END:.+]] = arith.addi %[[H]], %{{.+}} : index
// CHECK: %[[NWORDS:.+]] = arith.ceildivui %[[END]], %c8 : index
// CHECK: %[[ALIGNED:.+]] = arith.cmpi eq, %[[H]], %c0 : index
// CHECK: %[[K0:.+]] = arith.select %[[ALIGNED]], %c0, %c1 : index
// CHECK: %[[K1:.+]] = arith.divui %[[END]], %c8 : index
// CHECK: %[[SPAN:.+]] = arith.subi %[[K1]], %[[K0]] : index
// CHECK: %[[ANY:.+]] = arith.cmpi ugt, %[[K1]], %[[K0]] : index
// CHECK: %[[COPIED:.+]] = arith.select %[[ANY]], %[[SPAN]], %c0 : index
// Thread 0: the proxy fence (the last row's reads before the copy's writes), the expected
// bytes (16 a copied word), and the copy of the words [k0, k1) from column k0 * 8 - h.
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: %[[TX:.+]] = arith.muli %[[COPIED]], %c16 : index
// CHECK: %[[TX32:.+]] = arith.index_cast %[[TX]] : index to i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[BARRIER]], %[[TX32]]
// CHECK: %[[C0:.+]] = arith.muli %[[K0]], %c8 : index
// CHECK: %[[COL:.+]] = arith.subi %[[C0]], %[[H]] : index
// CHECK: %[[COLB:.+]] = arith.muli %[[COL]], %c2 : index
// CHECK: %[[COL64:.+]] = arith.index_cast %[[COLB]] : index to i64
// CHECK: %[[SRC:.+]] = arith.addi %[[START]], %[[COL64]] : i64
// CHECK: %[[SRCP:.+]] = llvm.inttoptr %[[SRC]] : i64 to !llvm.ptr<1>
// CHECK: %[[DST:.+]] = llvm.addrspacecast %{{.+}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.shared.cluster.global %[[DST]], %[[SRCP]], %[[BARRIER]], %[[TX32]]
// The edge slots: threads below 16; a slot outside the row gets -inf.
// CHECK: arith.cmpi ult, %thread_id_x, %c16 : index
// CHECK: %[[X:.+]] = memref.load %arg0[%[[ROW]], %{{.+}}]
// CHECK: %[[SLOT:.+]] = arith.select %{{.+}}, %[[X]], %cst{{.*}} : bf16
// CHECK: memref.store %[[SLOT]], %[[BUFFER]]
// Every thread waits for the phase, then for the edge slots.
// CHECK: llvm.inline_asm has_side_effects "{{.*}}mbarrier.try_wait.parity.shared::cta.b64 p, [$0], $1;{{.*}}", "r,r,~{memory}" %[[BARRIER]], %[[PHASE]]
// CHECK-NEXT: gpu.barrier
// Pass 1: the max of four words an iteration, in bf16, then across the block.
// CHECK: scf.for {{.+}} step %c2048 iter_args({{.+}}) -> (vector<8xbf16>)
// CHECK-COUNT-4: arith.maximumf {{.+}} : vector<8xbf16>
// CHECK: scf.for {{.+}} step %c512 iter_args({{.+}}) -> (vector<8xbf16>)
// CHECK: gpu.shuffle xor
// Pass 2: the sum of exp(x - max) (ex2 of (x - max) * log2 e).
// CHECK: scf.for {{.+}} step %c2048 iter_args({{.+}}) -> (f32)
// CHECK: arith.subf
// CHECK: arith.mulf {{.+}}, %cst{{.*}} : f32
// CHECK: llvm.nvvm.ex2.approx.ftz.f
// log_softmax: x - max - ln(sum).
// CHECK: llvm.nvvm.lg2.approx.f
// Pass 3: words inside the row stored whole where the output rows are aligned as the input
// rows, else column by column.
// CHECK: scf.for
// CHECK: arith.truncf {{.+}} : vector<8xf32> to vector<8xbf16>
// CHECK: scf.if
// CHECK: vector.store %{{.+}}, %arg1[%[[ROW]], %{{.+}}] {alignment = 16 : i64}
// CHECK: } else {
// CHECK: memref.store %{{.+}}, %arg1[%[[ROW]], %{{.+}}]
// The buffer is free for the next row once every thread is done; the parity flips.
// CHECK: gpu.barrier
// CHECK: %[[NEXT:.+]] = arith.xori %[[PHASE]], %c1_i32 : i32
// CHECK: scf.yield %[[NEXT]] : i32
// CHECK: gpu.return
// SM80: error: 'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>) stages rows by bulk asynchronous copies (cp.async.bulk), which sm_80 lacks (sm_90 on)
func.func @log_dynamic(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}
