// Generated programs whose kernels spilled (docs/fuzzing.md, "Spills of seeds 401-2232"): a
// prologue step beside the partial row's tests of one vector of 8 (seeds 1362, 1397, 1508,
// 1541, 518: 4-12 bytes at 32 registers, now 40), a step with an operand on 16 values (1362,
// a boolean mask and a scalar factor; 1935, a bias a row: 4 bytes at 40, now 48), log_softmax
// of 32 values under a limiting mask with a scalar factor (469, 1291: 4-20 bytes at the
// 24-warp target), two masks (683, 2005: 8-12 bytes; both now counted by
// FusedOp::getPrologueStateRegisters), and the general kernel of a static width held packed
// over a cluster (1118: 8 bytes at 80, now 88), a hand-written 16-bit plan on vectors of
// 2 (2133: 12-16 bytes at 40-48; such plans keep their budget), and the Full kernels of 24
// values or more beside a step with an operand (2027, 2917 and a scale by an f32 scalar: 4
// bytes at 64; no longer built, below), and a row_cluster general kernel beside a bias of one
// element (2490: 8 bytes at 128), the general kernels of rows of one or two lanes of 8 beside
// three side operands along the row (3117: 160 bytes at 192, 56 at 168; their edge columns'
// addresses now counted), and a hand-written plan of 2 rows of 16 values beside a bias of one
// element (3497: 4 bytes at 48, the budget of the 16-bit general kernels on vectors of 4,
// which several rows beside a step with an operand now leave at 56), and f16 rows beside a bias
// of one value a row over a rank-4 input (4287, 4415: 8-20 bytes at 48 in six tiers; the row's
// indices now counted where a target or cap sets the budget), and f16 rows scaled by a bf16
// scalar and rounded to f16 (5402: 4 bytes at 32 in seven tiers and at 64 in the 24-value one;
// such roundings after an operand now take 8 more). Every kernel assembles with ptxas for sm_90
// within its nvvm.maxnreg without spilling.
// REQUIRES: ptxas
// RUN: softmax-opt %s --softmax-to-nvvm="ptx-file=%t.ptx" -o /dev/null
// RUN: %ptxas-each -arch=sm_90 -v %t.ptx -o %t.cubin > %t.log 2>&1
// RUN: FileCheck %s < %t.log
// RUN: grep "bytes spill" %t.log | sort -u | FileCheck %s --check-prefix=NOSPILL
// RUN: grep -c "Compiling entry function" %t.log | FileCheck %s --check-prefix=COUNT
// RUN: not grep -E "'(gen_2027|gen_2917|scale_by_f32)_0_row_registers_(19|20)_full'" %t.log

// COUNT: 734
// CHECK-DAG: Compiling entry function 'gen_1362_0_row_registers_6' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_1362_0_row_registers_14' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_518_0_row_registers' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_469_0_multi_row_8' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_1291_0_multi_row_3' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_683_0_multi_row_3' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_1118_0_row_cluster_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'scale_by_f32_0_row_registers_19' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_2917_0_row_registers_19' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_2490_0_row_cluster_19_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_3117_0_multi_row_0_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_3117_0_multi_row_1_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_3497_0_row_registers' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_4287_0_row_registers_12_general' for 'sm_90'
// CHECK-DAG: Compiling entry function 'gen_4415_0_row_registers_17' for 'sm_90'
// NOSPILL: 0 bytes spill stores, 0 bytes spill loads
// NOSPILL-NOT: bytes spill

// Seed 1362 (scripts/softmax_gen.py 1362).
func.func @gen_1362(%x: tensor<?xbf16>, %a1: tensor<1xi1>, %a2: f32) -> tensor<?xbf16> {
  %v0 = softmax.cast %x : tensor<?xbf16> to tensor<?xf32>
  %v1 = softmax.mask %v0, tensor %a1 axis = -1 : tensor<?xf32>, tensor<1xi1>
  %v2 = softmax.scale %v1 by %a2 : tensor<?xf32>, f32
  %v3 = softmax.softmax %v2 axis = -1 masked_rows = nan : tensor<?xf32>
  %v4 = softmax.cast %v3 : tensor<?xf32> to tensor<?xbf16>
  return %v4 : tensor<?xbf16>
}

// Seed 1397 (scripts/softmax_gen.py 1397).
func.func @gen_1397(%x: tensor<?xf16>) -> tensor<?xbf16> {
  %v0 = softmax.cast %x : tensor<?xf16> to tensor<?xbf16>
  %v1 = softmax.softmax %v0 axis = 0 masked_rows = zero : tensor<?xbf16>
  return %v1 : tensor<?xbf16>
}

// Seed 1508 (scripts/softmax_gen.py 1508).
func.func @gen_1508(%x: tensor<?x3x?xbf16>, %a1: bf16) -> tensor<?x3x?xf16> {
  %v0 = softmax.cast %x : tensor<?x3x?xbf16> to tensor<?x3x?xf32>
  %v1 = softmax.cast %v0 : tensor<?x3x?xf32> to tensor<?x3x?xf16>
  %v2 = softmax.scale %v1 by %a1 : tensor<?x3x?xf16>, bf16
  %v3 = softmax.softmax %v2 axis = -1 masked_rows = zero : tensor<?x3x?xf16>
  return %v3 : tensor<?x3x?xf16>
}

// Seed 1541 (scripts/softmax_gen.py 1541).
func.func @gen_1541(%x: tensor<5x4x?xbf16>, %a1: bf16) -> tensor<5x4x?xf16> {
  %v0 = softmax.scale %x by %a1 : tensor<5x4x?xbf16>, bf16
  %v1 = softmax.softmax %v0 axis = 2 masked_rows = nan : tensor<5x4x?xbf16>
  %v2 = softmax.cast %v1 : tensor<5x4x?xbf16> to tensor<5x4x?xf16>
  return %v2 : tensor<5x4x?xf16>
}

// Seed 518 (scripts/softmax_gen.py 518).
func.func @gen_518(%x: tensor<?x?x1000xbf16>) -> tensor<?x?x1000xf16> {
  %y = softmax.fused softmax %x axis = 2 prologue [#softmax.round<bf16>, #softmax.scale<10000.0>] masked_rows = zero {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 8, vector = 8, chunks = 1>]} : tensor<?x?x1000xbf16> -> tensor<?x?x1000xf16>
  return %y : tensor<?x?x1000xf16>
}

// Seed 469 (scripts/softmax_gen.py 469).
func.func @gen_469(%x: tensor<16x1x?xf16>, %a1: f32) -> tensor<16x1x?xbf16> {
  %v0 = softmax.cast %x : tensor<16x1x?xf16> to tensor<16x1x?xf32>
  %v1 = softmax.mask %v0, causal offset = 0 axis = 2 : tensor<16x1x?xf32>
  %v2 = softmax.scale %v1 by 0.125 : tensor<16x1x?xf32>
  %v3 = softmax.scale %v2 by %a1 : tensor<16x1x?xf32>, f32
  %v4 = softmax.log_softmax %v3 axis = 2 masked_rows = nan : tensor<16x1x?xf32>
  %v5 = softmax.cast %v4 : tensor<16x1x?xf32> to tensor<16x1x?xbf16>
  return %v5 : tensor<16x1x?xbf16>
}

// Seed 1291 (scripts/softmax_gen.py 1291).
func.func @gen_1291(%x: tensor<3x17x16x?xf16>, %a1: tensor<3x1x1xi64>, %a2: bf16) -> tensor<3x17x16x?xf16> {
  %v0 = softmax.mask %x, padding %a1 axis = -1 : tensor<3x17x16x?xf16>, tensor<3x1x1xi64>
  %v1 = softmax.scale %v0 by %a2 : tensor<3x17x16x?xf16>, bf16
  %v2 = softmax.log_softmax %v1 axis = -1 masked_rows = zero : tensor<3x17x16x?xf16>
  return %v2 : tensor<3x17x16x?xf16>
}

// Seed 683 (scripts/softmax_gen.py 683).
func.func @gen_683(%x: tensor<?x3x?x?xbf16>, %a1: tensor<?x3x?x1xi1>, %a2: tensor<?xi64>) -> tensor<?x3x?x?xf32> {
  %v0 = softmax.cast %x : tensor<?x3x?x?xbf16> to tensor<?x3x?x?xf32>
  %v1 = softmax.mask %v0, tensor %a1 axis = -1 fill = -30000.0 : tensor<?x3x?x?xf32>, tensor<?x3x?x1xi1>
  %v2 = softmax.mask %v1, padding %a2 axis = -1 fill = 0.0 : tensor<?x3x?x?xf32>, tensor<?xi64>
  %v3 = softmax.mask %v2, causal offset = 1 axis = -1 : tensor<?x3x?x?xf32>
  %v4 = softmax.cast %v3 : tensor<?x3x?x?xf32> to tensor<?x3x?x?xbf16>
  %v5 = softmax.softmax %v4 axis = -1 masked_rows = zero : tensor<?x3x?x?xbf16>
  %v6 = softmax.cast %v5 : tensor<?x3x?x?xbf16> to tensor<?x3x?x?xf32>
  return %v6 : tensor<?x3x?x?xf32>
}

// Seed 1118 (scripts/softmax_gen.py 1118).
func.func @gen_1118(%x: tensor<64x57856xbf16>) -> tensor<64x57856xf16> {
  %v0 = softmax.cast %x : tensor<64x57856xbf16> to tensor<64x57856xf32>
  %v1 = softmax.softmax %v0 axis = -1 masked_rows = zero : tensor<64x57856xf32>
  %v2 = softmax.cast %v1 : tensor<64x57856xf32> to tensor<64x57856xf16>
  return %v2 : tensor<64x57856xf16>
}

// Seed 1935 (scripts/softmax_gen.py 1935).
func.func @gen_1935(%x: tensor<16x?xbf16>, %a1: tensor<16x1xf32>) -> tensor<16x?xbf16> {
  %v0 = softmax.scale %x by 0.125 : tensor<16x?xbf16>
  %v1 = softmax.add_bias %v0, %a1 : tensor<16x?xbf16>, tensor<16x1xf32>
  %v2 = softmax.softmax %v1 axis = -1 masked_rows = nan : tensor<16x?xbf16>
  return %v2 : tensor<16x?xbf16>
}

// Seed 2005 (scripts/softmax_gen.py 2005).
func.func @gen_2005(%x: tensor<?x?x2x?xf16>, %a1: tensor<1xi64>) -> tensor<?x?x2x?xbf16> {
  %v0 = softmax.cast %x : tensor<?x?x2x?xf16> to tensor<?x?x2x?xf32>
  %v1 = softmax.scale %v0 by 0.088388 : tensor<?x?x2x?xf32>
  %v2 = softmax.scale %v1 by 0.125 : tensor<?x?x2x?xf32>
  %v3 = softmax.mask %v2, causal offset = 0 axis = -1 fill = -10000.0 : tensor<?x?x2x?xf32>
  %v4 = softmax.mask %v3, padding %a1 axis = -1 : tensor<?x?x2x?xf32>, tensor<1xi64>
  %v5 = softmax.softmax %v4 axis = -1 masked_rows = zero : tensor<?x?x2x?xf32>
  %v6 = softmax.cast %v5 : tensor<?x?x2x?xf32> to tensor<?x?x2x?xbf16>
  return %v6 : tensor<?x?x2x?xbf16>
}

// Seed 2133 (scripts/softmax_gen.py 2133): a hand-written plan on vectors of 2 bf16 values.
func.func @gen_2133(%x: tensor<1024xbf16>) -> tensor<1024xbf16> {
  %y = softmax.fused softmax %x axis = 0 prologue [#softmax.scale<0.125>, #softmax.scale<10.0>] masked_rows = zero {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 8, vector = 2, chunks = 8>, #softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 1, chunks = 2>]} : tensor<1024xbf16> -> tensor<1024xbf16>
  return %y : tensor<1024xbf16>
}

// Seed 2027 (scripts/softmax_gen.py 2027): a boolean mask on a dynamic 16-bit row; with seed
// 2917 and the plain scale below, the Full kernel of the 12288-column tier (512 threads x 3
// vectors of 8) spilled 4 bytes at 64 registers beside the step's operand: no Full kernel
// there now (hasFullVariant), the fast kernel takes rows of the span.
func.func @gen_2027(%x: tensor<?xbf16>, %a1: tensor<1xi1>) -> tensor<?xf16> {
  %v0 = softmax.cast %x : tensor<?xbf16> to tensor<?xf32>
  %v1 = softmax.mask %v0, tensor %a1 axis = 0 : tensor<?xf32>, tensor<1xi1>
  %v2 = softmax.softmax %v1 axis = 0 masked_rows = zero : tensor<?xf32>
  %v3 = softmax.cast %v2 : tensor<?xf32> to tensor<?xf16>
  return %v3 : tensor<?xf16>
}

// Seed 2917 (scripts/softmax_gen.py 2917).
func.func @gen_2917(%x: tensor<?xbf16>, %a1: f32) -> tensor<?xf16> {
  %v0 = softmax.cast %x : tensor<?xbf16> to tensor<?xf32>
  %v1 = softmax.scale %v0 by %a1 : tensor<?xf32>, f32
  %v2 = softmax.softmax %v1 axis = 0 masked_rows = zero : tensor<?xf32>
  %v3 = softmax.cast %v2 : tensor<?xf32> to tensor<?xf16>
  return %v3 : tensor<?xf16>
}

// A dynamic bf16 softmax scaled by an f32 scalar (a temperature).
func.func @scale_by_f32(%x: tensor<?x?xbf16>, %t: f32) -> tensor<?x?xbf16> {
  %a = softmax.scale %x by %t : tensor<?x?xbf16>, f32
  %y = softmax.softmax %a : tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

// Seed 2490 (scripts/softmax_gen.py 2490): an f32 bias of one element on a dynamic row. The
// general kernel of the row_cluster tier spilled 8 bytes at the two-blocks budget (128), which
// it no longer takes beside a bias.
func.func @gen_2490(%x: tensor<?x2x?xf32>, %a1: tensor<1xf32>) -> tensor<?x2x?xf32> {
  %v0 = softmax.add_bias %x, %a1 : tensor<?x2x?xf32>, tensor<1xf32>
  %v1 = softmax.softmax %v0 axis = -1 masked_rows = zero : tensor<?x2x?xf32>
  return %v1 : tensor<?x2x?xf32>
}

// Seed 3117 (scripts/softmax_gen.py 3117): two boolean masks and a bias along a dynamic row of
// bf16, a bias a row, log_softmax. The general kernels of the tiers of one and two lanes of 8
// (14 and 8 edge columns a thread) keep an address a side operand and edge column.
func.func @gen_3117(%x: tensor<16x2x5x?xbf16>, %a1: tensor<1x?xbf16>, %a2: tensor<1x1x5x?xi1>, %a3: tensor<16x1x5x?xi1>, %a4: tensor<5x1xf16>) -> tensor<16x2x5x?xf16> {
  %v0 = softmax.add_bias %x, %a1 : tensor<16x2x5x?xbf16>, tensor<1x?xbf16>
  %v1 = softmax.mask %v0, tensor %a2 axis = -1 : tensor<16x2x5x?xbf16>, tensor<1x1x5x?xi1>
  %v2 = softmax.mask %v1, tensor %a3 axis = -1 fill = -30000.0 : tensor<16x2x5x?xbf16>, tensor<16x1x5x?xi1>
  %v3 = softmax.add_bias %v2, %a4 : tensor<16x2x5x?xbf16>, tensor<5x1xf16>
  %v4 = softmax.log_softmax %v3 axis = -1 masked_rows = nan : tensor<16x2x5x?xbf16>
  %v5 = softmax.cast %v4 : tensor<16x2x5x?xbf16> to tensor<16x2x5x?xf16>
  return %v5 : tensor<16x2x5x?xf16>
}

// Seed 3497 (scripts/softmax_gen.py 3497): a hand-written plan of 2 rows of 64 lanes and 16
// bf16 values beside a bias of one element, on 513 columns (the general kernel only).
func.func @gen_3497(%x: tensor<8x8x16x513xbf16>, %a1: tensor<1xbf16>) -> tensor<8x8x16x513xbf16> {
  %y = softmax.fused softmax %x (%a1 : tensor<1xbf16>) axis = 3 prologue [#softmax.bias<0>] masked_rows = zero {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 2, vector = 4, chunks = 4>]} : tensor<8x8x16x513xbf16> -> tensor<8x8x16x513xbf16>
  return %y : tensor<8x8x16x513xbf16>
}

// Seed 4287 (scripts/softmax_gen.py 4287): f16 rows of a rank-4 input beside a bias of one
// value a row, [17, 5, 17, 1]; the tiers capped at 48 keep the row's indices and the bias's
// address beside their values.
func.func @gen_4287(%x: tensor<17x5x17x?xf16>, %a1: tensor<17x5x17x1xf16>) -> tensor<17x5x17x?xbf16> {
  %v0 = softmax.cast %x : tensor<17x5x17x?xf16> to tensor<17x5x17x?xf32>
  %v1 = softmax.cast %v0 : tensor<17x5x17x?xf32> to tensor<17x5x17x?xbf16>
  %v2 = softmax.cast %v1 : tensor<17x5x17x?xbf16> to tensor<17x5x17x?xf16>
  %v3 = softmax.add_bias %v2, %a1 : tensor<17x5x17x?xf16>, tensor<17x5x17x1xf16>
  %v4 = softmax.softmax %v3 axis = 3 masked_rows = zero : tensor<17x5x17x?xf16>
  %v5 = softmax.cast %v4 : tensor<17x5x17x?xf16> to tensor<17x5x17x?xbf16>
  return %v5 : tensor<17x5x17x?xbf16>
}

// Seed 4415 (scripts/softmax_gen.py 4415): the same with dynamic outer sizes, a bias of shape
// [4, ?, ?, 1] and scales by an f64 scalar and by 2.
func.func @gen_4415(%x: tensor<4x?x?x?xf16>, %a1: f64, %a2: tensor<4x?x?x1xf16>) -> tensor<4x?x?x?xf16> {
  %v0 = softmax.scale %x by %a1 : tensor<4x?x?x?xf16>, f64
  %v1 = softmax.scale %v0 by 2.0 : tensor<4x?x?x?xf16>
  %v2 = softmax.add_bias %v1, %a2 : tensor<4x?x?x?xf16>, tensor<4x?x?x1xf16>
  %v3 = softmax.softmax %v2 axis = -1 masked_rows = nan : tensor<4x?x?x?xf16>
  return %v3 : tensor<4x?x?x?xf16>
}

func.func @gen_5402(%x: tensor<?x?x?xf16>, %a1: bf16) -> tensor<?x?x?xbf16> {
  %v0 = softmax.cast %x : tensor<?x?x?xf16> to tensor<?x?x?xf32>
  %v1 = softmax.scale %v0 by %a1 : tensor<?x?x?xf32>, bf16
  %v2 = softmax.cast %v1 : tensor<?x?x?xf32> to tensor<?x?x?xf16>
  %v3 = softmax.cast %v2 : tensor<?x?x?xf16> to tensor<?x?x?xbf16>
  %v4 = softmax.softmax %v3 axis = 2 masked_rows = zero : tensor<?x?x?xbf16>
  return %v4 : tensor<?x?x?xbf16>
}
