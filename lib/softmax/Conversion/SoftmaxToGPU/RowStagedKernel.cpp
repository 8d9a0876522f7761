//===- RowStagedKernel.cpp - The row_staged kernel ------------------------===//
//
// One block a row. The row is staged in dynamic shared memory as stored, as whole 16-byte words
// of memory: word k of the buffer holds the bytes [floor16(start) + 16k, + 16) of the row's
// first byte `start`, so column j of the row is element h + j of the buffer, h = (start mod 16)
// / element size. The words wholly inside the row (its 16-byte-aligned interior) arrive by one
// bulk asynchronous copy (cp.async.bulk) that thread 0 issues and an mbarrier counts; the
// threads of the first warp load the columns of the first and last words that the copy leaves
// out and fill the word slots outside the row with -inf, which neither the max nor the sum
// sees. Then three passes over the buffer, one word a thread at a time: the max (in the
// storage type: max.NaN.bf16x2 on 16-bit words), the sum of exp(x - max), and the
// normalisation, stored as 16-byte words where the output rows are misaligned as the input
// rows are (uniform over the grid; else column by column).
//
// With a cluster (plan `cluster` > 1) the launch spreads each row over C blocks of a
// thread-block cluster (C from the width: StrategyAttr::getStagedClusterBlocks): block `rank`
// stages the slice of words [rank * S, rank * S + S), S = ceil(words / C), and reduces it to
// its (max, sum of exp(x - max)); the blocks publish their pairs in their own shared memory,
// read each other's through distributed shared memory (mapa) after a cluster barrier, merge
// them in rank order (the same row statistics in every block) and normalise their slices.
//
// Why: the register plans hold the bytes in flight in registers, so wide 16-bit rows leave few
// blocks a multiprocessor and long phases without loads (bf16 32768-100000 columns: 0.68-0.83x
// copy over clusters). A bulk copy holds a whole row in flight for no registers; a hand-written
// prototype of this kernel ran bf16 32768 at 0.95x copy, 50257 at 0.93x, 100000 at 0.86x on the
// H200 (bench/experiments/staged/, 2026-12-04).
//
//===----------------------------------------------------------------------===//

#include "RowStagedKernel.h"

#include "EmitterSupport.h"
#include "Normalization.h"
#include "RowKernel.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::softmax;

namespace {

/// Byte offsets in the dynamic shared memory (StrategyAttr::kStagedHeaderBytes in all): the
/// mbarrier (8 bytes), the block's (max, sum) the cluster reads, the warps' slots.
constexpr int64_t kBarrierOffset = 0;
constexpr int64_t kExchangeOffset = 8;
constexpr int64_t kMaxSlotsOffset = 16;
constexpr int64_t kSumSlotsOffset = 16 + 32 * 4;
/// Words a thread takes an iteration of each pass (forEachWord).
constexpr int64_t kUnroll = 4;
static_assert(kSumSlotsOffset + 32 * 4 == StrategyAttr::kStagedHeaderBytes,
              "the header holds the mbarrier and two slots of each of 32 warps");

class StagedEmitter : public KernelEmitterBase {
public:
  StagedEmitter(OpBuilder &builder, FusedOp op, StrategyAttr plan, gpu::GPUFuncOp func)
      : KernelEmitterBase(builder, op, plan, func),
        elementType(op.getInput().getType().getElementType()),
        elementBytes(elementType.getIntOrFloatBitWidth() / 8),
        wordType(VectorType::get({plan.getVector()}, elementType)) {}

  void emit();

private:
  Value sub(Value l, Value r) { return arith::SubIOp::create(b, loc, l, r); }
  Value divu(Value l, Value r) { return arith::DivUIOp::create(b, loc, l, r); }
  Value i64(Value index) { return arith::IndexCastOp::create(b, loc, b.getI64Type(), index); }
  Value i64Const(int64_t v) { return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v)); }
  Value lt(Value l, Value r) { return cmpi(arith::CmpIPredicate::slt, l, r); }
  Value ge(Value l, Value r) { return cmpi(arith::CmpIPredicate::sge, l, r); }
  Value eq(Value l, Value r) { return cmpi(arith::CmpIPredicate::eq, l, r); }
  /// The address of `memref`'s element (0, ..., 0) before its offset, as an i64.
  Value basePointer(Value memref) {
    return i64(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref));
  }
  /// The first byte of row `row` of `rows` (memref<?x?xT, strided<[?, 1], offset: ?>>).
  Value rowAddress(Value rows, Value row) {
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, rows);
    Value element = add(meta.getOffset(), mul(row, meta.getStrides()[0]));
    return arith::AddIOp::create(b, loc, basePointer(rows),
                                 arith::MulIOp::create(b, loc, i64(element),
                                                       i64Const(elementBytes)));
  }
  /// Whether the output rows start at the same offsets modulo 16 bytes as the input rows.
  Value rowsAlike(Value in, Value out);
  /// The row's (max or sum) over the block: butterfly shuffles within each warp, then each
  /// thread combines the warps' slots.
  Value blockReduce(Value value, bool isMax, Value slots);
  /// An f32 value of each element of a staged word.
  SmallVector<Value> wordValues(Value word);
  /// Waits until the mbarrier at `barrier` completes the phase of parity `phase` (i32).
  void waitParity(Value barrier, Value phase);
  /// The row's (max, sum) from the cluster's blocks' pairs (`sum` relative to `max`, this
  /// block's), through distributed shared memory; every thread calls it once a row. The
  /// cluster barrier's phases alternate arrive, wait, ...: the kernel arrives once before its
  /// first row, each exchange first waits on the previous arrival (every block started, and
  /// done reading the pairs of the previous row) and arrives again once it has read them; the
  /// kernel's last wait matches that arrival.
  std::pair<Value, Value> clusterMaxSum(Value max, Value sum, Value exchange, Value blocks);
  /// Loops `k` over this thread's words [tid, tid + lanes, ...) below `words`.
  SmallVector<Value> forEachWord(Value words, ValueRange init,
                                 function_ref<SmallVector<Value>(Value k, ValueRange)> body);

  Type elementType;
  int64_t elementBytes;
  VectorType wordType;
  Value tid, buffer;
};

Value StagedEmitter::rowsAlike(Value in, Value out) {
  Value zero = i64Const(0), fifteen = i64Const(15);
  Value first = arith::SubIOp::create(b, loc, rowAddress(out, idx(0)), rowAddress(in, idx(0)));
  auto inMeta = memref::ExtractStridedMetadataOp::create(b, loc, in);
  auto outMeta = memref::ExtractStridedMetadataOp::create(b, loc, out);
  Value strides = arith::MulIOp::create(
      b, loc, i64(sub(outMeta.getStrides()[0], inMeta.getStrides()[0])), i64Const(elementBytes));
  return andi(eq(arith::AndIOp::create(b, loc, first, fifteen), zero),
              eq(arith::AndIOp::create(b, loc, strides, fifteen), zero));
}

Value StagedEmitter::blockReduce(Value value, bool isMax, Value slots) {
  for (int64_t offset = 16; offset >= 1; offset /= 2) {
    Value other = gpu::ShuffleOp::create(b, loc, value, i32Const(offset), i32Const(32),
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    value = combine(value, other, isMax);
  }
  int64_t warps = lanes / 32;
  if (warps == 1)
    return value;
  Value warp = divu(tid, idx(32));
  ifThen(eq(arith::RemUIOp::create(b, loc, tid, idx(32)), idx(0)),
         [&] { memref::StoreOp::create(b, loc, value, slots, ValueRange{warp}); });
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> partial;
  for (int64_t w = 0; w < warps; ++w)
    partial.push_back(memref::LoadOp::create(b, loc, slots, ValueRange{idx(w)}));
  return combineAll(std::move(partial), isMax);
}

std::pair<Value, Value> StagedEmitter::clusterMaxSum(Value max, Value sum, Value exchange,
                                                     Value blocks) {
  NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
  ifThen(eq(tid, idx(0)), [&] {
    memref::StoreOp::create(b, loc, max, exchange, ValueRange{idx(0)});
    memref::StoreOp::create(b, loc, sum, exchange, ValueRange{idx(1)});
  });
  NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
  // The pairs merged one after another in rank order: two running values, whatever the
  // cluster's size (a tree over 16 pairs would hold 32 values against the register budget).
  auto sharedPtr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  auto clusterPtr = LLVM::LLVMPointerType::get(b.getContext(), 7);
  Value slots = LLVM::IntToPtrOp::create(b, loc, sharedPtr, basePointer(exchange));
  auto loop = scf::ForOp::create(b, loc, idx(0), blocks, idx(1),
                                 ValueRange{negInf(), f32Const(0.0)});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(loop.getBody());
    Value rank = arith::IndexCastOp::create(b, loc, b.getI32Type(), loop.getInductionVar());
    Value remote = NVVM::MapaOp::create(b, loc, clusterPtr, slots, rank);
    Value remoteSum =
        LLVM::GEPOp::create(b, loc, clusterPtr, f32, remote, ArrayRef<LLVM::GEPArg>{1});
    auto [m, s] = mergeMaxSum(loop.getRegionIterArgs()[0], loop.getRegionIterArgs()[1],
                              LLVM::LoadOp::create(b, loc, f32, remote, /*alignment=*/8),
                              LLVM::LoadOp::create(b, loc, f32, remoteSum, /*alignment=*/4));
    scf::YieldOp::create(b, loc, ValueRange{m, s});
  }
  // Done reading: arrive now; the next exchange (or the kernel's end) waits.
  NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  return {loop.getResult(0), loop.getResult(1)};
}

SmallVector<Value> StagedEmitter::wordValues(Value word) {
  SmallVector<Value> values;
  for (int64_t v = 0; v < vector; ++v)
    values.push_back(toF32(vector::ExtractOp::create(b, loc, word, v)));
  return values;
}

void StagedEmitter::waitParity(Value barrier, Value phase) {
  // nvvm.mbarrier.try_wait.parity takes its parity as an immediate; a block that stages
  // several rows alternates it, so the loop is written here with the parity in a register.
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange{}, ValueRange{barrier, phase},
      "{\n\t.reg .pred p;\n\tWAIT_STAGED:\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [$0], $1;\n\t@!p bra WAIT_STAGED;\n\t}",
      "r,r,~{memory}", /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
}

SmallVector<Value>
StagedEmitter::forEachWord(Value words, ValueRange init,
                           function_ref<SmallVector<Value>(Value k, ValueRange)> body) {
  // kUnroll words an iteration while all of them are the row's (their shared-memory loads in
  // flight together: a block of 512 threads alone on its multiprocessor otherwise waits for
  // each), then one at a time.
  auto loop = [&](Value begin, Value end, int64_t unroll, ValueRange values) {
    auto forOp = scf::ForOp::create(b, loc, begin, end, idx(unroll * lanes), values);
    OpBuilder::InsertionGuard guard(b);
    // Without iter_args the loop is built with its terminator; with them, without.
    Block *loopBody = forOp.getBody();
    if (loopBody->mightHaveTerminator())
      b.setInsertionPoint(loopBody->getTerminator());
    else
      b.setInsertionPointToEnd(loopBody);
    SmallVector<Value> acc(forOp.getRegionIterArgs());
    for (int64_t u = 0; u < unroll; ++u)
      acc = body(add(forOp.getInductionVar(), idx(u * lanes)), acc);
    if (!values.empty())
      scf::YieldOp::create(b, loc, acc);
    return SmallVector<Value>(forOp.getResults());
  };
  Value spread = idx((kUnroll - 1) * lanes);
  Value mainEnd = select(cmpi(arith::CmpIPredicate::ugt, words, spread), sub(words, spread),
                         idx(0));
  SmallVector<Value> acc = loop(tid, mainEnd, kUnroll, init);
  Value done = arith::CeilDivUIOp::create(
      b, loc, select(cmpi(arith::CmpIPredicate::ugt, mainEnd, tid), sub(mainEnd, tid), idx(0)),
      idx(kUnroll * lanes));
  return loop(add(tid, mul(done, idx(kUnroll * lanes))), words, 1, acc);
}

void StagedEmitter::emit() {
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);
  Value in = entry.getArgument(0), out = entry.getArgument(1);
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value grid = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value rowCount = memref::DimOp::create(b, loc, in, 0);
  int64_t staticWidth = op.getRowWidth();
  Value width = ShapedType::isDynamic(staticWidth) ? Value(memref::DimOp::create(b, loc, in, 1))
                                                   : idx(staticWidth);
  Value vec = idx(vector);
  // With a cluster: C blocks a row (the launch's cluster size, which follows the width), this
  // block's rank, its slice of S words from `sliceBegin`; the clusters take the rows in turn.
  bool clustered = plan.getCluster() > 1;
  Value blocks = idx(1), sliceBegin = idx(0);
  Value capacity = mul(add(arith::CeilDivUIOp::create(b, loc, width, vec), idx(1)), vec);
  Value sliceWords;
  if (clustered) {
    auto asIndex = [&](Value v) {
      return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v).getResult();
    };
    blocks = asIndex(NVVM::ClusterDimBlocksXOp::create(b, loc, b.getI32Type()));
    Value rank = asIndex(NVVM::BlockInClusterIdXOp::create(b, loc, b.getI32Type()));
    sliceWords = arith::CeilDivUIOp::create(
        b, loc, add(arith::CeilDivUIOp::create(b, loc, width, vec), idx(1)), blocks);
    sliceBegin = mul(rank, sliceWords);
    capacity = mul(sliceWords, vec);
    blockId = divu(blockId, blocks);
    grid = divu(grid, blocks);
  }

  // Dynamic shared memory: the header, then the row (buildRowStagedSharedBytes).
  auto space = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value bytes = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), MemRefLayoutAttrInterface(), space));
  auto slotType = MemRefType::get({32}, f32, MemRefLayoutAttrInterface(), space);
  Value maxSlots =
      memref::ViewOp::create(b, loc, slotType, bytes, idx(kMaxSlotsOffset), ValueRange{});
  Value sumSlots =
      memref::ViewOp::create(b, loc, slotType, bytes, idx(kSumSlotsOffset), ValueRange{});
  buffer = memref::ViewOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, elementType, MemRefLayoutAttrInterface(), space),
      bytes, idx(StrategyAttr::kStagedHeaderBytes), ValueRange{capacity});
  auto sharedPtr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value sharedBase = basePointer(bytes);
  Value barrier = LLVM::IntToPtrOp::create(
      b, loc, sharedPtr, arith::AddIOp::create(b, loc, sharedBase, i64Const(kBarrierOffset)).getResult());
  Value rowBase = arith::AddIOp::create(b, loc, sharedBase,
                                        i64Const(StrategyAttr::kStagedHeaderBytes));

  // One arrival a phase (thread 0's, with the copy's bytes), made visible to the block.
  Value isFirst = eq(tid, idx(0));
  ifThen(isFirst, [&] {
    NVVM::MBarrierInitOp::create(b, loc, barrier, i32Const(1), Value());
    NVVM::FenceMbarrierInitOp::create(b, loc);
  });
  gpu::BarrierOp::create(b, loc);
  Value alike = rowsAlike(in, out);
  Value exchange, spread;
  if (clustered) {
    exchange = memref::ViewOp::create(
        b, loc, MemRefType::get({2}, f32, MemRefLayoutAttrInterface(), space), bytes,
        idx(kExchangeOffset), ValueRange{});
    // The first arrival (clusterMaxSum): this block has started. A launch of one block a row
    // (no cluster: LowerToGPU.cpp) skips the cluster's barriers and exchange (uniform).
    spread = cmpi(arith::CmpIPredicate::ugt, blocks, idx(1));
    ifThen(spread, [&] { NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr()); });
  }

  auto rowLoop = scf::ForOp::create(b, loc, blockId, rowCount, grid, ValueRange{i32Const(0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(rowLoop.getBody());
  Value row = rowLoop.getInductionVar();
  Value phase = rowLoop.getRegionIterArgs()[0];

  // Where the row falls in its words: h columns of the first word precede it; words [k0, k1)
  // lie inside it and are copied; `words` in all.
  Value start = rowAddress(in, row);
  Value h = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      arith::DivUIOp::create(b, loc, arith::AndIOp::create(b, loc, start, i64Const(15)),
                             i64Const(elementBytes)));
  Value end = add(h, width);
  Value words = arith::CeilDivUIOp::create(b, loc, end, vec);
  Value k0 = select(eq(h, idx(0)), idx(0), idx(1));
  Value k1 = divu(end, vec);
  // This block's words: [sliceBegin, sliceBegin + local) of the row's (all of them without a
  // cluster); of those, the copy takes [lo, hi).
  Value local = words, lo = k0, hi = k1;
  if (clustered) {
    Value sliceEnd = add(sliceBegin, sliceWords);
    local = select(cmpi(arith::CmpIPredicate::ugt, words, sliceBegin),
                   arith::MinUIOp::create(b, loc, sub(words, sliceBegin), sliceWords), idx(0));
    lo = arith::MaxUIOp::create(b, loc, k0, sliceBegin);
    hi = arith::MinUIOp::create(b, loc, k1, sliceEnd);
  }
  Value copied = select(cmpi(arith::CmpIPredicate::ugt, hi, lo), sub(hi, lo), idx(0));

  ifThen(isFirst, [&] {
    // The previous row's reads of the buffer (ordered before this thread by the barrier that
    // ended it) come before the copy's writes: a proxy fence between the two.
    NVVM::FenceProxyOp::create(b, loc, NVVM::ProxyKind::async_shared,
                               NVVM::SharedSpaceAttr::get(b.getContext(),
                                                          NVVM::SharedSpace::shared_cta));
    Value copyBytes = arith::IndexCastOp::create(b, loc, b.getI32Type(), mul(copied, idx(16)));
    NVVM::MBarrierArriveExpectTxOp::create(b, loc, Type(), barrier, copyBytes,
                                           NVVM::MemScopeKind::CTA, /*relaxed=*/false, Value());
    ifThen(cmpi(arith::CmpIPredicate::ugt, copied, idx(0)), [&] {
      Value source = LLVM::IntToPtrOp::create(
          b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1),
          arith::AddIOp::create(b, loc, start,
                                i64(mul(sub(mul(lo, vec), h), idx(elementBytes))))
              .getResult());
      Value destination = LLVM::AddrSpaceCastOp::create(
          b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7),
          LLVM::IntToPtrOp::create(
              b, loc, sharedPtr,
              arith::AddIOp::create(b, loc, rowBase, i64(mul(sub(lo, sliceBegin), idx(16))))
                  .getResult()));
      NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(b, loc, destination, source, barrier,
                                                       copyBytes, Value(), Value());
    });
  });
  // The edge words: thread t < vector takes slot t of the first word, vector <= t < 2 * vector
  // slot t - vector of the last (unless the row has one word); a slot the copy fills is left,
  // and a word of another block's slice.
  ifThen(cmpi(arith::CmpIPredicate::ult, tid, idx(2 * vector)), [&] {
    Value last = ge(tid, vec);
    Value slot = arith::RemUIOp::create(b, loc, tid, vec);
    Value k = select(last, sub(words, idx(1)), idx(0));
    Value copiedWord = andi(ge(k, k0), lt(k, k1));
    Value sameWord = andi(last, eq(words, idx(1)));
    Value skip = arith::OrIOp::create(b, loc, copiedWord, sameWord);
    if (clustered)
      skip = arith::OrIOp::create(
          b, loc, skip,
          arith::OrIOp::create(b, loc, lt(k, sliceBegin), ge(k, add(sliceBegin, local))));
    ifThen(arith::XOrIOp::create(b, loc, skip, arith::ConstantOp::create(b, loc, b.getBoolAttr(true))),
           [&] {
             Value element = add(mul(k, vec), slot);
             Value column = sub(element, h);
             Value inRow = andi(ge(column, idx(0)), lt(column, width));
             Value clamped = arith::MinSIOp::create(
                 b, loc, arith::MaxSIOp::create(b, loc, column, idx(0)), sub(width, idx(1)));
             Value x = memref::LoadOp::create(b, loc, in, ValueRange{row, clamped});
             memref::StoreOp::create(b, loc, select(inRow, x, negInfOf(elementType)), buffer,
                                     ValueRange{sub(element, mul(sliceBegin, vec))});
           });
  });
  waitParity(barrier, phase);
  gpu::BarrierOp::create(b, loc);

  auto loadWord = [&](Value k) {
    return vector::LoadOp::create(b, loc, wordType, buffer, ValueRange{mul(k, vec)},
                                  /*nontemporal=*/false, llvm::MaybeAlign(16))
        .getResult();
  };
  // Pass 1: the max, in the storage type (exact, NaN-propagating as the f32 max).
  Value wordMax = forEachWord(local, ValueRange{negInfOf(wordType)}, [&](Value k, ValueRange acc) {
    return SmallVector<Value>{arith::MaximumFOp::create(b, loc, acc[0], loadWord(k))};
  })[0];
  Value max = blockReduce(combineAll(wordValues(wordMax), /*isMax=*/true), /*isMax=*/true, maxSlots);
  Value shift = safeMax(max);
  // Pass 2: the sum of exp(x - max).
  Value threadSum = forEachWord(local, ValueRange{f32Const(0.0)}, [&](Value k, ValueRange acc) {
    SmallVector<Value> terms;
    for (Value x : wordValues(loadWord(k)))
      terms.push_back(emitExpShifted(b, loc, x, shift));
    return SmallVector<Value>{addf(acc[0], combineAll(std::move(terms), /*isMax=*/false))};
  })[0];
  Value sum = blockReduce(threadSum, /*isMax=*/false, sumSlots);
  if (clustered) {
    SmallVector<Value> merged = ifElseValues(
        spread, TypeRange{f32, f32},
        [&] {
          auto [m, s] = clusterMaxSum(max, sum, exchange, blocks);
          return SmallVector<Value>{m, s};
        },
        [&] { return SmallVector<Value>{max, sum}; });
    max = merged[0];
    sum = merged[1];
  }
  NormalizationStats stats = emitNormalizationStats(b, loc, op, max, sum);
  // Pass 3: normalise and store; the words inside the row whole when the output rows are
  // aligned as the input rows, else (and the edge words) column by column.
  Type outType = op.getResult().getType().getElementType();
  forEachWord(local, ValueRange{}, [&](Value slot, ValueRange) {
    SmallVector<Value> normalised;
    for (Value x : wordValues(loadWord(slot)))
      normalised.push_back(emitNormalize(b, loc, op, x, Value(), stats));
    // Rounded as a vector: two values an instruction (cvt.rn.bf16x2.f32).
    Value packed = packF32(normalised);
    if (!outType.isF32())
      packed = arith::TruncFOp::create(b, loc, VectorType::get({vector}, outType), packed);
    SmallVector<Value> results;
    for (int64_t v = 0; v < vector; ++v)
      results.push_back(vector::ExtractOp::create(b, loc, packed, v));
    Value k = add(slot, sliceBegin);
    Value firstColumn = sub(mul(k, vec), h);
    Value whole = andi(alike, andi(ge(k, k0), lt(k, k1)));
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, whole, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard branch(b);
      b.setInsertionPoint(ifOp.getThenRegion().front().getTerminator());
      vector::StoreOp::create(b, loc, packed, out, ValueRange{row, firstColumn},
                              /*nontemporal=*/false, llvm::MaybeAlign(16));
      b.setInsertionPoint(ifOp.getElseRegion().front().getTerminator());
      for (int64_t v = 0; v < vector; ++v) {
        Value column = add(firstColumn, idx(v));
        ifThen(andi(ge(column, idx(0)), lt(column, width)), [&] {
          memref::StoreOp::create(b, loc, results[v], out, ValueRange{row, column});
        });
      }
    }
    return SmallVector<Value>{};
  });
  // Every thread is done with the buffer and the slots before the next row is staged.
  gpu::BarrierOp::create(b, loc);
  scf::YieldOp::create(b, loc,
                       ValueRange{arith::XOrIOp::create(b, loc, phase, i32Const(1)).getResult()});
  b.setInsertionPointAfter(rowLoop);
  // The last exchange's readers are done before any block of the cluster exits.
  if (clustered)
    ifThen(spread, [&] { NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr()); });
  gpu::ReturnOp::create(b, loc);
}

} // namespace

Value mlir::softmax::buildRowStagedClusterBlocks(OpBuilder &builder, Location loc,
                                                 StrategyAttr plan, Value width) {
  auto constant = [&](int64_t v) { return arith::ConstantIndexOp::create(builder, loc, v); };
  if (plan.getCluster() == 1)
    return constant(1);
  if (std::optional<int64_t> staticWidth = getConstantIntValue(width))
    return constant(plan.getStagedClusterBlocks(*staticWidth));
  // The fewest blocks whose slices stay within the target, at most the plan's cluster (as
  // StrategyAttr::getStagedClusterBlocks: the words are at least 1, so is the quotient).
  Value words = arith::AddIOp::create(
      builder, loc, arith::CeilDivUIOp::create(builder, loc, width, constant(plan.getVector())),
      constant(1));
  Value blocks = arith::CeilDivUIOp::create(
      builder, loc, words,
      constant((StrategyAttr::kStagedBlockTargetBytes - StrategyAttr::kStagedHeaderBytes) / 16));
  return arith::MinUIOp::create(builder, loc, blocks, constant(plan.getCluster()));
}

Value mlir::softmax::buildRowStagedSharedBytes(OpBuilder &builder, Location loc,
                                               StrategyAttr plan, Value width) {
  auto constant = [&](int64_t v) { return arith::ConstantIndexOp::create(builder, loc, v); };
  Value words = arith::AddIOp::create(
      builder, loc, arith::CeilDivUIOp::create(builder, loc, width, constant(plan.getVector())),
      constant(1));
  if (plan.getCluster() > 1)
    words = arith::CeilDivUIOp::create(builder, loc, words,
                                       buildRowStagedClusterBlocks(builder, loc, plan, width));
  Value bytes = arith::AddIOp::create(builder, loc,
                                      arith::MulIOp::create(builder, loc, words, constant(16)),
                                      constant(StrategyAttr::kStagedHeaderBytes));
  return arith::IndexCastOp::create(builder, loc, builder.getI32Type(), bytes);
}

gpu::GPUFuncOp mlir::softmax::buildRowStagedKernel(OpBuilder &builder, gpu::GPUModuleOp module,
                                                   StringRef name, FusedOp op,
                                                   StrategyAttr plan) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  auto type = FunctionType::get(builder.getContext(), getRowKernelParameterTypes(op), {});
  auto func = gpu::GPUFuncOp::create(builder, op.getLoc(), name, type);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), builder.getUnitAttr());
  int32_t threads = static_cast<int32_t>(plan.getBlockSize());
  func.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr({threads, 1, 1}));
  func->setAttr("nvvm.maxnreg",
                builder.getI32IntegerAttr(static_cast<int32_t>(kRowStagedRegisters)));
  StagedEmitter(builder, op, plan, func).emit();
  return func;
}
