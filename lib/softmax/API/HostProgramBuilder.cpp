//===- HostProgramBuilder.cpp - Reading a host function into a HostProgram ===//
//
// The compile-time half of HostProgram: one walk over the host function emits the instructions
// and, for FunctionInfo, prints each rule (guards, grid, block, shared memory, workspace) as an
// expression over the function's arguments.
//
//===----------------------------------------------------------------------===//

#include "HostProgram.h"

#include "softmax/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ::softmax::api;

namespace softmax::api {
std::optional<ScalarType> getScalarType(Type type) {
  if (type.isIndex())
    return ScalarType::Index;
  if (type.isF16())
    return ScalarType::F16;
  if (type.isBF16())
    return ScalarType::BF16;
  if (type.isF32())
    return ScalarType::F32;
  if (type.isF64())
    return ScalarType::F64;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 1:
      return ScalarType::I1;
    case 8:
      return ScalarType::I8;
    case 16:
      return ScalarType::I16;
    case 32:
      return ScalarType::I32;
    case 64:
      return ScalarType::I64;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

class HostProgramBuilder {
public:
  HostProgramBuilder(HostProgram &program, FunctionInfo &info, func::FuncOp func,
                     const llvm::StringMap<unsigned> &kernels)
      : p(program), info(info), func(func), kernels(kernels) {}

  LogicalResult build();

private:
  using Opcode = HostProgram::Opcode;

  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation *op);
  LogicalResult emitLaunch(gpu::LaunchFuncOp op);
  LogicalResult emitIf(scf::IfOp op);

  int32_t defineScalar(Value v) { return scalars[v] = p.numScalars++; }
  int32_t defineMemRef(Value v) { return memrefs[v] = p.numMemRefs++; }
  /// The slot of a value defined earlier; a value the builder did not model (say, an async
  /// token used as data) marks the op being read as unsupported.
  int32_t scalar(Value v) { return slotIn(scalars, v); }
  int32_t memref(Value v) { return slotIn(memrefs, v); }
  int32_t slotIn(const DenseMap<Value, int32_t> &slots, Value v) {
    auto it = slots.find(v);
    if (it != slots.end())
      return it->second;
    missingValue = true;
    return 0;
  }
  size_t emit(HostProgram::Instr instr) {
    p.code.push_back(instr);
    return p.code.size() - 1;
  }

  // Rules as text.
  std::string expr(Value v);
  std::string dimExpr(Value memref, int64_t d);
  /// The memref argument (or view of one) that `memref` is, as text.
  std::string memrefExpr(Value memref);
  void guardsOf(Operation *op, std::vector<std::string> &guards);

  HostProgram &p;
  FunctionInfo &info;
  func::FuncOp func;
  const llvm::StringMap<unsigned> &kernels;
  DenseMap<Value, int32_t> scalars, memrefs;
  bool missingValue = false;
  std::vector<std::string> workspaceTerms;
};

} // namespace softmax::api

namespace {

std::string number(int64_t v) { return std::to_string(v); }

/// `s` without one pair of parentheses around the whole of it.
std::string stripParens(std::string s) {
  if (s.size() < 2 || s.front() != '(' || s.back() != ')')
    return s;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
    if (depth == 0 && i + 1 < s.size())
      return s; // the first parenthesis closes before the end: "(a) + (b)"
  }
  return s.substr(1, s.size() - 2);
}

unsigned widthOf(Type type) { return type.isIndex() ? 64 : type.getIntOrFloatBitWidth(); }

} // namespace

std::string HostProgramBuilder::dimExpr(Value memref, int64_t d) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.isDynamicDim(d))
    return number(type.getDimSize(d));
  if (auto arg = dyn_cast<BlockArgument>(memref))
    return "arg" + number(arg.getArgNumber()) + ".size[" + number(d) + "]";
  Operation *op = memref.getDefiningOp();
  if (auto cast = dyn_cast<memref::CastOp>(op))
    return dimExpr(cast.getSource(), d);
  if (auto collapse = dyn_cast<memref::CollapseShapeOp>(op)) {
    ReassociationIndices group = collapse.getReassociationIndices()[d];
    std::vector<std::string> factors;
    for (int64_t source : group)
      factors.push_back(dimExpr(collapse.getSrc(), source));
    return factors.size() == 1 ? factors.front() : "(" + llvm::join(factors, " * ") + ")";
  }
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(op)) {
    OpFoldResult size = expand.getMixedOutputShape()[d];
    if (auto value = dyn_cast<Value>(size))
      return expr(value);
  }
  if (auto alloc = dyn_cast<gpu::AllocOp>(op))
    return expr(alloc.getDynamicSizes()[type.getDynamicDimIndex(d)]);
  return "dim(?, " + number(d) + ")";
}

std::string HostProgramBuilder::memrefExpr(Value memref) {
  if (auto arg = dyn_cast<BlockArgument>(memref))
    return "arg" + number(arg.getArgNumber());
  Operation *op = memref.getDefiningOp();
  if (auto cast = dyn_cast<memref::CastOp>(op))
    return memrefExpr(cast.getSource());
  if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(op))
    return "view(" + memrefExpr(op->getOperand(0)) + ")";
  return "buffer";
}

std::string HostProgramBuilder::expr(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return "arg" + number(arg.getArgNumber());
  Operation *op = v.getDefiningOp();
  auto binary = [&](StringRef symbol) {
    return "(" + expr(op->getOperand(0)) + " " + symbol.str() + " " + expr(op->getOperand(1)) + ")";
  };
  auto call = [&](StringRef name) {
    std::vector<std::string> operands;
    for (Value operand : op->getOperands())
      operands.push_back(stripParens(expr(operand)));
    return name.str() + "(" + llvm::join(operands, ", ") + ")";
  };
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case([&](arith::ConstantOp c) -> std::string {
        if (auto integer = dyn_cast<IntegerAttr>(c.getValue()))
          return c.getType().isInteger(1) ? (integer.getValue().isZero() ? "false" : "true")
                                          : number(integer.getValue().getSExtValue());
        if (auto real = dyn_cast<FloatAttr>(c.getValue()))
          return std::to_string(real.getValueAsDouble());
        return "constant";
      })
      .Case([&](memref::DimOp dim) {
        std::optional<int64_t> index = dim.getConstantIndex();
        return index ? dimExpr(dim.getSource(), *index) : call("dim");
      })
      .Case([&](memref::ExtractStridedMetadataOp meta) {
        std::string source = stripParens(memrefExpr(meta.getSource()));
        unsigned result = cast<OpResult>(v).getResultNumber();
        unsigned rank = meta.getSizes().size();
        if (result == 1)
          return "offset(" + source + ")";
        if (result < 2 + rank)
          return dimExpr(meta.getSource(), result - 2);
        return "stride(" + source + ", " + number(result - 2 - rank) + ")";
      })
      .Case([&](memref::ExtractAlignedPointerAsIndexOp pointer) {
        return "address(" + stripParens(memrefExpr(pointer.getSource())) + ")";
      })
      .Case<arith::AddIOp, arith::AddFOp>([&](auto) { return binary("+"); })
      .Case<arith::SubIOp, arith::SubFOp>([&](auto) { return binary("-"); })
      .Case<arith::MulIOp, arith::MulFOp>([&](auto) { return binary("*"); })
      .Case<arith::DivUIOp, arith::DivSIOp, arith::DivFOp>([&](auto) { return binary("/"); })
      .Case<arith::RemUIOp, arith::RemSIOp>([&](auto) { return binary("%"); })
      .Case<arith::AndIOp>([&](auto) { return binary(v.getType().isInteger(1) ? "&&" : "&"); })
      .Case<arith::OrIOp>([&](auto) { return binary(v.getType().isInteger(1) ? "||" : "|"); })
      .Case<arith::CeilDivUIOp, arith::CeilDivSIOp>([&](auto) { return call("ceildiv"); })
      .Case<arith::FloorDivSIOp>([&](auto) { return call("floordiv"); })
      .Case<arith::MinUIOp, arith::MinSIOp, arith::MinimumFOp, arith::MinNumFOp>(
          [&](auto) { return call("min"); })
      .Case<arith::MaxUIOp, arith::MaxSIOp, arith::MaximumFOp, arith::MaxNumFOp>(
          [&](auto) { return call("max"); })
      .Case([&](arith::CmpIOp cmp) -> std::string {
        using P = arith::CmpIPredicate;
        switch (cmp.getPredicate()) {
        case P::eq:
          return binary("==");
        case P::ne:
          return binary("!=");
        case P::slt:
        case P::ult:
          return binary("<");
        case P::sle:
        case P::ule:
          return binary("<=");
        case P::sgt:
        case P::ugt:
          return binary(">");
        case P::sge:
        case P::uge:
          return binary(">=");
        }
        return call("cmpi");
      })
      .Case([&](arith::CmpFOp cmp) -> std::string {
        using P = arith::CmpFPredicate;
        switch (cmp.getPredicate()) {
        case P::OEQ:
          return binary("==");
        case P::ONE:
          return binary("!=");
        case P::OLT:
          return binary("<");
        case P::OLE:
          return binary("<=");
        case P::OGT:
          return binary(">");
        case P::OGE:
          return binary(">=");
        default:
          return call("cmpf_" + arith::stringifyCmpFPredicate(cmp.getPredicate()).str());
        }
      })
      .Case([&](arith::SelectOp select) {
        return "(" + expr(select.getCondition()) + " ? " + expr(select.getTrueValue()) + " : " +
               expr(select.getFalseValue()) + ")";
      })
      .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp, arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
            arith::FPToSIOp, arith::FPToUIOp>(
          [&](Operation *cast) { return expr(cast->getOperand(0)); })
      .Default([&](Operation *other) { return call(other->getName().getStringRef()); });
}

void HostProgramBuilder::guardsOf(Operation *op, std::vector<std::string> &guards) {
  for (Operation *child = op, *parent = op->getParentOp(); parent && parent != func;
       child = parent, parent = parent->getParentOp()) {
    auto ifOp = dyn_cast<scf::IfOp>(parent);
    if (!ifOp)
      continue;
    std::string condition = stripParens(expr(ifOp.getCondition()));
    bool inThen = ifOp.getThenRegion().isAncestor(child->getParentRegion());
    guards.push_back(inThen ? condition : "!(" + condition + ")");
  }
  std::reverse(guards.begin(), guards.end());
}

LogicalResult HostProgramBuilder::emitLaunch(gpu::LaunchFuncOp op) {
  auto kernel = kernels.find(op.getKernelName().getValue());
  if (kernel == kernels.end())
    return op.emitOpError() << "launches @" << op.getKernelName().getValue()
                            << ", which is not a kernel of the program's gpu.module";
  if (!op.getAsyncDependencies().empty())
    return op.emitOpError("with async dependencies is not supported by the C++ API's launcher");
  HostProgram::LaunchInstr launch;
  LaunchRule rule;
  launch.kernel = rule.kernel = kernel->second;
  gpu::KernelDim3 grid = op.getGridSizeOperandValues();
  gpu::KernelDim3 block = op.getBlockSizeOperandValues();
  Value gridValues[] = {grid.x, grid.y, grid.z};
  Value blockValues[] = {block.x, block.y, block.z};
  for (int i = 0; i < 3; ++i) {
    launch.grid[i] = scalar(gridValues[i]);
    launch.block[i] = scalar(blockValues[i]);
    rule.grid[i] = stripParens(expr(gridValues[i]));
    rule.block[i] = stripParens(expr(blockValues[i]));
  }
  if (op.hasClusterSize()) {
    gpu::KernelDim3 cluster = op.getClusterSizeOperandValues();
    Value clusterValues[] = {cluster.x, cluster.y, cluster.z};
    for (int i = 0; i < 3; ++i) {
      launch.cluster[i] = scalar(clusterValues[i]);
      rule.cluster[i] = stripParens(expr(clusterValues[i]));
    }
  }
  launch.dependent = rule.dependent = op->hasAttr(mlir::softmax::kDependentLaunchAttrName);
  rule.sharedBytes = "0";
  if (Value shared = op.getDynamicSharedMemorySize()) {
    launch.sharedBytes = scalar(shared);
    rule.sharedBytes = stripParens(expr(shared));
  }
  for (Value operand : op.getKernelOperands()) {
    HostProgram::Operand packed;
    if (auto type = dyn_cast<MemRefType>(operand.getType())) {
      packed.isMemRef = true;
      packed.slot = memref(operand);
    } else if (std::optional<ScalarType> type = getScalarType(operand.getType())) {
      packed.type = *type;
      packed.slot = scalar(operand);
    } else {
      return op.emitOpError() << "passes a kernel operand of type " << operand.getType()
                              << ", which the C++ API's launcher cannot pack";
    }
    launch.operands.push_back(packed);
  }
  guardsOf(op, rule.guards);
  info.launches.push_back(std::move(rule));
  emit({Opcode::Launch, 0, -1, -1, -1, -1, static_cast<int64_t>(p.launches.size())});
  p.launches.push_back(std::move(launch));
  return success();
}

LogicalResult HostProgramBuilder::emitIf(scf::IfOp op) {
  if (op.getNumResults() != 0)
    return op.emitOpError("with results is not supported by the C++ API's launcher");
  size_t branch = emit({Opcode::BranchIfFalse, 0, -1, scalar(op.getCondition())});
  if (failed(emitBlock(op.getThenRegion().front())))
    return failure();
  if (op.getElseRegion().empty()) {
    p.code[branch].imm = p.code.size();
    return success();
  }
  size_t jump = emit({Opcode::Jump});
  p.code[branch].imm = p.code.size();
  if (failed(emitBlock(op.getElseRegion().front())))
    return failure();
  p.code[jump].imm = p.code.size();
  return success();
}

LogicalResult HostProgramBuilder::emitOp(Operation *op) {
  auto unsupported = [&]() {
    return op->emitOpError(
        "is not supported in host code by the C++ API, which launches the kernels from rules "
        "read at compile time instead of JIT-compiling the host code");
  };
  // Integer and float results need a width the interpreter models.
  auto width = [&](Value v) -> std::optional<unsigned> {
    Type type = v.getType();
    if (type.isIndex() || type.isSignlessInteger(1) || type.isSignlessInteger(8) ||
        type.isSignlessInteger(16) || type.isSignlessInteger(32) || type.isSignlessInteger(64))
      return widthOf(type);
    if (type.isF32() || type.isF64())
      return widthOf(type);
    return std::nullopt;
  };
  auto unary = [&](Opcode opcode, uint8_t aux) -> LogicalResult {
    std::optional<unsigned> w = width(op->getResult(0));
    if (!w || !width(op->getOperand(0)))
      return unsupported();
    emit({opcode, aux, defineScalar(op->getResult(0)), scalar(op->getOperand(0))});
    return success();
  };
  auto binary = [&](Opcode opcode) -> LogicalResult {
    std::optional<unsigned> w = width(op->getResult(0));
    if (!w)
      return unsupported();
    int32_t a = scalar(op->getOperand(0)), b = scalar(op->getOperand(1));
    emit({opcode, static_cast<uint8_t>(*w), defineScalar(op->getResult(0)), a, b});
    return success();
  };

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](arith::ConstantOp c) -> LogicalResult {
        // A float constant of any type is held as its (exact) double: f16 and bf16 ones are
        // compared only (CmpF), as the arguments of those types are.
        if (!width(c.getResult()) && !isa<FloatType>(c.getType()))
          return unsupported();
        int64_t bits;
        if (auto integer = dyn_cast<IntegerAttr>(c.getValue())) {
          bits = integer.getValue().getSExtValue();
        } else if (auto real = dyn_cast<FloatAttr>(c.getValue())) {
          double value = real.getValueAsDouble();
          std::memcpy(&bits, &value, sizeof(bits));
        } else {
          return unsupported();
        }
        emit({Opcode::Constant, 0, defineScalar(c.getResult()), -1, -1, -1, bits});
        return success();
      })
      .Case([&](memref::DimOp dim) -> LogicalResult {
        std::optional<int64_t> index = dim.getConstantIndex();
        if (!index)
          return dim.emitOpError("with a dynamic index is not supported by the C++ API");
        emit({Opcode::Dim, 0, defineScalar(dim.getResult()), memref(dim.getSource()), -1, -1,
              *index});
        return success();
      })
      .Case([&](memref::ExtractStridedMetadataOp meta) -> LogicalResult {
        // The fast-variant dispatch (RowKernel.h) reads offsets, sizes and strides; nothing
        // reads the base buffer, which the interpreter does not model.
        if (!meta.getBaseBuffer().use_empty())
          return unsupported();
        int32_t source = memref(meta.getSource());
        emit({Opcode::Offset, 0, defineScalar(meta.getOffset()), source});
        for (auto [d, size] : llvm::enumerate(meta.getSizes()))
          emit({Opcode::Dim, 0, defineScalar(size), source, -1, -1, static_cast<int64_t>(d)});
        for (auto [d, stride] : llvm::enumerate(meta.getStrides()))
          emit({Opcode::Stride, 0, defineScalar(stride), source, -1, -1,
                static_cast<int64_t>(d)});
        return success();
      })
      .Case([&](memref::ExtractAlignedPointerAsIndexOp pointer) -> LogicalResult {
        emit({Opcode::AlignedPointer, 0, defineScalar(pointer.getResult()),
              memref(pointer.getSource())});
        return success();
      })
      .Case([&](arith::AddIOp) { return binary(Opcode::AddI); })
      .Case([&](arith::SubIOp) { return binary(Opcode::SubI); })
      .Case([&](arith::MulIOp) { return binary(Opcode::MulI); })
      .Case([&](arith::DivUIOp) { return binary(Opcode::DivUI); })
      .Case([&](arith::DivSIOp) { return binary(Opcode::DivSI); })
      .Case([&](arith::CeilDivUIOp) { return binary(Opcode::CeilDivUI); })
      .Case([&](arith::CeilDivSIOp) { return binary(Opcode::CeilDivSI); })
      .Case([&](arith::FloorDivSIOp) { return binary(Opcode::FloorDivSI); })
      .Case([&](arith::RemUIOp) { return binary(Opcode::RemUI); })
      .Case([&](arith::RemSIOp) { return binary(Opcode::RemSI); })
      .Case([&](arith::MinUIOp) { return binary(Opcode::MinUI); })
      .Case([&](arith::MaxUIOp) { return binary(Opcode::MaxUI); })
      .Case([&](arith::MinSIOp) { return binary(Opcode::MinSI); })
      .Case([&](arith::MaxSIOp) { return binary(Opcode::MaxSI); })
      .Case([&](arith::AndIOp) { return binary(Opcode::AndI); })
      .Case([&](arith::OrIOp) { return binary(Opcode::OrI); })
      .Case([&](arith::XOrIOp) { return binary(Opcode::XOrI); })
      .Case([&](arith::ShLIOp) { return binary(Opcode::ShLI); })
      .Case([&](arith::ShRUIOp) { return binary(Opcode::ShRUI); })
      .Case([&](arith::ShRSIOp) { return binary(Opcode::ShRSI); })
      .Case([&](arith::AddFOp) { return binary(Opcode::AddF); })
      .Case([&](arith::SubFOp) { return binary(Opcode::SubF); })
      .Case([&](arith::MulFOp) { return binary(Opcode::MulF); })
      .Case([&](arith::DivFOp) { return binary(Opcode::DivF); })
      .Case<arith::MaximumFOp, arith::MaxNumFOp>([&](auto) { return binary(Opcode::MaxF); })
      .Case<arith::MinimumFOp, arith::MinNumFOp>([&](auto) { return binary(Opcode::MinF); })
      .Case([&](arith::NegFOp neg) { return unary(Opcode::NegF, widthOf(neg.getType())); })
      .Case([&](arith::CmpIOp cmp) -> LogicalResult {
        std::optional<unsigned> w = width(cmp.getLhs());
        if (!w)
          return unsupported();
        emit({Opcode::CmpI, static_cast<uint8_t>(*w), defineScalar(cmp.getResult()),
              scalar(cmp.getLhs()), scalar(cmp.getRhs()), -1,
              static_cast<int64_t>(cmp.getPredicate())});
        return success();
      })
      .Case([&](arith::CmpFOp cmp) -> LogicalResult {
        // Floats of every type are held as double (f16 and bf16 arguments as rounded to
        // their type: HostProgram::bindArguments).
        emit({Opcode::CmpF, 0, defineScalar(cmp.getResult()), scalar(cmp.getLhs()),
              scalar(cmp.getRhs()), -1, static_cast<int64_t>(cmp.getPredicate())});
        return success();
      })
      .Case([&](arith::SelectOp select) -> LogicalResult {
        if (!width(select.getResult()))
          return unsupported();
        emit({Opcode::Select, 0, defineScalar(select.getResult()), scalar(select.getCondition()),
              scalar(select.getTrueValue()), scalar(select.getFalseValue())});
        return success();
      })
      .Case(
          [&](arith::ExtUIOp ext) { return unary(Opcode::ExtUI, widthOf(ext.getIn().getType())); })
      .Case([&](arith::IndexCastUIOp cast) {
        unsigned in = widthOf(cast.getIn().getType()), out = widthOf(cast.getType());
        return in < out ? unary(Opcode::ExtUI, in) : unary(Opcode::Resize, out);
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>([&](Operation *cast) {
        return unary(Opcode::Resize, widthOf(cast->getResult(0).getType()));
      })
      .Case<arith::ExtFOp, arith::TruncFOp>([&](Operation *cast) {
        return unary(Opcode::RoundF, widthOf(cast->getResult(0).getType()));
      })
      .Case([&](arith::SIToFPOp cast) { return unary(Opcode::SIToFP, widthOf(cast.getType())); })
      .Case([&](arith::UIToFPOp cast) -> LogicalResult {
        // The source width matters for the unsigned reading; the result is rounded below.
        if (failed(unary(Opcode::UIToFP, widthOf(cast.getIn().getType()))))
          return failure();
        if (cast.getType().isF32())
          emit({Opcode::RoundF, 32, scalar(cast.getResult()), scalar(cast.getResult())});
        return success();
      })
      .Case([&](arith::FPToSIOp cast) { return unary(Opcode::FPToSI, widthOf(cast.getType())); })
      .Case([&](memref::CastOp cast) -> LogicalResult {
        emit({Opcode::Copy, 0, defineMemRef(cast.getResult()), memref(cast.getSource())});
        return success();
      })
      .Case([&](memref::CollapseShapeOp collapse) -> LogicalResult {
        int64_t at = p.tables.size();
        SmallVector<ReassociationIndices> groups = collapse.getReassociationIndices();
        p.tables.push_back(groups.size());
        for (const ReassociationIndices &group : groups) {
          p.tables.push_back(group.size());
          p.tables.insert(p.tables.end(), group.begin(), group.end());
        }
        emit({Opcode::Collapse, 0, defineMemRef(collapse.getResult()), memref(collapse.getSrc()),
              -1, -1, at});
        return success();
      })
      .Case([&](memref::ExpandShapeOp expand) -> LogicalResult {
        // Per result dimension: its source dimension, then its static size or -1 and a slot.
        int64_t at = p.tables.size();
        SmallVector<OpFoldResult> shape = expand.getMixedOutputShape();
        SmallVector<int64_t> sourceOf(shape.size());
        for (auto [source, group] : llvm::enumerate(expand.getReassociationIndices()))
          for (int64_t result : group)
            sourceOf[result] = source;
        p.tables.push_back(shape.size());
        for (auto [result, size] : llvm::enumerate(shape)) {
          p.tables.push_back(sourceOf[result]);
          if (auto value = dyn_cast<Value>(size)) {
            p.tables.push_back(-1);
            p.tables.push_back(scalar(value));
          } else {
            p.tables.push_back(cast<IntegerAttr>(cast<Attribute>(size)).getInt());
            p.tables.push_back(-1);
          }
        }
        emit({Opcode::Expand, 0, defineMemRef(expand.getResult()), memref(expand.getSrc()), -1, -1,
              at});
        return success();
      })
      .Case([&](gpu::AllocOp alloc) -> LogicalResult {
        MemRefType type = alloc.getType();
        std::optional<ScalarType> element = getScalarType(type.getElementType());
        if (alloc.getHostShared() || !alloc.getSymbolOperands().empty() ||
            !type.getLayout().isIdentity() || !element)
          return unsupported();
        // rank, element bytes, then per dimension its static size or -1 and a slot.
        int64_t at = p.tables.size();
        p.tables.push_back(type.getRank());
        p.tables.push_back(getByteSize(*element));
        std::vector<std::string> factors;
        for (int64_t d = 0; d < type.getRank(); ++d) {
          if (type.isDynamicDim(d)) {
            Value size = alloc.getDynamicSizes()[type.getDynamicDimIndex(d)];
            p.tables.push_back(-1);
            p.tables.push_back(scalar(size));
          } else {
            p.tables.push_back(type.getDimSize(d));
            p.tables.push_back(-1);
          }
          factors.push_back(dimExpr(alloc.getMemref(), d));
        }
        factors.push_back(number(getByteSize(*element)));
        workspaceTerms.push_back("align(" + llvm::join(factors, " * ") + ", 256)");
        p.usesWorkspace = true;
        emit({Opcode::Alloc, 0, defineMemRef(alloc.getMemref()), -1, -1, -1, at});
        return success();
      })
      // Stream order does what the waits and the deallocation asked for.
      .Case<gpu::WaitOp, gpu::DeallocOp, scf::YieldOp>([&](auto) { return success(); })
      .Case([&](gpu::LaunchFuncOp launch) { return emitLaunch(launch); })
      .Case([&](scf::IfOp ifOp) { return emitIf(ifOp); })
      .Case([&](func::ReturnOp) {
        emit({Opcode::Return});
        return success();
      })
      .Default([&](Operation *) { return unsupported(); });
}

LogicalResult HostProgramBuilder::emitBlock(Block &block) {
  for (Operation &op : block) {
    if (failed(emitOp(&op)))
      return failure();
    if (missingValue)
      return op.emitOpError("uses a value the C++ API's launcher does not model");
  }
  return success();
}

LogicalResult HostProgramBuilder::build() {
  p.name = func.getSymName().str();
  info.name = p.name;
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("with more than one block is not supported by the C++ API");
  for (BlockArgument arg : func.getArguments()) {
    ArgumentInfo argument;
    if (auto type = dyn_cast<MemRefType>(arg.getType())) {
      std::optional<ScalarType> element = getScalarType(type.getElementType());
      if (!element || type.getRank() > MemRefValue::kMaxRank)
        return func.emitOpError() << "argument " << arg.getArgNumber() << " of type "
                                  << arg.getType() << " is not supported by the C++ API";
      argument.isTensor = true;
      argument.type = *element;
      for (int64_t size : type.getShape())
        argument.shape.push_back(ShapedType::isDynamic(size) ? kDynamic : size);
      p.argumentSlots.push_back(defineMemRef(arg));
    } else if (std::optional<ScalarType> type = getScalarType(arg.getType())) {
      argument.type = *type;
      p.argumentSlots.push_back(defineScalar(arg));
    } else {
      return func.emitOpError() << "argument " << arg.getArgNumber() << " of type " << arg.getType()
                                << " is not supported by the C++ API";
    }
    info.arguments.push_back(std::move(argument));
  }
  if (failed(emitBlock(func.getBody().front())))
    return failure();
  info.workspaceBytes = workspaceTerms.empty() ? "0" : llvm::join(workspaceTerms, " + ");
  return success();
}

FailureOr<HostProgram> HostProgram::build(func::FuncOp func,
                                          const llvm::StringMap<unsigned> &kernels,
                                          FunctionInfo &info) {
  HostProgram program;
  if (failed(HostProgramBuilder(program, info, func, kernels).build()))
    return failure();
  return program;
}
