//===- Cases.cpp - The cases of one softmax-run invocation ----------------===//

#include "softmax/Runner/Cases.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

using namespace mlir;
using namespace ::softmax::runner;

namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The tensor arguments of `fn` with a dynamic dimension, as "arg0 (tensor<?x?xf16>)".
std::vector<std::string> dynamicTensorArguments(func::FuncOp fn) {
  std::vector<std::string> names;
  for (auto [i, type] : llvm::enumerate(fn.getFunctionType().getInputs()))
    if (auto tensor = dyn_cast<RankedTensorType>(type); tensor && !tensor.hasStaticShape()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      type.print(os);
      names.push_back("arg" + std::to_string(i) + " (" + text + ")");
    }
  return names;
}

/// The shape lists of the cases: one per --case (split at ','), or the --shape list, or the
/// files' shapes.
llvm::Expected<std::vector<std::vector<std::string>>>
collectCases(const RunnerOptions &options, func::FuncOp fn,
             const std::vector<std::string> &fileShapes) {
  if (options.caseList.empty() && options.shapes.empty())
    return std::vector<std::vector<std::string>>{fileShapes};
  if (options.caseList.empty())
    return std::vector<std::vector<std::string>>{options.shapes};
  if (!options.shapes.empty())
    return error("--case and --shape cannot be combined (a --case holds the --shape list of one "
                 "run, joined by ',')");
  std::vector<std::string> dynamic = dynamicTensorArguments(fn);
  if (dynamic.empty() && options.caseList.size() > 1)
    return error("the program has no dynamic dimensions: give --case= (with no shapes) once, "
                 "not " +
                 std::to_string(options.caseList.size()) + " times");
  std::vector<std::vector<std::string>> cases;
  for (const std::string &text : options.caseList) {
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(text).split(parts, ',', -1, /*KeepEmpty=*/false);
    if (parts.size() != dynamic.size()) {
      std::string message = "--case=" + text + " gives " + std::to_string(parts.size()) +
                            " shape(s), but the entry has " + std::to_string(dynamic.size()) +
                            " tensor argument(s) with dynamic dimensions";
      for (auto [i, name] : llvm::enumerate(dynamic))
        message += (i ? ", " : ": ") + name;
      message += " (one full shape each, in argument order, joined by ',')";
      return error(message);
    }
    std::vector<std::string> caseShapes;
    for (llvm::StringRef part : parts)
      caseShapes.push_back(part.trim().str());
    cases.push_back(std::move(caseShapes));
  }
  return cases;
}

std::string prefixOf(const RunnerOptions &options, const std::vector<std::string> &caseShapes) {
  if (options.caseList.empty())
    return "";
  return "--case=" + llvm::join(caseShapes, ",") + ": ";
}

} // namespace

namespace softmax::runner {

llvm::Expected<std::vector<Signature>> resolveCases(const RunnerOptions &options,
                                                    func::FuncOp entry,
                                                    const std::vector<std::string> &fileShapes) {
  llvm::Expected<std::vector<std::vector<std::string>>> cases =
      collectCases(options, entry, fileShapes);
  if (!cases)
    return cases.takeError();
  std::vector<Signature> signatures;
  for (const std::vector<std::string> &caseShapes : *cases) {
    std::string message;
    FailureOr<Signature> signature =
        resolveSignature(entry, caseShapes, options.compileOnly, message);
    if (failed(signature))
      return error(prefixOf(options, caseShapes) + message);
    signatures.push_back(std::move(*signature));
  }
  return signatures;
}

std::string getCasePrefix(const RunnerOptions &options, const Signature &signature) {
  // The --shape list of a resolved signature: its dynamic tensor arguments' shapes.
  std::vector<std::string> shapes;
  for (const ArgSpec &spec : signature.inputs)
    if (spec.isTensor && spec.typeString.find('?') != std::string::npos) {
      std::string text = spec.describe();
      shapes.push_back(text.substr(0, text.rfind('x')));
    }
  return prefixOf(options, shapes);
}

int findFirstFloat(const std::vector<ArgSpec> &inputs) {
  for (auto [i, spec] : llvm::enumerate(inputs))
    if (spec.isTensor && isFloatKind(spec.element))
      return static_cast<int>(i);
  return -1;
}

llvm::Error checkRowStride(const RunnerOptions &options, const Signature &signature) {
  int64_t rowStride = options.rowStride;
  if (rowStride <= 0)
    return llvm::Error::success();
  int firstFloat = findFirstFloat(signature.inputs);
  if (firstFloat < 0)
    return error("--row-stride needs a float tensor argument");
  auto checkWidth = [&](const ArgSpec &spec) {
    return spec.getRowWidth() < 0 || rowStride >= spec.getRowWidth();
  };
  if (!checkWidth(signature.inputs[firstFloat]) || !llvm::all_of(signature.outputs, checkWidth))
    return error("--row-stride=" + std::to_string(rowStride) + " is smaller than a row (" +
                 std::to_string(signature.inputs[firstFloat].getRowWidth()) + " elements)");
  std::vector<ArgSpec> strided = signature.outputs;
  strided.push_back(signature.inputs[firstFloat]);
  for (const ArgSpec &spec : strided)
    if (!llvm::is_contained(spec.shape, -1) && !getAllocatedBytes(spec, rowStride))
      return error(getCasePrefix(options, signature) + "--row-stride=" +
                   std::to_string(rowStride) + ": " + spec.describe() +
                   " with its rows that far apart takes more bytes than fit in 64 bits");
  return llvm::Error::success();
}

llvm::Error checkHostMemory(const RunnerOptions &options, const Signature &signature,
                            bool hostInputs, bool reference) {
  // Doubles: a few overflow-free terms, exact enough for a limit.
  // Only the first float input is laid out at the row stride (checkRowStride checked it).
  int firstFloat = findFirstFloat(signature.inputs);
  double bytes = 0;
  for (auto [i, spec] : llvm::enumerate(signature.inputs))
    if (spec.isTensor && hostInputs)
      bytes += 8.0 * spec.getNumElements() +
               static_cast<double>(*getAllocatedBytes(
                   spec, static_cast<int>(i) == firstFloat ? options.rowStride : 0));
  for (const ArgSpec &spec : signature.outputs) {
    bytes += static_cast<double>(*getAllocatedBytes(spec, options.rowStride));
    if (reference)
      bytes += 16.0 * spec.getNumElements(); // the result and one intermediate in float64
  }
  double physical = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE);
  if (physical <= 0 || bytes <= physical)
    return llvm::Error::success();
  return error(getCasePrefix(options, signature) + "the run needs about " +
               llvm::formatv("{0:F1}", bytes / (1 << 30)).str() +
               " GiB of host memory (inputs and reference in float64), more than this "
               "machine's " +
               llvm::formatv("{0:F1}", physical / (1 << 30)).str() +
               " GiB: use smaller shapes, or --no-check --bench to generate the inputs on the "
               "device");
}

} // namespace softmax::runner
