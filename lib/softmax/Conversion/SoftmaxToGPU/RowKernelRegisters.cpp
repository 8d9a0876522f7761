//===- RowKernelRegisters.cpp - register budgets of the row kernels -------===//
//
// The `nvvm.maxnreg` of each row kernel (RowKernel.h, getRowKernelRegisters) and the estimate
// behind it (getRowKernelRegisterNeed). Without a budget ptxas aims at the occupancy that
// `.maxntid` allows and spills; with too large a one it takes registers that cost blocks a
// multiprocessor. The estimate counts a thread's values, side operands, edge columns and the
// prologue's state; the budget then clamps it to the block's share of the multiprocessor and,
// for the fast kernels of the 16-bit plans, to occupancy targets measured on the GPU. Each rule
// says which kernels it was calibrated on (ptxas -v on the examples, test/Pipelines/
// ptxas-no-spills*.mlir and the generator's programs, docs/fuzzing.md) and what the GPU
// measured where a budget traded occupancy.
//
//===----------------------------------------------------------------------===//

#include "RowKernel.h"

#include "RowStagedKernel.h"
#include "softmax/Target/TargetInfo.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::softmax;

namespace {

/// Whether `op`'s prologue has a bias or a boolean mask of one value a row (the last dimension
/// 1) over an input of rank 3 or more: its address comes from the row's indices, a division
/// for each dimension above the row's.
bool hasRowIndexedOperand(FusedOp op) {
  if (op.getInput().getType().getRank() < 3)
    return false;
  return llvm::any_of(op.getBiasAndMaskOperands(), [](Value operand) {
    auto type = dyn_cast<ShapedType>(operand.getType());
    return type && type.getRank() >= 2 && type.getShape().back() == 1 &&
           llvm::any_of(type.getShape().drop_back(), [](int64_t size) { return size != 1; });
  });
}

/// Whether a prologue step has an operand: a scalar factor, a bias, a boolean mask.
bool isStepWithOperand(Attribute step) {
  auto mask = dyn_cast<MaskStepAttr>(step);
  return isa<ScaleByStepAttr, BiasStepAttr>(step) || (mask && mask.getKind() == MaskKind::tensor);
}

/// Whether `op`'s prologue rounds to f16 after a step with an operand (a scalar factor, a
/// bias, a boolean mask).
bool roundsToF16AfterAnOperand(FusedOp op) {
  bool operandSeen = false;
  for (Attribute step : op.getPrologue()) {
    operandSeen |= isStepWithOperand(step);
    auto round = dyn_cast<RoundStepAttr>(step);
    if (operandSeen && round && round.getType().isF16())
      return true;
  }
  return false;
}

/// Registers a thread of a two-pass plan (chunked_online, row_shared) needs for `values` a
/// span: half of them (a span's values are reduced as they arrive) and 48 for addresses and
/// the running max and sum, calibrated on the chosen plans (32 values a span); values past 32
/// (hand-written plans) count whole (ptxas: 64 values of f32 under two causal masks needed 88,
/// and spilled 60 bytes at 80; generated seed 361).
int64_t getTwoPassPlanRegisters(int64_t values) {
  return values / 2 + 48 + std::max<int64_t>(0, values - 32) / 2;
}

} // namespace

bool mlir::softmax::hasStepWithOperand(FusedOp op) {
  return llvm::any_of(op.getPrologue(), isStepWithOperand);
}

int64_t mlir::softmax::getRowKernelRegisterNeed(FusedOp op, StrategyAttr plan,
                                                RowKernelVariant variant,
                                                const TargetInfo &target) {
  bool registerPlan = plan.isRegisterPlan();
  int64_t inputBytes = op.getInput().getType().getElementTypeBitWidth() / 8;
  int64_t needed = registerPlan ? getRegisterPlanRegisters(plan.getLanes(), plan.getVector(),
                                                           plan.getChunks(), inputBytes,
                                                           isPipelined(op, plan, target))
                                : getTwoPassPlanRegisters(plan.getVector() * plan.getChunks());
  // The register plans hold a bias for the thread's columns across the block's rows (LLVM
  // hoists its loads out of the row loop) and a row's mask bits with its values. In the
  // two-pass plans side values live for one span: an eighth of them, and in the general
  // kernel (64-bit arithmetic, edge columns) 24 more and a half; calibrated with ptxas on
  // the generated programs that spilled at 64 (seeds 40, 50 and 89 of scripts/softmax_gen.py:
  // 8 to 80 bytes; seed 89's fast kernel fits 72 but spilled 16 bytes when allowed 80, and its
  // row_shared general kernel, two f32 biases along the row, 8 bytes at 112 with a quarter). The
  // general kernel of a register plan with side operands along the row takes 24 more too (the
  // narrow tiers of the Python builder's full chain spilled 64-84 bytes without them).
  bool general = variant == RowKernelVariant::General;
  // The general kernel also takes a row's edge columns, each with its side values: 2 *
  // ceil((vector - 1) / lanes) a thread (setLayout), 14 on rows of one lane of 8. Uncounted,
  // the f16 rows of one lane beside an f32 bias and a boolean mask along them spilled 72
  // bytes at 144 registers (generated seed 533; ptxas fits them in 168).
  int64_t edgeValues =
      general && plan.getVector() > 1
          ? 2 * llvm::divideCeil(plan.getVector() - 1, std::min<int64_t>(plan.getLanes(), 32))
          : 0;
  int64_t side =
      op.getRowSideOperandRegisters(plan.getVector() * plan.getChunks() + edgeValues);
  // On rows of one or two lanes of 8 (14 or 8 edge columns a thread), each side operand along
  // the row keeps a 64-bit address for each edge column from its load to the store: bf16 rows
  // under two boolean masks and a bias along them (generated seed 3117) spilled 160 bytes at
  // the 192 of the estimate without this (one lane; 48 at 224, none at 255) and 56 at 168 (two
  // lanes; none at 176). Some of these general kernels (rows of 9-16 columns off the vector
  // boundary) go from two blocks of 256 threads a multiprocessor to one. Rows of 4 lanes (4
  // edge columns) fit without it (test/Pipelines/ptxas-no-spills-side-operands.mlir).
  int64_t edgeAddresses =
      general && edgeValues >= 8 ? 2 * edgeValues * op.getRowSideOperandRegisters(1) : 0;
  if (registerPlan)
    needed += side + (general && side > 0 ? 24 : 0) + edgeAddresses +
              op.getPrologueStateRegisters();
  else
    needed += side / 8 + (general && side > 0 ? 24 + side / 2 : 0);
  // Past 32 values a span (hand-written two-pass plans; the selection takes 32) the general
  // kernel keeps every side value of the span and a test a chunk: a boolean mask along f16
  // rows on 64 values spilled 116 bytes at 168 (8 chunks of 8; generated seeds 4175 and
  // 11594) and 152 (16 chunks of 4), and fits 200 and 208.
  if (!registerPlan && general && side > 0 && plan.getVector() * plan.getChunks() > 32)
    needed += side / 2 + plan.getChunks();
  // An f32 side operand along 16-bit rows beside another step (a scale), into f32 results: the
  // row_shared tier of 512 threads x 32 values spilled 12 bytes at 72 and fits 80 (78 used;
  // generated seeds 7016 and 10373, log_softmax), one block of 512 threads a multiprocessor
  // either way. Not wider: ptxas takes the registers a budget leaves, and with 8 more for any
  // side operand beside another step (442d670) eight of the ten row_shared kernels of the
  // corpus went from 59-64 registers to 66-72, two blocks a multiprocessor to one; the
  // padded_log_softmax example's tier (an f16 bias and a padding mask) ran 8192 x 16384 in 276
  // us against 187 (H100, bench/results/2026-12-07-h100/two-pass-side-9c5b75f.txt). Past 128 a
  // hand-written plan would be rejected (four f32 biases on 64 values: 128 -> 136). Not
  // chunked_online's (seed 89's fits 72 and spilled 16 bytes at 80).
  bool f32SideOn16BitRows =
      inputBytes == 2 && op.getResult().getType().getElementTypeBitWidth() == 32 &&
      llvm::any_of(op.getBiasAndMaskOperands(), [](Value operand) {
        auto type = dyn_cast<ShapedType>(operand.getType());
        return type && type.getRank() > 0 && type.getShape().back() != 1 &&
               type.getElementTypeBitWidth() == 32;
      });
  if (plan.getPlan() == KernelPlan::row_shared && !general && f32SideOn16BitRows &&
      op.getPrologue().size() >= 2 && plan.getLanes() * plan.getRows() == 512 && needed > 64 &&
      needed + 8 <= 128)
    needed += 8;
  // row_cluster: the other blocks' slot addresses (64-bit, hoisted out of the row loop) and the
  // exchange's state (measured: the pipelined bf16 attention chain over 4 blocks spilled 92
  // bytes at the register plan's budget).
  if (plan.getPlan() == KernelPlan::row_cluster)
    needed += 2 * plan.getCluster() + 16;
  return needed;
}

int64_t mlir::softmax::getRowKernelRegisters(FusedOp op, StrategyAttr plan,
                                             RowKernelVariant variant, const TargetInfo &target) {
  if (plan.getPlan() == KernelPlan::row_staged)
    return kRowStagedRegisters;
  // ptxas sizes registers for the occupancy that `.maxntid` allows (8 blocks of 256 threads:
  // 32 registers) and spills to get there. The plan was sized for its values plus the
  // prefetched next row and the overhead (SelectStrategy.cpp): give ptxas that budget instead.
  int32_t threads = static_cast<int32_t>(plan.getBlockSize());
  // Packed 16-bit values (holdsPackedRowValues): half a register a value and 48 for the rest,
  // 24 more in the general kernel of a dynamic width (64-bit arithmetic, edge columns, a test
  // a chunk). ptxas -v fits the chosen plans (64 values a thread over clusters of 2 to 16
  // blocks, static and dynamic widths, bf16 and f16) there without spilling (the general
  // kernels of the dynamic tiers spilled 8-28 bytes at 80; static 50257 columns fit 80); a
  // general kernel over more than 8 blocks (the other blocks' slots) the registers of two
  // blocks a multiprocessor (f16 200001 columns over 13 blocks spilled 16 bytes at 80 and 4 at
  // 104; the fast kernels fit 80, and at 128 bf16 200000 and 262144 ran at 0.45 and 0.52x
  // copy against 0.63 at 80: compare-188896a in bench/results/2026-12-03-h200), where the
  // f32 estimate below gave them 128 and ptxas took about 100; capped,
  // three blocks of 256 threads fit a multiprocessor instead of two, and bf16 32768-262144
  // columns ran at 0.63-0.82x copy against 0.51-0.69 (bench/results/2026-12-03-h200/
  // packed-rows-*.txt).
  if (holdsPackedRowValues(op, plan)) {
    int64_t values = plan.getVector() * plan.getChunks();
    // The general kernel of a static width takes 8 (its edge columns: bf16 in, f16 out, 57856
    // columns over a cluster spilled 8 bytes at 80; generated seed 1118).
    int64_t general = variant != RowKernelVariant::General         ? 0
                      : ShapedType::isDynamic(op.getRowWidth()) ? 24
                                                                : 8;
    // Over a cluster, where those 8 already leave fewer blocks a multiprocessor than three,
    // 8 more cost none (the blocks follow from the registers used, over 80 for 256 threads
    // either way): 64 values over 4 blocks of 256 threads at 60000 bf16 columns (f16 out)
    // spilled 8 bytes at 88 and fit 96 (generated seed 8822).
    if (general == 8 && plan.getPlan() == KernelPlan::row_cluster &&
        static_cast<int64_t>(llvm::alignTo(values / 2 + 48 + general, 8)) >
            target.registersPerThread(3 * threads))
      general = 16;
    // f32 results store 16 vectors of 4 a thread: their addresses need more (the dynamic f16
    // tiers spilled 4-52 bytes at 80).
    int64_t manyChunks = plan.getChunks() > 8 ? 24 : 0;
    int64_t needed = llvm::alignTo(values / 2 + 48 + general + manyChunks, 8);
    if (variant == RowKernelVariant::General && plan.getCluster() > 8)
      needed = std::max<int64_t>(needed, target.registersPerThread(2 * threads));
    return std::clamp<int64_t>(needed, 40, target.registersPerThread(threads));
  }
  int64_t needed = getRowKernelRegisterNeed(op, plan, variant, target);
  int64_t inputBytes = op.getInput().getType().getElementTypeBitWidth() / 8;
  bool noRowSide = op.getRowSideOperandRegisters(1) == 0;
  int64_t registers =
      std::clamp<int64_t>(llvm::alignTo(needed, 8), 64, target.registersPerThread(threads));
  int64_t estimate = registers;
  // row_cluster without values of side operands along the row: two blocks a multiprocessor
  // (128 registers for 256 threads) where that leaves the values and the usual overhead (48).
  // ptxas fits those kernels there without spilling (the estimate above is conservative), and
  // left the budget above it took more: the dynamic 16-block tier used 135 registers (one
  // block a multiprocessor) and ran f32 262144 at 0.50x copy where the static kernel, at 120,
  // ran at 0.71x (bench/results/2026-12-01-h200/wide-7fb894e.txt). Not log_softmax, which
  // keeps its values (not its exps) to the end and needs 8 more (ptxas: 136 for 64 values;
  // at 128 the dynamic tiers spilled 8 bytes, generated seed 235), nor rows under masks,
  // whose read tests need a few more too (two causal masks: 8 bytes, seed 325), nor the
  // general kernel beside a bias of one value for the whole row, which it keeps with its edge
  // columns (an f32 bias of one element: 8 bytes at 128, seed 2490).
  int64_t twoBlocks = target.registersPerThread(2 * threads);
  bool masked = llvm::any_of(op.getPrologue(), llvm::IsaPred<MaskStepAttr>);
  bool generalBesideBias = variant == RowKernelVariant::General &&
                           llvm::any_of(op.getPrologue(), llvm::IsaPred<BiasStepAttr>);
  if (plan.getPlan() == KernelPlan::row_cluster && noRowSide &&
      op.getNormalization() != Normalization::log_softmax && !masked && !generalBesideBias &&
      twoBlocks >= plan.getVector() * plan.getChunks() + 48)
    registers = std::min(registers, twoBlocks);
  // The fast (and Full) variant of a pipelined (16-bit) register plan gets an occupancy
  // target instead (below), where ptxas fits its values and the next row's raw values without
  // spilling (the estimate above leaves 32 values 96-116 registers and one or two blocks).
  // Measured on the H200 with every budget capped (registers-*.txt in
  // bench/results/2026-12-01-h200): at 24 warps the attention chain went from 1.03-1.10x copy
  // to 1.17-1.22x, bf16 and f16 16384 columns (512 threads) from 0.83 to 0.93, while f32 plans
  // (not pipelined) lost. The general variant keeps its budget: at these caps it spills 4-40
  // bytes (64-bit arithmetic, edge columns), and it only runs on rows off vector boundaries.
  // A row narrower than the span keeps a test a chunk live (the width is not known, or the
  // last chunks hold part of it), and the plans of more than 8 values on blocks over 256
  // threads or on several rows of 128 lanes or more then spilled 12-40 bytes at the target
  // (ptxas: the dynamic bf16 softmax and log_softmax 16384-column tiers, the attention 4096
  // tier, static bf16 16000 on 512 x 32): they keep their budget. Where the span is the row (a
  // static width, or the Full variant of a dynamic one) the tests fold away. log_softmax (its
  // values, not their exps, live to the end) on 512 threads of 32 values keeps its budget at
  // any width (28 bytes at 16384 columns; it ran at 0.854x copy so, against 0.809 with its
  // budget, but the kernels stay spill-free: bench/results/2026-12-01-h200/
  // hand-plans-08676d8.txt).
  bool fullSpan = variant == RowKernelVariant::Full || op.getRowWidth() == plan.getSpan();
  int64_t values = plan.getVector() * plan.getChunks();
  // Three vectors a thread fit the 24-warp target with their tests live (ptxas: the 12288-
  // column tier of 512 x 24 and static bf16 12000 at 64 registers, no spill), and ran at
  // 0.92-0.94x copy there against 0.68-0.79x on the plan's budget (bench/results/2026-12-02-
  // h200/tiers16-32f0d33.txt).
  bool spillsWhenPartial =
      values > 8 && values != 24 &&
      (threads > 256 || (plan.getRows() > 1 && plan.getLanes() >= 128));
  // log_softmax under a mask and a scalar factor, 32 values a thread: ptxas spilled 4-20
  // bytes at the 80 of the 24-warp target (generated seeds 469 and 1291, a causal and a padding
  // mask, the multi_row and row_registers tiers of 1025-4096 columns). Any mask, not only one
  // that limits the read: a finite fill leaves the target anyway (finiteFillMask below), and a
  // boolean mask's bits take registers too.
  bool logWithMaskAndFactor =
      op.getNormalization() == Normalization::log_softmax && values > 16 && masked &&
      op.hasScalarScale();
  bool spills = (!fullSpan && spillsWhenPartial) ||
                (threads > 256 && values > 16 &&
                 op.getNormalization() == Normalization::log_softmax) ||
                logWithMaskAndFactor;
  // f32 results of 16-bit inputs store twice the bytes from the same registers: ptxas spilled
  // them at these targets (generated seeds 18 and 31: 8-36 bytes), so only 16-bit results.
  bool narrowResult = op.getResult().getType().getElementTypeBitWidth() < 32;
  // A mask with a finite fill compares and selects every element it keeps (no read limit):
  // ptxas spilled such kernels at the targets (generated seed 124, a padding mask filling
  // -10000: 8-16 bytes in the Full kernels of 8192 and 16384 columns).
  bool finiteFillMask = llvm::any_of(op.getPrologue(), [](Attribute step) {
    return isa<MaskStepAttr>(step) && !FusedOp::stepKeepsNegInf(step);
  });
  // Vectors narrower than 8 bytes (16-bit values in twos or ones: hand-written plans; the
  // selection takes vectors of 4 or 8) need an address a load: 16 values on 8 vectors of 2
  // spilled 12 bytes at 40 and 16 at 48 (generated seed 2133), so they keep their budget.
  bool narrowVector = plan.getVector() * inputBytes < 8;
  if (variant != RowKernelVariant::General && isPipelined(op, plan, target) && noRowSide &&
      narrowResult && !finiteFillMask && values <= 32 && !spills && !narrowVector) {
    // Fewer values a thread leave room for more warps: one vector of 8 fits 32 registers (64
    // warps: bf16 1024 on 128 lanes x 2 rows ran at 0.98x copy so, against 0.93x at 40), 16
    // values 40 (48 warps: bf16 8192 on 512 lanes 0.94x against 0.91x at 48; ptxas: no
    // spill; bench/results/2026-12-01-h200/plans16-be3ffdd.txt).
    // log_softmax keeps its values (not their exps) to the end: on 512 threads of 16 it
    // spilled 8 bytes at 40 (generated seed 14, f16 in and bf16 out), so 24 warps there.
    bool logOn512 = threads > 256 && op.getNormalization() == Normalization::log_softmax;
    // One vector of 8 over a row of 64 lanes or more with a prologue step (a scale, a
    // rounding), on a row narrower than the span, keeps the step's operands beside the live
    // tests: ptxas spilled 12 bytes at 32 in every such dynamic 16-bit tier of 513-1024
    // columns (generated seeds 1362, 1397, 1508, 1541), and fits 40 (48 warps). The multi_row
    // tiers below fit 32 (test/Pipelines/ptxas-no-spills-dynamic.mlir, the attention chain).
    bool prologueOnPartialRow = !fullSpan && !op.getPrologue().empty() &&
                                plan.getPlan() == KernelPlan::row_registers;
    int64_t occupancyWarps = values <= 8 && !prologueOnPartialRow    ? 64
                             : values <= 16 && !logOn512 ? 48
                                                         : 24;
    int64_t blocks = llvm::divideCeil(occupancyWarps * target.warpSize, threads);
    int64_t step = target.registersPerThread(blocks * threads);
    // Blocks of whole warps that do not divide the target (384 threads: 5 blocks hold 60 warps,
    // 6 would need 28 registers) take the blocks below it: bf16 3000 columns on 384 lanes of 8
    // ran at 0.93x copy at 32 registers (the dynamic tier's elastic kernel) and 0.88x uncapped
    // (39 registers, 48 warps; bench/results/2026-12-02-h200/elastic-a792541.txt). Not with
    // several rows a block (static bf16 600 on 96 lanes x 2 rows spilled 4 bytes at 32).
    // Sixteen values need 40 (ptxas): at the 32 that 6 blocks of 288 threads left, static bf16
    // 4608 spilled 48 bytes and ran at 0.71x copy (5632, 6656, 7168, 7680 columns: 36-44
    // bytes); 5 blocks (45 warps) leave 40: 0.97x (bench/results/2026-12-02-h200/narrow16.txt).
    int64_t fewest = values > 8 || prologueOnPartialRow ? 40 : 32;
    // f16 rows on 3 warps of 16 values (vectors of 4): ptxas spilled 4 bytes at 40 (the
    // dynamic tier of 1025-1536 columns, test/Pipelines/ptxas-no-spills-dynamic.mlir), and
    // fits 42; bf16 there, and both on 2-8 warps, fit 40.
    if (values == 16 && threads == 96 && plan.getVector() * inputBytes < 16 &&
        op.getInput().getType().getElementType().isF16())
      fewest = 48;
    // A step with an operand (a scalar factor, a bias of one value a row, a boolean mask) on
    // 16 values a thread: ptxas spilled 4 bytes at 40 in the dynamic 16-bit tiers of 16
    // values on vectors of 4 (generated seeds 1362, a boolean mask and a scale by a scalar;
    // 1935, a constant scale and a bias a row; 2027, a boolean mask alone).
    if (values == 16 && hasStepWithOperand(op))
      fewest = 48;
    // log_softmax (its values, not their exps, live to the end) of 16 values on vectors of 4:
    // ptxas spilled 4-8 bytes at 40 on 32-256 lanes, f16 and bf16 (generated seed 6117, a
    // hand-written plan of 64 lanes on 1000 bf16 columns), and fits 48.
    if (values == 16 && plan.getVector() * inputBytes < 16 &&
        op.getNormalization() == Normalization::log_softmax)
      fewest = 48;
    // Several rows of two warps or more in blocks of 512 threads or more: ptxas spilled 4-12
    // bytes at 32 on 64-512 lanes of 2-16 rows, softmax and log_softmax, f16 and bf16
    // (generated seed 5364, a hand-written plan of 128 lanes x 8 rows on 1024 f16 columns), and
    // fits 40 (38-39 used); 256 threads of 2-4 rows (the dynamic tiers' 64 lanes x 4) and rows
    // of one warp fit 32. They take the blocks that leave 40.
    bool manyRows = plan.getRows() > 1 && plan.getLanes() >= 64 && threads >= 512;
    if (manyRows)
      fewest = std::max<int64_t>(fewest, 40);
    // Several rows a warp (fewer than 32 lanes a row) of 16 values: ptxas spilled 4-8 bytes at
    // 40 on 8 and 16 lanes, 8 to 64 rows, vectors of 4 and 8, f16 and bf16 (generated seeds
    // 8413 and 8447, hand-written plans; the selection's multi_row plans hold one vector of 8),
    // and fits 48 (45-47 used). They take the blocks that leave 48.
    bool subWarpRows16 =
        plan.getPlan() == KernelPlan::multi_row && plan.getLanes() < 32 && values == 16;
    if (subWarpRows16)
      fewest = std::max<int64_t>(fewest, 48);
    while (step < fewest && blocks > 1 && (plan.getRows() == 1 || manyRows || subWarpRows16)) {
      --blocks;
      step = target.registersPerThread(blocks * threads);
    }
    if (step >= fewest)
      registers = std::min(registers, step);
  } else if (variant == RowKernelVariant::General && plan.getPlan() == KernelPlan::row_registers &&
             isPipelined(op, plan, target) && noRowSide && narrowResult && !finiteFillMask &&
             values <= 16 && plan.getVector() * inputBytes < 16 && !narrowVector &&
             op.getNormalization() != Normalization::log_softmax) {
    // The general kernel on vectors of 4 (rows of 16 bits off the 8-byte boundary: odd widths,
    // the last alternative of a dynamic tier) fits 48 registers without spilling where its
    // budget let ptxas take 66-72: at 72 a block of 256 threads left 3 a multiprocessor and
    // bf16 3001 columns ran at 0.70x copy (dynamic), at 48 0.77x, and 0.87x static
    // (compare-7c3010d.txt, alternatives-a2260ab.txt in bench/results/2026-12-02-h200).
    // Several rows a block beside a step with an operand take 56: a bias of one value for
    // every row on 2 rows of 64 lanes spilled 4 bytes at 48 (generated seed 3497, a
    // hand-written plan on a static width of 513 bf16 columns).
    registers =
        std::min<int64_t>(registers, plan.getRows() > 1 && hasStepWithOperand(op) ? 56 : 48);
  } else if (variant == RowKernelVariant::Fast && hasElasticLanes(op, plan, variant) &&
             isPipelined(op, plan, target) && narrowResult && !finiteFillMask && values == 16 &&
             op.getNormalization() != Normalization::log_softmax) {
    // An elastic tier of 16 values a thread launches 9 to 16 warps a row. At the 64 of its
    // budget the 12-warp blocks of 5633-6144 columns held 24 warps a multiprocessor, and bf16
    // 6000 ran at 0.85x copy against 0.95x for its static twin (3 blocks of 384 threads at 55
    // registers; bench/results/2026-12-02-h200/elastic-32f0d33.txt). 48 registers hold 36 of
    // them (and 32 of 16-warp blocks, as 64 did), where ptxas still fits the live tests
    // without spilling (it spilled 44 bytes at 40). Not log_softmax, which keeps its values
    // to the end: 8 bytes at 48 (generated seed 14, f16 in and bf16 out).
    registers = std::min<int64_t>(registers, 48);
  }
  // A bias or mask of one value a row over a rank-3 or higher input: the row's indices and
  // the operand's address (64-bit, a division a dimension) take 8 more than the targets and
  // caps above. f16 rows beside a bias of shape [17, 5, 17, 1] or [4, ?, ?, 1] spilled 8-20
  // bytes in the dispatch tiers capped at 48 and 64 (generated seeds 4287 and 4415), and fit
  // 56 and 72. The budgets of the estimate itself already leave room (seed 683's tiers, a
  // boolean mask of shape [?, 3, ?, 1], fit them), and the two-blocks budget of row_cluster
  // (128) is left alone: 8 more would halve its blocks a multiprocessor.
  // A rounding to f16 after a step with an operand (a scalar factor) takes 8 more than the
  // tightest targets, 32 for one vector of 8 and 64 for 24 values: f16 rows scaled by a bf16
  // scalar and rounded to f16 spilled 4 bytes in every multi_row and Full row_registers tier at
  // 32 and in the 24-value tier at 64 (generated seed 5402), and fit 40 and 72; its tiers at
  // 40 and 48 fit them, and a rounding to bf16, to f16 after a constant scale or before the
  // scalar factor (seed 1508) fit 32.
  // Not a step with an operand on 32 values at 64 (the 24-warp target of 512 threads): static
  // 16-bit rows of 16384 columns beside a scalar factor, a bias of one element or a boolean
  // mask of one spill 4 bytes there and fit 72 (generated seed 4414), but at 72 one block of
  // 512 threads a multiprocessor ran bf16 8192x16384 at 0.857x copy against 0.920 with the
  // spill at 64 (the plain softmax: 0.958; H200, bench/results/2026-12-05-h200/operand16-
  // f2360b9.txt). The spill stays, open (docs/fuzzing.md).
  bool roundAtTightTarget = roundsToF16AfterAnOperand(op) &&
                            (registers == 32 || (registers == 64 && values == 24));
  if (((hasRowIndexedOperand(op) && registers <= 64) || roundAtTightTarget) &&
      registers < estimate)
    registers = std::min(registers + 8, estimate);
  return registers;
}
