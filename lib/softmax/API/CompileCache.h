//===- CompileCache.h - compile()'s caches: key, memory, disk ---*- C++ -*-===//
//
// Internal to SoftmaxAPI. The key is a BLAKE3 digest computed before anything is parsed: a
// memory hit then costs a hash of the program's text, and a disk hit a file read and a decode.
// An executable's entry on disk holds its launch rules and its kernels' sources
// (CacheEntry.cpp), and each kernel compiled so far has an entry of its own holding its image,
// so a later process neither parses nor compiles a known program, and compiles only the kernels
// no process has compiled before.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_LIB_API_COMPILECACHE_H
#define SOFTMAX_LIB_API_COMPILECACHE_H

#include "softmax/API/Executable.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <string>

namespace softmax::api {

using CacheKey = std::array<uint8_t, 32>;

/// The key of a compile: `pipelineOptions` is the canonical text of every option that decides
/// the result (defaults included), `ptxasUsed` whether the format runs ptxas. Also hashed: the
/// cache's format version, the project's version, LLVM's (MLIR's is the same), the build of the
/// compiler itself (the path, size and time of the binary holding this code, so that a rebuilt
/// compiler never reads its predecessor's entries), libdevice (path, size and time; linked when
/// a kernel calls into it), and ptxas as MLIR finds it (path, size and time: running
/// `ptxas --version` costs ~20 ms, four times a disk hit).
/// `toolkitPath` is where MLIR looks for the CUDA toolkit (libdevice, and ptxas after PATH).
CacheKey computeCacheKey(llvm::StringRef pipelineOptions, bool ptxasUsed,
                         llvm::StringRef toolkitPath, llvm::StringRef source);
std::string toHex(const CacheKey &key);

/// A bounded map from keys to executables, least recently used first out. Not thread-safe:
/// compile() holds a lock around it.
class MemoryCache {
public:
  explicit MemoryCache(size_t capacity) : capacity(capacity) {}

  std::shared_ptr<const Executable> lookup(const CacheKey &key);
  /// Inserts `executable` unless `key` is present; returns the one the cache holds (the
  /// earlier one when two threads compiled the same program).
  std::shared_ptr<const Executable> insert(const CacheKey &key,
                                           std::shared_ptr<const Executable> executable);
  size_t size() const { return entries.size(); }
  void clear();
  size_t getCapacity() const { return capacity; }
  void setCapacity(size_t newCapacity);

private:
  using Entry = std::pair<std::string, std::shared_ptr<const Executable>>;
  void evict();

  size_t capacity;
  std::list<Entry> entries; ///< most recently used first
  llvm::StringMap<std::list<Entry>::iterator> index;
};

/// The directory of the disk cache for the option's value (CompileOptions::cacheDir), or none
/// when it is disabled or no directory can be named.
std::optional<std::string> getCacheDirectory(llvm::StringRef option);

/// The outcome of reading an entry.
enum class DiskLookup { Absent, Rejected, Hit };

/// Reads the entry of `key` under `directory` into `executable` (with `options`, the caller's).
/// An entry that fails any check (magic, format version, key, length, checksum, structure) is
/// Rejected and left for storeEntry to replace. The executable's kernels are then compiled
/// when first needed, or read from their own entries (loadKernelEntry).
DiskLookup loadEntry(llvm::StringRef directory, const CacheKey &key, const CompileOptions &options,
                     std::shared_ptr<const Executable> &executable);

/// Writes the entry of `key`: to a temporary file in `directory`, then renamed over the entry,
/// so that a reader sees the old entry, the new one or none, never half of one.
llvm::Error storeEntry(llvm::StringRef directory, const CacheKey &key,
                       const Executable &executable);

/// The key of kernel `index` (named `name`) of the executable of key `program`: each compiled
/// kernel is an entry of its own, written when it is compiled.
CacheKey computeKernelKey(const CacheKey &program, unsigned index, llvm::StringRef name);
/// A compiled kernel's image (PTX, cubin or fatbin), checked like an executable's entry.
DiskLookup loadKernelEntry(llvm::StringRef directory, const CacheKey &key, std::string &image);
llvm::Error storeKernelEntry(llvm::StringRef directory, const CacheKey &key,
                             llvm::StringRef image);

/// Counts a kernel compiled (`diskHit`: read from its entry instead) and what became of its
/// entry, in compile()'s statistics (Compile.cpp).
void recordKernelCompile(bool diskHit, bool written, bool writeFailed);

/// The serialized form of an executable (CacheEntry.cpp), without the entry's header.
std::string encodeExecutable(const Executable &executable);
llvm::Expected<std::shared_ptr<const Executable>> decodeExecutable(llvm::StringRef payload,
                                                                   const CompileOptions &options);

} // namespace softmax::api

#endif // SOFTMAX_LIB_API_COMPILECACHE_H
