// RUN: softmax-opt %s --softmax-select-strategy --split-input-file | FileCheck %s
// RUN: softmax-opt %s --softmax-select-strategy="threads-per-block=256" --split-input-file | FileCheck %s --check-prefix=T256
// RUN: softmax-opt %s --softmax-select-strategy="chip=sm_80" --split-input-file | FileCheck %s --check-prefix=SM80

// A softmax over a non-last axis gets one strided_axis plan (AxisPlan.cpp, docs/strategies.md):
// `lanes` threads along the contiguous inner axis (`vector` elements each), `rows` threads
// along the axis, `chunks` axis values a thread. The column stays in registers when
// rows * chunks covers C; the C slices a warp reads are at least a 32-byte sector and at most
// the inner columns there are (inner = 3: one lane). 16-bit values of a plain softmax over a
// static C are held packed (two a register), so up to 128 a thread where f32 ones take 64:
// bf16 C = 4096 stays in registers (2 lanes x 256 rows x 16) in blocks of 512, f32 C = 4096
// over a cluster (below); a bf16 log_softmax (values held as f32) takes the online plan
// (rows * chunks < C: two passes over the column). A dynamic C is planned for C = 256 and holds
// both paths; its tiers are the static plans as four-index kernels (f32 up to C = 2048).

// CHECK-LABEL: func.func @f32_64x1x1024_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 1>]
func.func @f32_64x1x1024_axis1(%x: tensor<64x1x1024xf32>) -> tensor<64x1x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x1x1024xf32> -> tensor<64x1x1024xf32>
  return %0 : tensor<64x1x1024xf32>
}

// -----

// CHECK-LABEL: func.func @f32_64x7x1024_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 7>]
func.func @f32_64x7x1024_axis1(%x: tensor<64x7x1024xf32>) -> tensor<64x7x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x7x1024xf32> -> tensor<64x7x1024xf32>
  return %0 : tensor<64x7x1024xf32>
}

// -----

// CHECK-LABEL: func.func @f32_64x8x1024_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 8>]
func.func @f32_64x8x1024_axis1(%x: tensor<64x8x1024xf32>) -> tensor<64x8x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x8x1024xf32> -> tensor<64x8x1024xf32>
  return %0 : tensor<64x8x1024xf32>
}

// -----

// CHECK-LABEL: func.func @f32_64x33x1024_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 64, rows = 4, vector = 4, chunks = 9>]
func.func @f32_64x33x1024_axis1(%x: tensor<64x33x1024xf32>) -> tensor<64x33x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x33x1024xf32> -> tensor<64x33x1024xf32>
  return %0 : tensor<64x33x1024xf32>
}

// -----

// CHECK-LABEL: func.func @f32_64x64x1024_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 64, rows = 4, vector = 4, chunks = 16>]
func.func @f32_64x64x1024_axis1(%x: tensor<64x64x1024xf32>) -> tensor<64x64x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x64x1024xf32> -> tensor<64x64x1024xf32>
  return %0 : tensor<64x64x1024xf32>
}

// -----

// CHECK-LABEL: func.func @f32_16x512x1024_axis1
// T256-LABEL: func.func @f32_16x512x1024_axis1
// T256: strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16>]
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16>]
func.func @f32_16x512x1024_axis1(%x: tensor<16x512x1024xf32>) -> tensor<16x512x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<16x512x1024xf32> -> tensor<16x512x1024xf32>
  return %0 : tensor<16x512x1024xf32>
}

// -----

// CHECK-LABEL: func.func @f32_16x1000x1024_axis1
// T256-LABEL: func.func @f32_16x1000x1024_axis1
// T256: strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16>]
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16>]
func.func @f32_16x1000x1024_axis1(%x: tensor<16x1000x1024xf32>) -> tensor<16x1000x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<16x1000x1024xf32> -> tensor<16x1000x1024xf32>
  return %0 : tensor<16x1000x1024xf32>
}

// -----

// f32 C = 4096: one block would have 32-byte slices (2 lanes x 256 rows x 16 in blocks of 512),
// so on sm_90 the column goes over a cluster of 8 blocks of C = 512's plan (rule 5: 128-byte
// slices); sm_80 (no clusters) keeps the one block, and so would blocks of 256 threads but for
// the cluster, which needs none larger.
// CHECK-LABEL: func.func @f32_16x4096x1024_axis1
// T256-LABEL: func.func @f32_16x4096x1024_axis1
// SM80-LABEL: func.func @f32_16x4096x1024_axis1
// T256: strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>]
// SM80: strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 4, chunks = 16>]
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>]
func.func @f32_16x4096x1024_axis1(%x: tensor<16x4096x1024xf32>) -> tensor<16x4096x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<16x4096x1024xf32> -> tensor<16x4096x1024xf32>
  return %0 : tensor<16x4096x1024xf32>
}

// -----

// CHECK-LABEL: func.func @f32_16x4097x3_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 1, rows = 512, vector = 4, chunks = 9>]
func.func @f32_16x4097x3_axis1(%x: tensor<16x4097x3xf32>) -> tensor<16x4097x3xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<16x4097x3xf32> -> tensor<16x4097x3xf32>
  return %0 : tensor<16x4097x3xf32>
}

// -----

// CHECK-LABEL: func.func @bf16_64x8x1024_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 128, rows = 1, vector = 8, chunks = 8>]
func.func @bf16_64x8x1024_axis1(%x: tensor<64x8x1024xbf16>) -> tensor<64x8x1024xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x8x1024xbf16> -> tensor<64x8x1024xbf16>
  return %0 : tensor<64x8x1024xbf16>
}

// -----

// CHECK-LABEL: func.func @bf16_64x64x1024_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 64, rows = 4, vector = 8, chunks = 16>]
func.func @bf16_64x64x1024_axis1(%x: tensor<64x64x1024xbf16>) -> tensor<64x64x1024xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x64x1024xbf16> -> tensor<64x64x1024xbf16>
  return %0 : tensor<64x64x1024xbf16>
}

// -----

// CHECK-LABEL: func.func @bf16_16x512x1024_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 8, chunks = 16>]
func.func @bf16_16x512x1024_axis1(%x: tensor<16x512x1024xbf16>) -> tensor<16x512x1024xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<16x512x1024xbf16> -> tensor<16x512x1024xbf16>
  return %0 : tensor<16x512x1024xbf16>
}

// -----

// CHECK-LABEL: func.func @bf16_16x1000x1024_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 16>]
func.func @bf16_16x1000x1024_axis1(%x: tensor<16x1000x1024xbf16>) -> tensor<16x1000x1024xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<16x1000x1024xbf16> -> tensor<16x1000x1024xbf16>
  return %0 : tensor<16x1000x1024xbf16>
}

// -----

// CHECK-LABEL: func.func @bf16_16x4096x1024_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 16>]
func.func @bf16_16x4096x1024_axis1(%x: tensor<16x4096x1024xbf16>) -> tensor<16x4096x1024xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<16x4096x1024xbf16> -> tensor<16x4096x1024xbf16>
  return %0 : tensor<16x4096x1024xbf16>
}

// -----

// log_softmax keeps f32 values: at most 64 a thread, the plans the packed softmax had before.
// CHECK-LABEL: func.func @bf16_log_64x64x1024_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 32, rows = 8, vector = 8, chunks = 8>]
func.func @bf16_log_64x64x1024_axis1(%x: tensor<64x64x1024xbf16>) -> tensor<64x64x1024xbf16> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] : tensor<64x64x1024xbf16> -> tensor<64x64x1024xbf16>
  return %0 : tensor<64x64x1024xbf16>
}

// -----

// CHECK-LABEL: func.func @bf16_log_16x4096x1024_axis1
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 2>]
func.func @bf16_log_16x4096x1024_axis1(%x: tensor<16x4096x1024xbf16>) -> tensor<16x4096x1024xbf16> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] : tensor<16x4096x1024xbf16> -> tensor<16x4096x1024xbf16>
  return %0 : tensor<16x4096x1024xbf16>
}

// -----

// CHECK-LABEL: func.func @f32_4096x1_axis0
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 1, rows = 256, vector = 4, chunks = 16>]
func.func @f32_4096x1_axis0(%x: tensor<4096x1xf32>) -> tensor<4096x1xf32> {
  %0 = softmax.fused softmax %x axis = 0 prologue [] : tensor<4096x1xf32> -> tensor<4096x1xf32>
  return %0 : tensor<4096x1xf32>
}

// -----

// CHECK-LABEL: func.func @f32_7x4097_axis0
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 7>]
func.func @f32_7x4097_axis0(%x: tensor<7x4097xf32>) -> tensor<7x4097xf32> {
  %0 = softmax.fused softmax %x axis = 0 prologue [] : tensor<7x4097xf32> -> tensor<7x4097xf32>
  return %0 : tensor<7x4097xf32>
}

// -----

// CHECK-LABEL: func.func @f32_32x16x4096_axism2
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 16>]
func.func @f32_32x16x4096_axism2(%x: tensor<32x16x4096xf32>) -> tensor<32x16x4096xf32> {
  %0 = softmax.fused softmax %x axis = -2 prologue [] : tensor<32x16x4096xf32> -> tensor<32x16x4096xf32>
  return %0 : tensor<32x16x4096xf32>
}

// -----

// A dynamic C: the tiers (the static plans of C = 8, 16, ..., 4096 and, from 2048, one at three
// quarters before each: 1536, 3072; lean kernels: the plans of a static C, rule 5's clusters
// included, over a dynamic inner size those of 2048, 3072 and 4096 over clusters of 4, 6 and 8
// blocks (a tier at three quarters over a cluster is left out over a static inner size only,
// and for 16-bit values held packed); on sm_80 one block, 2 lanes x 128 rows at 1536 and
// 2048), past 4096 the tiers of 6144, 8192, 12288 and 16384 over 6, 8, 12 and 16 blocks of C =
// 1024's plan (4 lanes x 64 rows x 16), then the general plan (C = 256's, with the online path
// for wider C).
// CHECK-LABEL: func.func @dynamic_f32
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 8>, #softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 128, rows = 2, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 64, rows = 4, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 32, rows = 8, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 16, rows = 16, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 4, chunks = 12>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 4>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 6>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16, cluster = 6>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16, cluster = 8>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16, cluster = 12>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16, cluster = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 8>]
// SM80-LABEL: func.func @dynamic_f32
// SM80: strategies = [#softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 8>, #softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 128, rows = 2, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 64, rows = 4, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 32, rows = 8, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 16, rows = 16, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 4, chunks = 12>, #softmax.strategy<strided_axis, lanes = 2, rows = 128, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 4, chunks = 12>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 8>]
func.func @dynamic_f32(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// 16-bit values held packed: tiers from C = 8 (the static plan of 64 values a thread: the tier
// of 16 holds 128) up to C = 4096, with those of 1536 and 3072, then on sm_90 the tiers of 8192
// and 16384 over clusters of 4 and 8 blocks of C = 2048's plan in blocks of 256 (rule 6); no
// cluster on sm_80.
// CHECK-LABEL: func.func @dynamic_bf16
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 8, chunks = 8>, #softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 128, rows = 2, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 64, rows = 4, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 32, rows = 8, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 16, rows = 16, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 8, chunks = 12>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 12>, #softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 2, rows = 128, vector = 8, chunks = 16, cluster = 4>, #softmax.strategy<strided_axis, lanes = 2, rows = 128, vector = 8, chunks = 16, cluster = 8>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 4>]
// SM80-LABEL: func.func @dynamic_bf16
// SM80: strategies = [{{.*}}#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 4>]
func.func @dynamic_bf16(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}

// -----

// Over a static inner size the tiers of 1536 and 2048 have 4 lanes x 128 rows in blocks of 512,
// as the static plans; that of 4096 a cluster of 8 blocks, then 8192 and 16384 over 8 and 16
// blocks of 1024 (sm_80: 2 lanes x 256 rows, no cluster); no tier at three quarters over a
// cluster (such kernels spilled over small static inner sizes: generator seed 1840).
// CHECK-LABEL: func.func @dynamic_c_static_inner
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 8>, #softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 128, rows = 2, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 64, rows = 4, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 32, rows = 8, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 16, rows = 16, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 4, chunks = 12>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16, cluster = 8>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16, cluster = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 8>]
// SM80-LABEL: func.func @dynamic_c_static_inner
// SM80: strategies = [#softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 8>, #softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 128, rows = 2, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 64, rows = 4, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 32, rows = 8, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 16, rows = 16, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 4, chunks = 12>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 4, chunks = 12>, #softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 8>]
func.func @dynamic_c_static_inner(%x: tensor<?x?x1024xf32>) -> tensor<?x?x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<?x?x1024xf32> -> tensor<?x?x1024xf32>
  return %0 : tensor<?x?x1024xf32>
}

// -----

// A static last dimension off the vector (5 columns) never takes the vector kernels: no tiers.
// CHECK-LABEL: func.func @f32_to_bf16_small_inner
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 32, vector = 4, chunks = 8>]
func.func @f32_to_bf16_small_inner(%x: tensor<4x?x5xf32>) -> tensor<4x?x5xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<4x?x5xf32> -> tensor<4x?x5xbf16>
  return %0 : tensor<4x?x5xbf16>
}

// -----

// After a prologue (a scale), 16-bit values are held as f32 where a plan of 64 a thread has
// C slices as wide as the packed plan's (AxisPlan.cpp, holdsPackedAfterPrologue): bf16 C = 512
// takes 4 lanes x 64 rows x 8 values (the tier a dynamic C takes for it) rather than 128 packed
// values on 8 lanes x 32 rows; C = 1024 keeps 128 packed values (as f32, 2 lanes only).
// CHECK-LABEL: func.func @bf16_scaled_c512
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 8>]
// CHECK-LABEL: func.func @bf16_scaled_c1024
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 16>]
func.func @bf16_scaled_c512(%x: tensor<64x512x4096xbf16>) -> tensor<64x512x4096xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.125>] : tensor<64x512x4096xbf16> -> tensor<64x512x4096xbf16>
  return %0 : tensor<64x512x4096xbf16>
}
func.func @bf16_scaled_c1024(%x: tensor<32x1024x4096xbf16>) -> tensor<32x1024x4096xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.125>] : tensor<32x1024x4096xbf16> -> tensor<32x1024x4096xbf16>
  return %0 : tensor<32x1024x4096xbf16>
}


// -----

// Past 8 blocks of C = 512's slices (rule 5), f32 columns go over clusters of up to 16 blocks
// (sm_90's non-portable size) of C = 1024's plan: 4 lanes x 64 rows x 16 values, 64-byte slices
// (C = 16384 over 16 blocks ran at 0.686x copy against 0.442x online, H100); C = 5000 over 5;
// past 16 blocks of 1024 (C = 16385) the online plan. sm_80 has no clusters.
// CHECK-LABEL: func.func @f32_c5000
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16, cluster = 5>]
// CHECK-LABEL: func.func @f32_c16384
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16, cluster = 16>]
// CHECK-LABEL: func.func @f32_c16385
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 4, chunks = 4>]
// SM80-LABEL: func.func @f32_c16384
// SM80: strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 4, chunks = 4>]
func.func @f32_c5000(%x: tensor<2x5000x1024xf32>) -> tensor<2x5000x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<2x5000x1024xf32> -> tensor<2x5000x1024xf32>
  return %0 : tensor<2x5000x1024xf32>
}
func.func @f32_c16384(%x: tensor<1x16384x4096xf32>) -> tensor<1x16384x4096xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<1x16384x4096xf32> -> tensor<1x16384x4096xf32>
  return %0 : tensor<1x16384x4096xf32>
}
func.func @f32_c16385(%x: tensor<1x16385x4096xf32>) -> tensor<1x16385x4096xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<1x16385x4096xf32> -> tensor<1x16385x4096xf32>
  return %0 : tensor<1x16385x4096xf32>
}

// -----

// Rule 5 takes any normalisation of f32 values, after a prologue too: an f32 log_softmax and a
// softmax after a scale by a scalar over C = 4096 go over a cluster of 8 blocks of C = 512's
// plan, 16384 over 16 of 1024's (f32 log_softmax at C = 4096 over a cluster of 8 ran at 0.662x
// copy by hand against 0.527x for the online plan chosen before, H100). 16-bit values keep one
// block (over clusters of blocks of f32-held values, bf16 scaled by 0.125 at C = 4096 ran at
// 0.343-0.668 against 0.688 in one block); sm_80 has no clusters.
// CHECK-LABEL: func.func @f32_log_c4096
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>]
// CHECK-LABEL: func.func @f32_scaled_c16384
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16, cluster = 16>]
// An f32 log_softmax's 64 values a thread spilled in blocks of 512 (128 registers) where the
// softmax's do not: C = 2048 goes over a cluster of 4 where the softmax takes 4 lanes x 128
// rows in one block.
// CHECK-LABEL: func.func @f32_log_c2048
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 4>]
// CHECK-LABEL: func.func @bf16_log_c4096
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 2>]
// SM80-LABEL: func.func @f32_log_c4096
// SM80: strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 4, chunks = 4>]
func.func @f32_log_c4096(%x: tensor<4x4096x4096xf32>) -> tensor<4x4096x4096xf32> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] : tensor<4x4096x4096xf32> -> tensor<4x4096x4096xf32>
  return %0 : tensor<4x4096x4096xf32>
}
func.func @f32_scaled_c16384(%x: tensor<1x16384x4096xf32>, %t: f32) -> tensor<1x16384x4096xf32> {
  %0 = softmax.fused softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] : tensor<1x16384x4096xf32> -> tensor<1x16384x4096xf32>
  return %0 : tensor<1x16384x4096xf32>
}
func.func @f32_log_c2048(%x: tensor<8x2048x4096xf32>) -> tensor<8x2048x4096xf32> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] : tensor<8x2048x4096xf32> -> tensor<8x2048x4096xf32>
  return %0 : tensor<8x2048x4096xf32>
}
func.func @bf16_log_c4096(%x: tensor<8x4096x4096xbf16>) -> tensor<8x4096x4096xbf16> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] : tensor<8x4096x4096xbf16> -> tensor<8x4096x4096xbf16>
  return %0 : tensor<8x4096x4096xbf16>
}

// -----

// A dynamic C's tiers go over a cluster only where two blocks of the slice's plan fit a
// multiprocessor by the cluster kernel's estimate (getStridedAxisRegisters' `overCluster`): a
// scaled f32 softmax's tiers from 2048 do (64 values + 56: 128 registers), a bf16 input
// widened to f32 (a converted tier: 16 more) and a scaled bf16 one (64 f32-held values on
// vectors of 8) do not: their tiers end in one block, the general plan beyond. A 16-bit softmax
// after a positive constant scale holds its values packed from 1024 (128 a thread, -inf past C
// as loaded: FusedOp::prologueKeepsNegInf), so its tiers reach 4096 in one block as the static
// plans do; after a negative factor or a scale by a scalar (its sign known at run time only),
// f32-held values up to 1024. To an f32 result after a scale by a scalar (the temperature
// chain), then the packed tiers of the static plans for a positive factor (the host launches
// them where it is: AxisKernel.cpp, launchesForPositiveScalars): 8 lanes x 64 rows x 32 chunks
// of 4 at 2048, 4 x 128 x 32 at 4096 (one register for 8 values past the static estimate:
// getPackedStridedAxisRegisters).
// CHECK-LABEL: func.func @dynamic_scaled_f32
// CHECK: strategies = [{{.*}}#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 3>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 4>,
// CHECK-LABEL: func.func @dynamic_bf16_to_f32
// CHECK-NOT: cluster
// CHECK: strategies = [{{.*}}#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 8>]
// CHECK-LABEL: func.func @dynamic_scaled_bf16
// CHECK-NOT: cluster
// CHECK: strategies = [{{.*}}#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 8>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 8, chunks = 12>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 12>, #softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 4>]
// CHECK-LABEL: func.func @dynamic_scaled_by_bf16
// CHECK-NOT: cluster
// CHECK: strategies = [{{.*}}#softmax.strategy<strided_axis, lanes = 2, rows = 128, vector = 8, chunks = 8>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 4>]
// CHECK-LABEL: func.func @dynamic_temperature_bf16_to_f32
// CHECK-NOT: cluster
// CHECK: strategies = [{{.*}}#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 64, vector = 4, chunks = 24>, #softmax.strategy<strided_axis, lanes = 8, rows = 64, vector = 4, chunks = 32>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 4, chunks = 24>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 4, chunks = 32>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 8>]
// CHECK-LABEL: func.func @dynamic_negative_scale_bf16
// CHECK-NOT: cluster
// CHECK: strategies = [{{.*}}#softmax.strategy<strided_axis, lanes = 2, rows = 128, vector = 8, chunks = 8>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 4>]
func.func @dynamic_scaled_f32(%x: tensor<?x?x?xf32>, %t: f32) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] : tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
func.func @dynamic_bf16_to_f32(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<?x?x?xbf16> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
func.func @dynamic_scaled_bf16(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.125>] : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}
func.func @dynamic_scaled_by_bf16(%x: tensor<?x?x?xbf16>, %t: f32) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}
func.func @dynamic_temperature_bf16_to_f32(%x: tensor<?x?x?xbf16>, %t: f32) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] : tensor<?x?x?xbf16> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
func.func @dynamic_negative_scale_bf16(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<-0.5>] : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}

// -----

// A cluster's slice is a one-block plan: past 8 blocks of 512 (C = 4097) the slices of C = 1024,
// whose own plan for f16 values to f32 (4 lanes x 64 rows: 32-byte slices) would itself spread
// over two blocks of 512; rule 5 then takes the online plan, not 5 blocks of 512 values, which
// hold 2560 of the 4097 and which the verifier rejects (generator seed 783 of the strided_axis
// family, found on the GPU).
// CHECK-LABEL: func.func @f16_to_f32_log_c4097
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 4, chunks = 4>]
func.func @f16_to_f32_log_c4097(%x: tensor<4097x1000xf16>) -> tensor<4097x1000xf32> {
  %0 = softmax.fused log_softmax %x axis = 0 prologue [#softmax.scale<2.0>] : tensor<4097x1000xf16> -> tensor<4097x1000xf32>
  return %0 : tensor<4097x1000xf32>
}

// -----

// Rule 6: 16-bit values of a plain softmax over a static C that no block holds (C > 4096) go
// over a cluster of ceil(C / 2048) blocks of 256 threads, each 2 lanes x 128 rows x 16 packed
// chunks of 8 (bf16 C = 16384 over 8 ran at 0.599x copy by hand against 0.406x online, H100);
// past 8 blocks (C = 16385), with an f32 result or on sm_80, the online plan.
// CHECK-LABEL: func.func @bf16_c16384
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 128, vector = 8, chunks = 16, cluster = 8>]
// CHECK-LABEL: func.func @f16_c4097
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 128, vector = 8, chunks = 16, cluster = 3>]
// CHECK-LABEL: func.func @bf16_c16385
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 2>]
// CHECK-LABEL: func.func @bf16_to_f32_c8192
// CHECK: strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 4, chunks = 4>]
// SM80-LABEL: func.func @bf16_c16384
// SM80: strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 2>]
func.func @bf16_c16384(%x: tensor<2x16384x4096xbf16>) -> tensor<2x16384x4096xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<2x16384x4096xbf16> -> tensor<2x16384x4096xbf16>
  return %0 : tensor<2x16384x4096xbf16>
}
func.func @f16_c4097(%x: tensor<2x4097x1000xf16>) -> tensor<2x4097x1000xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<2x4097x1000xf16> -> tensor<2x4097x1000xf16>
  return %0 : tensor<2x4097x1000xf16>
}
func.func @bf16_c16385(%x: tensor<2x16385x4096xbf16>) -> tensor<2x16385x4096xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<2x16385x4096xbf16> -> tensor<2x16385x4096xbf16>
  return %0 : tensor<2x16385x4096xbf16>
}
func.func @bf16_to_f32_c8192(%x: tensor<2x8192x4096xbf16>) -> tensor<2x8192x4096xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<2x8192x4096xbf16> -> tensor<2x8192x4096xf32>
  return %0 : tensor<2x8192x4096xf32>
}
