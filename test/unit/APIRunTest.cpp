//===- APIRunTest.cpp - The C++ API: running on the caller's stream -------===//
//
// Without a GPU, run() and load() must fail with the driver's one-line reason; with one, a
// compiled program runs on a stream the test owns, asynchronously, and matches the reference.
//
//===----------------------------------------------------------------------===//

#include "HaveGpu.h"

#include "softmax/API/Compile.h"
#include "softmax/Runtime/CudaDriver.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <dlfcn.h>
#include <type_traits>
#include <vector>

using namespace softmax::api;
using softmax::runtime::CudaDriver;
using softmax::runtime::CUdeviceptr;
using softmax::runtime::CUstream;

namespace {

/// "" for success, else the error's message (and the error is consumed).
std::string message(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : std::string();
}

constexpr const char *kDynamic = R"mlir(
func.func @dyn(%x: tensor<?x?xf32>, %inv_t: f32) -> tensor<?x?xf32> {
  %s = softmax.scale %x by %inv_t : tensor<?x?xf32>, f32
  %y = softmax.softmax %s : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
)mlir";

TEST(APIRun, WithoutAGpuRunReportsWhy) {
  if (softmax::test::haveGpu())
    GTEST_SKIP() << "a GPU is present; this checks the message where there is none";
  llvm::Expected<std::shared_ptr<const Executable>> exe = compile(kDynamic);
  ASSERT_TRUE(!!exe) << llvm::toString(exe.takeError());
  std::string message = llvm::toString((*exe)->load());
  EXPECT_TRUE(llvm::StringRef(message).starts_with("no CUDA")) << message;
  std::vector<Argument> args = {Argument::tensor(nullptr, {4, 100}), Argument::scalar(1.0),
                                Argument::tensor(nullptr, {4, 100})};
  EXPECT_EQ(llvm::toString((*exe)->run("dyn", args, nullptr)), message);
  // Argument errors come first, GPU or not.
  args.pop_back();
  EXPECT_EQ(llvm::toString((*exe)->run("dyn", args, nullptr)), "@dyn takes 3 arguments, got 2");
}

/// Softmax of each row of `x` scaled by `scale`, in double.
std::vector<float> reference(const std::vector<float> &x, int64_t rows, int64_t width,
                             double scale) {
  std::vector<float> y(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    double max = -INFINITY, sum = 0;
    for (int64_t c = 0; c < width; ++c)
      max = std::max(max, scale * x[r * width + c]);
    for (int64_t c = 0; c < width; ++c)
      sum += std::exp(scale * x[r * width + c] - max);
    for (int64_t c = 0; c < width; ++c)
      y[r * width + c] = std::exp(scale * x[r * width + c] - max) / sum;
  }
  return y;
}

TEST(APIRun, RunsEveryTierOnTheCallersStream) {
  if (!softmax::test::haveGpu())
    GTEST_SKIP() << "no GPU on this machine";
  llvm::Expected<std::shared_ptr<const Executable>> exe = compile(kDynamic);
  ASSERT_TRUE(!!exe) << llvm::toString(exe.takeError());
  ASSERT_EQ(message((*exe)->load()), "");
  CudaDriver &driver = CudaDriver::get();
  CUstream stream = llvm::cantFail(driver.createStream(softmax::runtime::cuda::kStreamNonBlocking));
  for (int64_t width : {7, 100, 1000, 3000, 10000, 30000, 100000}) {
    int64_t rows = 37;
    std::vector<float> x(rows * width);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = static_cast<float>((i * 7919) % 1000) / 100.0f - 5.0f;
    size_t bytes = x.size() * sizeof(float);
    CUdeviceptr in = llvm::cantFail(driver.alloc(bytes));
    CUdeviceptr out = llvm::cantFail(driver.alloc(bytes));
    ASSERT_EQ(message(driver.copyToDevice(in, x.data(), bytes)), "");
    // The copy ran on the legacy stream, which a non-blocking stream does not wait for.
    ASSERT_EQ(message(driver.synchronize()), "");
    std::vector<Argument> args = {Argument::tensor(reinterpret_cast<void *>(in), {rows, width}),
                                  Argument::scalar(0.5),
                                  Argument::tensor(reinterpret_cast<void *>(out), {rows, width})};
    ASSERT_EQ(message((*exe)->run("dyn", args, stream)), "");
    ASSERT_EQ(message(driver.synchronizeStream(stream)), "");
    std::vector<float> y(x.size());
    ASSERT_EQ(message(driver.copyToHost(y.data(), out, bytes)), "");
    std::vector<float> expected = reference(x, rows, width, 0.5);
    double worst = 0;
    for (size_t i = 0; i < y.size(); ++i)
      worst = std::max<double>(worst, std::abs(y[i] - expected[i]) / std::max(1e-30f, expected[i]));
    EXPECT_LT(worst, 1e-5) << "width " << width;
    ASSERT_EQ(message(driver.free(in)), "");
    ASSERT_EQ(message(driver.free(out)), "");
  }
  ASSERT_EQ(message(driver.destroyStream(stream)), "");
}

/// The CUDA graph entry points (not in CudaDriver, which the compiler does not need them for).
struct GraphApi {
  using CUgraph = void *;
  using CUgraphExec = void *;
  int (*beginCapture)(CUstream, int mode) = nullptr; // cuStreamBeginCapture_v2
  int (*endCapture)(CUstream, CUgraph *) = nullptr;
  int (*instantiate)(CUgraphExec *, CUgraph, unsigned long long) = nullptr;
  int (*launch)(CUgraphExec, CUstream) = nullptr;
  int (*destroyExec)(CUgraphExec) = nullptr;
  int (*destroy)(CUgraph) = nullptr;

  bool load() {
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!cuda)
      return false;
    auto get = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(cuda, name));
      return fn != nullptr;
    };
    return get(beginCapture, "cuStreamBeginCapture_v2") && get(endCapture, "cuStreamEndCapture") &&
           get(instantiate, "cuGraphInstantiateWithFlags") && get(launch, "cuGraphLaunch") &&
           get(destroyExec, "cuGraphExecDestroy") && get(destroy, "cuGraphDestroy");
  }
};

/// run() makes only stream-ordered launches: it can be captured in a CUDA graph in the strictest
/// capture mode, and the replayed graph computes the softmax. Also reports run()'s host cost.
TEST(APIRun, CapturesInACudaGraph) {
  if (!softmax::test::haveGpu())
    GTEST_SKIP() << "no GPU on this machine";
  GraphApi graphs;
  ASSERT_TRUE(graphs.load()) << "the driver lacks the CUDA graph entry points";
  llvm::Expected<std::shared_ptr<const Executable>> exe = compile(kDynamic);
  ASSERT_TRUE(!!exe) << llvm::toString(exe.takeError());
  ASSERT_EQ(message((*exe)->load()), ""); // module loading stays out of the capture
  CudaDriver &driver = CudaDriver::get();
  CUstream stream = llvm::cantFail(driver.createStream(softmax::runtime::cuda::kStreamNonBlocking));
  int64_t rows = 64, width = 5000;
  std::vector<float> x(rows * width);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>((i * 104729) % 997) / 50.0f - 10.0f;
  size_t bytes = x.size() * sizeof(float);
  CUdeviceptr in = llvm::cantFail(driver.alloc(bytes));
  CUdeviceptr out = llvm::cantFail(driver.alloc(bytes));
  ASSERT_EQ(message(driver.copyToDevice(in, x.data(), bytes)), "");
  ASSERT_EQ(message(driver.memset8(out, 0, bytes)), "");
  // The copy and memset ran on the legacy stream, which a non-blocking stream does not wait for.
  ASSERT_EQ(message(driver.synchronize()), "");
  std::vector<Argument> args = {Argument::tensor(reinterpret_cast<void *>(in), {rows, width}),
                                Argument::scalar(2.0),
                                Argument::tensor(reinterpret_cast<void *>(out), {rows, width})};

  constexpr int kGlobalCapture = 0; // CU_STREAM_CAPTURE_MODE_GLOBAL
  ASSERT_EQ(graphs.beginCapture(stream, kGlobalCapture), 0);
  std::string runError = message((*exe)->run("dyn", args, stream));
  GraphApi::CUgraph graph = nullptr;
  ASSERT_EQ(graphs.endCapture(stream, &graph), 0);
  ASSERT_EQ(runError, "");
  GraphApi::CUgraphExec instance = nullptr;
  ASSERT_EQ(graphs.instantiate(&instance, graph, 0), 0);
  ASSERT_EQ(graphs.launch(instance, stream), 0);
  ASSERT_EQ(graphs.launch(instance, stream), 0);
  ASSERT_EQ(message(driver.synchronizeStream(stream)), "");
  std::vector<float> y(x.size());
  ASSERT_EQ(message(driver.copyToHost(y.data(), out, bytes)), "");
  std::vector<float> expected = reference(x, rows, width, 2.0);
  for (size_t i = 0; i < y.size(); i += 97)
    ASSERT_NEAR(y[i], expected[i], 1e-5 * expected[i] + 1e-30) << i;

  // Host cost of a call: argument checks, dispatch, packing and the driver's launch.
  constexpr int kCalls = 2000;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i)
    ASSERT_EQ(message((*exe)->run("dyn", args, stream)), "");
  double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
      kCalls;
  ASSERT_EQ(message(driver.synchronizeStream(stream)), "");
  std::printf("run(): %.2f us of host time a call (goal: at most 10)\n", us);
  RecordProperty("run_host_us", std::to_string(us));

  graphs.destroyExec(instance);
  graphs.destroy(graph);
  ASSERT_EQ(message(driver.free(in)), "");
  ASSERT_EQ(message(driver.free(out)), "");
  ASSERT_EQ(message(driver.destroyStream(stream)), "");
}

} // namespace
