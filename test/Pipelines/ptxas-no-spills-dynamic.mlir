// Every kernel of a dynamic program (one a power-of-two tier, row_cluster for f32, row_staged
// on one block, row_cluster over 8 blocks (its values held packed) and row_staged over a
// cluster for plain 16-bit softmax, row_shared for the other 16-bit programs, chunked_online)
// for
// f32/f16/bf16, plain and the attention chain on a 3-d tensor, assembles with ptxas for sm_90
// without spills: ptxas keeps every kernel within the budget its plan was sized for
// (nvvm.maxnreg, from getRegisterPlanRegisters in TargetInfo.h) without spilling.
// REQUIRES: ptxas
// RUN: softmax-opt %s --softmax-to-nvvm="ptx-file=%t.ptx" -o /dev/null
// RUN: %ptxas-each -arch=sm_90 -v %t.ptx -o %t.cubin > %t.log 2>&1
// RUN: FileCheck %s < %t.log
// RUN: grep "bytes spill" %t.log | sort -u | FileCheck %s --check-prefix=NOSPILL
// RUN: grep -c "Compiling entry function" %t.log | FileCheck %s --check-prefix=COUNT

// 108 plans: 12 register tiers (8 .. 16384) each, plus a 12288-column tier (512 x 24) for the
// plain bf16 and f16 programs, then row_cluster over 2, 4, 8 and 16 blocks for the plain f32
// program, row_staged on one block, row_cluster over 8 blocks and row_staged over up to 16
// for the plain 16-bit ones and row_shared for the two other 16-bit ones, then row_split (three
// kernels: the rows split where they are fewer than the multiprocessors) and chunked_online; and the alternatives of the
// tiers serving widths off the widest vector that a static width puts on a narrower one (f32
// 1024 and 2048 on vectors of 2 and 1, 16-bit 1024, 2048 and 4096 on vectors of 4: 16 plans),
// and for the plain 16-bit programs the tiers of vectors of 4 between those (96, 160, 192 and
// 224 lanes of 16 values: 8 plans; the f16 one on 96 lanes at 48 registers, RowKernel.cpp).
// Each plan has its general kernel but the first of a tier's alternatives; most also have a
// fast kernel (RowKernel.h), which must not spill either, and 16 a Full kernel for rows as wide
// as the span, at the occupancy budget (the bf16 and f16 8192- and 16384-column tiers, the
// attention chain's 4096 and the padded log_softmax's 4096), or beside a fast kernel that takes
// its lanes from the launch (the bf16 and f16 512-, 1024-, 2048-, 4096- and 12288-column tiers).
// COUNT: 206
// CHECK-DAG: Compiling entry function 'plain_f32_0_multi_row_0' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f32_0_row_registers_15' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f32_0_row_split_20_partial' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f32_0_row_split_20_combine' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f32_0_row_split_20_normalize' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f32_0_chunked_online_21' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f32_0_chunked_online_21_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'attention_bf16_0_row_registers_13_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_bf16_0_row_registers_18' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_bf16_0_row_registers_19_full' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_bf16_0_row_registers_15_full' for 'sm_90'
// CHECK-DAG: Compiling entry function 'attention_bf16_0_row_registers_11_full' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f16_0_row_cluster_21_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f16_0_row_staged_22' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f16_0_row_split_23_partial' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f16_0_chunked_online_24_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'attention_bf16_0_row_split_16_normalize' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f16_0_row_staged_20' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_bf16_0_row_cluster_21' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_bf16_0_row_staged_22' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_bf16_0_row_staged_20' for 'sm_90'
// CHECK-DAG: Compiling entry function 'attention_bf16_0_row_shared_15' for 'sm_90'
// CHECK-DAG: Compiling entry function 'attention_bf16_0_row_registers_13' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f32_0_row_cluster_18_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f32_0_row_cluster_19_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'padded_log_softmax_f16_0_multi_row_3' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_bf16_0_row_registers_8' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_bf16_0_row_registers_8_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f16_0_row_registers_9' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_bf16_0_row_registers_12_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f16_0_row_registers_14' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f32_0_row_registers_8' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_f32_0_row_registers_9' for 'sm_90'
// NOSPILL: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// NOSPILL-NOT: bytes

func.func @plain_f32(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %p = softmax.softmax %x : tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}

func.func @plain_f16(%x: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %p = softmax.softmax %x : tensor<?x?xf16>
  return %p : tensor<?x?xf16>
}

func.func @plain_bf16(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %p = softmax.softmax %x : tensor<?x?xbf16>
  return %p : tensor<?x?xbf16>
}

func.func @attention_bf16(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %w = softmax.cast %x : tensor<?x?x?xbf16> to tensor<?x?x?xf32>
  %s = softmax.scale %w by 0.088388 : tensor<?x?x?xf32>
  %c = softmax.mask %s, causal : tensor<?x?x?xf32>
  %p = softmax.softmax %c : tensor<?x?x?xf32>
  %y = softmax.cast %p : tensor<?x?x?xf32> to tensor<?x?x?xbf16>
  return %y : tensor<?x?x?xbf16>
}

func.func @padded_log_softmax_f16(%x: tensor<?x?xf16>, %len: tensor<?xi32>) -> tensor<?x?xf16> {
  %m = softmax.mask %x, padding %len : tensor<?x?xf16>, tensor<?xi32>
  %p = softmax.log_softmax %m : tensor<?x?xf16>
  return %p : tensor<?x?xf16>
}
