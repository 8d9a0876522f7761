//===- Options.h - Options of the C++ API's compile() -----------*- C++ -*-===//

#ifndef SOFTMAX_API_OPTIONS_H
#define SOFTMAX_API_OPTIONS_H

#include <cstdint>
#include <string>

namespace softmax::api {

/// Whether compile() verifies the IR after every pass when CompileOptions::verifyPasses is left
/// at its default: $SOFTMAX_VERIFY_PASSES when set ("0" off, anything else on), otherwise on in
/// builds with assertions and off in release builds. The test configurations set it to 1.
bool getDefaultVerifyPasses();

/// The options of --softmax-to-nvvm (Pipelines.h has their meaning), plus the front door and
/// the compile cache (docs/api.md).
struct CompileOptions {
  std::string chip = "sm_90";
  std::string features = "+ptx80";
  int optLevel = 3;
  /// isa (PTX, JIT-compiled by the driver when loaded), bin (cubin, needs ptxas at compile
  /// time) or fatbin.
  std::string format = "isa";
  int64_t registersPerThread = 0; ///< 0: the chip's
  int64_t threadsPerBlock = 0;    ///< 0: the chip's
  int64_t maxRegisters = 0;       ///< cap on every kernel's nvvm.maxnreg (0: each plan's own)
  /// Run softmax-raise first, for linalg programs from torch-mlir, IREE or upstream.
  bool raise = false;
  /// LLVM's loop strength reduction on the kernels (softmax-set-backend-options). Off saves
  /// a little compile time (1-9% of the back end's) but raises register pressure (some dynamic
  /// 16-bit tiers then spill), so it is on. LLVM keeps it in a process-wide option, which
  /// compile() sets for each compile unless the process's command line gave -disable-lsr.
  bool loopStrengthReduction = true;

  /// Compile each kernel when a call first launches it (or its image is asked for), instead of
  /// every kernel before compile() returns. A dynamic program has a kernel for each dispatch
  /// tier and variant, dozens of them, of which a call launches one or two. Off, a kernel that
  /// fails to compile fails compile(); on, it fails the call that launches it. Does not change
  /// the result.
  bool lazyKernels = true;

  /// Verify the IR after every pass. The input is always verified once, when it is parsed;
  /// verifying after each pass costs ~40% of the pass time and only catches compiler bugs, so
  /// release builds leave it off (getDefaultVerifyPasses). Does not change the result.
  bool verifyPasses = getDefaultVerifyPasses();

  /// The on-disk compile cache: a directory of compiled executables named by their key.
  /// Empty: $SOFTMAX_CACHE_DIR, else $XDG_CACHE_HOME/softmax-compiler, else
  /// ~/.cache/softmax-compiler. "off" (here or in $SOFTMAX_CACHE_DIR) disables it. Does not
  /// change the result.
  std::string cacheDir;

  /// A canonical text of the options that decide the result (not verifyPasses or cacheDir).
  std::string str() const;
};

} // namespace softmax::api

#endif // SOFTMAX_API_OPTIONS_H
