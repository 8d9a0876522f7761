//===- AxisPlan.cpp - The plan of a softmax over a non-last axis ----------===//
//
// The strided_axis kernels (lib/softmax/Conversion/SoftmaxToGPU/AxisKernel.cpp) give a block
// `lanes * vector` consecutive columns of the contiguous inner axis and spread each column's C
// values over `rows` threads, `chunks` a thread. The choice, for C (the axis size):
//  1. The column stays in registers (one read) when some block of 256, 512 or 1024 threads
//     holds it: `chunks` values a thread (as many as the register budget of that block size
//     allows, at most 64 values a thread, 128 where the kernel holds 16-bit values packed),
//     `rows` the power of two that covers C with them, and `lanes` the rest of the block.
//  2. Among those, the plan whose C slices are widest up to 64 bytes (two 32-byte sectors a
//     warp's row of the slice; at least one sector is required), then the smallest block (more
//     blocks a multiprocessor, so that one block's reductions overlap another's loads).
//  3. Otherwise (C too large for the registers of a block, e.g. bf16 C = 4096) the online
//     plan: blocks of 512 threads, one 32-byte sector a C slice, 16 values a thread a span:
//     the second pass reads a block's columns again while a resident block's footprint
//     (C x 32 bytes: 128 KB at C = 4096) times the blocks resident on the 132 multiprocessors
//     (two to four each) stays under the 50 MB of L2, so that it mostly hits L2.
//  4. A dynamic C takes a ladder of tiers and a general plan (selectStridedAxisPlans): the plan
//     of rule 1 for C = 8, 16, 32, ... as long as one holds the column in registers, each run
//     on aligned layouts for the C its capacity (`rows * chunks`) covers and the previous one's
//     does not (register path only, so 16-bit values held packed), then the plan of C = 256,
//     whose kernels also hold the online path, for wider C and every misaligned layout. After
//     a scale by a scalar (a 16-bit input to an f32 result), where the tiers that hold the
//     column for any factor end, the packed tiers of the static plans follow, which the host
//     code launches for a positive factor only (since 2026-12-06, fifteenth session).
//  5. f32 values over a static C or a tier on a chip with clusters (sm_90): an f32 input's softmax
//     or log_softmax, after any prologue (its kernels take 128 registers there, two blocks a
//     multiprocessor: getStridedAxisRegisters' `overCluster`; f32 log_softmax at C = 4096 over 8
//     blocks ran at 0.865x copy as chosen against 0.527x online, H100, 2026-12-06,
//     axis-bench-61baa4d.txt), or a 16-bit input's plain softmax held as f32 (a dynamic C's tier
//     with an f32 result); only where two blocks of the slice's plan fit a multiprocessor. Where
//     the plan of rule 1 has slices narrower than 64 bytes (C > 2048) or none holds the column: the
//     column over a cluster of ceil(C / 512) blocks (at most 8), each with the plan of C = 512 (8
//     lanes x 32 rows x 16 values: 128-byte slices, blocks of 256); past 8 such blocks, ceil(C /
//     1024) blocks of C = 1024's plan (4 lanes x 64 rows x 16: 64-byte slices, blocks of 256) up to
//     the chip's largest cluster (16 on sm_90, non-portable): f32 C = 16384 ran at 0.686x copy over
//     16 against 0.442x for the online plan (H100, 2026-12-06,
//     bench/results/2026-12-06-h100/axis-cluster-43517b6.txt; 4097-16383 not measured; a dynamic C
//     gets tiers of 8192 and 16384 so, and over a dynamic inner size 6144 and 12288 too: a
//     tier at three quarters over a cluster is left out over a static one,
//     selectStridedAxisPlans). Measured on an H100 with the lean kernels (2026-12-06,
//     bench/results/2026-12-06-h100/axis-cluster-81177f7.txt): C = 4096 0.855x copy over 8 blocks
//     against 0.746x for one read in one block of 512 (2 lanes: 32-byte slices), 0.820 over 4
//     blocks of 4 lanes; where one block has 64-byte slices it stays ahead (C = 2048: 0.885 against
//     0.880 over 4 blocks, C = 1024: 0.926 against 0.911 over 2). With the four-index kernels of
//     before (170 registers: one block a multiprocessor) the clusters were slower everywhere
//     (axis-bench-5231d7c.txt: C = 4096 over 8 0.592x): the blocks waited at the cluster barriers
//     with nothing else resident to hide them. 16-bit values (held packed) keep one block where one
//     holds the column (rule 6 past it): bf16 C = 4096 over 4 blocks ran at 0.760 against 0.726,
//     over 2 at 0.667; not settled. Other hand-written clusters are the sweep's knobs.
//  6. 16-bit values of a plain softmax (held packed) to a 16-bit result over a static C or a
//     tier that no block holds (C > 4096) on a chip with clusters: the column over a cluster of
//     ceil(C / 2048) blocks (at most 8) of 256 threads, each with the plan of C = 2048 in such
//     blocks (2 lanes x 128 rows x 16 chunks of 8: 32-byte slices; 128 registers, two blocks a
//     multiprocessor, no spill; a tier's kernel 112: AxisKernel.cpp). A dynamic C so has the
//     tiers of 8192 and 16384 (since 2026-12-06, fourteenth session; the general plan before).
//     Measured by hand on an H100 (2026-12-06, thirteenth session,
//     bench/results/2026-12-06-h100/axis-wide16-a4e8bb9.txt): bf16 C = 16384 over 8 blocks
//     0.599x copy, f16 0.604, C = 8192 over 4 0.666, against 0.406 and 0.387 for the online
//     plan (torch.compile 0.475 at 16384); 4 lanes x 128 rows in blocks of 512 0.539-0.608 (8
//     bytes of spill at their 128 registers), 4 lanes x 64 rows over 16 blocks 0.415, 2 lanes x
//     256 rows x 8 chunks over 8 blocks 0.441.
// Written before any measurement; first measured on the H200 at ba2aaf5
// (bench/results/2026-12-01-h200/axis-bench-ba2aaf5.txt, fraction of copy, 256 MiB): f32 C = 8
// 0.985, 64 0.889, 512 0.822, 4096 0.450, heads 0.96-0.99; bf16 0.28-0.59. A hand-written f32
// plan at C = 512 (8 lanes x 32 rows, 16 vectors a thread: 128-byte slices) ran at 0.951: the
// budget of rule 1 was then raised from 32 to 64 values a thread in blocks of 256, which picks
// that plan (`scripts/gpu/run.sh axis-bench` has the alternatives). 16-bit values held packed
// (2026-12-03) then allowed 128 a thread: bf16 C = 64 0.897, 512 0.813, 4096 0.556 in
// registers (0.305 online), heads 0.95-0.96 (bench/results/2026-12-03-h200/axis-bench-8b6e0db.txt).
//
//===----------------------------------------------------------------------===//

#include "AxisPlan.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace mlir::softmax;

namespace {
/// The C a dynamic axis is planned for (its kernel handles any C).
constexpr int64_t kDynamicAxisPlanned = 256;
} // namespace

namespace {
/// Rule 5: the slice of a column each block of a cluster holds (its plan is that of a static C
/// of this size: f32, 8 lanes x 32 rows x 16 values), and the most blocks (sm_90's portable
/// cluster size).
constexpr int64_t kClusterSliceAxis = 512;
constexpr int64_t kMaxAxisClusterBlocks = 8;
/// Past kMaxAxisClusterBlocks slices of kClusterSliceAxis, the slice each block of a cluster of
/// up to the chip's largest (sm_90: 16, non-portable) holds.
constexpr int64_t kWideClusterSliceAxis = 1024;
/// Rule 6: the slice each block of 256 threads holds of a column of 16-bit values held packed.
constexpr int64_t kPackedClusterSliceAxis = 2048;

/// What a plan is chosen for: a static C, a dynamic C's tier, a dynamic C's general plan.
enum class AxisPlanRole { Static, Tier, General };

/// The plan for an axis of `c` values in `role` (General: c is kDynamicAxisPlanned): rules 1-3
/// of the file comment, and rule 5 unless `oneBlock` (the plan of a cluster's slice).
/// `positiveScalars`: a tier launched only where the scalar factors are positive (rule 4).
StrategyAttr selectPlanFor(FusedOp op, const TargetInfo &target, int64_t registerBudget,
                           int64_t maxThreads, int64_t c, AxisPlanRole role,
                           bool oneBlock = false, bool positiveScalars = false) {
  bool dynamicAxis = role == AxisPlanRole::General;
  MLIRContext *context = op.getContext();
  RankedTensorType type = op.getInput().getType();
  int64_t inBytes = type.getElementTypeBitWidth() / 8;
  int64_t elementBytes =
      std::max(type.getElementTypeBitWidth(), op.getResult().getType().getElementTypeBitWidth()) /
      8;
  int64_t vector = target.vectorBytes / elementBytes;
  // At least a 32-byte sector of a C slice a warp; no more lanes than the columns need.
  int64_t minLanes = std::max<int64_t>(1, 32 / (vector * inBytes));
  int64_t laneCap = target.maxThreadsPerBlock;
  std::optional<int64_t> inner = op.getStaticInnerSize();
  bool staticInner = inner.has_value();
  if (inner)
    laneCap = llvm::PowerOf2Ceil(std::max<int64_t>(1, llvm::divideCeil(*inner, vector)));
  minLanes = std::min(minLanes, laneCap);
  c = std::max<int64_t>(c, 1);

  auto sharedFits = [&](int64_t lanes, int64_t rows) {
    int64_t perWarp = std::min<int64_t>(rows, std::max<int64_t>(1, 32 / lanes));
    return rows == 1 ||
           2 * (rows / perWarp) * lanes * vector * 4 <= StrategyAttr::kMaxAxisSharedBytes;
  };
  // The general plan of a dynamic C holds f32 values (its kernels have both paths).
  bool packable =
      op.mayHoldPackedAxisValues(role == AxisPlanRole::Tier, positiveScalars) && !dynamicAxis;
  bool hasPrologue = !op.getPrologue().empty();
  bool logSoftmax = op.getNormalization() == Normalization::log_softmax;
  StrategyAttr best;
  std::tuple<int64_t, int64_t, bool, int64_t> bestScore;
  // The plan of blocks of `threads` holding values packed or as f32 (rule 1), if any.
  auto consider = [&](int64_t threads, bool packed) {
    int64_t registers = std::min(registerBudget, target.registersPerThread(threads));
    // A lean kernel in blocks of 512 over a dynamic inner size needs 16 registers more than
    // the estimate: f32 C = 2048 on 4 lanes x 128 rows x 16 spilled 16 bytes at 128 and none
    // from 144 (generator seed 312 of the strided_axis family), where the same plan over a
    // static inner size needs 96 and the cluster plans' blocks of 256 over a dynamic one 96.
    // An f32 log_softmax's lean kernel keeps the 48 more it had in such blocks before it took
    // the softmax's estimate in blocks of 256 (getStridedAxisRegisters): 64 values a thread
    // (f32 C = 2048 on 4 lanes x 128 rows x 16, a static C or a tier) spilled 12-20 bytes at
    // 128 over every inner size probed, the tier of 1536 (4 lanes x 128 rows x 12) 24 bytes
    // over axis -3 of `?x?x16x?` (generator seed 468 of the strided_axis family; ptxas -v,
    // 2026-12-07), so C = 2048 takes the cluster of rule 5 and a dynamic C its tiers of before.
    if (role != AxisPlanRole::General && !packed && threads >= 512) {
      if (!staticInner)
        registers -= 16;
      if (logSoftmax && inBytes == 4)
        registers -= 48;
    }
    int64_t maxValues = dynamicAxis && threads == 256 ? 32 : packed ? 128 : kMaxAxisF32Values;
    auto registersFor = [&](int64_t k) {
      if (!packed)
        return getStridedAxisRegisters(vector, k, logSoftmax, hasPrologue,
                                       /*lean=*/role != AxisPlanRole::General,
                                       /*tier=*/role == AxisPlanRole::Tier,
                                       /*converted=*/inBytes < 4);
      int64_t rows = llvm::PowerOf2Ceil(llvm::divideCeil(c, k));
      int64_t lanes = std::max<int64_t>(1, std::min(threads / rows, laneCap));
      return getPackedStridedAxisRegisters(lanes, rows, vector, k, hasPrologue,
                                           /*dynamicAxis=*/role == AxisPlanRole::Tier);
    };
    int64_t chunks = 0;
    while (chunks + 1 <= 64 && (chunks + 1) * vector <= maxValues &&
           registersFor(chunks + 1) <= registers)
      ++chunks;
    if (chunks == 0)
      return;
    int64_t rows = llvm::PowerOf2Ceil(llvm::divideCeil(c, chunks));
    if (rows > threads)
      return;
    int64_t lanes = std::min(threads / rows, laneCap);
    if (lanes < minLanes)
      return;
    if (lanes * rows < 32)
      rows = 32 / lanes; // whole warps
    if (!sharedFits(lanes, rows))
      return;
    chunks = llvm::divideCeil(c, rows);
    // After a prologue the kernel holds values packed only past kMaxAxisF32Values a thread
    // (holdsPackedAfterPrologue): a packed plan of fewer would run as f32 values.
    if (packed && hasPrologue && !holdsPackedAfterPrologue(chunks * vector))
      return;
    // Slices as wide as the packed plan's, f32 values win after a prologue (they go through
    // it once; packed ones at each use).
    auto score = std::make_tuple(std::min<int64_t>(lanes * vector * inBytes, 64), -threads,
                                 !packed, lanes);
    if (!best || score > bestScore) {
      best = StrategyAttr::get(context, KernelPlan::strided_axis, lanes, rows, vector, chunks);
      bestScore = score;
    }
  };
  for (int64_t threads = 256; threads <= std::min<int64_t>(1024, maxThreads); threads *= 2) {
    // Up to 64 values a thread in any block: f32 C = 512 ran at 0.947x copy with 64 a thread in
    // blocks of 256 (8 lanes x 32 rows: one block a multiprocessor) against 0.822x with 32 (4
    // lanes x 64 rows), C = 64 at 0.978x against 0.889x: more bytes in flight a thread, fewer
    // threads a column to combine. A dynamic C keeps 32 in blocks of 256: its plan (for C =
    // 256) then serves wider C with the online path, which ran at 0.642x against 0.727x with
    // 32 at C = 512 (bench/results/2026-12-01-h200/axis-bench-f712367.txt).
    // 16-bit values held packed (two a register) take half the registers of f32 ones: up to
    // 128 a thread, the f32 plans' bytes. bf16 C = 64 ran at 0.897x copy on 64 lanes x 4 rows
    // x 16 values against 0.816x on 32 lanes x 8 rows x 8 (fewer rows, so fewer reduction
    // instructions a value), C = 512 at 0.810x against 0.820x
    // (bench/results/2026-12-03-h200/axis-bench-623a445.txt). After a prologue both are
    // candidates (holdsPackedAfterPrologue).
    bool packed = packable && vector % 2 == 0;
    if (!packed || hasPrologue)
      consider(threads, /*packed=*/false);
    if (packed)
      consider(threads, /*packed=*/true);
  }
  // f32 values over a static C (the lean kernels) on a chip with clusters: where one block's
  // slices are narrower than 64 bytes, the column spread over the blocks of a cluster, each
  // holding the slices of C = kClusterSliceAxis (rule 5 of the file comment).
  if (!oneBlock && role != AxisPlanRole::General && !packable &&
      op.getNormalization() != Normalization::none && target.clusterBlocks > 1 &&
      (!best || best.getLanes() * vector * inBytes < 64) && c > kClusterSliceAxis) {
    // The slices of C = 512 over up to 8 blocks (the portable size), past them those of C =
    // 1024 over up to the chip's largest cluster (rule 5 of the file comment).
    for (int64_t sliceAxis : {kClusterSliceAxis, kWideClusterSliceAxis}) {
      // A slice narrower than C only.
      if (sliceAxis >= c)
        break;
      // The slice's one-block plan in the same role: a tier's kernels hold f32 values where a
      // static C's may hold 16-bit ones packed (f16 to f32: 128 values a thread, 255 registers
      // as f32). One block: C = 1024's own plan may spread over a cluster of two 512-slices
      // where its one block's slices are narrower than 64 bytes (16-bit to f32: 32 bytes), and
      // this plan takes the slice's capacity a block (generator seed 783 of the strided_axis
      // family: f16 to f32 over C = 4097 got 5 blocks of 512, 2560 values, which the verifier
      // rejected).
      StrategyAttr slice =
          selectPlanFor(op, target, registerBudget, maxThreads, sliceAxis, role, /*oneBlock=*/true,
                        positiveScalars);
      int64_t blocks = llvm::divideCeil(c, slice.getAxisCapacity());
      int64_t maxBlocks = sliceAxis == kClusterSliceAxis
                              ? std::min(kMaxAxisClusterBlocks, target.clusterBlocks)
                              : target.clusterBlocks;
      // Two blocks of the slice's plan a multiprocessor at least (getStridedAxisRegisters'
      // `overCluster`): a block alone there waits at the cluster's barriers with nothing to
      // hide them (f32 log_softmax at C = 4096 over 8 blocks ran at 0.662x copy with one,
      // 0.865x with two; bf16 scaled over 8 blocks of 64 f32-held values 0.343x with one).
      int64_t sliceRegisters = llvm::alignTo(
          getStridedAxisRegisters(vector, slice.getChunks(), logSoftmax, hasPrologue,
                                  /*lean=*/true, role == AxisPlanRole::Tier, inBytes < 4,
                                  /*overCluster=*/true),
          8);
      bool twoResident = target.registersPerSM / (slice.getBlockSize() * sliceRegisters) >= 2;
      if (slice.getLanes() * vector * inBytes >= 64 && blocks <= maxBlocks && twoResident)
        return StrategyAttr::get(context, KernelPlan::strided_axis, slice.getLanes(),
                                 slice.getRows(), vector, slice.getChunks(), blocks);
    }
  }
  if (best)
    return best;
  // 16-bit values held packed over a static C or a tier that no block holds (rule 6 of the
  // file comment): the column over a cluster of blocks of 256 threads, each with the plan of C
  // = kPackedClusterSliceAxis in such blocks (2 lanes x 128 rows x 16 chunks of 8). A 16-bit
  // result only: the plans measured (an f32 one would have vectors of 4).
  if (!oneBlock && role != AxisPlanRole::General && packable && !hasPrologue &&
      elementBytes == inBytes && target.clusterBlocks > 1 && c > kPackedClusterSliceAxis) {
    StrategyAttr slice =
        selectPlanFor(op, target, registerBudget, std::min<int64_t>(maxThreads, 256),
                      kPackedClusterSliceAxis, role, /*oneBlock=*/true, positiveScalars);
    int64_t blocks = llvm::divideCeil(c, slice.getAxisCapacity());
    if (blocks <= std::min(kMaxAxisClusterBlocks, target.clusterBlocks))
      return StrategyAttr::get(context, KernelPlan::strided_axis, slice.getLanes(),
                               slice.getRows(), vector, slice.getChunks(), blocks);
  }
  // The online plan.
  int64_t threads = std::min<int64_t>(512, maxThreads);
  int64_t lanes = minLanes;
  int64_t rows = threads / lanes;
  int64_t registers = std::min(registerBudget, target.registersPerThread(threads));
  int64_t chunks = std::max<int64_t>(1, 16 / vector);
  // Chunks as the estimate of four-index kernels allows (lean = false): the online plans as
  // measured before the lean kernels, which need fewer.
  while (chunks > 1 &&
         getStridedAxisRegisters(vector, chunks, logSoftmax, hasPrologue, /*lean=*/false) >
             registers)
    --chunks;
  return StrategyAttr::get(context, KernelPlan::strided_axis, lanes, rows, vector, chunks);
}

/// The smallest C of a dynamic axis's tiers. Rule 1 gives every C up to 16 one row a column
/// (f32 and 16-bit), so a smaller tier only holds fewer chunks, but fewer registers with them:
/// with 16 as the first tier, a dynamic bf16 C = 8 ran on the tier of 128 packed values a
/// thread at 0.928x copy against 0.981x for the static plan of 64 (H100, 2026-12-06,
/// bench/results/2026-12-06-h100/axis-bench-c3a9840.txt).
constexpr int64_t kFirstAxisTier = 8;
/// The smallest tier with a tier at three quarters of it before it.
constexpr int64_t kHalfStepTier = 2048;
} // namespace

SmallVector<StrategyAttr> mlir::softmax::selectStridedAxisPlans(FusedOp op,
                                                                const TargetInfo &target,
                                                                int64_t registerBudget,
                                                                int64_t maxThreads) {
  int64_t c = op.getRowWidth();
  if (!ShapedType::isDynamic(c))
    return {selectPlanFor(op, target, registerBudget, maxThreads, c, AxisPlanRole::Static)};
  // A dynamic C: the plans a static C of 8, 16, 32, ... gets while they hold the column in
  // registers (each a tier for the C its capacity covers), then the general plan. The general
  // plan alone (sized for C = 256, f32 values) ran dynamic bf16 C = 512 at 0.435x copy and
  // 4096 at 0.383x against 0.813x and 0.556x for the static plans
  // (bench/results/2026-12-03-h200/axis-bench-8b6e0db.txt).
  SmallVector<StrategyAttr> plans;
  // A tier's kernel holds `capacity` values a column whatever C it runs on: from kHalfStepTier
  // the tiers have one between each and the next, at three quarters (1536, 3072), so that no
  // C runs with more than a third of its chunks past it (a lean f32 tier loads those again,
  // a packed one compares each).
  bool halfSteps = true;
  bool staticInner = op.getStaticInnerSize().has_value();
  // Past the tiers that hold the column whatever the sign of a scalar factor, those for
  // positive ones (packed values, -inf past C as loaded: FusedOp::mayHoldPackedAxisValues),
  // which the host code launches only where each factor is (lowerStridedAxis); other C take
  // the general plan. A bf16 temperature chain to f32 (a scale by a scalar) had tiers up to
  // C = 1024 only: dynamic C = 2048 and 4096 ran at 0.462x and 0.465x copy on the general
  // plan, where the static twins, packed, ran at 0.846x and 0.802x (H100, 2026-12-06,
  // bench/results/2026-12-06-h100/axis-bench-b27120a.txt).
  bool positiveScalars = false;
  auto tierPlan = [&](int64_t tier) -> StrategyAttr {
    StrategyAttr plan = selectPlanFor(op, target, registerBudget, maxThreads, tier,
                                      AxisPlanRole::Tier, /*oneBlock=*/false, positiveScalars);
    // A static last dimension off the vector size never takes the vector kernels.
    int64_t last = op.getInput().getType().getShape().back();
    if (plan.getAxisCapacity() < tier || plan.getVector() == 1 ||
        (!ShapedType::isDynamic(last) && last % plan.getVector() != 0))
      return {};
    return plan;
  };
  auto addTier = [&](int64_t tier, bool threeQuarters) {
    StrategyAttr plan = tierPlan(tier);
    if (!plan && !positiveScalars && op.hasScalarScale() &&
        op.mayHoldPackedAxisValues(/*tier=*/true, /*positiveScalars=*/true)) {
      positiveScalars = true;
      plan = tierPlan(tier);
    }
    if (!plan)
      return false;
    int64_t capacity = plan.getAxisCapacity();
    // A tier at three quarters over a cluster (3, 6 or 12 blocks) is left out over a static
    // inner size: over small ones with masked_rows = zero such kernels spilled 4-8 bytes at
    // their 128 registers (generator seeds 1055, 1116 and 1840 of the strided_axis family;
    // clean at 96-112, ptxas's spills are not monotone) where the tiers over 2, 4, 8 and 16
    // blocks were clean. The C between run on the next tier, whose last block's slice lies
    // past C (dynamic f32 C = 3000 ran at 0.803x copy so, against 0.861x on the tier of 3072
    // over 6 blocks, H100, bench/results/2026-12-06-h100/axis-bench-b27120a.txt and
    // axis-bench-61baa4d.txt). Over a dynamic inner size those of f32 values stay (rule 5:
    // 3072 over 6 blocks, 6144 and 12288 over 6 and 12; none of 101 kernels over axes 0, 1
    // and -2, ranks 2-4, after scales, as log_softmax, with masked_rows zero or nan, 16-bit
    // inputs to f32 and f32 to bf16, spilled at 128; 2026-12-06, fifteenth session); those of
    // 16-bit values held packed (rule 6: 6144 and 12288 over 3 and 6 blocks) spilled 8-28
    // bytes at their 112.
    if (threeQuarters && plan.getCluster() > 1 &&
        (staticInner || op.mayHoldPackedAxisValues(/*tier=*/true, positiveScalars)))
      return true;
    if (plans.empty() || plans.back().getAxisCapacity() < capacity)
      plans.push_back(plan);
    return true;
  };
  for (int64_t tier = kFirstAxisTier;; tier *= 2) {
    if (halfSteps && tier >= kHalfStepTier && !addTier(tier / 4 * 3, /*threeQuarters=*/true))
      break;
    if (!addTier(tier, /*threeQuarters=*/false))
      break;
  }
  plans.push_back(selectPlanFor(op, target, registerBudget, maxThreads, kDynamicAxisPlanned,
                                AxisPlanRole::General));
  return plans;
}
