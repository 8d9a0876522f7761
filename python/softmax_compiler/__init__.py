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

from . import _capi, _launch

__all__ = ["SoftmaxError", "ArgumentSpec", "Executable", "compile", "cache_size", "cache_clear",
           "softmax", "softmax_cache_info", "softmax_cache_clear", "SoftmaxSpec",
           "build_softmax_program", "register_torch_op"]


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


class Executable:
    """A compiled program: its kernels and functions, the PTX, and how to launch them."""

    def __init__(self, handle):
        self._handle = ctypes.c_void_p(handle)
        self._lib = _library()
        self._signatures = {}  # function -> [ArgumentSpec]: read once, used on every call
        self._launchers = {}  # function -> _launch.Launcher

    def __del__(self):
        if getattr(self, "_handle", None) and self._handle.value:
            self._lib.softmax_executable_destroy(self._handle)
            self._handle = None

    @property
    def ptx(self):
        """Every kernel's PTX, each after a `// gpu.binary @<kernel>` line (None unless compiled
        with format='isa'). Compiles the kernels not compiled yet: a call compiles only those it
        launches, on its first launch."""
        text, size = ctypes.c_char_p(), ctypes.c_size_t()
        _check(self._lib.softmax_executable_ptx(self._handle, ctypes.byref(text),
                                                ctypes.byref(size)))
        return ctypes.string_at(text, size.value).decode() if size.value else None

    def kernel_compiled(self, index):
        """Whether kernel `index` (of `kernels`) is compiled yet."""
        return bool(self._lib.softmax_executable_kernel_compiled(self._handle, index))

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

    def launcher(self, function):
        """The prepared call of `function` (its ctypes arguments built once; _launch.py)."""
        launcher = self._launchers.get(function)
        if launcher is None:
            launcher = self._launchers[function] = _launch.Launcher(
                self, function, self.signature(function))
        return launcher

    def plan(self, function, *values):
        """The launches a call would make, without a GPU: each value is a tensor's shape (a
        tuple), a tensor, or a scalar. Returns dicts of kernel, grid, block, cluster ((0, 0, 0)
        unless a thread-block cluster launch) and shared_bytes."""
        launcher = self.launcher(function)
        with launcher.lock:
            launcher.fill(values)
            error, launches = launcher.plan()
        _check(error)
        names = [name for name, _ in self.kernels]
        return [dict(kernel=names[l.kernel], grid=tuple(l.grid), block=tuple(l.block),
                     cluster=tuple(l.cluster), shared_bytes=l.shared_bytes) for l in launches]

    def prepare(self, function, *values):
        """Compiles and loads the kernels a call with these values (shapes, tensors or scalars,
        as for plan) launches; run() does it on a kernel's first launch. Keeps the compile out
        of a timed call."""
        launcher = self.launcher(function)
        with launcher.lock:
            launcher.fill(values)
            _check(launcher.prepare())

    def run(self, function, *values, stream=None):
        """Launches `function` on device tensors (inputs, then outputs) on `stream` (a
        CUstream as an int, an object with `.cuda_stream` or `.ptr`, or None: torch's current
        stream when a value is a torch tensor, CuPy's for CuPy arrays, else the legacy default
        stream). Does not wait. A function that needs workspace (an intermediate tensor that is
        not returned) gets a buffer from torch or CuPy, freed in stream order after the call."""
        launcher = self.launcher(function)
        handle = _stream_handle(stream, values)
        with launcher.lock:
            launcher.fill(values, shapes_allowed=False)
            error = launcher.launch(handle)
            if error:
                # softmax_run checks the workspace before launching anything, so retrying with
                # a buffer is safe; any other error is reported as it is.
                size_error, size = launcher.workspace_size()
                if size_error or not size:
                    if size_error:
                        _library().softmax_error_destroy(size_error)
                    _check(error)
                _library().softmax_error_destroy(error)
                buffer, pointer = _workspace(size, values)
                _check(launcher.launch(handle, pointer, size))
                del buffer  # the allocators free in stream order: safe after the launch


def _workspace(size, values):
    """(owner, device pointer) of `size` bytes from the framework of `values`."""
    for value in values:
        if hasattr(value, "data_ptr") and getattr(value, "is_cuda", False):
            import torch
            buffer = torch.empty(size, dtype=torch.uint8, device=value.device)
            return buffer, buffer.data_ptr()
    for value in values:
        if hasattr(value, "__cuda_array_interface__"):
            import cupy
            buffer = cupy.empty(size, dtype=cupy.uint8)
            return buffer, buffer.data.ptr
    raise SoftmaxError(f"the call needs {size} bytes of workspace and no value is a torch or "
                       "CuPy array to allocate it with")


def _stream_handle(stream, values):
    if stream is None:
        for value in values:
            if hasattr(value, "data_ptr") and getattr(value, "is_cuda", False):
                return _torch_stream(value.get_device())
        for value in values:
            if hasattr(value, "__cuda_array_interface__") and type(value).__module__.startswith(
                    "cupy"):
                import cupy
                return cupy.cuda.get_current_stream().ptr
        return 0
    if hasattr(stream, "cuda_stream"):
        return stream.cuda_stream
    if hasattr(stream, "ptr"):
        return stream.ptr
    return int(stream)


_raw_stream = None


def _torch_stream(device_index):
    """torch's current stream on the device as a CUstream. torch._C._cuda_getCurrentRawStream
    (what Inductor's generated code calls) takes ~0.2 us; torch.cuda.current_stream() builds a
    Stream object (a few us), so it is the fallback only."""
    global _raw_stream
    if _raw_stream is None:
        import torch
        _raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) or (
            lambda index: torch.cuda.current_stream(index).cuda_stream)
    return _raw_stream(device_index)


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


# The convenience layer (after the names it uses): builder.py, _softmax.py, torch_op.py.
from .builder import SoftmaxSpec, build_softmax_program  # noqa: E402
from ._softmax import softmax, softmax_cache_info, softmax_cache_clear  # noqa: E402
from .torch_op import register_torch_op  # noqa: E402

# torch is optional and never imported here; when the program has imported it already, the op
# is there without a call (torch_op.py).
if "torch" in __import__("sys").modules:  # noqa: E402
    try:
        register_torch_op()
    except Exception as _error:  # a torch too old or broken must not break the package
        import warnings
        warnings.warn(f"softmax_compiler: torch op not registered: {_error}")
