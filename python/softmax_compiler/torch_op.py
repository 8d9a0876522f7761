"""`torch.ops.softmax_compiler.softmax`: softmax_compiler.softmax as a torch.library op.

Registered by `register_torch_op()` (idempotent; returns the op), and at `import
softmax_compiler` when torch is already imported, so that the package never imports torch
itself (it is optional: the CPU build machine has none). The op has

- a CUDA kernel: softmax_compiler.softmax (compiled once per shape class, launched on torch's
  current stream, so it is CUDA-graph capturable);
- a fake (meta) implementation: the output's shape, dtype and strides without running anything,
  so that torch.compile traces the op into its graph (fullgraph=True works) and Inductor calls
  it as an opaque kernel.

No autograd formula: it is an inference op (a backward through it raises).

    import torch, softmax_compiler as sc
    op = sc.register_torch_op()
    y = op(x, -1, scale=0.125, causal=True)
    f = torch.compile(lambda s: op(s, -1, scale=0.125, causal=True), fullgraph=True)
"""
import threading

SCHEMA = ("softmax(Tensor x, int dim=-1, float? scale=None, float? temperature=None, "
          "Tensor? bias=None, Tensor? mask=None, Tensor? lengths=None, bool causal=False, "
          "int causal_offset=0, float? fill=None, ScalarType? out_dtype=None, bool log=False, "
          'str masked_rows="zero") -> Tensor')

_library = None  # the torch.library.Library: must stay alive for the registration to last
_lock = threading.Lock()


def _impl(x, dim=-1, scale=None, temperature=None, bias=None, mask=None, lengths=None,
          causal=False, causal_offset=0, fill=None, out_dtype=None, log=False,
          masked_rows="zero"):
    from ._softmax import softmax
    return softmax(x, dim, scale=scale, temperature=temperature, bias=bias, mask=mask,
                   lengths=lengths, causal=causal, causal_offset=causal_offset, fill=fill,
                   out_dtype=out_dtype, log=log, masked_rows=masked_rows)


def output_like(x, dim=-1, out_dtype=None):
    """An empty tensor with the shape, dtype and strides softmax() returns for x: contiguous
    when dim is the last axis, else the view movedim(-1, dim) of a contiguous buffer (see
    _softmax.py). The fake implementation is this, so that real and traced strides agree."""
    dtype = x.dtype if out_dtype is None else out_dtype
    rank = x.dim()
    if rank == 0:
        return x.new_empty((), dtype=dtype)
    d = dim % rank if -rank <= dim < rank else dim
    if not 0 <= d < rank:
        raise IndexError(f"dim {dim} out of range for a tensor of rank {rank}")
    if d == rank - 1:
        return x.new_empty(x.shape, dtype=dtype)
    moved = list(x.shape)
    moved.append(moved.pop(d))
    return x.new_empty(moved, dtype=dtype).movedim(-1, d)


def _fake(x, dim=-1, scale=None, temperature=None, bias=None, mask=None, lengths=None,
          causal=False, causal_offset=0, fill=None, out_dtype=None, log=False,
          masked_rows="zero"):
    return output_like(x, dim, out_dtype)


def register_torch_op():
    """Defines softmax_compiler::softmax (once) and returns torch.ops.softmax_compiler.softmax.
    Raises ImportError without torch."""
    global _library
    import torch
    with _lock:
        if _library is None:
            library = torch.library.Library("softmax_compiler", "DEF")
            library.define(SCHEMA)
            library.impl("softmax", _impl, "CUDA")
            register_fake = getattr(torch.library, "register_fake", None)
            if register_fake is not None:
                register_fake("softmax_compiler::softmax", _fake, lib=library)
            else:  # torch < 2.4
                torch.library.impl_abstract("softmax_compiler::softmax", _fake, lib=library)
            _library = library
    return torch.ops.softmax_compiler.softmax
