//===- APICacheTest.cpp - The C++ API's compile cache: memory and disk ----===//
//
// No GPU needed. Hits and misses are read from getCompileCacheStats(), never from timings. Each
// test empties the in-memory cache first and, when it uses the disk, names a fresh directory
// (the test configuration turns the default directory off: SOFTMAX_CACHE_DIR=off).
//
//===----------------------------------------------------------------------===//

#include "softmax/API/Compile.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace softmax::api;
namespace fs = llvm::sys::fs;

namespace {

constexpr const char *kStatic = R"mlir(
func.func @probs(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %y = softmax.softmax %x : tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
)mlir";

constexpr const char *kOther = R"mlir(
func.func @logs(%x: tensor<32x256xf16>) -> tensor<32x256xf16> {
  %y = softmax.log_softmax %x : tensor<32x256xf16>
  return %y : tensor<32x256xf16>
}
)mlir";

/// Dynamic sizes (dispatch between tiers), a host-computed scalar and a workspace buffer for
/// the intermediate: every part of a host program goes through the disk entry.
constexpr const char *kChain = R"mlir(
func.func @two(%x: tensor<4x?x64xf32>, %t: f32) -> tensor<4x?x64xf32> {
  %a = softmax.softmax %x : tensor<4x?x64xf32>
  %t2 = arith.mulf %t, %t : f32
  %b = softmax.scale %a by %t2 : tensor<4x?x64xf32>, f32
  %c = softmax.softmax %b : tensor<4x?x64xf32>
  return %c : tensor<4x?x64xf32>
}
)mlir";

CompileCacheStats delta(const CompileCacheStats &before) {
  CompileCacheStats now = getCompileCacheStats();
  return {now.memoryHits - before.memoryHits,
          now.diskHits - before.diskHits,
          now.misses - before.misses,
          now.diskRejected - before.diskRejected,
          now.diskWrites - before.diskWrites,
          now.diskWriteFailures - before.diskWriteFailures,
          now.kernelCompiles - before.kernelCompiles,
          now.kernelDiskHits - before.kernelDiskHits,
          now.kernelDiskWrites - before.kernelDiskWrites,
          now.kernelDiskWriteFailures - before.kernelDiskWriteFailures};
}

/// Kernel `k`'s image, or the error's text.
std::string imageOf(const Executable &exe, unsigned k) {
  llvm::Expected<llvm::StringRef> image = exe.getKernelImage(k);
  return image ? image->str() : "error: " + llvm::toString(image.takeError());
}

std::shared_ptr<const Executable> compileOrFail(llvm::StringRef source,
                                                const CompileOptions &options) {
  llvm::Expected<std::shared_ptr<const Executable>> executable = compile(source, options);
  if (!executable) {
    ADD_FAILURE() << llvm::toString(executable.takeError());
    return nullptr;
  }
  return *executable;
}

/// A fresh directory for one test, removed with it.
class CacheDirectory {
public:
  CacheDirectory() {
    std::error_code error = fs::createUniqueDirectory("softmax-cache-test", path);
    EXPECT_FALSE(error) << error.message();
  }
  ~CacheDirectory() { fs::remove_directories(path); }
  std::string str() const { return std::string(path); }

  /// The executables' entries in the directory (files ending in .smxc), sorted.
  std::vector<std::string> entries() const { return files(".smxc"); }
  /// The compiled kernels' entries (files ending in .smxk), sorted.
  std::vector<std::string> kernelEntries() const { return files(".smxk"); }

  std::vector<std::string> files(llvm::StringRef extension) const {
    std::vector<std::string> found;
    std::error_code error;
    for (fs::directory_iterator it(path, error), end; !error && it != end; it.increment(error))
      if (llvm::StringRef(it->path()).ends_with(extension))
        found.push_back(it->path());
    llvm::sort(found);
    return found;
  }

private:
  llvm::SmallString<128> path;
};

std::string readFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

void writeFile(llvm::StringRef path, llvm::StringRef bytes) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  ASSERT_FALSE(error) << error.message();
  os << bytes;
}

/// Everything an executable exposes, as text, plus the launches of a few calls: two
/// executables that print the same behave the same.
std::string describe(const Executable &exe) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const KernelInfo &k : exe.getKernels()) {
    os << "kernel " << k.name << " block " << k.block[0] << "," << k.block[1] << ","
       << k.block[2] << " shared " << k.staticSharedBytes << " regs " << k.maxRegisters << "\n";
    for (const KernelParam &p : k.params)
      os << "  param " << p.name << " " << stringify(p.type) << "\n";
  }
  for (const FunctionInfo &f : exe.getFunctions()) {
    os << "function " << f.name << " workspace " << f.workspaceBytes << "\n";
    for (const ArgumentInfo &a : f.arguments) {
      os << "  argument " << a.isTensor << a.isOutput << " " << stringify(a.type);
      for (int64_t size : a.shape)
        os << " " << size;
      os << "\n";
    }
    for (const LaunchRule &l : f.launches) {
      os << "  launch " << l.kernel;
      for (const std::string &g : l.guards)
        os << " [" << g << "]";
      for (const auto *rule : {&l.grid, &l.block, &l.cluster})
        os << " (" << (*rule)[0] << ", " << (*rule)[1] << ", " << (*rule)[2] << ")";
      os << " " << l.sharedBytes << (l.dependent ? " dependent" : "") << "\n";
    }
  }
  return text;
}

std::string describePlan(const Executable &exe, int64_t width) {
  std::vector<Argument> args = {Argument::tensor(nullptr, {4, width, 64}), Argument::scalar(0.5),
                                Argument::tensor(nullptr, {4, width, 64})};
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::Expected<std::vector<Launch>> launches = exe.plan("two", args);
  if (!launches)
    return llvm::toString(launches.takeError());
  for (const Launch &l : *launches)
    os << l.kernel << " " << l.grid[0] << "x" << l.grid[1] << "x" << l.grid[2] << " "
       << l.block[0] << " " << l.sharedBytes << ";";
  llvm::Expected<uint64_t> workspace = exe.getWorkspaceSize("two", args);
  os << " workspace " << (workspace ? *workspace : 0);
  if (!workspace)
    llvm::consumeError(workspace.takeError());
  return text;
}

CompileOptions withDirectory(const CacheDirectory &directory) {
  CompileOptions options;
  options.cacheDir = directory.str();
  return options;
}

TEST(APICache, SecondCompileInProcessIsAMemoryHit) {
  clearCompileCache();
  CompileOptions options;
  options.cacheDir = "off";
  CompileCacheStats before = getCompileCacheStats();
  std::shared_ptr<const Executable> first = compileOrFail(kStatic, options);
  std::shared_ptr<const Executable> second = compileOrFail(kStatic, options);
  ASSERT_TRUE(first && second);
  CompileCacheStats d = delta(before);
  EXPECT_EQ(d.misses, 1u);
  EXPECT_EQ(d.memoryHits, 1u);
  EXPECT_EQ(d.diskHits, 0u);
  EXPECT_EQ(first.get(), second.get());
}

TEST(APICache, MemoryCacheDropsTheLeastRecentlyUsed) {
  clearCompileCache();
  EXPECT_EQ(getCompileCacheCapacity(), kCompileCacheCapacity);
  setCompileCacheCapacity(2);
  llvm::scope_exit restore([] { setCompileCacheCapacity(kCompileCacheCapacity); });
  CompileOptions options;
  options.cacheDir = "off";
  CompileOptions options2 = options;
  options2.optLevel = 2;

  ASSERT_TRUE(compileOrFail(kStatic, options));  // [static]
  ASSERT_TRUE(compileOrFail(kOther, options));   // [other, static]
  ASSERT_TRUE(compileOrFail(kStatic, options));  // hit: [static, other]
  ASSERT_TRUE(compileOrFail(kStatic, options2)); // [static -O2, static]; other dropped
  EXPECT_EQ(getCompileCacheSize(), 2u);
  CompileCacheStats before = getCompileCacheStats();
  ASSERT_TRUE(compileOrFail(kStatic, options));
  EXPECT_EQ(delta(before).memoryHits, 1u);
  before = getCompileCacheStats();
  ASSERT_TRUE(compileOrFail(kOther, options));
  EXPECT_EQ(delta(before).misses, 1u) << "the least recently used entry was kept";

  setCompileCacheCapacity(0);
  EXPECT_EQ(getCompileCacheSize(), 0u);
  before = getCompileCacheStats();
  ASSERT_TRUE(compileOrFail(kOther, options));
  EXPECT_EQ(delta(before).misses, 1u);
  EXPECT_EQ(getCompileCacheSize(), 0u);
}

TEST(APICache, AFreshCacheReadsTheSameExecutableFromDisk) {
  CacheDirectory directory;
  CompileOptions options = withDirectory(directory);
  clearCompileCache();
  CompileCacheStats before = getCompileCacheStats();
  std::shared_ptr<const Executable> compiled = compileOrFail(kChain, options);
  ASSERT_TRUE(compiled);
  CompileCacheStats d = delta(before);
  EXPECT_EQ(d.misses, 1u);
  EXPECT_EQ(d.diskWrites, 1u);
  ASSERT_EQ(directory.entries().size(), 1u);
  // Written through a temporary file, which is gone.
  std::error_code error;
  unsigned files = 0;
  for (fs::directory_iterator it(directory.str(), error), end; !error && it != end;
       it.increment(error))
    ++files;
  EXPECT_EQ(files, 1u);

  // A kernel compiled is written beside it.
  EXPECT_TRUE(directory.kernelEntries().empty()) << "no kernel compiled yet";
  before = getCompileCacheStats();
  std::string image0 = imageOf(*compiled, 0);
  ASSERT_EQ(image0.find("error"), std::string::npos) << image0;
  d = delta(before);
  EXPECT_EQ(d.kernelCompiles, 1u);
  EXPECT_EQ(d.kernelDiskWrites, 1u);
  EXPECT_EQ(directory.kernelEntries().size(), 1u);

  // An empty in-memory cache, as in a new process: the entry is read, nothing compiled; the
  // kernel compiled before is read from its entry, another one is compiled.
  clearCompileCache();
  before = getCompileCacheStats();
  std::shared_ptr<const Executable> loaded = compileOrFail(kChain, options);
  ASSERT_TRUE(loaded);
  d = delta(before);
  EXPECT_EQ(d.diskHits, 1u);
  EXPECT_EQ(d.misses, 0u);
  EXPECT_NE(loaded.get(), compiled.get());
  EXPECT_FALSE(loaded->isKernelCompiled(0));
  EXPECT_EQ(imageOf(*loaded, 0), image0) << "the same PTX, byte for byte";
  ASSERT_GT(loaded->getKernels().size(), 1u);
  EXPECT_EQ(imageOf(*loaded, 1), imageOf(*compiled, 1));
  d = delta(before);
  EXPECT_EQ(d.kernelDiskHits, 2u) << "kernel 0 from its entry, then kernel 1 from compiled's";
  EXPECT_EQ(d.kernelCompiles, 1u) << "kernel 1, compiled by `compiled`";
  llvm::Expected<llvm::StringRef> ptx = loaded->getPTX();
  ASSERT_TRUE(!!ptx) << llvm::toString(ptx.takeError());
  EXPECT_FALSE(ptx->empty());
  EXPECT_EQ(describe(*loaded), describe(*compiled));
  ASSERT_FALSE(compiled->getFunctions()[0].launches.empty());
  // The host program behaves the same: dispatch, grid, shared memory and workspace.
  for (int64_t width : {1, 7, 100, 5000}) {
    EXPECT_EQ(describePlan(*loaded, width), describePlan(*compiled, width)) << width;
    EXPECT_EQ(describePlan(*loaded, width).find("error"), std::string::npos);
  }
  EXPECT_EQ(describePlan(*loaded, 7).find("workspace 0"), std::string::npos)
      << "the intermediate needs a workspace";

  // Then it is in memory again.
  before = getCompileCacheStats();
  ASSERT_TRUE(compileOrFail(kChain, options));
  EXPECT_EQ(delta(before).memoryHits, 1u);
}

TEST(APICache, DependentLaunchesSurviveTheDisk) {
  // row_split's Combine and Normalize are programmatic dependent launches (sm_90): the rule and
  // the planned launch say so, also for an executable read back from the disk cache.
  CacheDirectory directory;
  CompileOptions options = withDirectory(directory);
  const char *split = R"mlir(
func.func @split(%x: tensor<3x1000003xf32>) -> tensor<3x1000003xf32> {
  %y = softmax.softmax %x : tensor<3x1000003xf32>
  return %y : tensor<3x1000003xf32>
}
)mlir";
  auto dependentFlags = [](const Executable &exe) {
    std::string flags;
    for (const LaunchRule &l : exe.getFunctions()[0].launches)
      flags += exe.getKernels()[l.kernel].name + (l.dependent ? ":dependent " : ": ");
    void *in = reinterpret_cast<void *>(uintptr_t(1) << 32);
    void *out = reinterpret_cast<void *>(uintptr_t(1) << 36);
    llvm::Expected<std::vector<Launch>> launches =
        exe.plan("split", {Argument::tensor(in, {3, 1000003}), Argument::tensor(out, {3, 1000003})});
    if (!launches)
      return flags + llvm::toString(launches.takeError());
    flags += "|";
    for (const Launch &l : *launches)
      flags += l.dependent ? " 1" : " 0";
    return flags;
  };
  clearCompileCache();
  std::shared_ptr<const Executable> compiled = compileOrFail(split, options);
  ASSERT_TRUE(compiled);
  std::string flags = dependentFlags(*compiled);
  EXPECT_EQ(flags,
            "split_0_row_split_partial: split_0_row_split_combine:dependent "
            "split_0_row_split_normalize:dependent split_0_row_split_fallback: | 0 1 1");
  clearCompileCache();
  CompileCacheStats before = getCompileCacheStats();
  std::shared_ptr<const Executable> loaded = compileOrFail(split, options);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(delta(before).diskHits, 1u);
  EXPECT_EQ(dependentFlags(*loaded), flags);
}

TEST(APICache, CubinIsCachedOnDisk) {
  CacheDirectory directory;
  CompileOptions options = withDirectory(directory);
  options.format = "bin";
  clearCompileCache();
  std::shared_ptr<const Executable> compiled = compileOrFail(kStatic, options);
  ASSERT_TRUE(compiled);
  std::string cubin = imageOf(*compiled, 0);
  if (llvm::StringRef(cubin).starts_with("error: ") && cubin.find("ptxas") != std::string::npos)
    GTEST_SKIP() << "no ptxas: " << cubin;
  ASSERT_TRUE(llvm::StringRef(cubin).starts_with("\x7f"
                                                 "ELF"))
      << cubin;
  clearCompileCache();
  CompileCacheStats before = getCompileCacheStats();
  std::shared_ptr<const Executable> loaded = compileOrFail(kStatic, options);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(imageOf(*loaded, 0), cubin) << "the same cubin, byte for byte";
  CompileCacheStats d = delta(before);
  EXPECT_EQ(d.diskHits, 1u);
  EXPECT_EQ(d.kernelDiskHits, 1u);
  EXPECT_EQ(d.kernelCompiles, 0u);
  llvm::Expected<llvm::StringRef> ptx = loaded->getPTX();
  ASSERT_TRUE(!!ptx) << llvm::toString(ptx.takeError());
  EXPECT_TRUE(ptx->empty());
}

/// Each way an entry can be wrong: it is not used (a miss, counted as rejected), the program
/// is compiled, and the entry is rewritten so that the next fresh cache hits.
TEST(APICache, DamagedEntriesAreRebuilt) {
  CacheDirectory directory;
  CompileOptions options = withDirectory(directory);
  clearCompileCache();
  std::shared_ptr<const Executable> reference = compileOrFail(kChain, options);
  ASSERT_TRUE(reference);
  ASSERT_EQ(directory.entries().size(), 1u);
  std::string entry = directory.entries()[0];
  std::string good = readFile(entry);
  ASSERT_GT(good.size(), 200u);

  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x20;
  std::string wrongVersion = good;
  wrongVersion[8] ^= 1; // the format version follows the 8-byte magic
  std::string longer = good + "x";
  struct Case {
    const char *name;
    std::string bytes;
  } cases[] = {
      {"empty", ""},
      {"truncated header", good.substr(0, 20)},
      {"truncated payload", good.substr(0, good.size() - 100)},
      {"a flipped bit in the payload", flipped},
      {"another format version", wrongVersion},
      {"trailing bytes", longer},
      {"not an entry", std::string(good.size(), 'x')},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.name);
    writeFile(entry, c.bytes);
    clearCompileCache();
    CompileCacheStats before = getCompileCacheStats();
    std::shared_ptr<const Executable> rebuilt = compileOrFail(kChain, options);
    ASSERT_TRUE(rebuilt);
    CompileCacheStats d = delta(before);
    EXPECT_EQ(d.diskHits, 0u);
    EXPECT_EQ(d.misses, 1u);
    EXPECT_EQ(d.diskRejected, 1u);
    EXPECT_EQ(d.diskWrites, 1u);
    EXPECT_EQ(imageOf(*rebuilt, 0), imageOf(*reference, 0));
    EXPECT_EQ(readFile(entry), good) << "the entry is rewritten";
    clearCompileCache();
    before = getCompileCacheStats();
    ASSERT_TRUE(compileOrFail(kChain, options));
    EXPECT_EQ(delta(before).diskHits, 1u);
  }
}

/// A kernel's entry that fails a check is not used: the kernel is compiled again and the entry
/// rewritten.
TEST(APICache, DamagedKernelEntriesAreRecompiled) {
  CacheDirectory directory;
  CompileOptions options = withDirectory(directory);
  clearCompileCache();
  std::shared_ptr<const Executable> reference = compileOrFail(kStatic, options);
  ASSERT_TRUE(reference);
  std::string image = imageOf(*reference, 0);
  ASSERT_EQ(directory.kernelEntries().size(), 1u);
  std::string entry = directory.kernelEntries()[0];
  std::string good = readFile(entry);
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x20;
  for (const std::string &bad : {std::string(), good.substr(0, 30), flipped, good + "x"}) {
    writeFile(entry, bad);
    clearCompileCache();
    std::shared_ptr<const Executable> rebuilt = compileOrFail(kStatic, options);
    ASSERT_TRUE(rebuilt);
    CompileCacheStats before = getCompileCacheStats();
    EXPECT_EQ(imageOf(*rebuilt, 0), image);
    CompileCacheStats d = delta(before);
    EXPECT_EQ(d.kernelDiskHits, 0u);
    EXPECT_EQ(d.kernelCompiles, 1u);
    EXPECT_EQ(d.kernelDiskWrites, 1u);
    EXPECT_EQ(readFile(entry), good) << "the entry is rewritten";
  }
}

/// A valid entry of another program under this program's name (a copied or renamed file):
/// its key does not match, so it is not used.
TEST(APICache, ForeignEntryIsRebuilt) {
  CacheDirectory directory;
  CompileOptions options = withDirectory(directory);
  clearCompileCache();
  ASSERT_TRUE(compileOrFail(kStatic, options));
  std::vector<std::string> one = directory.entries();
  ASSERT_EQ(one.size(), 1u);
  std::shared_ptr<const Executable> other = compileOrFail(kOther, options);
  ASSERT_TRUE(other);
  std::vector<std::string> two = directory.entries();
  ASSERT_EQ(two.size(), 2u);
  std::string otherEntry = two[0] == one[0] ? two[1] : two[0];
  std::string otherBytes = readFile(otherEntry);
  writeFile(otherEntry, readFile(one[0])); // kStatic's entry under kOther's name

  clearCompileCache();
  CompileCacheStats before = getCompileCacheStats();
  std::shared_ptr<const Executable> rebuilt = compileOrFail(kOther, options);
  ASSERT_TRUE(rebuilt);
  CompileCacheStats d = delta(before);
  EXPECT_EQ(d.diskHits, 0u);
  EXPECT_EQ(d.diskRejected, 1u);
  ASSERT_EQ(rebuilt->getFunctions().size(), 1u);
  EXPECT_EQ(rebuilt->getFunctions()[0].name, "logs") << "not the foreign program";
  EXPECT_EQ(readFile(otherEntry), otherBytes);
}

TEST(APICache, OptionsThatChangeTheResultChangeTheKey) {
  CacheDirectory directory;
  CompileOptions options = withDirectory(directory);
  clearCompileCache();
  ASSERT_TRUE(compileOrFail(kStatic, options));
  CompileOptions opt2 = options;
  opt2.optLevel = 2;
  CompileOptions threads = options;
  threads.threadsPerBlock = 256;
  CompileOptions lsr = options;
  lsr.loopStrengthReduction = false;
  for (const CompileOptions &changed : {opt2, threads, lsr}) {
    EXPECT_NE(changed.str(), options.str());
    CompileCacheStats before = getCompileCacheStats();
    ASSERT_TRUE(compileOrFail(kStatic, changed));
    EXPECT_EQ(delta(before).misses, 1u) << changed.str();
  }
  EXPECT_EQ(directory.entries().size(), 4u);
  EXPECT_NE(options.str().find("loop-strength-reduction=true"), std::string::npos)
      << options.str();

  // Neither the directory nor verification changes the result, so neither is in the key; the
  // defaults are spelled out, so leaving an option unset or setting its default is one key.
  CompileOptions same = options;
  same.verifyPasses = !options.verifyPasses;
  same.cacheDir = directory.str() + "/.";
  same.chip = "sm_90";
  EXPECT_EQ(same.str(), options.str());
  EXPECT_NE(options.str().find("chip=sm_90"), std::string::npos) << options.str();
  EXPECT_NE(options.str().find("opt-level=3"), std::string::npos) << options.str();
  CompileCacheStats before = getCompileCacheStats();
  ASSERT_TRUE(compileOrFail(kStatic, same));
  EXPECT_EQ(delta(before).memoryHits, 1u);

  // One more character of program text is another key.
  before = getCompileCacheStats();
  ASSERT_TRUE(compileOrFail(std::string(kStatic) + "\n", options));
  EXPECT_EQ(delta(before).misses, 1u);
}

TEST(APICache, DirectoryFromTheEnvironmentAndOff) {
  CacheDirectory directory;
  const char *saved = std::getenv("SOFTMAX_CACHE_DIR");
  std::string savedValue = saved ? saved : "";
  llvm::scope_exit restore([&] {
    if (saved)
      setenv("SOFTMAX_CACHE_DIR", savedValue.c_str(), 1);
    else
      unsetenv("SOFTMAX_CACHE_DIR");
  });
  setenv("SOFTMAX_CACHE_DIR", directory.str().c_str(), 1);
  clearCompileCache();
  CompileOptions off;
  off.cacheDir = "off";
  ASSERT_TRUE(compileOrFail(kStatic, off));
  EXPECT_TRUE(directory.entries().empty()) << "cacheDir=off wins over the environment";

  clearCompileCache();
  ASSERT_TRUE(compileOrFail(kStatic, CompileOptions()));
  EXPECT_EQ(directory.entries().size(), 1u) << "the default directory is $SOFTMAX_CACHE_DIR";
}

TEST(APICache, AnUnwritableDirectoryDoesNotFailTheCompile) {
  CacheDirectory directory;
  std::string file = directory.str() + "/a-file";
  writeFile(file, "not a directory");
  CompileOptions options;
  options.cacheDir = file + "/cache";
  clearCompileCache();
  CompileCacheStats before = getCompileCacheStats();
  ASSERT_TRUE(compileOrFail(kStatic, options));
  CompileCacheStats d = delta(before);
  EXPECT_EQ(d.misses, 1u);
  EXPECT_EQ(d.diskWriteFailures, 1u);
  EXPECT_EQ(d.diskWrites, 0u);
}

TEST(APICache, FailedCompilesAreNotWritten) {
  CacheDirectory directory;
  clearCompileCache();
  llvm::Expected<std::shared_ptr<const Executable>> failed =
      compile("func.func @f(", withDirectory(directory));
  ASSERT_FALSE(!!failed);
  llvm::consumeError(failed.takeError());
  EXPECT_TRUE(directory.entries().empty());
  EXPECT_EQ(getCompileCacheSize(), 0u);
}

} // namespace
