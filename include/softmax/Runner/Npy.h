//===- Npy.h - NumPy .npy files for the runner's inputs and outputs -*- C++ -*-===//
//
// softmax-run reads its inputs (--input=@x.npy), writes its outputs (--output=@y.npy) and reads
// expected outputs (--expected-output=@ref.npy) as NumPy .npy files, as iree-run-module does,
// so that a program can be run on data from PyTorch or NumPy and its results read back there.
//
// The format (numpy.lib.format): the magic "\x93NUMPY", a version byte pair (1.0: a 2-byte
// header length; 2.0 and 3.0: 4 bytes), then a Python dict literal
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } padded with spaces to a multiple
// of 64 bytes and ended by '\n', then the raw elements. Supported: little-endian ('<', or '|'
// and '=' where byte order does not matter or is the host's), C order, and the element types
//
//   descr  <f8   <f4   <f2   <V2    |b1          |i1  <i2   <i4   <i8
//   type   f64   f32   f16   bf16   i1 (bool)    i8   i16   i32   i64 (and index)
//
// bf16 has no NumPy type of its own: ml_dtypes' bfloat16 (JAX's) saves as '<V2', two raw bytes
// per element; that is the convention here too, both ways, and a '<V2' or '|V2' file is read as
// bf16 (the upper half of the f32 bits). From PyTorch, whose bf16 tensors have no .numpy():
// np.save(f, t.view(torch.int16).numpy().view('V2')), and back:
// torch.from_numpy(np.load(f).view(np.int16)).view(torch.bfloat16). Booleans are one byte, 0 or
// 1; other byte values are an error, as they would be a corrupt mask.
//
// Plain C++ over llvm::Error (no MLIR), so that it is cheap to compile and easy to test.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_NPY_H
#define SOFTMAX_RUNNER_NPY_H

#include "softmax/Runner/Storage.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace softmax::runner {

/// A dense C-order array in its storage bytes (as the device holds it; i1 one byte each).
struct NpyArray {
  ElementKind element = ElementKind::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

  /// The product of the dimensions (1 for rank 0).
  int64_t getNumElements() const;
};

/// The .npy descr of `element` ("<f4", "<V2" for bf16, "<i8" for index, ...).
const char *getNpyDescr(ElementKind element);

/// Parses the contents of a .npy file; `name` (the file's path) starts every error.
llvm::Expected<NpyArray> parseNpy(llvm::StringRef bytes, llvm::StringRef name);
/// Reads and parses the .npy file at `path`.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// The bytes of a version 1.0 .npy file holding `array` (2.0 if the header needs it).
std::string serializeNpy(const NpyArray &array);
/// Writes `array` to `path` as a .npy file.
llvm::Error writeNpy(const NpyArray &array, llvm::StringRef path);

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_NPY_H
