"""The per-call path from Python to softmax_run, kept lean (docs/python.md, host overhead).

A `Launcher` is one function of one executable with its ctypes argument array built once: the
Argument structs, and a sizes and a strides array per tensor argument, pointed to by the structs.
A call only stores the data pointers, sizes, strides and scalar values into them and calls
softmax_run: no ctypes objects are created per call, the signature is not read again, and the
workspace is not queried (the C API checks it before launching anything, so a call that needs
workspace fails cleanly and `Executable.run` retries it with a buffer).

ctypes releases the GIL during the foreign call, so the shared arrays are guarded by a lock held
across filling and calling: two threads launching through one Launcher cannot mix arguments.
"""
import ctypes
import threading

from . import _capi


def tensor_facts(value):
    """(data pointer, sizes, element strides or None) of a torch tensor, an object with
    `__cuda_array_interface__` (CuPy), or a shape (tuple/list: pointer 0, for plan)."""
    if isinstance(value, (tuple, list)):
        return 0, tuple(int(s) for s in value), None
    if hasattr(value, "data_ptr") and hasattr(value, "stride"):  # torch.Tensor (bf16 too)
        return value.data_ptr(), tuple(value.shape), tuple(value.stride())
    interface = getattr(value, "__cuda_array_interface__", None)
    if interface is not None:
        shape = tuple(interface["shape"])
        strides = interface.get("strides")
        if strides is not None:
            itemsize = int(interface["typestr"][2:])
            strides = tuple(s // itemsize for s in strides)
        return interface["data"][0] or 0, shape, strides
    raise TypeError(f"not a tensor, a shape or a scalar: {type(value).__name__}")


def contiguous_strides(sizes):
    strides = [1] * len(sizes)
    for d in range(len(sizes) - 2, -1, -1):
        strides[d] = strides[d + 1] * max(sizes[d + 1], 1)
    return tuple(strides)


class Launcher:
    """One function of an executable, ready to launch: `fill(values)` then `launch(stream)` (or
    `run_prepared`), or the softmax fast path's `launch2d`."""

    def __init__(self, executable, function, specs):
        self.executable = executable  # keeps the handle alive
        self.function = function
        self.specs = specs
        self._handle = executable._handle
        self._name = function.encode()
        self._lib = executable._lib
        self._run = executable._lib.softmax_run
        self._plan = executable._lib.softmax_plan
        self.count = len(specs)
        self._args = (_capi.Argument * max(self.count, 1))()
        # Every tensor's sizes then strides, in one int64 array the structs point into.
        ranks = [len(spec.shape) if spec.is_tensor else 0 for spec in specs]
        self._dims = (ctypes.c_int64 * max(2 * sum(ranks), 1))()
        self._offsets = []  # per argument: where its sizes start in _dims (None: a scalar)
        offset = 0
        pointer = ctypes.POINTER(ctypes.c_int64)
        for arg, spec, rank in zip(self._args, specs, ranks):
            if spec.is_tensor:
                arg.kind = _capi.ARGUMENT_TENSOR
                arg.rank = rank
                arg.sizes = ctypes.cast(ctypes.byref(self._dims, 8 * offset), pointer)
                arg.strides = ctypes.cast(ctypes.byref(self._dims, 8 * (offset + rank)), pointer)
                self._offsets.append(offset)
                offset += 2 * rank
            else:
                is_float = spec.dtype.startswith(("f", "bf"))
                arg.kind = _capi.ARGUMENT_FLOAT if is_float else _capi.ARGUMENT_INT
                self._offsets.append(None)
        # int64 views of the same memory: a memoryview item store (~50 ns) is several times
        # cheaper than a ctypes field or slice store, which the fast path counts on.
        self._words = memoryview(self._args).cast("B").cast("q")
        self._dim_words = memoryview(self._dims).cast("B").cast("q")
        stride = ctypes.sizeof(_capi.Argument) // 8
        data = _capi.Argument.data.offset // 8
        self._data_word = [i * stride + data for i in range(self.count)]
        self.arg_structs = list(self._args)[:self.count]
        self.lock = threading.Lock()

    def tensor_dims(self, index):
        """(sizes, strides) stored for tensor argument `index` (for tests and debugging)."""
        offset, rank = self._offsets[index], self._args[index].rank
        return list(self._dims[offset:offset + rank]), list(self._dims[offset + rank:
                                                                         offset + 2 * rank])

    def launch2d(self, x_ptr, out_ptr, rows, width, stream):
        """The fast path of a 2-D function (x, out), both contiguous (rows, width): stores the
        pointers and sizes and launches (lock held); returns the error pointer."""
        words, dims = self._words, self._dim_words
        words[self._data_word[0]] = x_ptr
        words[self._data_word[-1]] = out_ptr
        x, out = self._offsets[0], self._offsets[-1]
        dims[x] = rows
        dims[x + 1] = width
        dims[x + 2] = width  # strides: (width, 1)
        dims[x + 3] = 1
        dims[out] = rows
        dims[out + 1] = width
        dims[out + 2] = width
        dims[out + 3] = 1
        return self._run(self._handle, self._name, self._args, self.count, stream, None, 0)

    def set_tensor(self, index, data, sizes, strides):
        """Stores one tensor argument (call with the lock held). `sizes` must have the
        argument's rank; `strides` None means contiguous. An innermost size of 1 gets stride 1:
        its stride is irrelevant, but the C API requires a unit innermost stride."""
        rank = self._args[index].rank
        if len(sizes) != rank:
            from . import SoftmaxError
            raise SoftmaxError(f"@{self.function}: argument {index} has rank {rank}, got "
                               f"{len(sizes)} sizes {tuple(sizes)}")
        if strides is None:
            strides = contiguous_strides(sizes)
        elif sizes and sizes[-1] == 1 and strides[-1] != 1:
            strides = tuple(strides[:-1]) + (1,)
        self._words[self._data_word[index]] = data or 0
        offset = self._offsets[index]
        self._dims[offset:offset + rank] = sizes
        self._dims[offset + rank:offset + 2 * rank] = strides

    def set_scalar(self, index, value):
        arg = self._args[index]
        if arg.kind == _capi.ARGUMENT_FLOAT:
            arg.float_value = float(value)
        else:
            arg.int_value = int(value)

    def fill(self, values, shapes_allowed=True):
        """Stores every argument from `values` (tensors, shapes or scalars) (lock held). Shapes
        (tuples: a null pointer) only where `shapes_allowed` (plan, not run)."""
        if len(values) != self.count:
            from . import SoftmaxError
            raise SoftmaxError(f"@{self.function} takes {self.count} arguments (outputs "
                               f"included), got {len(values)}")
        for i, (spec, value) in enumerate(zip(self.specs, values)):
            if spec.is_tensor:
                if not shapes_allowed and isinstance(value, (tuple, list)):
                    raise TypeError(f"@{self.function}: argument {i} is a tensor; a shape "
                                    "(tuple) is for plan() only")
                data, sizes, strides = tensor_facts(value)
                self.set_tensor(i, data, sizes, strides)
            else:
                self.set_scalar(i, value)

    def launch(self, stream, workspace=None, workspace_bytes=0):
        """softmax_run on the stored arguments (lock held); returns the error pointer."""
        return self._run(self._handle, self._name, self._args, self.count, stream, workspace,
                         workspace_bytes)

    def prepare(self):
        """softmax_prepare on the stored arguments (lock held); returns the error pointer."""
        return self._lib.softmax_prepare(self._handle, self._name, self._args, self.count)

    def workspace_size(self):
        size = ctypes.c_uint64()
        error = self._lib.softmax_workspace_size(self._handle, self._name, self._args, self.count,
                                                 ctypes.byref(size))
        return error, size.value

    def plan(self, capacity=16):
        launches = (_capi.Launch * capacity)()
        count = ctypes.c_size_t()
        error = self._plan(self._handle, self._name, self._args, self.count, launches, capacity,
                           ctypes.byref(count))
        return error, launches[:min(count.value, capacity)]
