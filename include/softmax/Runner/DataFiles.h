//===- DataFiles.h - Inputs and outputs of one run as .npy files -*- C++ -*-===//
//
// softmax-run's --input, --output and --expected-output, with iree-run-module's conventions:
// one --input per argument in order (@FILE.npy for a tensor, a plain value such as 0.5 for a
// scalar), one --output / --expected-output per result in order (@FILE.npy; an empty one skips
// that result). A file's shape fills the dynamic dimensions its argument's type leaves open, so
// `softmax-run f.mlir --input=@x.npy` needs no --shape.
//
// These functions check the files against the entry's signature and convert between them and
// what the runner handles (doubles for the reference and the upload, device images of outputs).
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_DATAFILES_H
#define SOFTMAX_RUNNER_DATAFILES_H

#include "softmax/Runner/Npy.h"
#include "softmax/Runner/RunnerOptions.h"
#include "softmax/Runner/Signature.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace softmax::runner {

/// One --input: a tensor read from a .npy file, or a scalar's value.
struct InputArgument {
  std::string text;             ///< as given: "@x.npy" or "0.5"
  std::optional<NpyArray> file; ///< @FILE
  double scalar = 0;            ///< a plain value
};

/// Parses one --input (reading the file of an @FILE).
llvm::Expected<InputArgument> parseInputArgument(llvm::StringRef text);

/// The --shape list that the files of `arguments` imply: the shape of every tensor argument of
/// `inputs` (resolved with allowUnresolved, so -1 where dynamic) that has a dynamic dimension,
/// in argument order. Arguments that are not files are left to resolveSignature's errors.
std::vector<std::string> getShapesFromFiles(const std::vector<ArgSpec> &inputs,
                                            llvm::ArrayRef<InputArgument> arguments);

/// Checks that there is one argument per input, a file for each tensor and a value for each
/// scalar (before the shapes are known: `inputs` may hold -1 dimensions).
llvm::Error checkInputArguments(const std::vector<ArgSpec> &inputs,
                                llvm::ArrayRef<InputArgument> arguments);

/// The values of the inputs (as generateInputs returns them: tensors packed, a scalar one
/// value), after checking that there is one argument per input, a file for each tensor with
/// its element type and shape, and a value for each scalar that its type holds exactly.
llvm::Expected<std::vector<std::vector<double>>>
getInputValues(const std::vector<ArgSpec> &inputs, llvm::ArrayRef<InputArgument> arguments);

/// An --expected-output=@FILE for `output`: its values, rounded to the output's storage type as
/// the reference's are. The file may hold any float type (an f32 or f64 reference for an f16
/// output); its shape must be the output's.
llvm::Expected<std::vector<double>> readExpectedOutput(const ArgSpec &output,
                                                       llvm::StringRef path);

/// An output as the device left it (rows `stride` elements apart) packed into an array.
NpyArray packOutput(const ArgSpec &output, const uint8_t *image, int64_t stride);

/// "@FILE" -> "FILE"; an empty string (skip this result) -> ""; anything else fails.
llvm::Expected<std::string> parseFileArgument(llvm::StringRef option, llvm::StringRef text);

/// Reads every --input of `options` (an @FILE's file, a value's number).
llvm::Expected<std::vector<InputArgument>> readInputArguments(const RunnerOptions &options);

/// The --shape list the --input files give `entry` (empty without files), after checking that
/// there is one argument per input of the right kind.
llvm::Expected<std::vector<std::string>>
getShapesFromFiles(mlir::func::FuncOp entry, llvm::ArrayRef<InputArgument> arguments);

/// What --input, --output and --expected-output give the one case of a run.
struct RunFiles {
  /// The values of every argument (instead of generated ones); none without --input.
  std::optional<std::vector<std::vector<double>>> inputValues;
  /// A path per result ("" or missing: not written).
  std::vector<std::string> outputPaths;
  /// A path and the values (rounded to storage) per result ("" and none: not compared).
  std::vector<std::string> expectedPaths;
  std::vector<std::vector<double>> expectedValues;

  bool empty() const { return !inputValues && outputPaths.empty() && expectedPaths.empty(); }
};

/// Checks the data files against the run (one case, no --special or --inputs=device with
/// --input, no more files than results) and reads the inputs' values and expected outputs, all
/// before anything is compiled. `options.inputs.special` must be parsed (verifyRunnerOptions).
llvm::Expected<RunFiles> resolveRunFiles(const RunnerOptions &options,
                                         const std::vector<Signature> &signatures,
                                         llvm::ArrayRef<InputArgument> inputFiles);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_DATAFILES_H
