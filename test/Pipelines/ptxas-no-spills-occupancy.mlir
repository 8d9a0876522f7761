// The fast kernels that carry the occupancy budget (docs/strategies.md rule 3a: 64 warps a
// multiprocessor for one vector of 8 a thread, 32 registers; 48 for 16 values, 40 registers
// at 512 threads; else 24: 80 registers for blocks of 256 threads, 64 for 512) assemble
// without spills: the attention chain at every benchmark shape, bf16/f16 softmax at 512 to
// 16384 columns, log_softmax on 512 threads of 16 values at 24 warps (it spilled at 40:
// generated seed 14), and log_softmax on 512 threads of 32, which keeps its budget because it
// spills at 64. Blocks of whole warps that are not a power of two: bf16 3000 on 384 lanes of 8
// at 32 registers (5 blocks), 600 on 96 lanes x 2 rows on its plan's budget; 16 values on
// 288-480 threads at 40-48 registers (fewer blocks than the 48-warp target: at 32 they
// spilled 36-48 bytes); rows aligned on vectors of 4 (bf16 1100, 3500: 12 and 16 values;
// log_softmax 1100 on 8, it spilled 4 bytes on 12). Several rows of two warps or more in
// blocks of 512 threads or more on one vector of 8 (hand-written plans): 40 registers or the
// one block's 64 (4-12 bytes of spill at 32: generated seed 5364). log_softmax of 16 values on
// vectors of 4 at 48 (4-8 bytes at 40: seed 6117).
// REQUIRES: ptxas
// RUN: softmax-opt %s --softmax-to-nvvm="ptx-file=%t.ptx" -o /dev/null
// RUN: FileCheck %s --check-prefix=BUDGET < %t.ptx
// RUN: %ptxas-each -arch=sm_90 -v %t.ptx -o %t.cubin > %t.log 2>&1
// RUN: grep "bytes spill" %t.log | sort -u | FileCheck %s --check-prefix=NOSPILL
// RUN: grep -c "Compiling entry function" %t.log | FileCheck %s --check-prefix=COUNT

// COUNT: 52
// NOSPILL: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// NOSPILL-NOT: bytes

// BUDGET-LABEL: .entry bf16_1024_0_row_registers(
// BUDGET: .maxnreg 32
// BUDGET-LABEL: .entry bf16_4096_0_row_registers(
// BUDGET: .maxnreg 32
// BUDGET-LABEL: .entry f16_512_0_row_registers(
// BUDGET: .maxnreg 32
// BUDGET-LABEL: .entry attention_1024_0_multi_row(
// BUDGET: .maxnreg 80
// BUDGET-LABEL: .entry attention_2048_0_row_registers(
// BUDGET: .maxnreg 80
// BUDGET-LABEL: .entry attention_4096_0_row_registers(
// BUDGET: .maxnreg 80
// BUDGET-LABEL: .entry attention_8192_0_row_registers(
// BUDGET: .maxnreg 80
// BUDGET-LABEL: .entry bf16_8192_0_row_registers(
// BUDGET: .maxnreg 40
// BUDGET-LABEL: .entry bf16_16384_0_row_registers(
// BUDGET: .maxnreg 64
// BUDGET-LABEL: .entry f16_16384_0_row_registers(
// BUDGET: .maxnreg 64
// BUDGET-LABEL: .entry log_8192_0_row_registers(
// BUDGET: .maxnreg 64
// BUDGET-LABEL: .entry log_16384_0_row_registers(
// BUDGET: .maxnreg 120
// BUDGET-LABEL: .entry bf16_3000_0_row_registers(
// BUDGET: .maxnreg 32
// BUDGET-LABEL: .entry bf16_4608_0_row_registers(
// BUDGET: .maxnreg 40
// BUDGET-LABEL: .entry bf16_6656_0_row_registers(
// BUDGET: .maxnreg 48

func.func @bf16_1024(%x: tensor<131072x1024xbf16>) -> tensor<131072x1024xbf16> {
  %p = softmax.softmax %x : tensor<131072x1024xbf16>
  return %p : tensor<131072x1024xbf16>
}

func.func @bf16_4096(%x: tensor<32768x4096xbf16>) -> tensor<32768x4096xbf16> {
  %p = softmax.softmax %x : tensor<32768x4096xbf16>
  return %p : tensor<32768x4096xbf16>
}

func.func @f16_512(%x: tensor<262144x512xf16>) -> tensor<262144x512xf16> {
  %p = softmax.softmax %x : tensor<262144x512xf16>
  return %p : tensor<262144x512xf16>
}

func.func @attention_1024(%x: tensor<256x1024x1024xbf16>) -> tensor<256x1024x1024xbf16> {
  %w = softmax.cast %x : tensor<256x1024x1024xbf16> to tensor<256x1024x1024xf32>
  %s = softmax.scale %w by 0.088388 : tensor<256x1024x1024xf32>
  %m = softmax.mask %s, causal : tensor<256x1024x1024xf32>
  %p = softmax.softmax %m : tensor<256x1024x1024xf32>
  %y = softmax.cast %p : tensor<256x1024x1024xf32> to tensor<256x1024x1024xbf16>
  return %y : tensor<256x1024x1024xbf16>
}

func.func @attention_2048(%x: tensor<64x2048x2048xbf16>) -> tensor<64x2048x2048xbf16> {
  %w = softmax.cast %x : tensor<64x2048x2048xbf16> to tensor<64x2048x2048xf32>
  %s = softmax.scale %w by 0.088388 : tensor<64x2048x2048xf32>
  %m = softmax.mask %s, causal : tensor<64x2048x2048xf32>
  %p = softmax.softmax %m : tensor<64x2048x2048xf32>
  %y = softmax.cast %p : tensor<64x2048x2048xf32> to tensor<64x2048x2048xbf16>
  return %y : tensor<64x2048x2048xbf16>
}

func.func @attention_4096(%x: tensor<16x4096x4096xbf16>) -> tensor<16x4096x4096xbf16> {
  %w = softmax.cast %x : tensor<16x4096x4096xbf16> to tensor<16x4096x4096xf32>
  %s = softmax.scale %w by 0.088388 : tensor<16x4096x4096xf32>
  %m = softmax.mask %s, causal : tensor<16x4096x4096xf32>
  %p = softmax.softmax %m : tensor<16x4096x4096xf32>
  %y = softmax.cast %p : tensor<16x4096x4096xf32> to tensor<16x4096x4096xbf16>
  return %y : tensor<16x4096x4096xbf16>
}

func.func @attention_8192(%x: tensor<4x8192x8192xbf16>) -> tensor<4x8192x8192xbf16> {
  %w = softmax.cast %x : tensor<4x8192x8192xbf16> to tensor<4x8192x8192xf32>
  %s = softmax.scale %w by 0.088388 : tensor<4x8192x8192xf32>
  %m = softmax.mask %s, causal : tensor<4x8192x8192xf32>
  %p = softmax.softmax %m : tensor<4x8192x8192xf32>
  %y = softmax.cast %p : tensor<4x8192x8192xf32> to tensor<4x8192x8192xbf16>
  return %y : tensor<4x8192x8192xbf16>
}

func.func @bf16_8192(%x: tensor<4096x8192xbf16>) -> tensor<4096x8192xbf16> {
  %p = softmax.softmax %x : tensor<4096x8192xbf16>
  return %p : tensor<4096x8192xbf16>
}

func.func @bf16_16384(%x: tensor<4096x16384xbf16>) -> tensor<4096x16384xbf16> {
  %p = softmax.softmax %x : tensor<4096x16384xbf16>
  return %p : tensor<4096x16384xbf16>
}

func.func @f16_16384(%x: tensor<4096x16384xf16>) -> tensor<4096x16384xf16> {
  %p = softmax.softmax %x : tensor<4096x16384xf16>
  return %p : tensor<4096x16384xf16>
}

func.func @log_8192(%x: tensor<4096x8192xbf16>) -> tensor<4096x8192xbf16> {
  %p = softmax.log_softmax %x : tensor<4096x8192xbf16>
  return %p : tensor<4096x8192xbf16>
}

func.func @log_16384(%x: tensor<4096x16384xbf16>) -> tensor<4096x16384xbf16> {
  %p = softmax.log_softmax %x : tensor<4096x16384xbf16>
  return %p : tensor<4096x16384xbf16>
}

func.func @bf16_3000(%x: tensor<44739x3000xbf16>) -> tensor<44739x3000xbf16> {
  %0 = softmax.softmax %x : tensor<44739x3000xbf16>
  return %0 : tensor<44739x3000xbf16>
}

func.func @bf16_600(%x: tensor<223696x600xbf16>) -> tensor<223696x600xbf16> {
  %0 = softmax.softmax %x : tensor<223696x600xbf16>
  return %0 : tensor<223696x600xbf16>
}

func.func @bf16_4608(%x: tensor<29127x4608xbf16>) -> tensor<29127x4608xbf16> {
  %0 = softmax.softmax %x : tensor<29127x4608xbf16>
  return %0 : tensor<29127x4608xbf16>
}

func.func @bf16_5632(%x: tensor<23831x5632xbf16>) -> tensor<23831x5632xbf16> {
  %0 = softmax.softmax %x : tensor<23831x5632xbf16>
  return %0 : tensor<23831x5632xbf16>
}

func.func @bf16_6656(%x: tensor<20164x6656xbf16>) -> tensor<20164x6656xbf16> {
  %0 = softmax.softmax %x : tensor<20164x6656xbf16>
  return %0 : tensor<20164x6656xbf16>
}

func.func @bf16_7168(%x: tensor<18724x7168xbf16>) -> tensor<18724x7168xbf16> {
  %0 = softmax.softmax %x : tensor<18724x7168xbf16>
  return %0 : tensor<18724x7168xbf16>
}

func.func @bf16_7680(%x: tensor<17476x7680xbf16>) -> tensor<17476x7680xbf16> {
  %0 = softmax.softmax %x : tensor<17476x7680xbf16>
  return %0 : tensor<17476x7680xbf16>
}

func.func @bf16_1100(%x: tensor<122016x1100xbf16>) -> tensor<122016x1100xbf16> {
  %0 = softmax.softmax %x : tensor<122016x1100xbf16>
  return %0 : tensor<122016x1100xbf16>
}

func.func @bf16_3500(%x: tensor<38347x3500xbf16>) -> tensor<38347x3500xbf16> {
  %0 = softmax.softmax %x : tensor<38347x3500xbf16>
  return %0 : tensor<38347x3500xbf16>
}

func.func @log_bf16_1100(%x: tensor<122016x1100xbf16>) -> tensor<122016x1100xbf16> {
  %0 = softmax.log_softmax %x : tensor<122016x1100xbf16>
  return %0 : tensor<122016x1100xbf16>
}

func.func @gen_5364(%x: tensor<1024xf16>) -> tensor<1024xbf16> {
  %y = softmax.fused log_softmax %x axis = 0 prologue [] masked_rows = zero {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 8, vector = 8, chunks = 1>]} : tensor<1024xf16> -> tensor<1024xbf16>
  return %y : tensor<1024xbf16>
}

func.func @rows2_256_lanes(%x: tensor<64x2048xbf16>) -> tensor<64x2048xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 2, vector = 8, chunks = 1>]} : tensor<64x2048xbf16> -> tensor<64x2048xbf16>
  return %y : tensor<64x2048xbf16>
}

func.func @rows16_64_lanes(%x: tensor<64x512xf16>) -> tensor<64x512xbf16> {
  %y = softmax.fused log_softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 16, vector = 8, chunks = 1>]} : tensor<64x512xf16> -> tensor<64x512xbf16>
  return %y : tensor<64x512xbf16>
}

func.func @gen_6117(%x: tensor<?x1000xbf16>) -> tensor<?x1000xf16> {
  %y = softmax.fused log_softmax %x axis = 1 prologue [] masked_rows = zero {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<row_shared, lanes = 128, rows = 1, vector = 4, chunks = 4>]} : tensor<?x1000xbf16> -> tensor<?x1000xf16>
  return %y : tensor<?x1000xf16>
}
