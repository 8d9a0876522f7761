//===- SoftmaxDialect.td - The softmax dialect -------------*- tablegen -*-===//
//
// The dialect definition and the base classes of its ops and attributes.
//
//===----------------------------------------------------------------------===//

#ifndef SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAXDIALECT_TD
#define SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAXDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Softmax_Dialect : Dialect {
  let name = "softmax";
  let cppNamespace = "::mlir::softmax";
  let summary = "Softmax and its fusable neighbours on ranked tensors";
  let description = [{
    Value-semantics ops on ranked tensors that express a softmax (or log-softmax) over one axis
    together with the element-wise ops that usually surround it in ML programs: a scale or
    temperature, a broadcast bias, padding / causal / boolean masks and dtype casts.

    Every op has a meaning of its own, so a program can be evaluated before fusion (the runner's
    float64 reference does exactly that). The `softmax-fuse` pass folds a chain
    prologue* -> softmax -> epilogue* into one `softmax.fused` op that the GPU lowering turns into
    a kernel reading each element once and writing it once.

    Precision: ops between a program's inputs and its `softmax.cast`s may keep intermediate values
    in a wider type than their storage type (the lowering computes in f32, the reference in f64),
    as C's FLT_EVAL_METHOD allows; only `softmax.cast` and the program's results round.
  }];
  let useDefaultAttributePrinterParser = 1;
}

class Softmax_Op<string mnemonic, list<Trait> traits = []>
    : Op<Softmax_Dialect, mnemonic, traits>;

class Softmax_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Softmax_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // SOFTMAX_DIALECT_SOFTMAX_IR_SOFTMAXDIALECT_TD
