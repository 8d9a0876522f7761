//===- CompileCache.cpp - compile()'s key, memory cache and disk cache ----===//
//
// No MLIR here. Files go through llvm::sys::fs; the key and the checksum of an entry are BLAKE3
// digests (llvm/Support/BLAKE3.h), the hash LLVM's own content-addressed storage uses.
//
//===----------------------------------------------------------------------===//

#include "CompileCache.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

#if __has_include(<dlfcn.h>)
#include <dlfcn.h>
#endif

#ifndef SOFTMAX_VERSION
#define SOFTMAX_VERSION "unknown"
#endif

using namespace softmax::api;
namespace fs = llvm::sys::fs;

namespace {

/// Bump when the entry layout (below or in CacheEntry.cpp) changes. 2: kernels as sources,
/// each compiled kernel an entry of its own; 3: launches carry LaunchRule::dependent; 4: the
/// host program's CmpF opcode (a tier for positive scalar factors).
constexpr uint32_t kFormatVersion = 4;
constexpr char kMagic[8] = {'S', 'M', 'X', 'C', 'A', 'C', 'H', 'E'};
/// magic, version, key, payload length, payload checksum.
constexpr size_t kHeaderSize = sizeof(kMagic) + 4 + 32 + 8 + 32;

/// "path size mtime" of a file, or "path absent": what identifies a build of a tool or library
/// without reading it.
std::string describeFile(llvm::StringRef path) {
  fs::file_status status;
  if (path.empty() || fs::status(path, status))
    return (path + " absent").str();
  int64_t modified = status.getLastModificationTime().time_since_epoch().count();
  return (path + " " + llvm::Twine(status.getSize()) + " " + llvm::Twine(modified)).str();
}

/// The binary this code is linked into (libsoftmax-c.so, a tool, a test), found once.
const std::string &getCompilerBuild() {
  static const std::string build = [] {
#if __has_include(<dlfcn.h>)
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&computeCacheKey), &info) && info.dli_fname)
      return describeFile(info.dli_fname);
#endif
    return std::string("unknown build");
  }();
  return build;
}

/// ptxas as MLIR's NVPTX serializer finds it: on PATH, else in the toolkit's bin/.
std::string describePtxas(llvm::StringRef toolkitPath) {
  if (std::optional<std::string> path = llvm::sys::Process::FindInEnvPath("PATH", "ptxas"))
    return describeFile(*path);
  llvm::SmallString<256> path(toolkitPath);
  llvm::sys::path::append(path, "bin", "ptxas");
  return describeFile(toolkitPath.empty() ? llvm::StringRef() : llvm::StringRef(path));
}

std::string describeLibdevice(llvm::StringRef toolkitPath) {
  if (toolkitPath.empty())
    return "no toolkit";
  llvm::SmallString<256> path(toolkitPath);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  return describeFile(path);
}

/// An executable's entry is `<key>.smxc`, a kernel's `<key>.smxk`.
std::string getEntryPath(llvm::StringRef directory, const CacheKey &key,
                         llvm::StringRef extension) {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, toHex(key) + extension);
  return std::string(path);
}

llvm::BLAKE3Result<32> checksum(llvm::StringRef payload) {
  llvm::BLAKE3 hasher;
  hasher.update(payload);
  return hasher.final();
}

} // namespace

CacheKey softmax::api::computeCacheKey(llvm::StringRef pipelineOptions, bool ptxasUsed,
                                       llvm::StringRef toolkitPath, llvm::StringRef source) {
  llvm::BLAKE3 hasher;
  // Each field is length-prefixed, so that no two different inputs hash the same bytes.
  auto field = [&](llvm::StringRef name, llvm::StringRef value) {
    uint64_t size = value.size();
    hasher.update(name);
    hasher.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&size), sizeof size));
    hasher.update(value);
  };
  field("format", std::to_string(kFormatVersion));
  field("softmax", SOFTMAX_VERSION);
  field("llvm", LLVM_VERSION_STRING);
  field("build", getCompilerBuild());
  field("options", pipelineOptions);
  field("libdevice", describeLibdevice(toolkitPath));
  field("ptxas", ptxasUsed ? describePtxas(toolkitPath) : "unused");
  field("source", source);
  return hasher.final();
}

std::string softmax::api::toHex(const CacheKey &key) {
  return llvm::toHex(llvm::ArrayRef<uint8_t>(key), /*LowerCase=*/true);
}

//===----------------------------------------------------------------------===//
// MemoryCache
//===----------------------------------------------------------------------===//

std::shared_ptr<const Executable> MemoryCache::lookup(const CacheKey &key) {
  auto it = index.find(llvm::StringRef(reinterpret_cast<const char *>(key.data()), key.size()));
  if (it == index.end())
    return nullptr;
  // Most recently used first.
  entries.splice(entries.begin(), entries, it->second);
  return it->second->second;
}

std::shared_ptr<const Executable>
MemoryCache::insert(const CacheKey &key, std::shared_ptr<const Executable> executable) {
  std::string name(reinterpret_cast<const char *>(key.data()), key.size());
  if (std::shared_ptr<const Executable> existing = lookup(key))
    return existing;
  if (capacity == 0)
    return executable;
  entries.emplace_front(name, executable);
  index[name] = entries.begin();
  evict();
  return executable;
}

void MemoryCache::clear() {
  index.clear();
  entries.clear();
}

void MemoryCache::setCapacity(size_t newCapacity) {
  capacity = newCapacity;
  evict();
}

void MemoryCache::evict() {
  while (entries.size() > capacity) {
    index.erase(entries.back().first);
    entries.pop_back();
  }
}

//===----------------------------------------------------------------------===//
// Disk cache
//===----------------------------------------------------------------------===//

std::optional<std::string> softmax::api::getCacheDirectory(llvm::StringRef option) {
  std::string chosen = option.str();
  if (chosen.empty())
    if (std::optional<std::string> env = llvm::sys::Process::GetEnv("SOFTMAX_CACHE_DIR"))
      chosen = *env;
  if (chosen == "off")
    return std::nullopt;
  if (!chosen.empty())
    return chosen;
  // $XDG_CACHE_HOME, else ~/.cache.
  llvm::SmallString<256> path;
  if (!llvm::sys::path::cache_directory(path))
    return std::nullopt;
  llvm::sys::path::append(path, "softmax-compiler");
  return std::string(path);
}

namespace {

/// The checked payload of the entry of `key` at `path`, in `file`.
DiskLookup readPayload(const std::string &path, const CacheKey &key,
                       std::unique_ptr<llvm::MemoryBuffer> &file, llvm::StringRef &payload) {
  // Mapped: reading it instead (IsVolatile) took 7.5 ms against 5.9 for a 1.1 MB entry in a new
  // process (one trial, on a loaded machine). Entries are only ever replaced by a rename, which
  // leaves a mapping valid; a program truncating an entry in place while it is read would raise
  // SIGBUS here.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> mapped = llvm::MemoryBuffer::getFile(
      path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!mapped)
    return mapped.getError() == std::errc::no_such_file_or_directory ? DiskLookup::Absent
                                                                     : DiskLookup::Rejected;
  file = std::move(*mapped);
  llvm::StringRef bytes = file->getBuffer();
  if (bytes.size() < kHeaderSize || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return DiskLookup::Rejected;
  const char *p = bytes.data() + sizeof kMagic;
  uint32_t version = llvm::support::endian::read32le(p);
  p += 4;
  if (version != kFormatVersion || std::memcmp(p, key.data(), key.size()) != 0)
    return DiskLookup::Rejected;
  p += key.size();
  uint64_t length = llvm::support::endian::read64le(p);
  p += 8;
  payload = bytes.drop_front(kHeaderSize);
  if (length != payload.size())
    return DiskLookup::Rejected;
  llvm::BLAKE3Result<32> sum = checksum(payload);
  if (std::memcmp(p, sum.data(), sum.size()) != 0)
    return DiskLookup::Rejected;
  return DiskLookup::Hit;
}

/// Writes `payload` as the entry of `key` at `finalPath`: to a temporary file in the same
/// directory, then renamed over the entry.
llvm::Error writePayload(llvm::StringRef directory, const std::string &finalPath,
                         const CacheKey &key, llvm::StringRef payload) {
  if (std::error_code error = fs::create_directories(directory))
    return llvm::createFileError(directory, error);
  std::string entry;
  {
    llvm::raw_string_ostream os(entry);
    llvm::support::endian::Writer writer(os, llvm::endianness::little);
    os.write(kMagic, sizeof kMagic);
    writer.write<uint32_t>(kFormatVersion);
    os.write(reinterpret_cast<const char *>(key.data()), key.size());
    writer.write<uint64_t>(payload.size());
    llvm::BLAKE3Result<32> sum = checksum(payload);
    os.write(reinterpret_cast<const char *>(sum.data()), sum.size());
    os << payload;
  }

  // A unique temporary file in the same directory (so that rename is atomic), renamed over the
  // entry: concurrent writers of one key each rename a complete file, and the last one wins.
  llvm::SmallString<256> tempPath;
  int fd = -1;
  if (std::error_code error =
          fs::createUniqueFile(finalPath + ".%%%%%%%%.tmp", fd, tempPath, fs::OF_None))
    return llvm::createFileError(finalPath + ".*.tmp", error);
  llvm::scope_exit removeTemp([&] { fs::remove(tempPath); });
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << entry;
    os.close();
    // Taken and cleared: a stream destroyed with an error pending aborts the process.
    std::error_code error = os.error();
    os.clear_error();
    if (error)
      return llvm::createFileError(tempPath, error);
  }
  if (std::error_code error = fs::rename(tempPath, finalPath))
    return llvm::createFileError(finalPath, error);
  removeTemp.release();
  return llvm::Error::success();
}

} // namespace

DiskLookup softmax::api::loadEntry(llvm::StringRef directory, const CacheKey &key,
                                   const CompileOptions &options,
                                   std::shared_ptr<const Executable> &executable) {
  std::unique_ptr<llvm::MemoryBuffer> file;
  llvm::StringRef payload;
  DiskLookup lookup = readPayload(getEntryPath(directory, key, ".smxc"), key, file, payload);
  if (lookup != DiskLookup::Hit)
    return lookup;
  llvm::Expected<std::shared_ptr<const Executable>> decoded = decodeExecutable(payload, options);
  if (!decoded) {
    llvm::consumeError(decoded.takeError());
    return DiskLookup::Rejected;
  }
  executable = std::move(*decoded);
  return DiskLookup::Hit;
}

llvm::Error softmax::api::storeEntry(llvm::StringRef directory, const CacheKey &key,
                                     const Executable &executable) {
  return writePayload(directory, getEntryPath(directory, key, ".smxc"), key,
                      encodeExecutable(executable));
}

CacheKey softmax::api::computeKernelKey(const CacheKey &program, unsigned index,
                                        llvm::StringRef name) {
  llvm::BLAKE3 hasher;
  hasher.update(llvm::ArrayRef<uint8_t>(program));
  std::string tail = ("kernel " + llvm::Twine(index) + " " + name).str();
  hasher.update(tail);
  return hasher.final();
}

DiskLookup softmax::api::loadKernelEntry(llvm::StringRef directory, const CacheKey &key,
                                         std::string &image) {
  std::unique_ptr<llvm::MemoryBuffer> file;
  llvm::StringRef payload;
  DiskLookup lookup = readPayload(getEntryPath(directory, key, ".smxk"), key, file, payload);
  if (lookup == DiskLookup::Hit && payload.empty())
    return DiskLookup::Rejected;
  if (lookup == DiskLookup::Hit)
    image = payload.str();
  return lookup;
}

llvm::Error softmax::api::storeKernelEntry(llvm::StringRef directory, const CacheKey &key,
                                           llvm::StringRef image) {
  return writePayload(directory, getEntryPath(directory, key, ".smxk"), key, image);
}
