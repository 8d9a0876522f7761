//===- Signature.cpp - The entry function's arguments and results ---------===//

#include "softmax/Runner/Signature.h"

#include "softmax/Dialect/Softmax/IR/Softmax.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

#include <optional>

using namespace mlir;
using namespace ::softmax::runner;

int64_t ArgSpec::getNumElements() const {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return -1;
    count *= dim;
  }
  return count;
}

auto ::softmax::runner::getAllocatedBytes(const ArgSpec &spec, int64_t rowStride)
    -> std::optional<int64_t> {
  // Every product is checked: a shape such as 4294967296x4294967296 must be an error, not a
  // wrapped size that allocates a few bytes and is then written far past them.
  int64_t width = spec.getRowWidth();
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < spec.shape.size(); ++d)
    if (llvm::MulOverflow(rows, spec.shape[d], rows))
      return std::nullopt;
  int64_t stride = std::max(rowStride, width);
  int64_t elements, bytes;
  if (spec.shape.size() <= 1)
    elements = stride;
  else if (llvm::MulOverflow(rows, stride, elements))
    return std::nullopt;
  if (llvm::MulOverflow(elements, static_cast<int64_t>(getElementBytes(spec.element)), bytes))
    return std::nullopt;
  return bytes;
}

std::string ArgSpec::describe() const {
  std::string text;
  for (int64_t dim : shape)
    text += (dim < 0 ? std::string("?") : std::to_string(dim)) + "x";
  return text + getElementName(element);
}

auto ::softmax::runner::parseShape(StringRef text, std::string &error)
    -> FailureOr<std::vector<int64_t>> {
  std::vector<int64_t> shape;
  if (text.trim().empty())
    return shape;
  SmallVector<StringRef> parts;
  text.trim().split(parts, 'x');
  for (StringRef part : parts) {
    int64_t dim;
    bool digitsOnly = !part.empty() && part.find_first_not_of("0123456789") == StringRef::npos;
    if (digitsOnly && part.getAsInteger(10, dim)) {
      error = "bad --shape '" + text.str() + "': dimension " + part.str() +
              " does not fit in 64 bits";
      return failure();
    }
    if (part.empty() || part.getAsInteger(10, dim) || dim < 0) {
      error =
          "bad --shape '" + text.str() + "': expected dimensions separated by 'x', e.g. 4096x1024";
      return failure();
    }
    shape.push_back(dim);
  }
  return shape;
}

auto ::softmax::runner::findEntry(ModuleOp module, StringRef name, std::string &error)
    -> FailureOr<func::FuncOp> {
  if (!name.empty()) {
    auto fn = module.lookupSymbol<func::FuncOp>(name);
    if (!fn || fn.isExternal()) {
      std::string known;
      for (auto candidate : module.getOps<func::FuncOp>())
        if (!candidate.isExternal())
          known += (known.empty() ? "" : ", ") + candidate.getSymName().str();
      error = "no function '" + name.str() + "' with a body in the file (functions: " +
              (known.empty() ? std::string("none") : known) + ")";
      return failure();
    }
    return fn;
  }
  SmallVector<func::FuncOp> candidates;
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isExternal() && fn.isPublic())
      candidates.push_back(fn);
  if (candidates.size() == 1)
    return candidates.front();
  if (candidates.empty()) {
    error = "the file has no public function with a body to run";
    return failure();
  }
  error = "the file has " + std::to_string(candidates.size()) +
          " public functions; choose one with --entry=NAME (";
  for (auto [i, fn] : llvm::enumerate(candidates))
    error += (i ? ", " : "") + fn.getSymName().str();
  error += ")";
  return failure();
}

namespace {

std::optional<ElementKind> getElementKind(Type type) {
  if (type.isF64())
    return ElementKind::F64;
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (type.isIndex())
    return ElementKind::Index;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 1:
      return ElementKind::I1;
    case 8:
      return ElementKind::I8;
    case 16:
      return ElementKind::I16;
    case 32:
      return ElementKind::I32;
    case 64:
      return ElementKind::I64;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// What a returned value holds: look through casts to the op that computes it.
OutputKind classify(Value value) {
  Operation *op = value.getDefiningOp();
  while (auto cast = dyn_cast_or_null<mlir::softmax::CastOp>(op))
    op = cast.getInput().getDefiningOp();
  if (isa_and_nonnull<mlir::softmax::SoftmaxOp>(op))
    return OutputKind::Probabilities;
  if (isa_and_nonnull<mlir::softmax::LogSoftmaxOp>(op))
    return OutputKind::LogProbabilities;
  if (auto fused = dyn_cast_or_null<mlir::softmax::FusedOp>(op)) {
    switch (fused.getNormalization()) {
    case mlir::softmax::Normalization::softmax:
      return OutputKind::Probabilities;
    case mlir::softmax::Normalization::log_softmax:
      return OutputKind::LogProbabilities;
    default:
      return OutputKind::Values;
    }
  }
  return OutputKind::Values;
}

/// The axis the softmax that computes a returned value (through casts) normalizes; -1 for
/// values no softmax computes.
int64_t softmaxAxisOf(Value value) {
  Operation *op = value.getDefiningOp();
  while (auto cast = dyn_cast_or_null<mlir::softmax::CastOp>(op))
    op = cast.getInput().getDefiningOp();
  if (auto softmax = dyn_cast_or_null<mlir::softmax::SoftmaxOp>(op))
    return softmax.getNormalizedAxis();
  if (auto logSoftmax = dyn_cast_or_null<mlir::softmax::LogSoftmaxOp>(op))
    return logSoftmax.getNormalizedAxis();
  if (auto fused = dyn_cast_or_null<mlir::softmax::FusedOp>(op))
    return fused.getNormalizedAxis();
  return -1;
}

/// Whether the softmax that computes a returned value (through casts) is over the last axis;
/// true for values no softmax computes.
bool isOverLastAxis(Value value) {
  int64_t axis = softmaxAxisOf(value);
  return axis < 0 || axis == cast<RankedTensorType>(value.getType()).getRank() - 1;
}

/// The function argument a value's shape comes from: every softmax op's result has the shape of
/// its first operand (the input), so follow first operands up to a block argument.
std::optional<unsigned> shapeSource(Value value) {
  for (int depth = 0; depth < 10000; ++depth) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return arg.getArgNumber();
    Operation *op = value.getDefiningOp();
    if (!op || op->getNumOperands() == 0)
      return std::nullopt;
    value = op->getOperand(0);
  }
  return std::nullopt;
}

/// Fails when the bytes of a resolved tensor do not fit in int64.
LogicalResult checkSize(const ArgSpec &spec, std::string &error) {
  if (llvm::is_contained(spec.shape, -1) || getAllocatedBytes(spec, 0))
    return success();
  error = spec.name + " (" + spec.typeString + ") of shape " + spec.describe() +
          " is too large: its size in bytes does not fit in 64 bits";
  return failure();
}

} // namespace

auto ::softmax::runner::resolveSignature(func::FuncOp fn, ArrayRef<std::string> shapes,
                                         bool allowUnresolved, std::string &error)
    -> FailureOr<Signature> {
  Signature signature;
  size_t nextShape = 0;
  FunctionType type = fn.getFunctionType();
  for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
    ArgSpec spec;
    spec.name = "arg" + std::to_string(i);
    spec.typeString = typeToString(argType);
    Type elementType = argType;
    if (auto tensor = dyn_cast<RankedTensorType>(argType)) {
      spec.isTensor = true;
      elementType = tensor.getElementType();
      for (int64_t dim : tensor.getShape())
        spec.shape.push_back(ShapedType::isDynamic(dim) ? -1 : dim);
      if (!tensor.hasStaticShape()) {
        if (nextShape < shapes.size()) {
          FailureOr<std::vector<int64_t>> given = parseShape(shapes[nextShape++], error);
          if (failed(given))
            return failure();
          if (given->size() != spec.shape.size()) {
            error = "--shape=" + shapes[nextShape - 1] + " for " + spec.name + " (" +
                    spec.typeString + ") has rank " + std::to_string(given->size()) +
                    ", expected " + std::to_string(spec.shape.size());
            return failure();
          }
          for (auto [d, dim] : llvm::enumerate(spec.shape)) {
            if (dim >= 0 && dim != (*given)[d]) {
              error = "--shape=" + shapes[nextShape - 1] + " for " + spec.name + " (" +
                      spec.typeString + ") disagrees with its static dimension " +
                      std::to_string(d) + " (" + std::to_string(dim) + ")";
              return failure();
            }
            dim = (*given)[d];
          }
        } else if (!allowUnresolved) {
          error = spec.name + " (" + spec.typeString +
                  ") has dynamic dimensions: give its full shape with --shape=AxB... (one "
                  "--shape per tensor argument with dynamic dimensions, in argument order)";
          return failure();
        }
      }
    } else if (!isa<FloatType, IntegerType, IndexType>(argType)) {
      error = spec.name + " has type " + spec.typeString +
              ", which the runner cannot pass (tensors and float/integer scalars only)";
      return failure();
    }
    std::optional<ElementKind> kind = getElementKind(elementType);
    if (!kind) {
      error = spec.name + " has element type " + typeToString(elementType) +
              ", which the runner cannot store";
      return failure();
    }
    spec.element = *kind;
    if (spec.isTensor && failed(checkSize(spec, error)))
      return failure();
    signature.inputs.push_back(std::move(spec));
  }
  if (nextShape < shapes.size()) {
    error = std::to_string(shapes.size()) + " --shape option(s) given but only " +
            std::to_string(nextShape) +
            " tensor argument(s) have dynamic dimensions (give one --shape per such argument, "
            "in argument order)";
    return failure();
  }

  // The result shapes are read off the func.return; the reference evaluates one straight-line
  // block. Anything else (control flow, an unreachable block after the return) is refused here
  // rather than misread.
  Region &body = fn.getBody();
  if (!body.hasOneBlock()) {
    error = "@" + fn.getSymName().str() + " has " + std::to_string(body.getBlocks().size()) +
            " blocks: the runner runs functions of one block ending in func.return";
    return failure();
  }
  Block &block = body.front();
  auto returnOp = dyn_cast_or_null<func::ReturnOp>(block.empty() ? nullptr : &block.back());
  if (!returnOp) {
    error = "@" + fn.getSymName().str() +
            " does not end in func.return: the runner runs functions of one block ending in "
            "func.return";
    return failure();
  }
  for (auto [i, resultType] : llvm::enumerate(type.getResults())) {
    ArgSpec spec;
    spec.name = "result" + std::to_string(i);
    spec.typeString = typeToString(resultType);
    auto tensor = dyn_cast<RankedTensorType>(resultType);
    std::optional<ElementKind> kind =
        tensor ? getElementKind(tensor.getElementType()) : std::nullopt;
    if (!tensor || !kind || !isFloatKind(*kind)) {
      error = spec.name + " has type " + spec.typeString +
              ": the runner checks float tensor results only";
      return failure();
    }
    spec.isTensor = true;
    spec.element = *kind;
    std::optional<unsigned> source = shapeSource(returnOp.getOperand(i));
    for (auto [d, dim] : llvm::enumerate(tensor.getShape())) {
      if (!ShapedType::isDynamic(dim)) {
        spec.shape.push_back(dim);
        continue;
      }
      int64_t size = -1;
      if (source && signature.inputs[*source].getRank() == tensor.getRank())
        size = signature.inputs[*source].shape[d];
      if (size < 0 && !allowUnresolved) {
        error = spec.name + " (" + spec.typeString +
                "): cannot tell the run-time size of dimension " + std::to_string(d);
        return failure();
      }
      spec.shape.push_back(size);
    }
    if (failed(checkSize(spec, error)))
      return failure();
    signature.outputs.push_back(std::move(spec));
    signature.outputKinds.push_back(classify(returnOp.getOperand(i)));
    signature.outputsOverLastAxis.push_back(isOverLastAxis(returnOp.getOperand(i)));
    signature.outputAxes.push_back(softmaxAxisOf(returnOp.getOperand(i)));
  }
  return signature;
}
