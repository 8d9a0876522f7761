// The grid of a pipelined (16-bit) plan follows the target the pipeline compiles for
// (TargetInfo): its multiprocessors (sm_90 132, sm_80 108, sm_86 84) and the blocks each holds
// at once, from its register file and its resident warps (64 a multiprocessor; 48 on sm_86).
// A dynamic width takes, below 4096 bf16 columns, groups / (16 x multiprocessors) groups a
// block, else (groups + 8 x slots) / (16 x slots), slots = multiprocessors x the blocks each
// holds (RowKernel.cpp, buildBlockCount).
// RUN: softmax-opt %s --softmax-lower-to-gpu=chip=sm_90 --canonicalize | FileCheck %s --check-prefix=SM90
// RUN: softmax-opt %s --softmax-lower-to-gpu=chip=sm_80 --canonicalize | FileCheck %s --check-prefix=SM80
// RUN: softmax-opt %s --softmax-lower-to-gpu=chip=sm_86 --canonicalize | FileCheck %s --check-prefix=SM86

// The Full kernel of 512 threads x 8 values takes 32 registers: its registers let 4 blocks a
// multiprocessor hold, and so do 64 warps (sm_90: 528 slots, sm_80: 432), 48 warps only 3
// (sm_86: 252).
// SM90-LABEL: func.func @pipelined_dynamic
// SM90: %[[LEGACY:.+]] = arith.divui %[[ROWS:.+]], %c2112 : index
// SM90: %[[SUM:.+]] = arith.addi %[[ROWS]], %c4224 : index
// SM90-NEXT: arith.divui %[[SUM]], %c8448 : index
// SM80-LABEL: func.func @pipelined_dynamic
// SM80: %[[LEGACY:.+]] = arith.divui %[[ROWS:.+]], %c1728 : index
// SM80: %[[SUM:.+]] = arith.addi %[[ROWS]], %c3456 : index
// SM80-NEXT: arith.divui %[[SUM]], %c6912 : index
// SM86-LABEL: func.func @pipelined_dynamic
// SM86: %[[LEGACY:.+]] = arith.divui %[[ROWS:.+]], %c1344 : index
// SM86: %[[SUM:.+]] = arith.addi %[[ROWS]], %c2016 : index
// SM86-NEXT: arith.divui %[[SUM]], %c4032 : index
func.func @pipelined_dynamic(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}
