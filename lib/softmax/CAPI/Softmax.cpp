//===- Softmax.cpp - The C API over the C++ API ---------------------------===//
//
// Thin: each function converts its arguments, calls softmax::api, and turns an llvm::Error into
// a softmax_error holding its text. Handles own a shared_ptr to the executable, so releasing a
// handle never invalidates the cache's copy or another handle.
//
//===----------------------------------------------------------------------===//

#include "softmax-c/Softmax.h"

#include "softmax/API/Compile.h"

#include <algorithm>
#include <limits>
#include <new>
#include <string>
#include <vector>

using namespace softmax::api;

static_assert(static_cast<int>(ScalarType::F64) == SOFTMAX_F64 &&
                  static_cast<int>(ScalarType::Index) == SOFTMAX_INDEX &&
                  static_cast<int>(ScalarType::BF16) == SOFTMAX_BF16,
              "softmax_scalar_type mirrors softmax::api::ScalarType");
static_assert(SOFTMAX_MAX_RANK == Argument::kMaxRank, "one rank limit");

struct softmax_error {
  std::string message;
};

struct softmax_executable {
  std::shared_ptr<const Executable> executable;
};

namespace {

softmax_error *makeError(std::string message) {
  return new (std::nothrow) softmax_error{std::move(message)};
}

softmax_error *toError(llvm::Error error) {
  if (!error)
    return nullptr;
  return makeError(llvm::toString(std::move(error)));
}

/// Converts C arguments; reports a malformed one (the C++ API checks the rest).
softmax_error *convert(const softmax_argument *arguments, size_t count,
                       llvm::SmallVectorImpl<Argument> &converted) {
  if (count > 0 && !arguments)
    return makeError("arguments is NULL but num_arguments is " + std::to_string(count));
  for (size_t i = 0; i < count; ++i) {
    const softmax_argument &a = arguments[i];
    switch (a.kind) {
    case SOFTMAX_ARGUMENT_TENSOR:
      if (a.rank < 0 || (a.rank > 0 && !a.sizes))
        return makeError("argument " + std::to_string(i) + ": rank " + std::to_string(a.rank) +
                         " needs that many sizes");
      converted.push_back(Argument::tensor(a.data, llvm::ArrayRef<int64_t>(a.sizes, a.rank),
                                           a.strides ? llvm::ArrayRef<int64_t>(a.strides, a.rank)
                                                     : llvm::ArrayRef<int64_t>()));
      break;
    case SOFTMAX_ARGUMENT_FLOAT:
      converted.push_back(Argument::scalar(a.float_value));
      break;
    case SOFTMAX_ARGUMENT_INT:
      converted.push_back(Argument::integer(a.int_value));
      break;
    default:
      return makeError("argument " + std::to_string(i) + ": unknown kind " +
                       std::to_string(static_cast<int>(a.kind)));
    }
  }
  return nullptr;
}

softmax_error *checkHandle(const softmax_executable *executable, const char *function) {
  if (!executable || !executable->executable)
    return makeError("executable is NULL");
  if (!function)
    return makeError("function is NULL");
  return nullptr;
}

} // namespace

extern "C" {

const char *softmax_error_message(const softmax_error *error) {
  return error ? error->message.c_str() : "";
}

void softmax_error_destroy(softmax_error *error) { delete error; }

void softmax_compile_options_init(softmax_compile_options *options) {
  if (!options)
    return;
  static const CompileOptions defaults;
  options->chip = defaults.chip.c_str();
  options->features = defaults.features.c_str();
  options->opt_level = defaults.optLevel;
  options->format = defaults.format.c_str();
  options->registers_per_thread = defaults.registersPerThread;
  options->threads_per_block = defaults.threadsPerBlock;
  options->raise = defaults.raise;
  options->cache_dir = nullptr;
}

softmax_error *softmax_compile(const char *source, size_t length,
                               const softmax_compile_options *options,
                               softmax_executable **executable) {
  if (!executable)
    return makeError("executable (the result pointer) is NULL");
  *executable = nullptr;
  if (!source && length > 0)
    return makeError("source is NULL");
  CompileOptions converted;
  if (options) {
    if (options->chip)
      converted.chip = options->chip;
    if (options->features)
      converted.features = options->features;
    converted.optLevel = options->opt_level;
    if (options->format)
      converted.format = options->format;
    converted.registersPerThread = options->registers_per_thread;
    converted.threadsPerBlock = options->threads_per_block;
    converted.raise = options->raise != 0;
    if (options->cache_dir)
      converted.cacheDir = options->cache_dir;
  }
  llvm::Expected<std::shared_ptr<const Executable>> compiled =
      compile(llvm::StringRef(source ? source : "", length), converted);
  if (!compiled)
    return toError(compiled.takeError());
  *executable = new (std::nothrow) softmax_executable{std::move(*compiled)};
  return *executable ? nullptr : makeError("out of memory");
}

void softmax_executable_destroy(softmax_executable *executable) { delete executable; }

int softmax_executable_same(const softmax_executable *a, const softmax_executable *b) {
  return a && b && a->executable == b->executable;
}

size_t softmax_cache_size(void) { return getCompileCacheSize(); }

void softmax_cache_clear(void) { clearCompileCache(); }

softmax_error *softmax_executable_ptx(const softmax_executable *executable, const char **ptx,
                                      size_t *size) {
  if (!executable)
    return makeError("executable is NULL");
  if (!ptx)
    return makeError("ptx (the result pointer) is NULL");
  llvm::Expected<llvm::StringRef> text = executable->executable->getPTX();
  if (!text)
    return toError(text.takeError());
  // getPTX() views a std::string, which is NUL-terminated.
  *ptx = text->data();
  if (size)
    *size = text->size();
  return nullptr;
}

softmax_error *softmax_executable_kernel_image(const softmax_executable *executable, size_t index,
                                               const void **image, size_t *size) {
  if (!executable)
    return makeError("executable is NULL");
  if (!image)
    return makeError("image (the result pointer) is NULL");
  llvm::Expected<llvm::StringRef> bytes =
      executable->executable->getKernelImage(static_cast<unsigned>(
          std::min<size_t>(index, std::numeric_limits<unsigned>::max())));
  if (!bytes)
    return toError(bytes.takeError());
  *image = bytes->data();
  if (size)
    *size = bytes->size();
  return nullptr;
}

int softmax_executable_kernel_compiled(const softmax_executable *executable, size_t index) {
  return executable && index < executable->executable->getKernels().size() &&
         executable->executable->isKernelCompiled(static_cast<unsigned>(index));
}

size_t softmax_executable_num_kernels(const softmax_executable *executable) {
  return executable ? executable->executable->getKernels().size() : 0;
}

const char *softmax_executable_kernel(const softmax_executable *executable, size_t index,
                                      int64_t block[3]) {
  if (!executable || index >= executable->executable->getKernels().size())
    return nullptr;
  const KernelInfo &kernel = executable->executable->getKernels()[index];
  if (block)
    for (int i = 0; i < 3; ++i)
      block[i] = kernel.block[i];
  return kernel.name.c_str();
}

size_t softmax_executable_num_functions(const softmax_executable *executable) {
  return executable ? executable->executable->getFunctions().size() : 0;
}

const char *softmax_executable_function(const softmax_executable *executable, size_t index) {
  if (!executable || index >= executable->executable->getFunctions().size())
    return nullptr;
  return executable->executable->getFunctions()[index].name.c_str();
}

int64_t softmax_function_num_arguments(const softmax_executable *executable, const char *function) {
  if (!executable || !function)
    return -1;
  const FunctionInfo *info = executable->executable->lookupFunction(function);
  return info ? static_cast<int64_t>(info->arguments.size()) : -1;
}

softmax_error *softmax_function_argument(const softmax_executable *executable, const char *function,
                                         size_t index, softmax_argument_info *info) {
  if (softmax_error *error = checkHandle(executable, function))
    return error;
  const FunctionInfo *found = executable->executable->lookupFunction(function);
  if (!found)
    return makeError("no function @" + std::string(function) + " in the executable");
  if (index >= found->arguments.size())
    return makeError("@" + std::string(function) + " has " +
                     std::to_string(found->arguments.size()) + " arguments, asked for " +
                     std::to_string(index));
  if (!info)
    return makeError("info is NULL");
  const ArgumentInfo &argument = found->arguments[index];
  info->is_tensor = argument.isTensor;
  info->is_output = argument.isOutput;
  info->type = static_cast<softmax_scalar_type>(argument.type);
  info->rank = static_cast<int>(argument.shape.size());
  for (int d = 0; d < SOFTMAX_MAX_RANK; ++d)
    info->shape[d] = d < info->rank ? argument.shape[d] : 0;
  return nullptr;
}

softmax_error *softmax_plan(const softmax_executable *executable, const char *function,
                            const softmax_argument *arguments, size_t num_arguments,
                            softmax_launch *launches, size_t capacity, size_t *count) {
  if (softmax_error *error = checkHandle(executable, function))
    return error;
  llvm::SmallVector<Argument, 4> converted;
  if (softmax_error *error = convert(arguments, num_arguments, converted))
    return error;
  llvm::Expected<std::vector<Launch>> planned = executable->executable->plan(function, converted);
  if (!planned)
    return toError(planned.takeError());
  if (count)
    *count = planned->size();
  for (size_t i = 0; i < planned->size() && i < capacity && launches; ++i) {
    const Launch &l = (*planned)[i];
    softmax_launch &out = launches[i];
    out.kernel = l.kernel;
    for (int d = 0; d < 3; ++d) {
      out.grid[d] = l.grid[d];
      out.block[d] = l.block[d];
      out.cluster[d] = l.cluster[d];
    }
    out.shared_bytes = l.sharedBytes;
  }
  return nullptr;
}

softmax_error *softmax_workspace_size(const softmax_executable *executable, const char *function,
                                      const softmax_argument *arguments, size_t num_arguments,
                                      uint64_t *bytes) {
  if (softmax_error *error = checkHandle(executable, function))
    return error;
  llvm::SmallVector<Argument, 4> converted;
  if (softmax_error *error = convert(arguments, num_arguments, converted))
    return error;
  llvm::Expected<uint64_t> size = executable->executable->getWorkspaceSize(function, converted);
  if (!size)
    return toError(size.takeError());
  if (bytes)
    *bytes = *size;
  return nullptr;
}

softmax_error *softmax_prepare(const softmax_executable *executable, const char *function,
                               const softmax_argument *arguments, size_t num_arguments) {
  if (softmax_error *error = checkHandle(executable, function))
    return error;
  llvm::SmallVector<Argument, 4> converted;
  if (softmax_error *error = convert(arguments, num_arguments, converted))
    return error;
  return toError(executable->executable->prepare(function, converted));
}

softmax_error *softmax_load(const softmax_executable *executable) {
  if (!executable || !executable->executable)
    return makeError("executable is NULL");
  return toError(executable->executable->load());
}

softmax_error *softmax_run(const softmax_executable *executable, const char *function,
                           const softmax_argument *arguments, size_t num_arguments, void *stream,
                           void *workspace, uint64_t workspace_bytes) {
  if (softmax_error *error = checkHandle(executable, function))
    return error;
  // Small calls stay off the heap: the C++ API's Argument is a plain value.
  llvm::SmallVector<Argument, 4> converted;
  if (softmax_error *error = convert(arguments, num_arguments, converted))
    return error;
  return toError(
      executable->executable->run(function, converted, stream, workspace, workspace_bytes));
}

} // extern "C"
