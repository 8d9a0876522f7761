//===- Progress.cpp - Progress of slow phases on stderr -------------------===//

#include "softmax/Runner/Progress.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

using namespace softmax::runner;

namespace {
std::atomic<double> threshold{1.0};
} // namespace

void Phase::setThreshold(double seconds) { threshold = seconds; }

Phase::Phase(llvm::StringRef what) : what(what.str()), start(std::chrono::steady_clock::now()) {
  double seconds = threshold;
  if (seconds < 0)
    return;
  if (seconds == 0) {
    // Deterministic for the tests: every phase is reported, from this thread.
    std::lock_guard<std::mutex> lock(mutex);
    announce();
    return;
  }
  watcher = std::thread([this, seconds] {
    std::unique_lock<std::mutex> lock(mutex);
    if (!done.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return finished; }))
      announce();
  });
}

void Phase::announce() {
  announced = true;
  llvm::errs() << "softmax-run: " << what << " ...\n";
}

void Phase::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (finished)
      return;
    finished = true;
  }
  done.notify_all();
  if (watcher.joinable())
    watcher.join();
  if (announced) {
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    llvm::errs() << "softmax-run: " << what << ": done in " << llvm::format("%.1f", seconds)
                 << " s\n";
  }
}
