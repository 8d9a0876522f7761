// The strided_axis kernels run on the CPU: scripts/gpu_func_interp.py interprets the lowered
// gpu.func for every thread of the grid (threads of a block in lock step between barriers and
// shuffles) and compares with a float64 softmax over the axis; every output element within
// tolerance and the padding between rows (--pad) untouched. The vector kernel runs only where
// the host would launch it (whole aligned vectors), the scalar kernel everywhere. Special
// values (--special): columns of -inf (the masked_rows policy), +inf-free large values, -inf
// elements.
// REQUIRES: numpy
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-fuse,softmax-select-strategy),softmax-lower-to-gpu)' -o %t.mlir
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel cluster_scalar_0_strided_axis_scalar --shape 2x40x6 --axis 1 --special --pad 3 | FileCheck %s
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel axis1_f32_0_strided_axis --shape 3x33x40 --axis 1 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel axis1_f32_0_strided_axis_scalar --shape 3x33x40 --axis 1 --special --pad 3 | FileCheck %s
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel axis0_bf16_0_strided_axis --shape 7x48 --axis 0 --dtype bf16 --scale 0.5 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel axis0_bf16_0_strided_axis_scalar --shape 7x48 --axis 0 --dtype bf16 --scale 0.5 --pad 5 | FileCheck %s
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel rank4_0_strided_axis_scalar --shape 2x3x5x8 --axis 0 --normalization log_softmax --masked-rows nan --special --pad 4 | FileCheck %s
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel rank4_0_strided_axis --shape 2x3x5x8 --axis 0 --normalization log_softmax --masked-rows nan --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel online_0_strided_axis --shape 2x100x16 --axis 1 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel online_0_strided_axis_scalar --shape 2x100x13 --axis 1 --special | FileCheck %s
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel dynamic_0_strided_axis --shape 2x9x16 --axis -2 --dtype bf16 --out-dtype f32 --scale 2.0 | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel dynamic_0_strided_axis --shape 2x300x8 --axis -2 --dtype bf16 --out-dtype f32 --scale 2.0 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel dynamic_0_strided_axis_scalar --shape 1x1x3 --axis -2 --dtype bf16 --out-dtype f32 --scale 2.0 | FileCheck %s
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel packed_f16_0_strided_axis --shape 2x13x256 --axis 1 --dtype f16 --out-dtype f32 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel packed128_0_strided_axis --shape 2x20x128 --axis 1 --dtype bf16 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel packed128_0_strided_axis_scalar --shape 2x20x128 --axis 1 --dtype bf16 --special --pad 3 | FileCheck %s
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel f64_scale_0_strided_axis --shape 4x8x16 --axis 1 --dtype bf16 --scale 0.5 | FileCheck %s --check-prefix=VEC
// 16-bit values after a prologue, 64 a thread, held as f32 (holdsPackedAfterPrologue): the plan
// softmax-select-strategy gives bf16 scaled by 0.125 over C = 512 (4 lanes x 64 rows x 8).
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel scaled_c512_0_strided_axis --shape 1x512x32 --axis 1 --dtype bf16 --scale 0.125 --special | FileCheck %s --check-prefix=VEC
// A dynamic C's tiers (register path only; the host launches each for C up to its capacity):
// C below, at and between the capacities, 16-bit values held packed with and without a scale
// (each chunk may pass C), f32 values.
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_bf16_0_strided_axis_c8 --shape 3x5x64 --axis 1 --dtype bf16 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_bf16_0_strided_axis_c8 --shape 3x8x64 --axis 1 --dtype bf16 | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_bf16_0_strided_axis_c32 --shape 2x21x64 --axis 1 --dtype bf16 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_scaled_0_strided_axis_c32 --shape 2x21x3x16 --axis 1 --dtype f16 --scale 0.25 --special | FileCheck %s --check-prefix=VEC
// A tier after a positive constant scale holds 128 values a thread packed (16 chunks of 8);
// its chunks past C load -inf as raw words (FusedOp::prologueKeepsNegInf): C = 5, 37, 200 and
// its capacity 256, bf16 and f16. After a negative factor the tier holds f32 values.
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_scaled_const_0_strided_axis_c256 --shape 2x5x16 --axis 1 --dtype bf16 --scale 0.5 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_scaled_const_0_strided_axis_c256 --shape 1x37x32 --axis 1 --dtype bf16 --scale 0.5 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_scaled_const_0_strided_axis_c256 --shape 1x200x16 --axis 1 --dtype bf16 --scale 0.5 | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_scaled_const_0_strided_axis_c256 --shape 1x256x16 --axis 1 --dtype bf16 --scale 0.5 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_scaled_f16_0_strided_axis_c256 --shape 2x37x16 --axis 1 --dtype f16 --scale 0.75 --special | FileCheck %s --check-prefix=VEC
// Tiers for positive scalar factors (the host launches them where the factor is positive:
// AxisKernel.cpp, launchesForPositiveScalars): 16-bit values held packed after a scale by a
// scalar, -inf past C as loaded, to an f32 and to a 16-bit result.
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_scaled_by_f32_0_strided_axis_c512 --shape 2x5x8 --axis 1 --dtype bf16 --out-dtype f32 --scale 0.7 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_scaled_by_f32_0_strided_axis_c512 --shape 1x300x8 --axis 1 --dtype bf16 --out-dtype f32 --scale 0.7 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_scaled_by_f32_0_strided_axis_c512 --shape 1x512x8 --axis 1 --dtype bf16 --out-dtype f32 --scale 1.5 | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_scaled_by_f16_0_strided_axis_c256 --shape 2x37x16 --axis 1 --dtype f16 --scale 0.25 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_scaled_by_f16_0_strided_axis_c256 --shape 1x256x16 --axis 1 --dtype f16 --scale 0.25 | FileCheck %s --check-prefix=VEC
// A tier of f32 values after one for positive factors: launched for a negative factor at any
// C up to its capacity, so that no chunk below the earlier tier's capacity is taken for inside C.
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_after_positive_0_strided_axis_c1024 --shape 1x5x8 --axis 1 --dtype bf16 --out-dtype f32 --scale -0.5 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_negative_0_strided_axis_c256 --shape 2x37x16 --axis 1 --dtype bf16 --scale -0.5 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_f32_0_strided_axis_c16 --shape 2x11x32 --axis 1 --special | FileCheck %s --check-prefix=VEC
// The lean f32 tier of 16 runs where C > 8 (the tier of 8): its chunks 2 and 3 may pass C and
// load the thread's last chunk in the axis instead, masked (C = 9: chunk 2 in the first row
// of a column, 1 in the others; C = 11 and 16).
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_f32_0_strided_axis_c16 --shape 3x9x40 --axis 1 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_f32_0_strided_axis_c16 --shape 2x16x32 --axis 1 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel tiers_f32_0_strided_axis_c8 --shape 2x7x32 --axis 1 --special | FileCheck %s --check-prefix=VEC
// Where more than 2 groups of warps share a column, one thread a column slot merges their
// partials (AxisKernel.cpp, mergesGroupsOnce) and every thread reads the result: 16 groups of
// a 16-bit plan of 4 lanes x 128 rows (register path, C = 200 and its capacity 256), and the
// (max, sum) pairs of the online path over 8 groups (C = 1000 in spans of 128), f32.
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel groups_packed_0_strided_axis --shape 1x200x32 --axis 1 --dtype bf16 --special | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel groups_packed_0_strided_axis --shape 1x256x32 --axis 1 --dtype bf16 | FileCheck %s --check-prefix=VEC
// RUN: %np_python %softmax_src_root/scripts/gpu_func_interp.py %t.mlir --kernel groups_online_0_strided_axis --shape 1x1000x16 --axis 1 --special | FileCheck %s --check-prefix=VEC

// CHECK: 0 mismatches of {{[0-9]+}}, max err {{.*}}, padding untouched
// VEC: 0 mismatches of {{[0-9]+}}, max err {{.*}}, padding untouched

// Without vectors the program is no test of the vector kernel: each VEC run must launch it.
// VEC-NOT: not launched

// The scalar kernel of a plan over a cluster (3 blocks of 16 axis values): one block a column
// (scalarKernelPlan), its online path over C = 40.
func.func @cluster_scalar(%x: tensor<2x40x6xf32>) -> tensor<2x40x6xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 1, cluster = 3>]} : tensor<2x40x6xf32> -> tensor<2x40x6xf32>
  return %0 : tensor<2x40x6xf32>
}
// Static C = 33 <= rows * chunks: the register path.
func.func @axis1_f32(%x: tensor<3x33x40xf32>) -> tensor<3x33x40xf32> {
  %p = softmax.softmax %x axis = 1 : tensor<3x33x40xf32>
  return %p : tensor<3x33x40xf32>
}
// 8 rows of a column in each warp (lanes = 4): shuffles, then shared memory across 4 warps.
func.func @axis0_bf16(%x: tensor<7x48xbf16>) -> tensor<7x48xbf16> {
  %0 = softmax.fused softmax %x axis = 0 prologue [#softmax.scale<0.5>] {strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 32, vector = 8, chunks = 1>]} : tensor<7x48xbf16> -> tensor<7x48xbf16>
  return %0 : tensor<7x48xbf16>
}
func.func @rank4(%x: tensor<2x3x5x8xf32>) -> tensor<2x3x5x8xf32> {
  %0 = softmax.fused log_softmax %x axis = 0 prologue [] masked_rows = nan {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 1>]} : tensor<2x3x5x8xf32> -> tensor<2x3x5x8xf32>
  return %0 : tensor<2x3x5x8xf32>
}
// C = 100 > rows * chunks = 16: the online path, the (max, sum) pairs of 8 rows merged by
// shuffles (lanes = 4) and 2 warps through shared memory.
func.func @online(%x: tensor<2x100x?xf32>) -> tensor<2x100x?xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 16, vector = 4, chunks = 1>]} : tensor<2x100x?xf32> -> tensor<2x100x?xf32>
  return %0 : tensor<2x100x?xf32>
}
// A dynamic C: the register path at C = 9, the online path at C = 300 (rows * chunks = 16).
func.func @dynamic(%x: tensor<?x?x?xbf16>, %t: f32) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] {strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 8, vector = 4, chunks = 2>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
// 16-bit values held packed (two a register, AxisKernel.cpp holdsPackedValues), as in
// @axis0_bf16, here with 4 chunks a thread and the rows of a column in 4 different warps.
func.func @packed_f16(%x: tensor<2x13x256xf16>) -> tensor<2x13x256xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 32, rows = 4, vector = 8, chunks = 4>]} : tensor<2x13x256xf16> -> tensor<2x13x256xf32>
  return %0 : tensor<2x13x256xf32>
}
// 128 values a thread (16 chunks of 8), packed in the vector kernel; the scalar kernel holds
// at most 64 as f32 (8 chunks: 2 rows x 8 < C = 20), so it takes the online path.
func.func @scaled_c512(%x: tensor<1x512x32xbf16>) -> tensor<1x512x32xbf16> {
  %s = softmax.scale %x by 0.125 : tensor<1x512x32xbf16>
  %0 = softmax.softmax %s axis = 1 : tensor<1x512x32xbf16>
  return %0 : tensor<1x512x32xbf16>
}

func.func @packed128(%x: tensor<2x20x128xbf16>) -> tensor<2x20x128xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 16, rows = 2, vector = 8, chunks = 16>]} : tensor<2x20x128xbf16> -> tensor<2x20x128xbf16>
  return %0 : tensor<2x20x128xbf16>
}
// A scale by an f64 scalar operand (narrowed to f32 once).
func.func @f64_scale(%x: tensor<4x8x16xbf16>, %t: f64) -> tensor<4x8x16xbf16> {
  %0 = softmax.fused softmax %x (%t : f64) axis = 1 prologue [#softmax.scale_by<0>] : tensor<4x8x16xbf16> -> tensor<4x8x16xbf16>
  return %0 : tensor<4x8x16xbf16>
}

// Tiers of a dynamic C (capacities 8 and 32) before the general plan.
func.func @tiers_bf16(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 4, vector = 8, chunks = 2>, #softmax.strategy<strided_axis, lanes = 4, rows = 8, vector = 8, chunks = 4>, #softmax.strategy<strided_axis, lanes = 8, rows = 8, vector = 8, chunks = 2>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}

func.func @tiers_scaled(%x: tensor<?x?x?x?xf16>, %t: f32) -> tensor<?x?x?x?xf16> {
  %0 = softmax.fused softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] {strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 8, vector = 8, chunks = 4>, #softmax.strategy<strided_axis, lanes = 8, rows = 8, vector = 8, chunks = 2>]} : tensor<?x?x?x?xf16> -> tensor<?x?x?x?xf16>
  return %0 : tensor<?x?x?x?xf16>
}
func.func @tiers_scaled_by_f32(%x: tensor<?x?x?xbf16>, %t: f32) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 32>, #softmax.strategy<strided_axis, lanes = 4, rows = 8, vector = 4, chunks = 2>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
func.func @tiers_scaled_by_f16(%x: tensor<?x?x?xf16>, %t: f32) -> tensor<?x?x?xf16> {
  %0 = softmax.fused softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 8, vector = 8, chunks = 2>]} : tensor<?x?x?xf16> -> tensor<?x?x?xf16>
  return %0 : tensor<?x?x?xf16>
}
func.func @tiers_after_positive(%x: tensor<?x?x?xbf16>, %t: f32) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 32>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 8, vector = 4, chunks = 2>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
func.func @tiers_scaled_const(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.5>] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 8, vector = 8, chunks = 2>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}
func.func @tiers_scaled_f16(%x: tensor<?x?x?xf16>) -> tensor<?x?x?xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.75>] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 8, vector = 8, chunks = 2>]} : tensor<?x?x?xf16> -> tensor<?x?x?xf16>
  return %0 : tensor<?x?x?xf16>
}
func.func @tiers_negative(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<-0.5>] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 8, vector = 8, chunks = 2>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}

func.func @tiers_f32(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 4, vector = 4, chunks = 2>, #softmax.strategy<strided_axis, lanes = 8, rows = 4, vector = 4, chunks = 4>, #softmax.strategy<strided_axis, lanes = 8, rows = 8, vector = 4, chunks = 2>]} : tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

func.func @groups_packed(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 8, chunks = 2>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}

func.func @groups_online(%x: tensor<1x1000x16xf32>) -> tensor<1x1000x16xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 2>]} : tensor<1x1000x16xf32> -> tensor<1x1000x16xf32>
  return %0 : tensor<1x1000x16xf32>
}
