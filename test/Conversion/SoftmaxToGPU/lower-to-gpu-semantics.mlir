// The arithmetic the kernels compute, pinned op by op (each CHECK block is one rule a one-line
// bug in RowKernel.cpp would break; scripts/mutations.txt lists such bugs): the masks' compares
// and their read limits, the scale and bias steps, log_softmax's normalisation, and the online
// pass's rescaling and (max, sum) butterfly.
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-fuse,softmax-select-strategy),softmax-lower-to-gpu,canonicalize)' --split-input-file | FileCheck %s

// A causal mask with offset 3 after a scale by 0.5: row i (of its 8 x 256 matrix) keeps columns
// j <= i + 3, so it reads min(256, i + 4) columns (the limit). A vector wholly before the limit
// is only scaled; the one that crosses it also compares each column with the limit (-inf past it),
// as its offset against the columns it keeps, limit - column0 (not column0 + v < limit, whose
// lane-only columns LLVM hoisted out of a Full kernel's row loop: generated seed 2207).
// CHECK-LABEL: gpu.func @causal_0_multi_row
// CHECK-SAME: nvvm.maxnreg = 72
// CHECK-DAG: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// (The kernel's first variant: rows on vector boundaries, i32 arithmetic.) The diagonal
// i + 3 is clamped to [-1, 256] (the same removals within the row).
// CHECK: %[[I:.+]] = arith.remui %{{.+}}, %c8_i32 : i32
// CHECK-NEXT: %[[DIAG:.+]] = arith.addi %[[I]], %c3_i32 : i32
// CHECK-NEXT: %[[D0:.+]] = arith.maxsi %[[DIAG]], %c-1_i32 : i32
// CHECK-NEXT: %[[D1:.+]] = arith.minsi %[[D0]], %c256_i32 : i32
// CHECK-NEXT: %[[KEPT:.+]] = arith.addi %[[D1]], %c1_i32 : i32
// CHECK-NEXT: %[[K0:.+]] = arith.maxsi %[[KEPT]], %c0_i32 : i32
// CHECK-NEXT: %[[K1:.+]] = arith.minsi %[[K0]], %c256_i32 : i32
// CHECK-NEXT: %[[LIMIT:.+]] = arith.select %{{.+}}, %[[K1]], %c0_i32 : i32
// CHECK-NEXT: %[[COL0:.+]] = arith.muli %{{.+}}, %c4_i32 : i32
// CHECK-NEXT: %[[READ:.+]] = arith.cmpi slt, %[[COL0]], %[[LIMIT]] : i32
// CHECK-NEXT: scf.if %[[READ]] -> (vector<4xf32>) {
// CHECK: vector.load %arg0
// CHECK-NEXT: %[[END:.+]] = arith.addi %[[COL0]], %c4_i32 : i32
// CHECK-NEXT: %[[WHOLE:.+]] = arith.cmpi sle, %[[END]], %[[LIMIT]] : i32
// CHECK-NEXT: scf.if %[[WHOLE]] -> (vector<4xf32>) {
// CHECK-NEXT: vector.extract
// CHECK-NEXT: arith.mulf %{{.+}}, %[[HALF]] : f32
// CHECK-NEXT: vector.extract
// CHECK: } else {
// CHECK-NEXT: %[[ROOM:.+]] = arith.subi %[[LIMIT]], %[[COL0]] : i32
// CHECK-NEXT: vector.extract
// CHECK-NEXT: %[[SCALED:.+]] = arith.mulf %{{.+}}, %[[HALF]] : f32
// CHECK-NEXT: %[[IN:.+]] = arith.cmpi sgt, %[[ROOM]], %c0_i32 : i32
// CHECK-NEXT: arith.select %[[IN]], %[[SCALED]], %[[NEGINF]] : f32
// CHECK-NEXT: vector.extract
// CHECK-NEXT: %[[SCALED1:.+]] = arith.mulf %{{.+}}, %[[HALF]] : f32
// CHECK-NEXT: %[[IN1:.+]] = arith.cmpi sgt, %[[ROOM]], %c1_i32 : i32
// CHECK-NEXT: arith.select %[[IN1]], %[[SCALED1]], %[[NEGINF]] : f32
// Past the limit a chunk is not computed: its exps are 0 and its results one value a row.
// CHECK: %[[MAXTERM:.+]] = scf.if %{{.+}} -> (f32) {
// CHECK: arith.maximumf
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[NEGINF]] : f32
// CHECK: %[[RECIP:.+]] = arith.divf %{{.+}}, %[[SUM:.+]] : f32
// CHECK-NEXT: %[[INV:.+]] = arith.select %{{.+}}, %{{.+}}, %[[RECIP]] : f32
// CHECK-NEXT: %[[UNREAD:.+]] = arith.mulf %[[INV]], %[[ZERO:.+]] : f32
// CHECK: } else {
// CHECK-NEXT: vector.broadcast %[[UNREAD]] : f32 to vector<4xf32>
func.func @causal(%x: tensor<64x8x256xf32>) -> tensor<64x8x256xf32> {
  %s = softmax.scale %x by 0.5 : tensor<64x8x256xf32>
  %m = softmax.mask %s, causal offset = 3 : tensor<64x8x256xf32>
  %p = softmax.softmax %m : tensor<64x8x256xf32>
  return %p : tensor<64x8x256xf32>
}

// -----

// A causal mask with a finite fill removes nothing from the reads: each column is compared with
// the row's diagonal i + 3 and filled when past it.
// CHECK-LABEL: gpu.func @causal_fill_0_multi_row
// CHECK-DAG: %[[FILL:.+]] = arith.constant -1.000000e+04 : f32
// CHECK: %[[I:.+]] = arith.remui %{{.+}}, %c8_i32 : i32
// CHECK-NEXT: %[[DIAG:.+]] = arith.addi %[[I]], %c3_i32 : i32
// CHECK-NEXT: %[[D0:.+]] = arith.maxsi %[[DIAG]], %c-1_i32 : i32
// CHECK-NEXT: %[[D1:.+]] = arith.minsi %[[D0]], %c256_i32 : i32
// CHECK: vector.load
// CHECK: %[[REMOVED:.+]] = arith.cmpi sgt, %{{.+}}, %[[D1]] : i32
// CHECK-NEXT: arith.select %[[REMOVED]], %[[FILL]], %{{.+}} : f32
func.func @causal_fill(%x: tensor<64x8x256xf32>) -> tensor<64x8x256xf32> {
  %m = softmax.mask %x, causal offset = 3 fill = -1.0e4 : tensor<64x8x256xf32>
  %p = softmax.softmax %m : tensor<64x8x256xf32>
  return %p : tensor<64x8x256xf32>
}

// -----

// A padding mask: a row reads min(256, max(length, 0)) columns (the limit); the vector that
// crosses it removes its columns at or past it.
// CHECK-LABEL: gpu.func @padding_0_multi_row
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[LEN:.+]] = memref.load %arg2[%{{.+}}] : memref<64xi32, strided<[1], offset: ?>>
// CHECK-NEXT: %[[L0:.+]] = arith.maxsi %[[LEN]], %c0_i32 : i32
// CHECK-NEXT: %[[L1:.+]] = arith.minsi %[[L0]], %c256_i32 : i32
// CHECK-NEXT: %[[L2:.+]] = arith.maxsi %[[L1]], %c0_i32 : i32
// CHECK-NEXT: %[[L3:.+]] = arith.minsi %[[L2]], %c256_i32 : i32
// CHECK-NEXT: %[[LIMIT:.+]] = arith.select %{{.+}}, %[[L3]], %c0_i32 : i32
// CHECK: vector.load
// CHECK: } else {
// CHECK-NEXT: %[[ROOM:.+]] = arith.subi %[[LIMIT]], %{{.+}} : i32
// CHECK-NEXT: vector.extract
// CHECK-NEXT: %[[IN:.+]] = arith.cmpi sgt, %[[ROOM]], %c0_i32 : i32
// CHECK-NEXT: arith.select %[[IN]], %{{.+}}, %[[NEGINF]] : f32
func.func @padding(%x: tensor<64x256xf32>, %len: tensor<64xi32>) -> tensor<64x256xf32> {
  %m = softmax.mask %x, padding %len : tensor<64x256xf32>, tensor<64xi32>
  %p = softmax.softmax %m : tensor<64x256xf32>
  return %p : tensor<64x256xf32>
}

// -----

// A padding length shared by every row (an operand of size 1) is read once, before the loop
// over the block's rows, and each row's limit comes from that value: a load in the loop from an
// invariant address kept the address live across it (two registers; generated seeds 6752,
// 10602 and 11221 spilled at their budgets).
// CHECK-LABEL: gpu.func @padding_shared_0_multi_row(
// CHECK: %[[LEN:.+]] = memref.load %arg2[%c0] : memref<1xi32, strided<[1], offset: ?>>
// CHECK-NEXT: %[[L0:.+]] = arith.maxsi %[[LEN]], %c0_i32 : i32
// CHECK-NEXT: %[[L1:.+]] = arith.minsi %[[L0]], %c256_i32 : i32
// CHECK-NOT: memref.load %arg2
// CHECK: scf.for
// CHECK-NOT: memref.load %arg2
// CHECK: arith.maxsi %[[L1]], %c0_i32 : i32
// CHECK-NOT: memref.load %arg2
// CHECK: gpu.return
func.func @padding_shared(%x: tensor<4096x256xf16>, %len: tensor<1xi32>) -> tensor<4096x256xf16> {
  %m = softmax.mask %x, padding %len : tensor<4096x256xf16>, tensor<1xi32>
  %p = softmax.softmax %m : tensor<4096x256xf16>
  return %p : tensor<4096x256xf16>
}

// -----

// A bias of one element is read once too, before the loop over the block's rows, where a
// thread holds more than one vector of 8 (generated seed 4414: the row_registers kernel of a
// 16384-column f16 row spilled 4 bytes at 64; at one vector of 8, 32 registers, the load in
// the loop fits and the value held across it spilled: seed 12114).
// CHECK-LABEL: gpu.func @bias_one_0_row_registers(
// CHECK: %[[B:.+]] = memref.load %arg2[%c0, %c0] : memref<1x1xbf16, strided<[?, 1], offset: ?>>
// CHECK-NOT: memref.load %arg2
// CHECK: scf.for
// CHECK-NOT: memref.load %arg2
// CHECK: arith.extf %[[B]] : bf16 to f32
// CHECK-NOT: memref.load %arg2
// CHECK: gpu.return
func.func @bias_one(%x: tensor<4096x8192xf16>, %b: tensor<1x1xbf16>) -> tensor<4096x8192xf16> {
  %y = softmax.add_bias %x, %b : tensor<4096x8192xf16>, tensor<1x1xbf16>
  %p = softmax.softmax %y : tensor<4096x8192xf16>
  return %p : tensor<4096x8192xf16>
}

// A bias of one element beside one vector of 8 a thread is read in the loop over rows.
// CHECK-LABEL: gpu.func @bias_one_narrow_0_multi_row(
// CHECK: scf.for
// CHECK: memref.load %arg2[%c0, %c0] : memref<1x1xbf16, strided<[?, 1], offset: ?>>
// CHECK: gpu.return
func.func @bias_one_narrow(%x: tensor<4096x256xf16>, %b: tensor<1x1xbf16>) -> tensor<4096x256xf16> {
  %y = softmax.add_bias %x, %b : tensor<4096x256xf16>, tensor<1x1xbf16>
  %p = softmax.softmax %y : tensor<4096x256xf16>
  return %p : tensor<4096x256xf16>
}

// -----

// A padding mask with a finite fill: each column is compared with the length.
// CHECK-LABEL: gpu.func @padding_fill_0_multi_row
// CHECK-DAG: %[[FILL:.+]] = arith.constant -1.000000e+04 : f32
// CHECK: %[[LEN:.+]] = memref.load %arg2[%{{.+}}] : memref<64xi32, strided<[1], offset: ?>>
// CHECK-NEXT: %[[L0:.+]] = arith.maxsi %[[LEN]], %c0_i32 : i32
// CHECK-NEXT: %[[L1:.+]] = arith.minsi %[[L0]], %c256_i32 : i32
// CHECK: vector.load
// CHECK: %[[REMOVED:.+]] = arith.cmpi sge, %{{.+}}, %[[L1]] : i32
// CHECK-NEXT: arith.select %[[REMOVED]], %[[FILL]], %{{.+}} : f32
func.func @padding_fill(%x: tensor<64x256xf32>, %len: tensor<64xi32>) -> tensor<64x256xf32> {
  %m = softmax.mask %x, padding %len fill = -1.0e4 : tensor<64x256xf32>, tensor<64xi32>
  %p = softmax.softmax %m : tensor<64x256xf32>
  return %p : tensor<64x256xf32>
}

// -----

// A boolean mask keeps the elements where it is true. The register budget holds the mask's
// bits for the thread's 16 values (72 without a mask, as @causal above;
// FusedOp::getRowSideOperandRegisters).
// Its elements of a vector are read at one widened column and constant offsets, with no clamp
// (a column is read only below the limit, at most the width): clamped and widened a column at
// a time, each byte kept a 64-bit address of its own, 16 registers for a vector of 8 that
// kernels at a block's register limit spilled (generated seeds 4937, 9252 and 9647).
// CHECK-LABEL: gpu.func @boolean_0_multi_row
// CHECK-SAME: nvvm.maxnreg = 88
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: vector.load
// CHECK-NEXT: %[[W:.+]] = arith.index_castui %{{.+}} : i32 to index
// CHECK-NOT: arith.minsi
// CHECK: %[[KEEP:.+]] = memref.load %arg2[%{{.+}}, %[[W]]] : memref<64x256xi1, strided<[?, 1], offset: ?>>
// CHECK-NEXT: arith.select %[[KEEP]], %{{.+}}, %[[NEGINF]] : f32
// CHECK-NEXT: %[[W1:.+]] = arith.addi %[[W]], %c1 : index
// CHECK-NOT: arith.minsi
// CHECK: %[[KEEP1:.+]] = memref.load %arg2[%{{.+}}, %[[W1]]]
// CHECK-NEXT: arith.select %[[KEEP1]], %{{.+}}, %[[NEGINF]] : f32
// CHECK-NEXT: arith.addi %[[W]], %c2 : index
func.func @boolean(%x: tensor<64x256xf32>, %keep: tensor<64x256xi1>) -> tensor<64x256xf32> {
  %m = softmax.mask %x, tensor %keep : tensor<64x256xf32>, tensor<64x256xi1>
  %p = softmax.softmax %m : tensor<64x256xf32>
  return %p : tensor<64x256xf32>
}

// -----

// A bias is added (bias[j], read a vector at a time with the input's vectors); log_softmax is (x - max) - ln(sum), ln(sum) = lg2(sum) * ln 2,
// and a row of -inf takes the zero policy through ln(sum) = 0 (its x - max stays -inf).
// The fast kernel reads the bias a vector at a time: the host launches it only when the bias
// is aligned and starts on the input rows' residue.
// CHECK-LABEL: func.func @logsm(
// CHECK: %{{.+}}, %[[BOFF:.+]], %{{.+}}, %{{.+}} = memref.extract_strided_metadata %arg1
// CHECK-NEXT: %[[BPTR:.+]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK-NEXT: %[[BMIS:.+]] = arith.remui %[[BPTR]], %c16 : index
// CHECK-NEXT: %[[BALIGNED:.+]] = arith.cmpi eq, %[[BMIS]], %c0 : index
// CHECK-NEXT: %[[OK0:.+]] = arith.andi %{{.+}}, %[[BALIGNED]] : i1
// CHECK-NEXT: %[[BRES:.+]] = arith.remui %[[BOFF]], %c4 : index
// CHECK-NEXT: %[[IRES:.+]] = arith.remui %{{.+}}, %c4 : index
// CHECK-NEXT: %[[SAME:.+]] = arith.cmpi eq, %[[IRES]], %[[BRES]] : index
// CHECK-NEXT: %[[OK1:.+]] = arith.andi %[[OK0]], %[[SAME]] : i1
// CHECK-NEXT: %[[SRES:.+]] = arith.remui %{{.+}}, %c4 : index
// CHECK-NEXT: %[[WHOLE:.+]] = arith.cmpi eq, %[[SRES]], %c0 : index
// CHECK-NEXT: %[[OK:.+]] = arith.andi %[[OK1]], %[[WHOLE]] : i1
// CHECK-NEXT: %[[FAST:.+]] = arith.andi %[[OK]], %{{.+}} : i1
// CHECK-NEXT: scf.if %[[FAST]] {
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@logsm_0_multi_row blocks
// CHECK-LABEL: gpu.func @logsm_0_multi_row(
// The budget holds the bias's 16 values for the thread's columns across the block's rows.
// CHECK-SAME: nvvm.maxnreg = 88
// CHECK-DAG: %[[LN2:.+]] = arith.constant 0.693147182 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: vector.load %arg0
// CHECK: %[[BV:.+]] = vector.load %arg2[%{{.+}}] {alignment = 16 : i64} : memref<256xf32, strided<[1], offset: ?>>, vector<4xf32>
// CHECK: %[[B:.+]] = vector.extract %[[BV]][0] : f32 from vector<4xf32>
// CHECK: arith.addf %{{.+}}, %[[B]] : f32
// After the max's and the sum's butterflies:
// CHECK: gpu.shuffle xor %{{.+}}, %c1_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.+}}, %c1_i32, %c32_i32 : f32
// CHECK: %[[ALLNEG:.+]] = arith.cmpf oeq, %[[MAX:.+]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[MAXSAFE:.+]] = arith.select %[[ALLNEG]], %[[ZERO]], %[[MAX]] : f32
// CHECK-NEXT: %[[LG:.+]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[SUM:.+]]) : (f32) -> f32
// CHECK-NEXT: %[[LN:.+]] = arith.mulf %[[LG]], %[[LN2]] : f32
// CHECK-NEXT: %[[LOGSUM:.+]] = arith.select %[[ALLNEG]], %[[ZERO]], %[[LN]] : f32
// CHECK-NEXT: %[[SHIFTED:.+]] = arith.subf %{{.+}}, %[[MAXSAFE]] : f32
// CHECK-NEXT: arith.subf %[[SHIFTED]], %[[LOGSUM]] : f32
func.func @logsm(%x: tensor<64x256xf32>, %b: tensor<256xf32>) -> tensor<64x256xf32> {
  %c = softmax.add_bias %x, %b : tensor<64x256xf32>, tensor<256xf32>
  %p = softmax.log_softmax %c : tensor<64x256xf32>
  return %p : tensor<64x256xf32>
}

// -----

// The online pass: each span's new max m' = max(m, values); the running sum is rescaled to it,
// s * 2^((m - m') log2 e), before the span's exps are added. Then the (max, sum) pairs of the
// row's 128 lanes meet in a butterfly starting at xor 16 (width 32).
// CHECK-LABEL: gpu.func @chunked_0_chunked_online
// CHECK-DAG: %[[LOG2E:.+]] = arith.constant 1.44269502 : f32
// CHECK: scf.for %{{.+}} = %c0_i32 to %{{.+}} step %c1_i32 iter_args(%[[M:.+]] = %{{.+}}, %[[S:.+]] = %{{.+}}) -> (f32, f32)
// CHECK: %[[SAFE:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: %[[D:.+]] = arith.subf %[[M]], %[[SAFE]] : f32
// CHECK-NEXT: %[[DL:.+]] = arith.mulf %[[D]], %[[LOG2E]] : f32
// CHECK-NEXT: %[[F:.+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[DL]])
// CHECK-NEXT: arith.mulf %[[S]], %[[F]] : f32
// CHECK: scf.yield
// CHECK: gpu.shuffle xor %{{.+}}, %c16_i32, %c32_i32 : f32
// CHECK-NEXT: gpu.shuffle xor %{{.+}}, %c16_i32, %c32_i32 : f32
func.func @chunked(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<chunked_online, lanes = 128, rows = 1, vector = 4, chunks = 2>]} : tensor<64x1000xf32> -> tensor<64x1000xf32>
  return %y : tensor<64x1000xf32>
}

// -----

// A static leading size is a constant in the kernel: the row's index in the padding lengths
// (8x1, broadcast over dimension 2 of 4x8x16) is a division by 16 and a remainder by 8, not by
// the size arguments (generated seed 11866: divisions by those, held across the row loop,
// spilled a multi_row tier 16-20 bytes).
// CHECK-LABEL: gpu.func @padding_broadcast_0_multi_row(
// CHECK: %[[D:.+]] = arith.divui %{{.+}}, %c16_i32 : i32
// CHECK-NEXT: %[[R:.+]] = arith.remui %[[D]], %c8_i32 : i32
// CHECK-NEXT: %[[I:.+]] = arith.index_castui %[[R]] : i32 to index
// CHECK-NEXT: memref.load %arg2[%[[I]], %c0] : memref<8x1xi32, strided<[?, 1], offset: ?>>
// CHECK: gpu.return
func.func @padding_broadcast(%x: tensor<4x8x16x256xf16>, %len: tensor<8x1xi32>) -> tensor<4x8x16x256xf16> {
  %m = softmax.mask %x, padding %len : tensor<4x8x16x256xf16>, tensor<8x1xi32>
  %p = softmax.softmax %m : tensor<4x8x16x256xf16>
  return %p : tensor<4x8x16x256xf16>
}
