// max-registers caps each kernel's register budget (nvvm.maxnreg) for occupancy experiments;
// budgets already below the cap stay as the plan set them (the fast bf16 kernel's occupancy
// budget, 64: lower-to-gpu-occupancy.mlir).
// RUN: softmax-opt %s --softmax-lower-to-gpu | FileCheck %s --check-prefix=PLAN
// RUN: softmax-opt %s --softmax-lower-to-gpu="max-registers=96" | FileCheck %s --check-prefix=CAP
// RUN: not softmax-opt %s --softmax-lower-to-gpu="max-registers=8" 2>&1 | FileCheck %s --check-prefix=BAD

// PLAN: gpu.func @wide_0_row_registers({{.*}} nvvm.maxnreg = 64 : i32
// PLAN: gpu.func @wide_0_row_registers_general({{.*}} nvvm.maxnreg = 120 : i32
// PLAN: gpu.func @narrow_0_multi_row({{.*}} nvvm.maxnreg = 64 : i32
// CAP: gpu.func @wide_0_row_registers({{.*}} nvvm.maxnreg = 64 : i32
// CAP: gpu.func @wide_0_row_registers_general({{.*}} nvvm.maxnreg = 96 : i32
// CAP: gpu.func @narrow_0_multi_row({{.*}} nvvm.maxnreg = 64 : i32
// BAD: error: softmax-lower-to-gpu: max-registers must be 0 (each plan's own budget) or in [24, 255], got 8

func.func @wide(%x: tensor<4096x16384xbf16>) -> tensor<4096x16384xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<4096x16384xbf16> -> tensor<4096x16384xbf16>
  return %0 : tensor<4096x16384xbf16>
}

func.func @narrow(%x: tensor<4096x32xf32>) -> tensor<4096x32xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 4, rows = 64, vector = 4, chunks = 2>]} : tensor<4096x32xf32> -> tensor<4096x32xf32>
  return %0 : tensor<4096x32xf32>
}
