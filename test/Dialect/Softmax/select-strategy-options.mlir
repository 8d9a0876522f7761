// The target's limits move the thresholds.
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{threads-per-block=256}))' | FileCheck %s --check-prefix=T256
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{registers-per-thread=68}))' | FileCheck %s --check-prefix=R68
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{registers-per-thread=68 shared-memory-per-block=32768}))' | FileCheck %s --check-prefix=R68S32
// Bad options are diagnosed.
// RUN: not softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{shared-memory-per-block=300000}))' 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{chip=sm_70}))' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{threads-per-block=48}))' 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{registers-per-thread=16}))' 2>&1 | FileCheck %s --check-prefix=REGS

// With 256 threads a block, a block may use 248 registers a thread: 64 values of 16384 fit.
// T256: strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 4>]
// T256: strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 16>]
// With 68 registers a thread, 16 values do not fit (16 + 2 edge columns + 48 + 16 / 4 = 70,
// TargetInfo.h): 4096 takes 512 lanes of 8 instead of 256 of 16; 16384 goes to shared memory.
// R68: strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 4, chunks = 2>]
// R68: strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>]
// With 32 KB of shared memory as well, 16384 f32 (64 KB) take the chunked plan.
// R68S32: strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 4, chunks = 2>]
// R68S32: strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]
// SHARED: error: softmax-select-strategy: shared-memory-per-block is at most 232448 bytes on sm_90, got 300000
// CHIP: error: softmax-select-strategy: unknown chip 'sm_70' (known: sm_80, sm_86, sm_89, sm_90, sm_90a)
// THREADS: error: softmax-select-strategy: threads-per-block must be a power of two in [32, 1024], got 48
// REGS: error: softmax-select-strategy: registers-per-thread must be in [65, 255], got 16
func.func @n4096(%x: tensor<1024x4096xf32>) -> tensor<1024x4096xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<1024x4096xf32> -> tensor<1024x4096xf32>
  return %0 : tensor<1024x4096xf32>
}
func.func @n16384(%x: tensor<1024x16384xf32>) -> tensor<1024x16384xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<1024x16384xf32> -> tensor<1024x16384xf32>
  return %0 : tensor<1024x16384xf32>
}
