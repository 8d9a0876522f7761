// Programs whose kernels spilled before the plans and register budgets counted the registers
// side operands along the row take (the generator's finds, docs/fuzzing.md; each was
// test/Fuzz/Open/spill-gen-N.mlir, 8 to 320 bytes of spills): a boolean mask on the widest
// dynamic tier (gen_39, gen_46: 512 threads cannot have the 160 registers it needed; gen_26 at
// 256 threads needed more than 255), two-pass plans with side operands (gen_40, gen_50), a
// bf16 bias with a padding mask on rows of one or two lanes (gen_87), and the Python builder's
// full chain (scale, causal, bias, padding, boolean mask, log_softmax on a 3-d bf16 tensor);
// and a plain dynamic f32 log_softmax (gen_235), whose row_cluster tiers spilled 8 bytes at the
// two-blocks cap of 128 registers that softmax fits (log_softmax needs 136), and an f32 row
// under two causal masks (gen_325: its 16-block general kernel spilled 8 bytes at that cap);
// a hand-written chunked_online plan of 64 values a span (gen_361: 60 bytes at 80 registers);
// two f32 biases along a dynamic row (gen_89: the row_shared general kernel, 8 bytes at 112);
// two boolean masks (gen_140, bf16: 36-40 bytes in the 8192-column tiers at 184 registers on
// 2026-12-01; gen_403, f16 with a causal mask between them: 56-80 bytes), clean since; an f32
// bias and two boolean masks on f16 rows (gen_533: the general kernel of rows of one lane took
// 14 edge columns with their side values beside its 8, 72 bytes at 144 registers, 168 since).
// Every kernel now assembles with ptxas for sm_90 within its nvvm.maxnreg without spilling, the
// alternatives of the dynamic tiers on narrower vectors and the 16-bit tiers between them too
// (393 kernels since the budgets count the prologue's state: two masks or more, a step with an
// operand on 16 values; gen_26, gen_140, gen_403 and gen_533 have fewer register tiers; 401
// with the row_split kernels of the dynamic programs; 365 before them, 328 without gen_533,
// 288 before those tiers, 267 before the alternatives).
// REQUIRES: ptxas
// RUN: softmax-opt %s --softmax-to-nvvm="ptx-file=%t.ptx" -o /dev/null
// RUN: %ptxas-each -arch=sm_90 -v %t.ptx -o %t.cubin > %t.log 2>&1
// RUN: grep "bytes spill" %t.log | sort -u | FileCheck %s --check-prefix=NOSPILL
// RUN: grep -c "Compiling entry function" %t.log | FileCheck %s --check-prefix=COUNT
// RUN: softmax-opt %s --softmax-fuse --softmax-select-strategy | FileCheck %s --check-prefix=PLAN

// COUNT: 393
// NOSPILL: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// NOSPILL-NOT: bytes

// With a boolean mask along the row, the widest register tier of gen_39 holds 8192 columns (512
// lanes of 16), not 16384 (512 lanes of 32 and the mask: 160 registers of 128).
// PLAN-LABEL: func.func @gen_39
// PLAN: #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 2>, #softmax.strategy<row_shared
// A bias along the row: the prefix-read rule (32 values a thread) does not apply, and rows of
// 32 columns take 4 lanes of 8 (gen_87's plans had 1 lane of 32).
// PLAN-LABEL: func.func @gen_87
// PLAN: #softmax.strategy<multi_row, lanes = 4, rows = 64, vector = 8, chunks = 1>

func.func @gen_26(%x: tensor<64x?xf16>, %a1: tensor<?xi1>, %a2: tensor<64xi32>) -> tensor<64x?xbf16> {
  %v0 = softmax.cast %x : tensor<64x?xf16> to tensor<64x?xf32>
  %v1 = softmax.mask %v0, causal offset = 0 axis = -1 fill = 0.0 : tensor<64x?xf32>
  %v2 = softmax.mask %v1, tensor %a1 axis = -1 fill = -30000.0 : tensor<64x?xf32>, tensor<?xi1>
  %v3 = softmax.mask %v2, padding %a2 axis = -1 : tensor<64x?xf32>, tensor<64xi32>
  %v4 = softmax.softmax %v3 axis = -1 masked_rows = zero : tensor<64x?xf32>
  %v5 = softmax.cast %v4 : tensor<64x?xf32> to tensor<64x?xbf16>
  return %v5 : tensor<64x?xbf16>
}

func.func @gen_39(%x: tensor<4x?xbf16>, %a1: tensor<?xi1>) -> tensor<4x?xbf16> {
  %v0 = softmax.cast %x : tensor<4x?xbf16> to tensor<4x?xf16>
  %v1 = softmax.mask %v0, tensor %a1 axis = 1 fill = -10000.0 : tensor<4x?xf16>, tensor<?xi1>
  %v2 = softmax.scale %v1 by 0.088388 : tensor<4x?xf16>
  %v3 = softmax.softmax %v2 axis = 1 masked_rows = zero : tensor<4x?xf16>
  %v4 = softmax.cast %v3 : tensor<4x?xf16> to tensor<4x?xbf16>
  return %v4 : tensor<4x?xbf16>
}

func.func @gen_40(%x: tensor<?x4x?x60000xf16>, %a1: tensor<60000xi1>) -> tensor<?x4x?x60000xf16> {
  %v0 = softmax.mask %x, tensor %a1 axis = -1 : tensor<?x4x?x60000xf16>, tensor<60000xi1>
  %v1 = softmax.mask %v0, causal offset = 100 axis = -1 fill = -30000.0 : tensor<?x4x?x60000xf16>
  %v2 = softmax.softmax %v1 axis = -1 masked_rows = zero : tensor<?x4x?x60000xf16>
  return %v2 : tensor<?x4x?x60000xf16>
}

func.func @gen_46(%x: tensor<?xbf16>, %a1: tensor<?xi1>) -> tensor<?xf16> {
  %v0 = softmax.mask %x, tensor %a1 axis = 0 fill = 0.0 : tensor<?xbf16>, tensor<?xi1>
  %v1 = softmax.softmax %v0 axis = 0 masked_rows = zero : tensor<?xbf16>
  %v2 = softmax.cast %v1 : tensor<?xbf16> to tensor<?xf16>
  return %v2 : tensor<?xf16>
}

func.func @gen_50(%x: tensor<4x8x?x20000xbf16>, %a1: tensor<8x1x20000xf32>) -> tensor<4x8x?x20000xf32> {
  %v0 = softmax.cast %x : tensor<4x8x?x20000xbf16> to tensor<4x8x?x20000xf32>
  %v1 = softmax.add_bias %v0, %a1 : tensor<4x8x?x20000xf32>, tensor<8x1x20000xf32>
  %v2 = softmax.log_softmax %v1 axis = 3 masked_rows = nan : tensor<4x8x?x20000xf32>
  return %v2 : tensor<4x8x?x20000xf32>
}

func.func @gen_87(%x: tensor<64x?xf16>, %a1: tensor<?xbf16>, %a2: tensor<64xi32>) -> tensor<64x?xf16> {
  %v0 = softmax.add_bias %x, %a1 : tensor<64x?xf16>, tensor<?xbf16>
  %v1 = softmax.scale %v0 by 0.088388 : tensor<64x?xf16>
  %v2 = softmax.mask %v1, padding %a2 axis = -1 : tensor<64x?xf16>, tensor<64xi32>
  %v3 = softmax.softmax %v2 axis = -1 masked_rows = zero : tensor<64x?xf16>
  return %v3 : tensor<64x?xf16>
}

func.func @builder_chain(%x: tensor<?x?x?xbf16>, %bias: tensor<1x1x?xbf16>, %lengths: tensor<?x?xi32>, %mask: tensor<?x1x?xi1>, %inv_temperature: f32) -> tensor<?x?x?xf32> {
  %v1 = softmax.cast %x : tensor<?x?x?xbf16> to tensor<?x?x?xf32>
  %v2 = softmax.scale %v1 by 1.25000000000000000e-01 : tensor<?x?x?xf32>
  %v3 = softmax.add_bias %v2, %bias : tensor<?x?x?xf32>, tensor<1x1x?xbf16>
  %v4 = softmax.scale %v3 by %inv_temperature : tensor<?x?x?xf32>, f32
  %v5 = softmax.mask %v4, causal : tensor<?x?x?xf32>
  %v6 = softmax.mask %v5, padding %lengths : tensor<?x?x?xf32>, tensor<?x?xi32>
  %v7 = softmax.mask %v6, tensor %mask : tensor<?x?x?xf32>, tensor<?x1x?xi1>
  %v8 = softmax.log_softmax %v7 : tensor<?x?x?xf32>
  return %v8 : tensor<?x?x?xf32>
}

func.func @gen_235(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %v0 = softmax.log_softmax %x axis = -1 masked_rows = zero : tensor<?x?x?xf32>
  return %v0 : tensor<?x?x?xf32>
}

func.func @gen_325(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %v0 = softmax.mask %x, causal offset = -4 axis = -1 : tensor<2x?xf32>
  %v1 = softmax.mask %v0, causal offset = 100 axis = -1 : tensor<2x?xf32>
  %v2 = softmax.scale %v1 by 0.5 : tensor<2x?xf32>
  %v3 = softmax.softmax %v2 axis = -1 masked_rows = nan : tensor<2x?xf32>
  return %v3 : tensor<2x?xf32>
}

func.func @gen_361(%x: tensor<1x60000xf32>) -> tensor<1x60000xf32> {
  %y = softmax.fused softmax %x axis = 1 prologue [#softmax.mask<causal, offset = -1, fill = -10000.0>, #softmax.mask<causal, offset = -1, fill = -10000.0>] masked_rows = zero {strategies = [#softmax.strategy<chunked_online, lanes = 32, rows = 1, vector = 8, chunks = 8>]} : tensor<1x60000xf32> -> tensor<1x60000xf32>
  return %y : tensor<1x60000xf32>
}

func.func @gen_89(%x: tensor<?xf32>, %a1: tensor<?xf32>, %a2: tensor<?xf32>) -> tensor<?xbf16> {
  %v0 = softmax.add_bias %x, %a1 : tensor<?xf32>, tensor<?xf32>
  %v1 = softmax.add_bias %v0, %a2 : tensor<?xf32>, tensor<?xf32>
  %v2 = softmax.softmax %v1 axis = 0 masked_rows = zero : tensor<?xf32>
  %v3 = softmax.cast %v2 : tensor<?xf32> to tensor<?xbf16>
  return %v3 : tensor<?xbf16>
}

func.func @gen_140(%x: tensor<?xbf16>, %a1: tensor<?xi1>, %a2: tensor<?xi1>) -> tensor<?xf16> {
  %v0 = softmax.mask %x, tensor %a1 axis = -1 : tensor<?xbf16>, tensor<?xi1>
  %v1 = softmax.mask %v0, tensor %a2 axis = -1 fill = -30000.0 : tensor<?xbf16>, tensor<?xi1>
  %v2 = softmax.scale %v1 by 2.0 : tensor<?xbf16>
  %v3 = softmax.softmax %v2 axis = -1 masked_rows = nan : tensor<?xbf16>
  %v4 = softmax.cast %v3 : tensor<?xbf16> to tensor<?xf16>
  return %v4 : tensor<?xf16>
}

func.func @gen_403(%x: tensor<?x?xf16>, %a1: tensor<?xi1>, %a2: tensor<1x?xi1>) -> tensor<?x?xf32> {
  %v0 = softmax.mask %x, tensor %a1 axis = 1 fill = -30000.0 : tensor<?x?xf16>, tensor<?xi1>
  %v1 = softmax.mask %v0, causal offset = -4 axis = 1 fill = -30000.0 : tensor<?x?xf16>
  %v2 = softmax.mask %v1, tensor %a2 axis = 1 fill = -10000.0 : tensor<?x?xf16>, tensor<1x?xi1>
  %v3 = softmax.softmax %v2 axis = 1 masked_rows = nan : tensor<?x?xf16>
  %v4 = softmax.cast %v3 : tensor<?x?xf16> to tensor<?x?xf32>
  return %v4 : tensor<?x?xf32>
}

func.func @gen_533(%x: tensor<5x1x5x?xf16>, %a1: tensor<1x1x?xf32>, %a2: tensor<1x1x1xi1>, %a3: tensor<5x1x1x?xi1>) -> tensor<5x1x5x?xf16> {
  %v0 = softmax.cast %x : tensor<5x1x5x?xf16> to tensor<5x1x5x?xf32>
  %v1 = softmax.cast %v0 : tensor<5x1x5x?xf32> to tensor<5x1x5x?xf16>
  %v2 = softmax.add_bias %v1, %a1 : tensor<5x1x5x?xf16>, tensor<1x1x?xf32>
  %v3 = softmax.mask %v2, tensor %a2 axis = -1 : tensor<5x1x5x?xf16>, tensor<1x1x1xi1>
  %v4 = softmax.mask %v3, tensor %a3 axis = -1 : tensor<5x1x5x?xf16>, tensor<5x1x1x?xi1>
  %v5 = softmax.softmax %v4 axis = -1 masked_rows = nan : tensor<5x1x5x?xf16>
  return %v5 : tensor<5x1x5x?xf16>
}
