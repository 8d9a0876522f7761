#!/usr/bin/env python3
"""A .npy helper for the tests, with the standard library only (no numpy on the build machine).

  npy.py write FILE DESCR SHAPE V1,V2,...   e.g. write x.npy '<f4' 4x8 'i*0.25 for i in range(32)'
  npy.py print FILE                         the header dict, then the values, one row a line
  npy.py raw FILE HEADER [DATA_BYTES]       a file with exactly this header dict (malformed ones)
"""
import struct
import sys

FORMATS = {"<f8": "d", "<f4": "f", "<f2": "e", "|b1": "B", "<i4": "i", "<i8": "q"}


def header_bytes(header):
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode()


def write(path, descr, shape_text, values_text):
    shape = tuple(int(d) for d in shape_text.split("x")) if shape_text else ()
    values = eval("[" + values_text + "]")
    if descr == "<V2":  # bf16: the upper half of the f32 bits
        data = b"".join(struct.pack("<I", struct.unpack("<I", struct.pack("<f", v))[0])[2:]
                        for v in values)
    else:
        data = struct.pack("<%d%s" % (len(values), FORMATS[descr]), *values)
    shape_repr = "(%s,)" % shape[0] if len(shape) == 1 else repr(shape)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_repr)
    with open(path, "wb") as f:
        f.write(header_bytes(header) + data)


def show(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x93NUMPY\x01\x00", data[:8]
    length = struct.unpack("<H", data[8:10])[0]
    assert (10 + length) % 64 == 0, "data not 64-byte aligned"
    header = data[10:10 + length]
    print(header.decode().strip())
    meta = eval(header)
    body = data[10 + length:]
    if meta["descr"] == "<V2":
        values = [struct.unpack("<f", b"\0\0" + body[i:i + 2])[0] for i in range(0, len(body), 2)]
    else:
        fmt = FORMATS[meta["descr"]]
        values = list(struct.unpack("<%d%s" % (len(body) // struct.calcsize(fmt), fmt), body))
    width = meta["shape"][-1] if meta["shape"] else 1
    for r in range(0, len(values), max(width, 1)):
        print(" ".join("%.6g" % v for v in values[r:r + width]))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(*sys.argv[2:6])
    elif sys.argv[1] == "print":
        show(sys.argv[2])
    elif sys.argv[1] == "raw":
        with open(sys.argv[2], "wb") as f:
            f.write(header_bytes(sys.argv[3]) + b"\0" * int(sys.argv[4] if len(sys.argv) > 4 else 0))
