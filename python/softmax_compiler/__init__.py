"""Compile softmax-dialect programs to GPU kernels and launch them from Python.

A pure-Python layer (ctypes, no build step) over the C API, libsoftmax-c.so (docs/python.md,
docs/api.md). Compiling, inspecting and planning need no GPU; `Executable.run` launches on device
memory owned by the caller (torch tensors, or anything with `__cuda_array_interface__`) on the
caller's stream, without synchronising.

    import softmax_compiler as sc
    exe = sc.compile(open("examples/softmax_f32.mlir").read())
    exe.kernels            # [('softmax_f32_0_row_registers', (256, 1, 1))]
    exe.run("softmax_f32", x, y)   # x, y: CUDA tensors; y is the output
"""
import ctypes
import os
import threading
from collections import namedtuple

from . import _capi

__all__ = ["SoftmaxError", "ArgumentSpec", "Executable", "compile", "cache_size", "cache_clear"]


class SoftmaxError(Exception):
    """A compile or call error; the message is the compiler's diagnostic text."""


ArgumentSpec = namedtuple("ArgumentSpec", "is_tensor is_output dtype shape")
ArgumentSpec.__doc__ = ("One argument of a compiled function: a tensor (shape with None where "
                        "dynamic) or a scalar; outputs come after the inputs.")

_lib = None
_lock = threading.Lock()


def _library():
    global _lib
    with _lock:
        if _lib is None:
            _lib = _capi.load_library()
    return _lib


def _check(error):
    if error:
        lib = _library()
        message = lib.softmax_error_message(error).decode("utf-8", "replace")
        lib.softmax_error_destroy(error)
        raise SoftmaxError(message)


def _shape_and_strides(value):
    """(data pointer, sizes, element strides) of a tensor-like value, or None for a shape."""
    if isinstance(value, (tuple, list)):
        return None, [int(s) for s in value], None
    if hasattr(value, "data_ptr") and hasattr(value, "stride"):  # torch.Tensor (bf16 too)
        return value.data_ptr(), list(value.shape), list(value.stride())
    interface = getattr(value, "__cuda_array_interface__", None)
    if interface is not None:
        shape = list(interface["shape"])
        strides = interface.get("strides")
        if strides is not None:
            itemsize = int(interface["typestr"][2:])
            strides = [s // itemsize for s in strides]
        return interface["data"][0], shape, strides
    raise TypeError(f"not a tensor, a shape or a scalar: {type(value).__name__}")


class Executable:
    """A compiled program: its kernels and functions, the PTX, and how to launch them."""

    def __init__(self, handle):
        self._handle = ctypes.c_void_p(handle)
        self._lib = _library()
        self._signatures = {}  # function -> [ArgumentSpec]: read once, used on every call

    def __del__(self):
        if getattr(self, "_handle", None) and self._handle.value:
            self._lib.softmax_executable_destroy(self._handle)
            self._handle = None

    @property
    def ptx(self):
        """The kernels' PTX (None unless compiled with format='isa')."""
        size = ctypes.c_size_t()
        text = self._lib.softmax_executable_ptx(self._handle, ctypes.byref(size))
        return text.decode() if text is not None else None

    @property
    def kernels(self):
        """(name, block size) of each kernel."""
        out = []
        for i in range(self._lib.softmax_executable_num_kernels(self._handle)):
            block = (ctypes.c_int64 * 3)()
            name = self._lib.softmax_executable_kernel(self._handle, i, block)
            out.append((name.decode(), tuple(block)))
        return out

    @property
    def functions(self):
        """The names of the program's functions."""
        return [self._lib.softmax_executable_function(self._handle, i).decode()
                for i in range(self._lib.softmax_executable_num_functions(self._handle))]

    def same_as(self, other):
        """Whether both are the same compiled executable (a cache hit gives the same one)."""
        return bool(self._lib.softmax_executable_same(self._handle, other._handle))

    def signature(self, function):
        """The ArgumentSpec of each argument of `function`, outputs last."""
        cached = self._signatures.get(function)
        if cached is not None:
            return cached
        count = self._lib.softmax_function_num_arguments(self._handle, function.encode())
        if count < 0:
            raise SoftmaxError(f"no function @{function} (have: {', '.join(self.functions)})")
        specs = []
        for i in range(count):
            info = _capi.ArgumentInfo()
            _check(self._lib.softmax_function_argument(self._handle, function.encode(), i,
                                                       ctypes.byref(info)))
            shape = tuple(None if s == _capi.DYNAMIC else s for s in info.shape[:info.rank])
            specs.append(ArgumentSpec(bool(info.is_tensor), bool(info.is_output),
                                      _capi.SCALAR_TYPES[info.type],
                                      shape if info.is_tensor else None))
        self._signatures[function] = specs
        return specs

    def _arguments(self, function, values):
        specs = self.signature(function)
        if len(values) != len(specs):
            raise SoftmaxError(f"@{function} takes {len(specs)} arguments (outputs included), "
                               f"got {len(values)}")
        args = (_capi.Argument * len(values))()
        keep = []  # the ctypes arrays the arguments point into
        for arg, spec, value in zip(args, specs, values):
            if spec.is_tensor:
                data, sizes, strides = _shape_and_strides(value)
                arg.kind = _capi.ARGUMENT_TENSOR
                arg.data = data
                arg.rank = len(sizes)
                size_array = (ctypes.c_int64 * max(len(sizes), 1))(*sizes)
                keep.append(size_array)
                arg.sizes = size_array
                if strides is not None:
                    stride_array = (ctypes.c_int64 * max(len(strides), 1))(*strides)
                    keep.append(stride_array)
                    arg.strides = stride_array
            elif spec.dtype.startswith(("f", "bf")):
                arg.kind = _capi.ARGUMENT_FLOAT
                arg.float_value = float(value)
            else:
                arg.kind = _capi.ARGUMENT_INT
                arg.int_value = int(value)
        return args, keep

    def plan(self, function, *values):
        """The launches a call would make, without a GPU: each value is a tensor's shape (a
        tuple), a tensor, or a scalar. Returns dicts of kernel, grid, block, shared_bytes."""
        args, _keep = self._arguments(function, values)
        launches = (_capi.Launch * 16)()
        count = ctypes.c_size_t()
        _check(self._lib.softmax_plan(self._handle, function.encode(), args, len(values),
                                      launches, 16, ctypes.byref(count)))
        names = [name for name, _ in self.kernels]
        return [dict(kernel=names[l.kernel], grid=tuple(l.grid), block=tuple(l.block),
                     shared_bytes=l.shared_bytes) for l in launches[:count.value]]

    def run(self, function, *values, stream=None):
        """Launches `function` on device tensors (inputs, then outputs) on `stream` (a
        CUstream as an int, an object with `.cuda_stream`, or None: torch's current stream when
        a value is a torch tensor, else the legacy default stream). Does not wait."""
        args, _keep = self._arguments(function, values)
        workspace_bytes = ctypes.c_uint64()
        _check(self._lib.softmax_workspace_size(self._handle, function.encode(), args,
                                                len(values), ctypes.byref(workspace_bytes)))
        if workspace_bytes.value:
            raise SoftmaxError(f"@{function} needs {workspace_bytes.value} bytes of workspace; "
                               "this package does not allocate it yet")
        _check(self._lib.softmax_run(self._handle, function.encode(), args, len(values),
                                     ctypes.c_void_p(_stream_handle(stream, values)), None, 0))


def _stream_handle(stream, values):
    if stream is None:
        for value in values:
            if hasattr(value, "data_ptr") and getattr(value, "is_cuda", False):
                import torch  # only when given torch tensors
                return torch.cuda.current_stream(value.device).cuda_stream
        return 0
    if hasattr(stream, "cuda_stream"):
        return stream.cuda_stream
    if hasattr(stream, "ptr"):
        return stream.ptr
    return int(stream)


def compile(source, *, chip="sm_90", features="+ptx80", opt_level=3, format="isa",
            registers_per_thread=0, threads_per_block=0, raise_linalg=False, cache_dir=None):
    """Compiles MLIR text (the softmax dialect, or linalg with raise_linalg=True) to an
    Executable. Compilations are cached on (text, options), in memory and on disk: cache_dir
    names the directory (None: $SOFTMAX_CACHE_DIR, else $XDG_CACHE_HOME/softmax-compiler, else
    ~/.cache/softmax-compiler; "off": no disk cache). Raises SoftmaxError with the diagnostics
    on a bad program or option."""
    lib = _library()
    options = _capi.CompileOptions()
    lib.softmax_compile_options_init(ctypes.byref(options))
    encoded = [s.encode() for s in (chip, features, format)]
    options.chip, options.features, options.format = encoded
    options.opt_level = opt_level
    options.registers_per_thread = registers_per_thread
    options.threads_per_block = threads_per_block
    options.raise_ = 1 if raise_linalg else 0
    if cache_dir is not None:
        options.cache_dir = os.fsencode(cache_dir)
    data = source.encode() if isinstance(source, str) else bytes(source)
    handle = ctypes.c_void_p()
    _check(lib.softmax_compile(data, len(data), ctypes.byref(options), ctypes.byref(handle)))
    return Executable(handle.value)


def cache_size():
    """How many compiled executables the in-memory cache holds."""
    return int(_library().softmax_cache_size())


def cache_clear():
    _library().softmax_cache_clear()
