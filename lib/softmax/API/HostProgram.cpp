//===- HostProgram.cpp - Evaluating a host function's launch rules --------===//
//
// The run-time half of HostProgram: binds a call's arguments, runs the instructions and reports
// each launch. No MLIR here; it runs on every call, so it allocates only its register files.
//
//===----------------------------------------------------------------------===//

#include "HostProgram.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace softmax::api;
using llvm::Twine;

llvm::StringRef softmax::api::stringify(ScalarType type) {
  switch (type) {
  case ScalarType::I1:
    return "i1";
  case ScalarType::I8:
    return "i8";
  case ScalarType::I16:
    return "i16";
  case ScalarType::I32:
    return "i32";
  case ScalarType::I64:
    return "i64";
  case ScalarType::Index:
    return "index";
  case ScalarType::F16:
    return "f16";
  case ScalarType::BF16:
    return "bf16";
  case ScalarType::F32:
    return "f32";
  case ScalarType::F64:
    return "f64";
  }
  return "?";
}

unsigned softmax::api::getByteSize(ScalarType type) {
  switch (type) {
  case ScalarType::I1:
  case ScalarType::I8:
    return 1;
  case ScalarType::I16:
  case ScalarType::F16:
  case ScalarType::BF16:
    return 2;
  case ScalarType::I32:
  case ScalarType::F32:
    return 4;
  case ScalarType::I64:
  case ScalarType::Index:
  case ScalarType::F64:
    return 8;
  }
  return 8;
}

namespace {

llvm::Error error(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

bool isFloat(ScalarType type) {
  return type == ScalarType::F16 || type == ScalarType::BF16 || type == ScalarType::F32 ||
         type == ScalarType::F64;
}

unsigned bitWidth(ScalarType type) { return type == ScalarType::I1 ? 1 : 8 * getByteSize(type); }

/// Integers are kept sign-extended from their width: `v` normalised to `width` bits.
int64_t sext(uint64_t v, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(v);
  unsigned shift = 64 - width;
  return static_cast<int64_t>(v << shift) >> shift;
}

/// The unsigned reading of a `width`-bit integer.
uint64_t zext(int64_t v, unsigned width) {
  if (width >= 64)
    return static_cast<uint64_t>(v);
  return static_cast<uint64_t>(v) & ((uint64_t(1) << width) - 1);
}

double asDouble(int64_t bits) {
  double v;
  std::memcpy(&v, &bits, sizeof(v));
  return v;
}

int64_t asBits(double v, unsigned width) {
  if (width == 32)
    v = static_cast<float>(v);
  int64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return bits;
}

/// `value` rounded to f16 or bf16 (`type`), to nearest even.
llvm::APFloat toHalf(double value, ScalarType type) {
  llvm::APFloat f(value);
  bool lost;
  f.convert(type == ScalarType::F16 ? llvm::APFloat::IEEEhalf() : llvm::APFloat::BFloat(),
            llvm::APFloat::rmNearestTiesToEven, &lost);
  return f;
}

/// The value of a scalar parameter as the kernel reads it (`bits` in the first bytes).
uint64_t paramBits(int64_t value, ScalarType type) {
  switch (type) {
  case ScalarType::F32: {
    float f = static_cast<float>(asDouble(value));
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    return bits;
  }
  case ScalarType::F16:
  case ScalarType::BF16:
    return toHalf(asDouble(value), type).bitcastToAPInt().getZExtValue();
  case ScalarType::F64:
    return static_cast<uint64_t>(value);
  default:
    return zext(value, bitWidth(type));
  }
}

} // namespace

llvm::Error HostProgram::bindArguments(const FunctionInfo &info, llvm::ArrayRef<Argument> args,
                                       Frame &frame) const {
  if (args.size() != info.arguments.size())
    return error("@" + name + " takes " + Twine(info.arguments.size()) + " arguments, got " +
                 Twine(args.size()));
  for (auto [i, expected] : llvm::enumerate(info.arguments)) {
    const Argument &arg = args[i];
    std::string what = ("@" + name + ": argument " + Twine(i)).str();
    if (expected.isTensor != arg.isTensor)
      return error(
          what + (expected.isTensor ? " is a tensor, got a scalar" : " is a scalar, got a tensor"));
    int32_t slot = argumentSlots[i];
    if (!arg.isTensor) {
      if (isFloat(expected.type)) {
        double value = arg.isFloat ? arg.floatValue : static_cast<double>(arg.intValue);
        // As the program's type holds it: the launch rules may compare it (a tier for positive
        // scalar factors only), and an f16 value of 1e-10 is zero to the kernels.
        if (expected.type == ScalarType::F16 || expected.type == ScalarType::BF16) {
          llvm::APFloat rounded = toHalf(value, expected.type);
          bool lost;
          rounded.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
          value = rounded.convertToDouble();
        }
        frame.scalars[slot] = asBits(value, expected.type == ScalarType::F32 ? 32 : 64);
      } else {
        if (arg.isFloat)
          return error(what + " is an integer (" + stringify(expected.type) +
                       "), got a floating-point value");
        frame.scalars[slot] = sext(arg.intValue, bitWidth(expected.type));
      }
      continue;
    }
    size_t rank = expected.shape.size();
    if (arg.rank != rank)
      return error(what + " has rank " + Twine(rank) + ", got " + Twine(arg.rank) + " sizes");
    if (arg.stridesMismatch)
      return error(what + " has rank " + Twine(rank) + ", but the strides are not " + Twine(rank) +
                   " values");
    MemRefValue &m = frame.memrefs[slot];
    m.allocated = m.aligned = static_cast<const char *>(arg.data);
    m.offset = 0;
    m.rank = rank;
    int64_t contiguous = 1;
    for (size_t d = rank; d-- > 0;) {
      int64_t size = arg.sizes[d];
      if (size < 0)
        return error(what + ": size " + Twine(d) + " is negative (" + Twine(size) + ")");
      if (expected.shape[d] != kDynamic && expected.shape[d] != size)
        return error(what + ": size " + Twine(d) + " is " + Twine(expected.shape[d]) +
                     " in the program, got " + Twine(size));
      m.sizes[d] = size;
      m.strides[d] = arg.hasStrides ? arg.strides[d] : contiguous;
      contiguous *= size;
    }
    // The kernels address rows as contiguous vectors (memref<..., strided<[?, ..., 1]>>).
    if (rank > 0 && m.strides[rank - 1] != 1)
      return error(what + ": the innermost stride must be 1, got " + Twine(m.strides[rank - 1]));
  }
  return llvm::Error::success();
}

llvm::Error HostProgram::evaluate(const FunctionInfo &info, llvm::ArrayRef<Argument> args,
                                  const char *workspace, uint64_t &workspaceBytes,
                                  LaunchCallback onLaunch) const {
  Frame frame;
  frame.scalars.resize(numScalars);
  frame.memrefs.resize(numMemRefs);
  if (llvm::Error e = bindArguments(info, args, frame))
    return e;
  int64_t *s = frame.scalars.data();
  MemRefValue *m = frame.memrefs.data();
  uint64_t cursor = 0;

  auto divisionByZero = [&]() {
    return error("@" + name +
                 ": division by zero in the launch rules (a size of 0 where the "
                 "program divides by it)");
  };

  for (size_t pc = 0; pc < code.size();) {
    const Instr &in = code[pc++];
    unsigned w = in.aux;
    bool scalarOperands = in.op >= Opcode::AddI && in.op <= Opcode::RoundF;
    int64_t a = scalarOperands && in.a >= 0 ? s[in.a] : 0;
    int64_t b = scalarOperands && in.b >= 0 ? s[in.b] : 0;
    uint64_t ua = zext(a, w), ub = zext(b, w);
    switch (in.op) {
    case Opcode::Constant:
      s[in.result] = in.imm;
      break;
    case Opcode::Dim:
      s[in.result] = m[in.a].sizes[in.imm];
      break;
    case Opcode::Stride:
      s[in.result] = m[in.a].strides[in.imm];
      break;
    case Opcode::Offset:
      s[in.result] = m[in.a].offset;
      break;
    case Opcode::AlignedPointer:
      s[in.result] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(m[in.a].aligned));
      break;
    case Opcode::AddI:
      s[in.result] = sext(ua + ub, w);
      break;
    case Opcode::SubI:
      s[in.result] = sext(ua - ub, w);
      break;
    case Opcode::MulI:
      s[in.result] = sext(ua * ub, w);
      break;
    case Opcode::DivUI:
    case Opcode::CeilDivUI:
    case Opcode::RemUI:
      if (ub == 0)
        return divisionByZero();
      s[in.result] = sext(in.op == Opcode::DivUI   ? ua / ub
                          : in.op == Opcode::RemUI ? ua % ub
                                                   : (ua == 0 ? 0 : (ua - 1) / ub + 1),
                          w);
      break;
    case Opcode::DivSI:
    case Opcode::CeilDivSI:
    case Opcode::FloorDivSI:
    case Opcode::RemSI:
      if (b == 0)
        return divisionByZero();
      if (b == -1 && a == std::numeric_limits<int64_t>::min())
        return error("@" + name + ": signed division overflow in the launch rules");
      s[in.result] = sext(in.op == Opcode::DivSI       ? a / b
                          : in.op == Opcode::RemSI     ? a % b
                          : in.op == Opcode::CeilDivSI ? llvm::divideCeilSigned(a, b)
                                                       : llvm::divideFloorSigned(a, b),
                          w);
      break;
    case Opcode::MinUI:
      s[in.result] = ua < ub ? a : b;
      break;
    case Opcode::MaxUI:
      s[in.result] = ua > ub ? a : b;
      break;
    case Opcode::MinSI:
      s[in.result] = std::min(a, b);
      break;
    case Opcode::MaxSI:
      s[in.result] = std::max(a, b);
      break;
    case Opcode::AndI:
      s[in.result] = a & b;
      break;
    case Opcode::OrI:
      s[in.result] = a | b;
      break;
    case Opcode::XOrI:
      s[in.result] = a ^ b;
      break;
    case Opcode::ShLI:
      s[in.result] = ub >= w ? 0 : sext(ua << ub, w);
      break;
    case Opcode::ShRUI:
      s[in.result] = ub >= w ? 0 : sext(ua >> ub, w);
      break;
    case Opcode::ShRSI:
      s[in.result] = ub >= w ? (a < 0 ? -1 : 0) : a >> ub;
      break;
    case Opcode::CmpI: {
      bool r = false;
      switch (in.imm) {
      case 0: // eq
        r = a == b;
        break;
      case 1: // ne
        r = a != b;
        break;
      case 2: // slt
        r = a < b;
        break;
      case 3: // sle
        r = a <= b;
        break;
      case 4: // sgt
        r = a > b;
        break;
      case 5: // sge
        r = a >= b;
        break;
      case 6: // ult
        r = ua < ub;
        break;
      case 7: // ule
        r = ua <= ub;
        break;
      case 8: // ugt
        r = ua > ub;
        break;
      case 9: // uge
        r = ua >= ub;
        break;
      }
      s[in.result] = r ? -1 : 0; // i1 true, sign-extended
      break;
    }
    case Opcode::Select:
      s[in.result] = s[in.a] ? s[in.b] : s[in.c];
      break;
    case Opcode::ExtUI:
      s[in.result] = static_cast<int64_t>(zext(a, w));
      break;
    case Opcode::Resize:
      s[in.result] = sext(a, w);
      break;
    case Opcode::AddF:
      s[in.result] = asBits(asDouble(a) + asDouble(b), w);
      break;
    case Opcode::SubF:
      s[in.result] = asBits(asDouble(a) - asDouble(b), w);
      break;
    case Opcode::MulF:
      s[in.result] = asBits(asDouble(a) * asDouble(b), w);
      break;
    case Opcode::DivF:
      s[in.result] = asBits(asDouble(a) / asDouble(b), w);
      break;
    case Opcode::MaxF:
      s[in.result] = asBits(std::fmax(asDouble(a), asDouble(b)), w);
      break;
    case Opcode::MinF:
      s[in.result] = asBits(std::fmin(asDouble(a), asDouble(b)), w);
      break;
    case Opcode::NegF:
      s[in.result] = asBits(-asDouble(a), w);
      break;
    case Opcode::SIToFP:
      s[in.result] = asBits(static_cast<double>(a), w);
      break;
    case Opcode::UIToFP:
      s[in.result] = asBits(static_cast<double>(zext(a, w)), 64);
      break;
    case Opcode::FPToSI:
      s[in.result] = sext(static_cast<int64_t>(asDouble(a)), w);
      break;
    case Opcode::CmpF: {
      double x = asDouble(a), y = asDouble(b);
      bool unordered = std::isnan(x) || std::isnan(y);
      bool r = false;
      switch (in.imm) {
      case 0: // false
        break;
      case 1: // oeq
      case 8: // ueq
        r = x == y || (in.imm == 8 && unordered);
        break;
      case 2: // ogt
      case 9: // ugt
        r = x > y || (in.imm == 9 && unordered);
        break;
      case 3:  // oge
      case 10: // uge
        r = x >= y || (in.imm == 10 && unordered);
        break;
      case 4:  // olt
      case 11: // ult
        r = x < y || (in.imm == 11 && unordered);
        break;
      case 5:  // ole
      case 12: // ule
        r = x <= y || (in.imm == 12 && unordered);
        break;
      case 6:  // one
      case 13: // une
        r = (!unordered && x != y) || (in.imm == 13 && unordered);
        break;
      case 7: // ord
        r = !unordered;
        break;
      case 14: // uno
        r = unordered;
        break;
      case 15: // true
        r = true;
        break;
      }
      s[in.result] = r ? -1 : 0; // i1 true, sign-extended
      break;
    }
    case Opcode::RoundF:
      s[in.result] = asBits(asDouble(a), w);
      break;
    case Opcode::Copy:
      m[in.result] = m[in.a];
      break;
    case Opcode::Collapse: {
      const MemRefValue &src = m[in.a];
      MemRefValue r = src;
      const int64_t *t = tables.data() + in.imm;
      r.rank = *t++;
      for (unsigned g = 0; g < r.rank; ++g) {
        int64_t count = *t++, size = 1, stride = 1;
        for (int64_t i = 0; i < count; ++i, ++t) {
          size *= src.sizes[*t];
          stride = src.strides[*t]; // the innermost dimension of the group
        }
        r.sizes[g] = size;
        r.strides[g] = stride;
      }
      m[in.result] = r;
      break;
    }
    case Opcode::Expand: {
      const MemRefValue &src = m[in.a];
      MemRefValue r = src;
      const int64_t *t = tables.data() + in.imm;
      r.rank = *t++;
      int64_t sourceOf[MemRefValue::kMaxRank];
      for (unsigned d = 0; d < r.rank; ++d, t += 3) {
        sourceOf[d] = t[0];
        r.sizes[d] = t[1] >= 0 ? t[1] : s[t[2]];
      }
      // Within a group, strides grow from the source dimension's stride outwards.
      for (unsigned d = r.rank; d-- > 0;) {
        bool innermost = d + 1 == r.rank || sourceOf[d + 1] != sourceOf[d];
        r.strides[d] = innermost ? src.strides[sourceOf[d]] : r.strides[d + 1] * r.sizes[d + 1];
      }
      m[in.result] = r;
      break;
    }
    case Opcode::Alloc: {
      const int64_t *t = tables.data() + in.imm;
      MemRefValue r;
      r.rank = t[0];
      int64_t bytes = t[1];
      for (unsigned d = 0; d < r.rank; ++d)
        r.sizes[d] = t[2 + 2 * d] >= 0 ? t[2 + 2 * d] : s[t[3 + 2 * d]];
      for (unsigned d = r.rank; d-- > 0;) {
        r.strides[d] = d + 1 == r.rank ? 1 : r.strides[d + 1] * r.sizes[d + 1];
        bytes *= r.sizes[d];
      }
      cursor = llvm::alignTo(cursor, 256);
      // Integer arithmetic: `workspace` is null when only sizes are wanted.
      r.allocated = r.aligned =
          reinterpret_cast<const char *>(reinterpret_cast<uintptr_t>(workspace) + cursor);
      cursor += bytes;
      m[in.result] = r;
      break;
    }
    case Opcode::BranchIfFalse:
      if (!s[in.a])
        pc = in.imm;
      break;
    case Opcode::Jump:
      pc = in.imm;
      break;
    case Opcode::Launch: {
      const LaunchInstr &launch = launches[in.imm];
      Launch config;
      config.kernel = launch.kernel;
      config.dependent = launch.dependent;
      for (int i = 0; i < 3; ++i) {
        config.grid[i] = s[launch.grid[i]];
        config.block[i] = s[launch.block[i]];
        config.cluster[i] = launch.cluster[i] >= 0 ? s[launch.cluster[i]] : 0;
        const char *axis = i == 0 ? "x" : i == 1 ? "y" : "z";
        if (s[launch.grid[i]] < 1 || s[launch.grid[i]] > std::numeric_limits<int32_t>::max())
          return error("@" + name + ": launch rule gives a grid " + axis + " of " +
                       Twine(s[launch.grid[i]]) + " blocks (must be 1 to 2^31-1)");
        if (s[launch.block[i]] < 1 || s[launch.block[i]] > 1024)
          return error("@" + name + ": launch rule gives a block " + axis + " of " +
                       Twine(s[launch.block[i]]) + " threads (must be 1 to 1024)");
      }
      if (launch.sharedBytes >= 0) {
        if (s[launch.sharedBytes] < 0)
          return error("@" + name + ": launch rule gives " + Twine(s[launch.sharedBytes]) +
                       " bytes of dynamic shared memory");
        config.sharedBytes = s[launch.sharedBytes];
      }
      if (onLaunch)
        if (llvm::Error e = onLaunch(launch, config, frame))
          return e;
      break;
    }
    case Opcode::Return:
      pc = code.size();
      break;
    }
  }
  workspaceBytes = cursor == 0 ? 0 : llvm::alignTo(cursor, 256);
  return llvm::Error::success();
}

void softmax::api::packParams(const HostProgram::LaunchInstr &launch,
                              const HostProgram::Frame &frame,
                              llvm::SmallVectorImpl<uint64_t> &storage) {
  for (const HostProgram::Operand &operand : launch.operands) {
    if (!operand.isMemRef) {
      storage.push_back(paramBits(frame.scalars[operand.slot], operand.type));
      continue;
    }
    const MemRefValue &m = frame.memrefs[operand.slot];
    storage.push_back(reinterpret_cast<uintptr_t>(m.allocated));
    storage.push_back(reinterpret_cast<uintptr_t>(m.aligned));
    storage.push_back(m.offset);
    storage.append(m.sizes, m.sizes + m.rank);
    storage.append(m.strides, m.strides + m.rank);
  }
}
