"""`softmax_compiler.softmax(x, ...)`: build, compile once per shape class, allocate, launch.

The program comes from builder.SoftmaxSpec; the compiled function is cached here per key (the
spec's fields as they follow from the call: element types, rank, which sizes are static, the
neighbours), so a second call of the same class costs no compile and no signature read, only
the launch (_launch.Launcher). Works on torch tensors; CuPy arrays (and anything with
`__cuda_array_interface__` whose framework can allocate) over the last axis.

Layout rules (and the copies they imply, all documented in docs/python.md):
- the softmax runs over the last axis with a unit innermost stride; other strides are passed
  as they are. An input whose innermost stride is not 1 is copied (`.contiguous()`).
- `dim` other than the last: the package builds last-axis programs only (the lowering's
  strided_axis kernels for other axes, docs/strategies.md, are not used here yet), so the
  input is moved (`x.movedim(dim, -1).contiguous()`, one copy), and the result is returned as
  a view `movedim(-1, dim)` of a fresh buffer (not contiguous); with `out=` it is copied into
  `out`. Causal masks need the query axis before the softmax axis: not with another `dim`.
- a contiguous input with no side operands is launched as 2-D (rows, width): one compiled
  program serves every rank.
"""
import math
import threading

from . import _launch
from .builder import SoftmaxSpec

# Bound on the first general call (the package's __init__ imports this module, so not at import
# time); the fast path runs only once an entry exists, i.e. after a general call bound them.
_torch = None
_check = _torch_stream = None

_cache = {}  # key -> _Entry
_cache_lock = threading.Lock()
_torch_names = None  # torch.dtype -> element type name; built on the first torch call
_TYPESTR_NAMES = {"<f4": "f32", "<f2": "f16", "|b1": "i1", "<i4": "i32", "<i8": "i64"}
SHAPES = ("dynamic", "static")


class _Entry:
    __slots__ = ("spec", "executable", "launcher", "indices", "out_torch_dtype")

    def __init__(self, spec, executable, launcher, out_torch_dtype):
        self.spec, self.executable, self.launcher = spec, executable, launcher
        names = [name for name, _ in spec.arguments()]
        self.indices = {name: i for i, name in enumerate(names)}
        self.out_torch_dtype = out_torch_dtype


def _names_of_torch(torch):
    global _torch_names
    if _torch_names is None:
        _torch_names = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16",
                        torch.bool: "i1", torch.int32: "i32", torch.int64: "i64"}
    return _torch_names


def _is_torch(value):
    return hasattr(value, "data_ptr") and hasattr(value, "stride")


def _dtype_name(value, what):
    if _is_torch(value):
        import torch
        name = _names_of_torch(torch).get(value.dtype)
    else:
        name = _TYPESTR_NAMES.get(value.__cuda_array_interface__["typestr"])
    if name is None:
        raise TypeError(f"{what}: element type {getattr(value, 'dtype', '?')} is not supported "
                        "(float32, float16, bfloat16; masks bool; lengths int32/int64)")
    return name


def _out_dtype_name(out_dtype, x_name):
    if out_dtype is None:
        return x_name
    if isinstance(out_dtype, str):
        aliases = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "half": "f16",
                   "float": "f32"}
        return aliases.get(out_dtype, out_dtype)
    import torch
    name = _names_of_torch(torch).get(out_dtype)
    if name not in ("f32", "f16", "bf16"):
        raise TypeError(f"out_dtype {out_dtype}: float32, float16 or bfloat16")
    return name


def _torch_dtype(name):
    import torch
    return {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[name]


def _broadcast_pattern(what, shape, target, shapes):
    """The shape pattern of a side operand broadcast to `target` (a 1 stays a static 1, the
    broadcast; other sizes must equal the target's and are dynamic unless shapes='static')."""
    if len(shape) > len(target):
        raise ValueError(f"{what} of shape {tuple(shape)} does not broadcast to {tuple(target)}")
    lead = len(target) - len(shape)
    for j, size in enumerate(shape):
        if size != 1 and size != target[lead + j]:
            raise ValueError(f"{what} of shape {tuple(shape)} does not broadcast to "
                             f"{tuple(target)} (size {size} against {target[lead + j]})")
    if shapes == "static":
        return tuple(shape)
    return tuple(1 if size == 1 else None for size in shape)


def _require_array(value, what):
    # tensor_facts takes a tuple or list as a shape with a null pointer (for plan): never here.
    if not (_is_torch(value) or hasattr(value, "__cuda_array_interface__")):
        raise TypeError(f"{what}: not a torch tensor or a CUDA array: {type(value).__name__}")


def _same_device(value, what, device):
    """A torch tensor beside x must be on x's device: a CPU tensor's pointer is a host address
    the kernels cannot read."""
    if device is not None and _is_torch(value) and value.get_device() != device:
        where = "the CPU" if value.get_device() < 0 else f"device {value.get_device()}"
        raise ValueError(f"{what} is on {where}, x on device {device}")


def _side(value, what, target, shapes, device):
    """(facts, pattern, dtype name) of a side operand, with a unit innermost stride."""
    _require_array(value, what)
    _same_device(value, what, device)
    if _is_torch(value):
        if value.dim() == 0:
            value = value.reshape(1)
        if value.stride(-1) != 1 and value.size(-1) != 1:
            value = value.contiguous()  # the kernels read rows as contiguous vectors
    facts = _launch.tensor_facts(value)
    if not facts[1]:
        raise ValueError(f"{what}: a rank-0 array is not allowed; give it shape (1,)")
    if facts[2] is not None and facts[1][-1] != 1 and facts[2][-1] != 1:
        raise ValueError(f"{what}: the innermost stride must be 1")
    return value, facts, _broadcast_pattern(what, facts[1], target, shapes), _dtype_name(value,
                                                                                          what)


def _move_side(value, rank, dim):
    """A torch side operand (broadcast to rank `rank`) with axis `dim` moved last, as x is."""
    if value is None:
        return None
    while value.dim() < rank:
        value = value.unsqueeze(0)
    return value.movedim(dim, -1)


def _compile_entry(spec, out_torch, compile_options):
    from . import compile as compile_program
    executable = compile_program(spec.program(), **compile_options)
    launcher = executable.launcher("softmax")
    return _Entry(spec, executable, launcher, out_torch)


def softmax_cache_info():
    """The compiled shape classes softmax() holds: a list of SoftmaxSpec."""
    with _cache_lock:
        return [entry.spec for entry in _cache.values()]


def softmax_cache_clear():
    """Forgets softmax()'s compiled shape classes (the C API's compile cache is separate:
    softmax_compiler.cache_clear())."""
    with _cache_lock:
        _cache.clear()


def softmax(x, dim=-1, *, scale=None, temperature=None, bias=None, mask=None, lengths=None,
            causal=False, causal_offset=0, fill=None, out_dtype=None, log=False,
            masked_rows="zero", out=None, shapes="dynamic", stream=None, **compile_options):
    """Softmax (or log-softmax) of `x` over `dim` with its fused neighbours, in one kernel.

    x:            a CUDA torch tensor (or a CuPy array) of float32, float16 or bfloat16
    dim:          the axis (default the last); another axis costs a copy (module docstring)
    scale:        multiply by this constant first (e.g. 1/sqrt(head_dim)); a compile-time
                  constant: each distinct value is another compiled program
    bias:         add this tensor (float32/16, bfloat16; broadcast to x like NumPy) after
                  the scale, e.g. an attention bias or a vocabulary prior
    temperature:  then divide by this run-time value (passed as its f32 inverse: changing it
                  does not recompile)
    causal:       remove column j of query i (the axis before `dim`) when j > i +
                  causal_offset (torch's is_causal is causal_offset=0, the top-left diagonal)
    lengths:      int32/int64 lengths, broadcast to x's shape without `dim`: remove column j of
                  a row when j >= its length (padding)
    mask:         a bool tensor broadcast to x: False removes an element (torch's boolean
                  attention-mask convention: True takes part)
    fill:         what removed elements become before the softmax (default -inf)
    log:          log_softmax instead of softmax
    masked_rows:  a row with every element removed (-inf): 'zero' gives 0 (log: -inf),
                  'nan' gives NaN as torch does
    out_dtype:    the result's type (torch dtype or 'f32'/'f16'/'bf16'); the chain is computed
                  in f32 and rounded once
    out:          write here (shape of x, the right dtype, unit innermost stride) instead of
                  allocating
    shapes:       'dynamic' (default): every size is a run-time value, so one compile serves all
                  shapes of this rank, types and options; 'static': sizes written into the
                  program (a compile per shape; level with dynamic in docs/performance.md
                  except 16-bit rows of 32, where static was faster)
    stream:       a CUstream (int) or an object with .cuda_stream / .ptr; default torch's (or
                  CuPy's) current stream. The call only launches: it does not synchronise and
                  can be captured in a CUDA graph.
    compile_options: passed to softmax_compiler.compile (chip, opt_level, ...).

    Returns the output. Raises SoftmaxError with the compiler's diagnostic on a bad program,
    ValueError/TypeError on bad arguments.
    """
    # The fast path: a contiguous torch tensor, the last axis, no side operands, no out=.
    if (scale is None and temperature is None and bias is None and mask is None and
            lengths is None and not causal and out is None and stream is None and fill is None
            and not compile_options and shapes == "dynamic" and hasattr(x, "is_contiguous")):
        shape = x.shape
        rank = len(shape)
        if rank and (dim == -1 or dim == rank - 1) and x.is_contiguous():
            width = shape[-1]
            entry = _cache.get((x.dtype, out_dtype, log, masked_rows))
            numel = x.numel()
            if entry is not None and numel:
                device = x.get_device()
                if device != 0:
                    _wrong_device(device)
                # x is contiguous, so empty_like (which keeps a dense tensor's strides) is too.
                result = _torch.empty_like(x, dtype=entry.out_torch_dtype)
                launcher = entry.launcher
                with launcher.lock:
                    error = launcher.launch2d(x.data_ptr(), result.data_ptr(), numel // width,
                                              width, _torch_stream(device))
                if error:
                    _check(error)
                return result
    return _softmax_general(x, dim, scale, temperature, bias, mask, lengths, causal,
                            causal_offset, fill, out_dtype, log, masked_rows, out, shapes, stream,
                            compile_options)


def _same_layout(shape, strides, dense):
    """Whether `strides` (None: contiguous) address `shape` as the row-major `dense` ones do
    (the stride of a size-1 dimension does not matter)."""
    if strides is None:
        return True
    return all(size == 1 or a == b for size, a, b in zip(shape, strides, dense))


def _bind():
    global _check, _torch_stream
    from . import _check as check, _torch_stream as torch_stream
    _check, _torch_stream = check, torch_stream


def _wrong_device(device):
    from . import SoftmaxError
    if device < 0:
        raise SoftmaxError("x is on the CPU: softmax_compiler runs CUDA tensors")
    raise SoftmaxError(f"the tensors are on device {device}; libsoftmax-c launches on device "
                       "0's primary context only (docs/api.md, Limits)")


def _softmax_general(x, dim, scale, temperature, bias, mask, lengths, causal, causal_offset,
                     fill, out_dtype, log, masked_rows, out, shapes, stream, compile_options):
    from . import _stream_handle
    global _torch
    if _check is None:
        _bind()
    if shapes not in SHAPES:
        raise ValueError(f"shapes={shapes!r}: one of {', '.join(SHAPES)}")
    if masked_rows not in ("zero", "nan"):
        raise ValueError(f"masked_rows={masked_rows!r}: 'zero' or 'nan'")
    torch_input = _is_torch(x)
    if not torch_input and not hasattr(x, "__cuda_array_interface__"):
        raise TypeError(f"x: not a torch tensor or a CUDA array: {type(x).__name__}")
    rank = len(x.shape)
    if rank == 0:
        if not torch_input:
            raise ValueError("x: a rank-0 array; give it shape (1,)")
        result = softmax(x.reshape(1), -1, scale=scale, temperature=temperature, bias=bias,
                         mask=mask, lengths=lengths, causal=causal, causal_offset=causal_offset,
                         fill=fill, out_dtype=out_dtype, log=log, masked_rows=masked_rows,
                         shapes=shapes, stream=stream, **compile_options).reshape(())
        if out is not None:
            out.copy_(result)
            return out
        return result
    if not -rank <= dim < rank:
        raise IndexError(f"dim {dim} out of range for a tensor of rank {rank}")
    dim = dim % rank
    if dim != rank - 1:
        if not torch_input:
            raise ValueError("dim other than the last: torch tensors only (CuPy: move the axis "
                             "yourself)")
        if causal:
            raise ValueError("causal with dim other than the last: the causal mask's query axis "
                             "is the one before the softmax axis")
        moved = softmax(x.movedim(dim, -1).contiguous(), -1, scale=scale,
                        temperature=temperature, bias=_move_side(bias, rank, dim),
                        mask=_move_side(mask, rank, dim), lengths=lengths, fill=fill,
                        out_dtype=out_dtype, log=log, masked_rows=masked_rows, shapes=shapes,
                        stream=stream, **compile_options)
        result = moved.movedim(-1, dim)
        if out is not None:
            out.copy_(result)
            return out
        return result

    x_name = _dtype_name(x, "x")
    if x_name not in ("f32", "f16", "bf16"):
        raise TypeError(f"x: element type {x_name}: float32, float16 or bfloat16")
    out_name = _out_dtype_name(out_dtype, x_name)
    if torch_input and x.stride(-1) != 1 and x.size(-1) != 1:
        x = x.contiguous()  # the kernels read rows as contiguous vectors
    x_facts = _launch.tensor_facts(x)
    shape = x_facts[1]
    if x_facts[2] is not None and shape[-1] != 1 and x_facts[2][-1] != 1:
        raise ValueError("x: the innermost stride must be 1")
    device = None
    if torch_input:
        if _torch is None:
            import torch
            _torch = torch
        device = x.get_device()
        if device != 0:
            _wrong_device(device)
    if scale is not None:
        scale = float(scale)  # a key of its own: a torch or NumPy scalar would hash by identity
    causal_offset = int(causal_offset)

    sides = {}
    if bias is not None:
        sides["bias"] = _side(bias, "bias", shape, shapes, device)
        if sides["bias"][3] not in ("f32", "f16", "bf16"):
            raise TypeError("bias: float32, float16 or bfloat16")
    if lengths is not None:
        if rank < 2:
            raise ValueError("lengths need x of rank >= 2 (one length per row)")
        sides["lengths"] = _side(lengths, "lengths", shape[:-1], shapes, device)
        if sides["lengths"][3] not in ("i32", "i64"):
            raise TypeError("lengths: int32 or int64")
    if mask is not None:
        sides["mask"] = _side(mask, "mask", shape, shapes, device)
        if sides["mask"][3] != "i1":
            raise TypeError("mask: a bool tensor (True keeps an element)")
    if temperature is not None:
        temperature = float(temperature)
        if not (temperature > 0 and math.isfinite(temperature)):
            raise ValueError(f"temperature {temperature}: must be positive and finite")
    if causal and rank < 2:
        raise ValueError("causal needs rank >= 2 (the query axis before the softmax axis)")

    out_torch = _torch_dtype(out_name) if torch_input else None
    if out is not None:
        _require_array(out, "out")
        _same_device(out, "out", device)
        out_facts = _launch.tensor_facts(out)
        if tuple(out_facts[1]) != tuple(shape):
            raise ValueError(f"out has shape {tuple(out_facts[1])}, x {tuple(shape)}")
        if _dtype_name(out, "out") != out_name:
            raise TypeError(f"out is {_dtype_name(out, 'out')}, the result {out_name}")
        if out_facts[2] is not None and shape[-1] != 1 and out_facts[2][-1] != 1:
            raise ValueError("out: the innermost stride must be 1")
    else:
        if torch_input:
            out = _torch.empty(shape, dtype=out_torch, device=x.device)  # contiguous
        else:
            import cupy
            if out_name == "bf16":
                raise TypeError("CuPy has no bfloat16: pass out= or use torch")
            out = cupy.empty(shape, dtype={"f32": "float32", "f16": "float16"}[out_name])
        out_facts = _launch.tensor_facts(out)
    if 0 in shape:
        return out  # nothing to compute (and nothing to compile)

    # Flat: no side operand aligns with x's dimensions, so a contiguous x and out can be passed
    # as 2-D (rows, width), and one program serves every rank.
    dense = _launch.contiguous_strides(shape)
    flat = (not sides and not causal and
            _same_layout(shape, x_facts[2], dense) and _same_layout(shape, out_facts[2], dense))
    if flat:
        width = shape[-1]
        rows = 1
        for size in shape[:-1]:
            rows *= size
        call_shape = (rows, width)
    else:
        call_shape = tuple(shape)
    pattern = call_shape if shapes == "static" else (None,) * len(call_shape)
    options_key = tuple(sorted(compile_options.items()))
    if flat and shapes == "dynamic" and not options_key and scale is None and temperature is None \
            and fill is None and torch_input:
        # The fast path's key (softmax()): the same entry.
        key = (x.dtype, out_dtype, log, masked_rows)
    else:
        key = ("general", x_name, out_name, pattern, scale, temperature is not None,
               tuple((name, s[2], s[3]) for name, s in sides.items()), bool(causal),
               int(causal_offset) if causal else 0, fill, log, masked_rows, options_key)
    entry = _cache.get(key)
    if entry is None:
        spec = SoftmaxSpec(
            pattern, x_name, out_dtype=out_name, scale=scale,
            bias=sides["bias"][2] if "bias" in sides else None,
            bias_dtype=sides["bias"][3] if "bias" in sides else None,
            lengths=sides["lengths"][2] if "lengths" in sides else None,
            lengths_dtype=sides["lengths"][3] if "lengths" in sides else "i32",
            mask=sides["mask"][2] if "mask" in sides else None, causal=causal,
            causal_offset=causal_offset, temperature=temperature is not None,
            fill=float("-inf") if fill is None else fill, log=log, masked_rows=masked_rows)
        # Compiled outside the lock (seconds); the C API's own cache makes a race harmless.
        entry = _compile_entry(spec, out_torch, compile_options)
        with _cache_lock:
            entry = _cache.setdefault(key, entry)

    launcher = entry.launcher
    index = entry.indices
    handle = _stream_handle(stream, (x,))
    with launcher.lock:
        if flat:
            launcher.set_tensor(0, x_facts[0], call_shape, None)
            launcher.set_tensor(index["out"], out_facts[0], call_shape, None)
        else:
            launcher.set_tensor(0, *x_facts)
            launcher.set_tensor(index["out"], *out_facts)
        for name, (_, facts, _, _) in sides.items():
            launcher.set_tensor(index[name], *facts)
        if temperature is not None:
            launcher.set_scalar(index["inv_temperature"], 1.0 / temperature)
        error = launcher.launch(handle)
    if error:
        _check(error)
    # The side operands (possibly copies made here) must live until the kernel has read them:
    # torch's allocator frees in stream order, so dropping them after the launch is safe.
    return out
