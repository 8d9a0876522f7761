//===- Progress.h - Progress of slow phases on stderr -----------*- C++ -*-===//
//
// Generating 2^28 inputs, evaluating the float64 reference of a 256 MiB tensor or compiling a
// dozen kernels can take seconds to minutes; a silent tool looks hung. A Phase that is still
// running after a threshold (one second by default) says so on stderr, and how long it took when
// it ends; quick phases print nothing, so ordinary runs stay quiet.
//
//   {
//     Phase phase("evaluating the float64 reference");
//     ...
//   } // "softmax-run: evaluating the float64 reference: done in 3.2 s" (if it printed at all)
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_RUNNER_PROGRESS_H
#define SOFTMAX_RUNNER_PROGRESS_H

#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace softmax::runner {

class Phase {
public:
  /// Seconds after which a running phase is reported (0: every phase, at once; < 0: never).
  static void setThreshold(double seconds);

  explicit Phase(llvm::StringRef what);
  Phase(const Phase &) = delete;
  Phase &operator=(const Phase &) = delete;
  ~Phase() { finish(); }

  /// Ends the phase (idempotent): prints its duration if it was reported.
  void finish();

private:
  void announce(); ///< prints "softmax-run: <what> ..." once; call with `mutex` held

  std::string what;
  std::chrono::steady_clock::time_point start;
  std::mutex mutex;
  std::condition_variable done;
  bool finished = false;
  bool announced = false;
  std::thread watcher; ///< waits for the threshold, then announces
};

} // namespace softmax::runner

#endif // SOFTMAX_RUNNER_PROGRESS_H
