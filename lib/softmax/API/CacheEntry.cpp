//===- CacheEntry.cpp - An Executable as bytes, for the disk cache --------===//
//
// Little-endian, length-prefixed fields in declaration order; no MLIR. The reader checks every
// length against what is left (llvm::BinaryStreamReader) and every index the host program
// follows at run time (opcodes, scalar types, jump targets, launch, kernel and table indices,
// register slots), so that an entry is either decoded whole or rejected. The entry's checksum
// (CompileCache.cpp) already rejects accidental damage; these checks keep a damaged entry that
// slipped past it from becoming an out-of-bounds access at launch.
//
// Bump kFormatVersion in CompileCache.cpp when this layout changes.
//
//===----------------------------------------------------------------------===//

#include "CompileCache.h"
#include "HostProgram.h"
#include "KernelStore.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/BinaryStreamReader.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/raw_ostream.h"

namespace softmax::api {

/// Friend of Executable and HostProgram: reads and writes their private state.
struct ExecutableCodec {
  static std::string encode(const Executable &executable);
  static llvm::Expected<std::shared_ptr<const Executable>> decode(llvm::StringRef payload,
                                                                  const CompileOptions &options);
};

} // namespace softmax::api

using namespace softmax::api;
using llvm::Error;

namespace {

llvm::Error corrupt(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "corrupt compile cache entry: " + what);
}

class Writer {
public:
  explicit Writer(llvm::raw_ostream &os) : os(os), endian(os, llvm::endianness::little) {}
  template <typename T> void integer(T value) { endian.write<T>(value); }
  void string(llvm::StringRef value) {
    integer<uint64_t>(value.size());
    os << value;
  }
  template <typename Range, typename Fn> void list(const Range &range, Fn each) {
    integer<uint64_t>(std::size(range));
    for (const auto &element : range)
      each(element);
  }

private:
  llvm::raw_ostream &os;
  llvm::support::endian::Writer endian;
};

class Reader {
public:
  explicit Reader(llvm::StringRef bytes) : reader(bytes, llvm::endianness::little) {}
  template <typename T> Error integer(T &value) { return reader.readInteger(value); }
  Error string(std::string &value) {
    uint64_t size;
    if (Error e = integer(size))
      return e;
    if (size > reader.bytesRemaining())
      return corrupt("a string runs past the end");
    llvm::StringRef bytes;
    if (Error e = reader.readFixedString(bytes, size))
      return e;
    value = bytes.str();
    return Error::success();
  }
  /// A count of elements, each taking at least `minBytes`: bounded by what is left, so that a
  /// damaged count cannot ask for a huge allocation.
  Error count(uint64_t &n, uint64_t minBytes = 1) {
    if (Error e = integer(n))
      return e;
    if (n > reader.bytesRemaining() / minBytes)
      return corrupt("a count exceeds the entry");
    return Error::success();
  }
  Error scalarType(ScalarType &type) {
    uint8_t raw;
    if (Error e = integer(raw))
      return e;
    if (raw > static_cast<uint8_t>(ScalarType::F64))
      return corrupt("unknown scalar type " + llvm::Twine(raw));
    type = static_cast<ScalarType>(raw);
    return Error::success();
  }
  bool atEnd() const { return reader.bytesRemaining() == 0; }

private:
  llvm::BinaryStreamReader reader;
};

void writeFunction(Writer &w, const FunctionInfo &f) {
  w.string(f.name);
  w.list(f.arguments, [&](const ArgumentInfo &a) {
    w.integer<uint8_t>(a.isTensor);
    w.integer<uint8_t>(a.isOutput);
    w.integer<uint8_t>(static_cast<uint8_t>(a.type));
    w.list(a.shape, [&](int64_t size) { w.integer<int64_t>(size); });
  });
  w.list(f.launches, [&](const LaunchRule &l) {
    w.integer<uint32_t>(l.kernel);
    w.list(l.guards, [&](const std::string &g) { w.string(g); });
    for (const auto *rule : {&l.grid, &l.block, &l.cluster})
      for (const std::string &axis : *rule)
        w.string(axis);
    w.string(l.sharedBytes);
    w.integer<uint8_t>(l.dependent);
  });
  w.string(f.workspaceBytes);
}

Error readFunction(Reader &r, FunctionInfo &f) {
  uint64_t n;
  if (Error e = r.string(f.name))
    return e;
  if (Error e = r.count(n, 3 + 8))
    return e;
  f.arguments.resize(n);
  for (ArgumentInfo &a : f.arguments) {
    uint8_t isTensor, isOutput;
    uint64_t rank;
    if (Error e = r.integer(isTensor))
      return e;
    if (Error e = r.integer(isOutput))
      return e;
    if (Error e = r.scalarType(a.type))
      return e;
    if (Error e = r.count(rank, 8))
      return e;
    a.isTensor = isTensor;
    a.isOutput = isOutput;
    a.shape.resize(rank);
    for (int64_t &size : a.shape)
      if (Error e = r.integer(size))
        return e;
  }
  if (Error e = r.count(n, 4 + 8 + 10 * 8 + 1))
    return e;
  f.launches.resize(n);
  for (LaunchRule &l : f.launches) {
    uint64_t guards;
    if (Error e = r.integer(l.kernel))
      return e;
    if (Error e = r.count(guards, 8))
      return e;
    l.guards.resize(guards);
    for (std::string &g : l.guards)
      if (Error e = r.string(g))
        return e;
    for (auto *rule : {&l.grid, &l.block, &l.cluster})
      for (std::string &axis : *rule)
        if (Error e = r.string(axis))
          return e;
    if (Error e = r.string(l.sharedBytes))
      return e;
    uint8_t dependent;
    if (Error e = r.integer(dependent))
      return e;
    l.dependent = dependent != 0;
  }
  return r.string(f.workspaceBytes);
}

} // namespace

std::string ExecutableCodec::encode(const Executable &executable) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  Writer w(os);
  KernelStore &store = ExecutableInternals::getStore(executable);
  size_t index = 0;
  w.list(executable.kernels, [&](const KernelInfo &k) {
    w.string(store[index++].source);
    w.string(k.name);
    for (int64_t size : k.block)
      w.integer<int64_t>(size);
    w.integer<int64_t>(k.staticSharedBytes);
    w.integer<int64_t>(k.maxRegisters);
    w.list(k.params, [&](const KernelParam &p) {
      w.string(p.name);
      w.integer<uint8_t>(static_cast<uint8_t>(p.type));
    });
  });
  w.list(executable.functions, [&](const FunctionInfo &f) { writeFunction(w, f); });
  // One host program per function, in the same order.
  for (const HostProgram &program : executable.programs) {
    w.list(program.code, [&](const HostProgram::Instr &in) {
      w.integer<uint8_t>(static_cast<uint8_t>(in.op));
      w.integer<uint8_t>(in.aux);
      for (int32_t slot : {in.result, in.a, in.b, in.c})
        w.integer<int32_t>(slot);
      w.integer<int64_t>(in.imm);
    });
    w.list(program.launches, [&](const HostProgram::LaunchInstr &l) {
      w.integer<uint32_t>(l.kernel);
      for (const int32_t *axes : {l.grid, l.block, l.cluster})
        for (int i = 0; i < 3; ++i)
          w.integer<int32_t>(axes[i]);
      w.integer<int32_t>(l.sharedBytes);
      w.integer<uint8_t>(l.dependent);
      w.list(l.operands, [&](const HostProgram::Operand &o) {
        w.integer<uint8_t>(o.isMemRef);
        w.integer<int32_t>(o.slot);
        w.integer<uint8_t>(static_cast<uint8_t>(o.type));
      });
    });
    w.list(program.tables, [&](int64_t v) { w.integer<int64_t>(v); });
    w.list(program.argumentSlots, [&](int32_t v) { w.integer<int32_t>(v); });
    w.integer<uint32_t>(program.numScalars);
    w.integer<uint32_t>(program.numMemRefs);
    w.integer<uint8_t>(program.usesWorkspace);
    w.string(program.name);
  }
  return bytes;
}

llvm::Expected<std::shared_ptr<const Executable>>
ExecutableCodec::decode(llvm::StringRef payload, const CompileOptions &options) {
  Reader r(payload);
  uint64_t n;
  std::vector<KernelInfo> kernels;
  if (Error e = r.count(n, 8 + 8 + 5 * 8 + 8))
    return std::move(e);
  kernels.resize(n);
  std::vector<std::string> sources(n);
  for (auto [k, source] : llvm::zip(kernels, sources)) {
    uint64_t params;
    if (Error e = r.string(source))
      return std::move(e);
    if (source.empty())
      return corrupt("kernel " + llvm::Twine(&k - kernels.data()) + " has no source");
    if (Error e = r.string(k.name))
      return std::move(e);
    for (int64_t &size : k.block)
      if (Error e = r.integer(size))
        return std::move(e);
    if (Error e = r.integer(k.staticSharedBytes))
      return std::move(e);
    if (Error e = r.integer(k.maxRegisters))
      return std::move(e);
    if (Error e = r.count(params, 8 + 1))
      return std::move(e);
    k.params.resize(params);
    for (KernelParam &p : k.params) {
      if (Error e = r.string(p.name))
        return std::move(e);
      if (Error e = r.scalarType(p.type))
        return std::move(e);
    }
  }

  std::vector<FunctionInfo> functions;
  if (Error e = r.count(n, 8 * 4))
    return std::move(e);
  functions.resize(n);
  for (FunctionInfo &f : functions) {
    if (Error e = readFunction(r, f))
      return std::move(e);
    for (const LaunchRule &l : f.launches)
      if (l.kernel >= kernels.size())
        return corrupt("a launch rule names kernel " + llvm::Twine(l.kernel));
  }

  std::vector<HostProgram> programs(functions.size());
  for (auto [program, function] : llvm::zip(programs, functions)) {
    uint64_t count;
    if (Error e = r.count(count, 2 + 4 * 4 + 8))
      return std::move(e);
    program.code.resize(count);
    for (HostProgram::Instr &in : program.code) {
      uint8_t op;
      if (Error e = r.integer(op))
        return std::move(e);
      if (op > static_cast<uint8_t>(HostProgram::Opcode::Return))
        return corrupt("unknown opcode " + llvm::Twine(op));
      in.op = static_cast<HostProgram::Opcode>(op);
      if (Error e = r.integer(in.aux))
        return std::move(e);
      for (int32_t *slot : {&in.result, &in.a, &in.b, &in.c})
        if (Error e = r.integer(*slot))
          return std::move(e);
      if (Error e = r.integer(in.imm))
        return std::move(e);
    }
    if (Error e = r.count(count, 4 + 10 * 4 + 1 + 8))
      return std::move(e);
    program.launches.resize(count);
    for (HostProgram::LaunchInstr &l : program.launches) {
      uint64_t operands;
      if (Error e = r.integer(l.kernel))
        return std::move(e);
      for (int32_t *axes : {l.grid, l.block, l.cluster})
        for (int i = 0; i < 3; ++i)
          if (Error e = r.integer(axes[i]))
            return std::move(e);
      if (Error e = r.integer(l.sharedBytes))
        return std::move(e);
      uint8_t dependent;
      if (Error e = r.integer(dependent))
        return std::move(e);
      l.dependent = dependent != 0;
      if (Error e = r.count(operands, 1 + 4 + 1))
        return std::move(e);
      l.operands.resize(operands);
      for (HostProgram::Operand &o : l.operands) {
        uint8_t isMemRef;
        if (Error e = r.integer(isMemRef))
          return std::move(e);
        o.isMemRef = isMemRef;
        if (Error e = r.integer(o.slot))
          return std::move(e);
        if (Error e = r.scalarType(o.type))
          return std::move(e);
      }
    }
    if (Error e = r.count(count, 8))
      return std::move(e);
    program.tables.resize(count);
    for (int64_t &v : program.tables)
      if (Error e = r.integer(v))
        return std::move(e);
    if (Error e = r.count(count, 4))
      return std::move(e);
    program.argumentSlots.resize(count);
    for (int32_t &v : program.argumentSlots)
      if (Error e = r.integer(v))
        return std::move(e);
    uint32_t numScalars, numMemRefs;
    uint8_t usesWorkspace;
    if (Error e = r.integer(numScalars))
      return std::move(e);
    if (Error e = r.integer(numMemRefs))
      return std::move(e);
    if (Error e = r.integer(usesWorkspace))
      return std::move(e);
    program.numScalars = numScalars;
    program.numMemRefs = numMemRefs;
    program.usesWorkspace = usesWorkspace;
    if (Error e = r.string(program.name))
      return std::move(e);

    // The indices evaluate() follows without checking. A slot is checked against the larger
    // register file: which file an operand uses depends on the opcode, and this is a guard
    // against damage, not a verifier.
    int64_t slots = std::max(program.numScalars, program.numMemRefs);
    auto badSlot = [&](int64_t slot) { return slot < -1 || slot >= slots; };
    for (const HostProgram::Instr &in : program.code) {
      if (badSlot(in.result) || badSlot(in.a) || badSlot(in.b) || badSlot(in.c))
        return corrupt("a register out of range in @" + program.name);
      bool jumps = in.op == HostProgram::Opcode::BranchIfFalse || in.op == HostProgram::Opcode::Jump;
      bool tabled = in.op == HostProgram::Opcode::Collapse ||
                    in.op == HostProgram::Opcode::Expand || in.op == HostProgram::Opcode::Alloc;
      if ((jumps && (in.imm < 0 || static_cast<uint64_t>(in.imm) > program.code.size())) ||
          (tabled && (in.imm < 0 || static_cast<uint64_t>(in.imm) >= program.tables.size())) ||
          (in.op == HostProgram::Opcode::Launch &&
           (in.imm < 0 || static_cast<uint64_t>(in.imm) >= program.launches.size())))
        return corrupt("an instruction's target out of range in @" + program.name);
    }
    for (const HostProgram::LaunchInstr &l : program.launches) {
      if (l.kernel >= kernels.size())
        return corrupt("a launch of kernel " + llvm::Twine(l.kernel) + " in @" + program.name);
      for (const int32_t *axes : {l.grid, l.block, l.cluster})
        for (int i = 0; i < 3; ++i)
          if (badSlot(axes[i]))
            return corrupt("a launch register out of range in @" + program.name);
      if (badSlot(l.sharedBytes) || llvm::any_of(l.operands, [&](const HostProgram::Operand &o) {
            return o.slot < 0 || o.slot >= slots;
          }))
        return corrupt("a launch operand out of range in @" + program.name);
    }
    if (program.argumentSlots.size() != function.arguments.size() ||
        llvm::any_of(program.argumentSlots, [&](int32_t slot) { return slot < 0 || slot >= slots; }))
      return corrupt("the argument slots of @" + program.name);
  }
  if (!r.atEnd())
    return corrupt("bytes after the last field");
  return std::make_shared<const Executable>(options, std::move(kernels), std::move(sources),
                                            std::move(functions), std::move(programs));
}

std::string softmax::api::encodeExecutable(const Executable &executable) {
  return ExecutableCodec::encode(executable);
}

llvm::Expected<std::shared_ptr<const Executable>>
softmax::api::decodeExecutable(llvm::StringRef payload, const CompileOptions &options) {
  return ExecutableCodec::decode(payload, options);
}
