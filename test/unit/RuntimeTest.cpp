//===- RuntimeTest.cpp - The CUDA driver loader and the mgpu* runtime -----===//
//
// Runs on every machine. Without a GPU (or without a driver) the driver must fail to load with a
// one-line explanation, and the mgpu* functions must record that as their error; the tests that
// need a device then skip. With a GPU, the driver loads and the tests launch a small PTX kernel
// through the mgpu* functions exactly as JIT-compiled host code would.
//
//===----------------------------------------------------------------------===//

#include "softmax/Runtime/CudaDriver.h"
#include "softmax/Runtime/MgpuRuntime.h"

#include "HaveGpu.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

using namespace softmax::runtime;

namespace {

using softmax::test::haveGpu;

/// The first recorded runtime error's message, or "" when there is none; clears it.
std::string takeErrorMessage() {
  llvm::Error error = takeError();
  return error ? llvm::toString(std::move(error)) : std::string();
}

TEST(CudaDriverTest, ErrorNames) {
  EXPECT_EQ(cudaErrorName(0), "CUDA_SUCCESS");
  EXPECT_EQ(cudaErrorName(2), "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_EQ(cudaErrorName(100), "CUDA_ERROR_NO_DEVICE");
  EXPECT_EQ(cudaErrorName(719), "CUDA_ERROR_LAUNCH_FAILED");
  EXPECT_EQ(cudaErrorName(123456), "CUresult 123456");

  // "<what> failed with <NAME>", and the driver's description after it when there is a driver.
  std::string message = formatCudaError(2, "cuMemAlloc_v2");
  EXPECT_EQ(message.rfind("cuMemAlloc_v2 failed with CUDA_ERROR_OUT_OF_MEMORY", 0), 0u) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);

  EXPECT_FALSE(static_cast<bool>(CudaDriver::check(0, "cuInit")));
  llvm::Error error = CudaDriver::check(719, "cuLaunchKernel");
  ASSERT_TRUE(static_cast<bool>(error));
  std::string text = llvm::toString(std::move(error));
  EXPECT_NE(text.find("cuLaunchKernel failed with CUDA_ERROR_LAUNCH_FAILED"), std::string::npos)
      << text;
}

TEST(CudaDriverTest, LoadsOrExplainsWhyNot) {
  llvm::Error error = CudaDriver::get().load();
  if (!error) {
    const DeviceInfo &info = CudaDriver::get().info();
    EXPECT_TRUE(CudaDriver::get().isLoaded());
    EXPECT_FALSE(info.name.empty());
    EXPECT_GT(info.smCount, 0);
    EXPECT_GT(info.l2CacheBytes, 0);
    EXPECT_GT(info.totalMemoryBytes, 0u);
    EXPECT_GE(info.maxSharedBytesPerBlockOptin, 48 * 1024);
    EXPECT_GT(info.driverVersion, 0);
    std::printf("device: %s, sm_%d%d, %d SMs, %d MiB L2, driver %d\n", info.name.c_str(),
                info.computeCapabilityMajor, info.computeCapabilityMinor, info.smCount,
                info.l2CacheBytes >> 20, info.driverVersion);
    return;
  }
  std::string message = llvm::toString(std::move(error));
  std::printf("no GPU here: %s\n", message.c_str());
  EXPECT_FALSE(CudaDriver::get().isLoaded());
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_TRUE(message.rfind("no CUDA driver: ", 0) == 0 ||
              message.rfind("no CUDA device", 0) == 0 ||
              message.rfind("CUDA driver too old: ", 0) == 0)
      << message;

  // A second load gives the same answer, and the mgpu* functions report it as their error.
  llvm::Error again = CudaDriver::get().load();
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_EQ(llvm::toString(std::move(again)), message);

  EXPECT_EQ(mgpuStreamCreate(), nullptr);
  EXPECT_EQ(mgpuMemAlloc(1024, nullptr, false), nullptr); // skipped: the first error stands
  EXPECT_EQ(takeErrorMessage(), "mgpuStreamCreate: " + message);
  EXPECT_EQ(takeErrorMessage(), ""); // taken

  llvm::Expected<CUstream> stream = runtimeStream();
  ASSERT_FALSE(static_cast<bool>(stream));
  EXPECT_EQ(llvm::toString(stream.takeError()), message);
}

TEST(MgpuRuntimeTest, RegistersEveryEntryPoint) {
  std::set<std::string> names;
  registerSymbols([&](llvm::StringRef name, void *address) {
    EXPECT_NE(address, nullptr) << name.str();
    EXPECT_TRUE(names.insert(name.str()).second) << "registered twice: " << name.str();
  });
  // Everything MLIR 22's gpu-to-llvm and gpu.binary translation emit for NVVM targets.
  for (const char *name : {"mgpuModuleLoad",
                           "mgpuModuleLoadJIT",
                           "mgpuModuleUnload",
                           "mgpuModuleGetFunction",
                           "mgpuLaunchKernel",
                           "mgpuLaunchClusterKernel",
                           "mgpuStreamCreate",
                           "mgpuStreamDestroy",
                           "mgpuStreamSynchronize",
                           "mgpuStreamWaitEvent",
                           "mgpuEventCreate",
                           "mgpuEventDestroy",
                           "mgpuEventSynchronize",
                           "mgpuEventRecord",
                           "mgpuMemAlloc",
                           "mgpuMemFree",
                           "mgpuMemcpy",
                           "mgpuMemset16",
                           "mgpuMemset32",
                           "mgpuSetDefaultDevice",
                           "mgpuMemHostRegisterMemRef",
                           "mgpuMemHostUnregisterMemRef"})
    EXPECT_EQ(names.count(name), 1u) << name;
}

TEST(MgpuRuntimeTest, HostRegisterIsReportedAsUnsupported) {
  ASSERT_EQ(takeErrorMessage(), "");
  mgpuMemHostRegisterMemRef(1, nullptr, 4);
  EXPECT_TRUE(hasError());
  std::string message = takeErrorMessage();
  EXPECT_EQ(message.rfind("mgpuMemHostRegisterMemRef: ", 0), 0u) << message;
  EXPECT_NE(message.find("not supported"), std::string::npos) << message;
  EXPECT_FALSE(hasError());
}

//===----------------------------------------------------------------------===//
// On a GPU
//===----------------------------------------------------------------------===//

// out[i] = i for i < n, each value round-tripped through dynamic shared memory at byte offset
// `offset` + 4 * tid, so the launch fails unless the whole requested dynamic shared memory is
// there. PTX for sm_75, JIT-compiled by the driver for the device at hand.
const char *kFillPtx = R"ptx(
.version 7.0
.target sm_75
.address_size 64

.extern .shared .align 16 .b8 dynamicShared[];

.visible .entry fill(
	.param .u64 fill_param_0,
	.param .u32 fill_param_1,
	.param .u32 fill_param_2
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<5>;

	ld.param.u64 %rd1, [fill_param_0];
	ld.param.u32 %r1, [fill_param_1];
	ld.param.u32 %r2, [fill_param_2];
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ntid.x;
	mov.u32 %r5, %tid.x;
	mad.lo.s32 %r6, %r3, %r4, %r5;
	mov.u32 %r7, dynamicShared;
	add.s32 %r7, %r7, %r2;
	shl.b32 %r8, %r5, 2;
	add.s32 %r7, %r7, %r8;
	st.shared.u32 [%r7], %r6;
	bar.sync 0;
	ld.shared.u32 %r9, [%r7];
	setp.ge.s32 %p1, %r6, %r1;
	@%p1 bra DONE;
	cvta.to.global.u64 %rd2, %rd1;
	mul.wide.s32 %rd3, %r6, 4;
	add.s64 %rd4, %rd2, %rd3;
	st.global.u32 [%rd4], %r9;
DONE:
	ret;
}
)ptx";

class GpuTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!haveGpu())
      GTEST_SKIP() << "no GPU on this machine";
    ASSERT_EQ(takeErrorMessage(), "");
  }
};

/// Launches `fill` over `blocks` x `threads` with `smem` bytes of dynamic shared memory (through
/// mgpuLaunchClusterKernel when `cluster` > 0) and checks out[i] == i for i < n and that the rest
/// of the buffer kept its 0xffffffff fill.
void launchFillAndCheck(CUfunction function, int blocks, int threads, int32_t smem,
                        int cluster = 0) {
  const int size = blocks * threads;
  const int n = size - 5;
  CUstream stream = mgpuStreamCreate();
  void *out = mgpuMemAlloc(size * sizeof(uint32_t), stream, /*isHostShared=*/false);
  ASSERT_NE(out, nullptr) << takeErrorMessage();
  mgpuMemset32(out, 0xffffffffu, size, stream);

  uint32_t offset = static_cast<uint32_t>(smem) - 4 * threads; // the end of the dynamic smem
  int32_t count = n;
  void *params[] = {&out, &count, &offset};
  if (cluster > 0)
    mgpuLaunchClusterKernel(function, cluster, 1, 1, blocks, 1, 1, threads, 1, 1, smem, stream,
                            params, nullptr);
  else
    mgpuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, smem, stream, params, nullptr,
                     /*paramsCount=*/3);

  std::vector<uint32_t> host(size, 0);
  mgpuMemcpy(host.data(), out, size * sizeof(uint32_t), stream);
  mgpuStreamSynchronize(stream);
  mgpuMemFree(out, stream);
  mgpuStreamDestroy(stream);
  ASSERT_EQ(takeErrorMessage(), "");
  for (int i = 0; i < size; ++i)
    ASSERT_EQ(host[i], i < n ? static_cast<uint32_t>(i) : 0xffffffffu) << "at " << i;
}

TEST_F(GpuTest, DeviceMemoryAndCopyTiming) {
  CudaDriver &driver = CudaDriver::get();
  const size_t count = 1 << 20;
  llvm::Expected<CUdeviceptr> src = driver.alloc(count * 4);
  ASSERT_TRUE(static_cast<bool>(src)) << llvm::toString(src.takeError());
  llvm::Expected<CUdeviceptr> dst = driver.alloc(count * 4);
  ASSERT_TRUE(static_cast<bool>(dst)) << llvm::toString(dst.takeError());

  std::vector<uint32_t> host(count);
  for (size_t i = 0; i < count; ++i)
    host[i] = static_cast<uint32_t>(i * 7);
  ASSERT_FALSE(static_cast<bool>(driver.copyToDevice(*src, host.data(), count * 4)));
  ASSERT_FALSE(static_cast<bool>(driver.memset32(*dst, 0, count)));

  llvm::Expected<CUstream> stream = runtimeStream();
  ASSERT_TRUE(static_cast<bool>(stream)) << llvm::toString(stream.takeError());
  llvm::Expected<std::vector<float>> times =
      driver.timeDeviceToDeviceCopies(*dst, *src, count * 4, *stream, /*iterations=*/3);
  ASSERT_TRUE(static_cast<bool>(times)) << llvm::toString(times.takeError());
  ASSERT_EQ(times->size(), 3u);
  for (float ms : *times)
    EXPECT_GT(ms, 0.0f);

  std::vector<uint32_t> back(count, 0);
  ASSERT_FALSE(static_cast<bool>(driver.copyToHost(back.data(), *dst, count * 4)));
  EXPECT_EQ(back, host);
  ASSERT_FALSE(static_cast<bool>(driver.memset8(*dst, 0xab, 16)));
  ASSERT_FALSE(static_cast<bool>(driver.copyToHost(back.data(), *dst, 16)));
  EXPECT_EQ(back[0], 0xababababu);
  EXPECT_FALSE(static_cast<bool>(driver.free(*src)));
  EXPECT_FALSE(static_cast<bool>(driver.free(*dst)));
}

TEST_F(GpuTest, LaunchesThroughTheMgpuFunctions) {
  // One runtime-owned stream, whatever the host code creates and destroys.
  CUstream stream = mgpuStreamCreate();
  ASSERT_NE(stream, nullptr) << takeErrorMessage();
  EXPECT_EQ(mgpuStreamCreate(), stream);
  mgpuStreamDestroy(stream);
  llvm::Expected<CUstream> owned = runtimeStream();
  ASSERT_TRUE(static_cast<bool>(owned)) << llvm::toString(owned.takeError());
  EXPECT_EQ(*owned, stream);

  CUmodule module = mgpuModuleLoadJIT(const_cast<char *>(kFillPtx), /*optLevel=*/3);
  ASSERT_NE(module, nullptr) << takeErrorMessage();
  CUfunction fill = mgpuModuleGetFunction(module, "fill");
  ASSERT_NE(fill, nullptr) << takeErrorMessage();

  // 1 KiB, then 64 KiB (above the 48 KiB default: the runtime must raise the function's limit),
  // then the device's maximum, with kernel timing on for the last two.
  launchFillAndCheck(fill, 4, 256, 1024);
  setKernelTiming(true);
  launchFillAndCheck(fill, 4, 256, 64 * 1024);
  launchFillAndCheck(fill, 3, 128, CudaDriver::get().info().maxSharedBytesPerBlockOptin);
  setKernelTiming(false);
  llvm::Expected<std::vector<float>> times = takeKernelTimes();
  ASSERT_TRUE(static_cast<bool>(times)) << llvm::toString(times.takeError());
  ASSERT_EQ(times->size(), 2u);
  EXPECT_GT((*times)[0], 0.0f);
  EXPECT_GT((*times)[1], 0.0f);

  // Thread-block clusters (sm_90 and later).
  if (CudaDriver::get().info().computeCapabilityMajor >= 9 &&
      CudaDriver::get().api().cuLaunchKernelEx)
    launchFillAndCheck(fill, 4, 256, 64 * 1024, /*cluster=*/2);

  mgpuModuleUnload(module);
  EXPECT_EQ(takeErrorMessage(), "");
}

TEST_F(GpuTest, ErrorsNameTheCallAndStopLaterWork) {
  CUmodule module = mgpuModuleLoadJIT(const_cast<char *>(kFillPtx), 2);
  ASSERT_NE(module, nullptr) << takeErrorMessage();

  // Too much dynamic shared memory: caught before the launch, named, and cleared by takeError.
  CUstream stream = mgpuStreamCreate();
  CUfunction fill = mgpuModuleGetFunction(module, "fill");
  int32_t tooMuch = CudaDriver::get().info().maxSharedBytesPerBlockOptin + 16;
  mgpuLaunchKernel(fill, 1, 1, 1, 32, 1, 1, tooMuch, stream, nullptr, nullptr, 0);
  std::string message = takeErrorMessage();
  std::printf("reported: %s\n", message.c_str());
  EXPECT_EQ(message.rfind("mgpuLaunchKernel: ", 0), 0u) << message;
  EXPECT_NE(message.find("dynamic shared memory"), std::string::npos) << message;

  // A driver error: the first one is kept, and later work is skipped.
  EXPECT_EQ(mgpuModuleGetFunction(module, "no_such_kernel"), nullptr);
  EXPECT_EQ(mgpuMemAlloc(64, stream, false), nullptr);
  message = takeErrorMessage();
  std::printf("reported: %s\n", message.c_str());
  EXPECT_EQ(message.rfind("mgpuModuleGetFunction(no_such_kernel): cuModuleGetFunction failed "
                          "with CUDA_ERROR_NOT_FOUND",
                          0),
            0u)
      << message;

  // Broken PTX: the JIT log is part of the one-line message.
  EXPECT_EQ(mgpuModuleLoadJIT(const_cast<char *>(".version 7.0\n.target sm_75\nbogus;\n"), 2),
            nullptr);
  message = takeErrorMessage();
  std::printf("reported: %s\n", message.c_str());
  EXPECT_EQ(message.rfind("mgpuModuleLoadJIT: cuModuleLoadDataEx failed with CUDA_ERROR_", 0), 0u)
      << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;

  mgpuModuleUnload(module);
  EXPECT_EQ(takeErrorMessage(), "");
}

} // namespace
