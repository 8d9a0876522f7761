//===- DataFiles.cpp - Inputs and outputs of one run as .npy files --------===//

#include "softmax/Runner/DataFiles.h"

#include "softmax/Runner/Progress.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace softmax::runner;
using llvm::StringRef;

namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text;
  for (int64_t dim : shape)
    text += std::to_string(dim) + "x";
  if (!text.empty())
    text.pop_back();
  return text;
}

/// "4x8xf32" ("f32" for rank 0), as ArgSpec::describe spells a tensor.
std::string describeArray(const NpyArray &array) {
  std::string text;
  for (int64_t dim : array.shape)
    text += std::to_string(dim) + "x";
  return text + getElementName(array.element);
}

bool sameStorage(ElementKind file, ElementKind argument) {
  // index is stored as i64 (the descriptor's width on a 64-bit host).
  return file == argument || (file == ElementKind::I64 && argument == ElementKind::Index);
}

} // namespace

llvm::Expected<std::string> softmax::runner::parseFileArgument(StringRef option, StringRef text) {
  if (text.empty())
    return std::string();
  if (!text.starts_with("@") || text.size() == 1)
    return error("--" + option + "=" + text +
                 ": expected @FILE.npy (or nothing, to skip a result)");
  return text.drop_front().str();
}

llvm::Expected<InputArgument> softmax::runner::parseInputArgument(StringRef text) {
  InputArgument argument;
  argument.text = text.str();
  if (text.starts_with("@")) {
    llvm::Expected<NpyArray> array = readNpy(text.drop_front());
    if (!array)
      return error("--input=" + text + ": " + llvm::toString(array.takeError()));
    argument.file = std::move(*array);
    return argument;
  }
  if (text.trim().getAsDouble(argument.scalar))
    return error("--input=" + text +
                 ": expected @FILE.npy for a tensor or a number for a scalar argument");
  return argument;
}

std::vector<std::string>
softmax::runner::getShapesFromFiles(const std::vector<ArgSpec> &inputs,
                                    llvm::ArrayRef<InputArgument> arguments) {
  std::vector<std::string> shapes;
  for (auto [i, spec] : llvm::enumerate(inputs)) {
    if (!spec.isTensor || !llvm::is_contained(spec.shape, -1))
      continue;
    if (i < arguments.size() && arguments[i].file)
      shapes.push_back(shapeText(arguments[i].file->shape));
  }
  return shapes;
}

llvm::Error softmax::runner::checkInputArguments(const std::vector<ArgSpec> &inputs,
                                                 llvm::ArrayRef<InputArgument> arguments) {
  if (arguments.size() != inputs.size()) {
    std::string names;
    for (const ArgSpec &spec : inputs)
      names += (names.empty() ? "" : ", ") + spec.name + " (" + spec.typeString + ")";
    return error(llvm::Twine(arguments.size()) + " --input option(s) given, but the entry has " +
                 llvm::Twine(inputs.size()) + " argument(s)" +
                 (names.empty() ? std::string() : ": " + names) +
                 " (one --input per argument, in order: @FILE.npy or a scalar value)");
  }
  for (auto [spec, argument] : llvm::zip_equal(inputs, arguments)) {
    if (spec.isTensor == argument.file.has_value())
      continue;
    return error("--input=" + argument.text + " for " + spec.name + " (" + spec.typeString +
                 "): " +
                 (spec.isTensor ? "a tensor argument takes @FILE.npy"
                                : "a scalar argument takes a value, not a file"));
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<std::vector<double>>>
softmax::runner::getInputValues(const std::vector<ArgSpec> &inputs,
                                llvm::ArrayRef<InputArgument> arguments) {
  if (llvm::Error err = checkInputArguments(inputs, arguments))
    return std::move(err);
  std::vector<std::vector<double>> values;
  for (auto [spec, argument] : llvm::zip_equal(inputs, arguments)) {
    std::string where = "--input=" + argument.text + " for " + spec.name + " (" +
                        spec.typeString + ")";
    if (!spec.isTensor) {
      double value = roundToKind(spec.element, argument.scalar);
      if (!isFloatKind(spec.element) && value != argument.scalar)
        return error(where + ": not a value of " + getElementName(spec.element));
      values.push_back({value});
      continue;
    }
    const NpyArray &array = *argument.file;
    if (!sameStorage(array.element, spec.element) || array.shape != spec.shape)
      return error(where + ": the file holds " + describeArray(array) + ", the argument is " +
                   spec.describe());
    std::vector<double> decoded(static_cast<size_t>(array.getNumElements()));
    decodeElements(spec.element, array.data.data(), decoded.size(), decoded.data());
    values.push_back(std::move(decoded));
  }
  return values;
}

llvm::Expected<std::vector<double>> softmax::runner::readExpectedOutput(const ArgSpec &output,
                                                                       StringRef path) {
  llvm::Expected<NpyArray> array = readNpy(path);
  if (!array)
    return error("--expected-output=@" + path + ": " + llvm::toString(array.takeError()));
  std::string where = "--expected-output=@" + path.str() + " for " + output.name + " (" +
                      output.typeString + ")";
  if (!isFloatKind(array->element) || array->shape != output.shape)
    return error(where + ": the file holds " + describeArray(*array) + ", the result is " +
                 output.describe() + " (any float type will do, the shape must be the same)");
  std::vector<double> values(static_cast<size_t>(array->getNumElements()));
  decodeElements(array->element, array->data.data(), values.size(), values.data());
  for (double &value : values)
    value = roundToKind(output.element, value);
  return values;
}

NpyArray softmax::runner::packOutput(const ArgSpec &output, const uint8_t *image,
                                     int64_t stride) {
  NpyArray array;
  array.element = output.element;
  array.shape = output.shape;
  size_t bytes = getElementBytes(output.element);
  int64_t width = output.getRowWidth();
  int64_t count = output.getNumElements();
  int64_t rows = width ? count / width : 0;
  array.data.resize(static_cast<size_t>(count) * bytes);
  for (int64_t r = 0; r < rows; ++r)
    std::memcpy(array.data.data() + r * width * bytes, image + r * stride * bytes, width * bytes);
  return array;
}

llvm::Expected<std::vector<InputArgument>>
softmax::runner::readInputArguments(const RunnerOptions &options) {
  std::vector<InputArgument> arguments;
  for (const std::string &text : options.inputArguments) {
    Phase phase("reading " + text);
    llvm::Expected<InputArgument> argument = parseInputArgument(text);
    if (!argument)
      return argument.takeError();
    arguments.push_back(std::move(*argument));
  }
  return arguments;
}

llvm::Expected<std::vector<std::string>>
softmax::runner::getShapesFromFiles(mlir::func::FuncOp entry,
                                    llvm::ArrayRef<InputArgument> arguments) {
  if (arguments.empty())
    return std::vector<std::string>();
  std::string message;
  llvm::FailureOr<Signature> open =
      resolveSignature(entry, {}, /*allowUnresolved=*/true, message);
  if (failed(open))
    return error(message);
  if (llvm::Error err = checkInputArguments(open->inputs, arguments))
    return std::move(err);
  return getShapesFromFiles(open->inputs, arguments);
}

llvm::Expected<RunFiles>
softmax::runner::resolveRunFiles(const RunnerOptions &options,
                                 const std::vector<Signature> &signatures,
                                 llvm::ArrayRef<InputArgument> inputFiles) {
  RunFiles files;
  if (inputFiles.empty() && options.outputFiles.empty() && options.expectedOutputs.empty())
    return files;
  if (!options.caseList.empty())
    return error("--input, --output and --expected-output describe one run: they cannot be "
                 "combined with --case");
  const Signature &signature = signatures.front();
  if (!inputFiles.empty()) {
    if (!options.inputs.special.names().empty())
      return error("--special changes generated inputs: it cannot be combined with --input");
    if (options.inputSource == InputSource::Device)
      return error("--inputs=device generates the inputs: it cannot be combined with --input");
    llvm::Expected<std::vector<std::vector<double>>> values =
        getInputValues(signature.inputs, inputFiles);
    if (!values)
      return values.takeError();
    files.inputValues = std::move(*values);
  }
  auto paths = [&](StringRef option, const std::vector<std::string> &texts,
                   std::vector<std::string> &out) -> llvm::Error {
    if (texts.size() > signature.outputs.size())
      return error(llvm::Twine(texts.size()) + " --" + option +
                   " option(s) given, but the entry has " +
                   llvm::Twine(signature.outputs.size()) + " result(s)");
    for (const std::string &text : texts) {
      llvm::Expected<std::string> path = parseFileArgument(option, text);
      if (!path)
        return path.takeError();
      out.push_back(*path);
    }
    return llvm::Error::success();
  };
  if (llvm::Error err = paths("output", options.outputFiles, files.outputPaths))
    return std::move(err);
  if (llvm::Error err = paths("expected-output", options.expectedOutputs, files.expectedPaths))
    return std::move(err);
  files.expectedValues.resize(files.expectedPaths.size());
  for (auto [o, path] : llvm::enumerate(files.expectedPaths)) {
    if (path.empty())
      continue;
    Phase phase("reading " + path);
    llvm::Expected<std::vector<double>> values = readExpectedOutput(signature.outputs[o], path);
    if (!values)
      return values.takeError();
    files.expectedValues[o] = std::move(*values);
  }
  return files;
}
