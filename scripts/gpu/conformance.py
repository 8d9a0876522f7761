#!/usr/bin/env python3
"""The GPU conformance suite: every plan x f32/f16/bf16 x widths around each threshold and odd or
prime widths x row counts (1, and counts that are not multiples of the rows a block) x fused
variants x special values, plus rows with a stride larger than the width.

Each case is one `softmax-run --check --bench --json` process on a generated softmax-dialect
program; the runner checks against the float64 reference of the unfused program. Cases run in
parallel (compilation and the reference are CPU work) while `--gpu-lock` serialises the timed
part, so the timings are not disturbed by other cases.

    conformance.py --runner PATH [--jobs N] [--out DIR] [--memcheck [--tool T]] [--quick] [--axis]

--axis runs only the cases of a softmax over a non-last axis (the strided_axis plan).

Prints a table of failures and a summary last; writes every result to DIR/conformance.jsonl and
a markdown report to DIR/conformance.md.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

DTYPES = ["f32", "f16", "bf16"]

# Widths around each plan's thresholds (multi_row <= 512 < row_registers <= 16384 < row_cluster
# of 2, 4, 8 and 16 blocks <= 32768, 65536, 131072, 262144 < chunked on sm_90; plain 16-bit
# rows staged on one block <= 115704 < row_cluster of 8 <= 131072 < staged over 3, 4, ... blocks
# from 131073, 173113, ... up to 16 at 923512 < chunked), the
# dynamic dispatch tiers (every power of two from 8 to 16384), and odd or prime widths.
# 600, 3000, 6000, 9000 and 12000: widths inside a tier that leave warps of its block idle (elastic
# lanes, RowKernel.h). 700, 1026, 1100, 3500: rows off the widest vector's boundary that a
# tier's alternatives on narrower vectors take (16-bit vectors of 4 at 700, 1100, 3500; f32
# vectors of 2 at 1026, 1 at 513 and 1025; 16-bit 1026 the last alternative's general kernel).
# 1300, 1536, 2501, 2560, 3001, 3583, 3584: the 16-bit tiers of vectors of 4 between those
# (96, 160, 192, 224 lanes; fast kernels at 1300, 1536, 2560, 3584, general ones at 2501, 3001,
# 3583), and 1537 the general kernel of the 2048-column tier's alternative above them.
WIDTHS = [1, 3, 7, 8, 9, 16, 17, 31, 32, 33, 64, 65, 127, 128, 129, 256, 257, 512, 513, 600,
          700, 1000, 1023, 1024, 1025, 1026, 1100, 1300, 1536, 1537, 2048, 2049, 2501, 2560,
          3000, 3001, 3500, 3583, 3584, 4095, 4097, 6000, 8192,
          8193, 9000, 12000, 16384,
          16385, 32767, 32768,
          32769, 50257, 57856, 57857, 65536, 65537, 115704, 115705, 128256, 131072,
          131073, 173113, 200003, 262144, 262145, 923512, 923513, 1000003]
# Row counts of the cluster plans (one cluster a row): 1, 2, 3, 7 and 129.
CLUSTER_ROWS = [2, 3, 7, 129]
CLUSTER_WIDTHS = [16385, 40000, 65537, 131072, 131073, 262144, 524289]
ROWS = [1, 37]  # 37: not a multiple of any block's row count
# 4096 and 16384: rows as wide as a dynamic tier's span take its Full kernel (RowKernel.h);
# 6000: 12 warps of the 8192-column tier's elastic lanes (at 48 registers in 16 bits);
# 12000: the 16-bit 12288-column tier (512 x 24) where the variant has it; 1100 and 1026: a
# tier's alternatives on narrower vectors (the fast kernel on vectors of 4 or 2, and the last
# alternative's general kernel).
VARIANT_WIDTHS = [33, 1000, 1026, 1100, 4096, 4097, 6000, 12000, 16384, 50257]
SPECIAL_WIDTHS = [127, 4096, 50257]
STATIC_VARIANT_WIDTHS = [1025, 1100]
# Seconds a case may take (a sanitizer run of the widest is under a minute).
CASE_TIMEOUT = 240
SPECIALS = ["neg-inf-rows", "pos-inf", "nan", "large", "constant-rows"]


def program(variant, dtype, width=None, rows=None):
    """A softmax-dialect function on dynamic [M, N] tensors (N = `width` when given: the plans
    of a static row width; M = `rows` when given too: a static shape); returns (text, shapes
    for M, N)."""
    dims = f"{rows if rows else '?'}x{width}" if width else "?x?"
    t = f"tensor<{dims}x{dtype}>"
    f = f"tensor<{dims}xf32>"
    widen = dtype != "f32"

    def body_with(prologue, arg_decls="", final="softmax.softmax", out_dtype=None, extra=""):
        out_dtype = out_dtype or dtype
        o = f"tensor<{dims}x{out_dtype}>"
        lines = []
        cur = "%x"
        if widen:
            lines.append(f"  %w = softmax.cast %x : {t} to {f}")
            cur = "%w"
        for i, step in enumerate(prologue):
            lines.append(f"  %p{i} = {step.format(cur=cur, f=f)}")
            cur = f"%p{i}"
        lines.append(f"  %s = {final} {cur}{extra} : {f}")
        lines.append(f"  %y = softmax.cast %s : {f} to {o}")
        return (f"func.func @case(%x: {t}{arg_decls}) -> {o} {{\n" + "\n".join(lines) +
                f"\n  return %y : {o}\n}}\n")

    shapes = lambda m, n: [f"{m}x{n}"]
    if variant == "softmax":
        return body_with([]), shapes
    if variant == "log_softmax":
        return body_with([], final="softmax.log_softmax"), shapes
    if variant == "scale":
        return body_with(["softmax.scale {cur} by 0.125 : {f}"]), shapes
    if variant == "temperature":
        return (body_with(["softmax.scale {cur} by %t : {f}, f32"], ", %t: f32"), shapes)
    if variant == "bias":
        return (body_with(["softmax.add_bias {cur}, %b : {f}, tensor<?x" + dtype + ">"],
                          f", %b: tensor<?x{dtype}>"),
                lambda m, n: [f"{m}x{n}", f"{n}"])
    if variant in ("padding", "padding_nan", "padding_log"):
        final = "softmax.log_softmax" if variant == "padding_log" else "softmax.softmax"
        extra = " masked_rows = nan" if variant == "padding_nan" else ""
        return (body_with(["softmax.mask {cur}, padding %len : {f}, tensor<?xi32>"],
                          ", %len: tensor<?xi32>", final=final, extra=extra),
                lambda m, n: [f"{m}x{n}", f"{m}"])
    if variant == "bias_one":
        # A bias of one element (every dimension 1): read once a kernel, not once a row.
        return (body_with(["softmax.add_bias {cur}, %b : {f}, tensor<1x1x" + dtype + ">"],
                          f", %b: tensor<1x1x{dtype}>"),
                shapes)
    if variant == "mask_one":
        # A boolean mask of one element: all kept or all removed (a -inf row; the policy).
        return (body_with(["softmax.mask {cur}, tensor %m : {f}, tensor<1xi1>"],
                          ", %m: tensor<1xi1>"),
                shapes)
    if variant == "padding_shared":
        # One length for every row (an operand of size 1): read once a kernel, not once a row.
        return (body_with(["softmax.mask {cur}, padding %len : {f}, tensor<1xi32>"],
                          ", %len: tensor<1xi32>"),
                shapes)
    if variant.startswith("causal"):
        offset = {"causal": 0, "causal_neg": -3, "causal_pos": 5}[variant]
        return body_with([f"softmax.mask {{cur}}, causal offset = {offset} : {{f}}"]), shapes
    if variant == "mask":
        return (body_with(["softmax.mask {cur}, tensor %m : {f}, tensor<1x?xi1>"],
                          ", %m: tensor<1x?xi1>"),
                lambda m, n: [f"{m}x{n}", f"1x{n}"])
    if variant == "mask_full":
        return (body_with(["softmax.mask {cur}, tensor %m fill = -1.0e4 : {f}, tensor<?x?xi1>"],
                          ", %m: tensor<?x?xi1>"),
                lambda m, n: [f"{m}x{n}", f"{m}x{n}"])
    if variant == "cast_out":
        out = "bf16" if dtype != "bf16" else "f16"
        return body_with([], out_dtype=out), shapes
    if variant == "attention":
        return body_with(["softmax.scale {cur} by 0.088388 : {f}",
                          "softmax.mask {cur}, causal offset = 1 : {f}"],
                         out_dtype="bf16"), shapes
    raise ValueError(variant)


VARIANTS = ["log_softmax", "scale", "temperature", "bias", "padding", "padding_nan", "padding_log",
            "padding_shared", "bias_one", "mask_one", "causal", "causal_neg", "causal_pos", "mask",
            "mask_full", "cast_out", "attention"]

# Hand-written plans: every plan at widths the selection would not give it.
HAND_PLANS = [
    ("chunked_online", 1000, "#softmax.strategy<chunked_online, lanes = 128, rows = 2, vector = 4, chunks = 2>"),
    ("chunked_online", 33, "#softmax.strategy<chunked_online, lanes = 32, rows = 4, vector = 1, chunks = 1>"),
    ("row_registers", 1000, "#softmax.strategy<row_registers, lanes = 32, rows = 4, vector = 4, chunks = 8>"),
    ("multi_row", 100, "#softmax.strategy<multi_row, lanes = 16, rows = 2, vector = 4, chunks = 2>"),
    # A row over a cluster of blocks at widths the selection gives other plans, with warps of
    # one block, an odd cluster size and one scalar column a lane.
    ("row_cluster", 1000, "#softmax.strategy<row_cluster, lanes = 32, rows = 1, vector = 4, chunks = 2, cluster = 4>"),
    ("row_cluster", 5000, "#softmax.strategy<row_cluster, lanes = 128, rows = 1, vector = 4, chunks = 4, cluster = 3>"),
    ("row_cluster", 3000, "#softmax.strategy<row_cluster, lanes = 64, rows = 1, vector = 1, chunks = 8, cluster = 8>"),
    # vector = 1: the same scalar loop that operands misaligned differently take.
    ("chunked_online", 5000, "#softmax.strategy<chunked_online, lanes = 256, rows = 1, vector = 1, chunks = 1>"),
    ("row_registers", 700, "#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 1, chunks = 12>"),
]

# row_staged written by hand at widths and types the selection does not give it: rows of one
# word or less (1, 7, 9: the edge slots alone, no bulk copy), f32 words of 4, blocks of one warp.
STAGED_HAND_PLANS = [
    ("f32", 1, "#softmax.strategy<row_staged, lanes = 32, rows = 1, vector = 4, chunks = 1>"),
    ("f32", 33, "#softmax.strategy<row_staged, lanes = 32, rows = 1, vector = 4, chunks = 1>"),
    ("f32", 5000, "#softmax.strategy<row_staged, lanes = 256, rows = 1, vector = 4, chunks = 1>"),
    ("f32", 57852, "#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 4, chunks = 1>"),
    ("bf16", 7, "#softmax.strategy<row_staged, lanes = 32, rows = 1, vector = 8, chunks = 1>"),
    ("bf16", 9, "#softmax.strategy<row_staged, lanes = 64, rows = 1, vector = 8, chunks = 1>"),
    ("f16", 3001, "#softmax.strategy<row_staged, lanes = 1024, rows = 1, vector = 8, chunks = 1>"),
    ("bf16", 115704, "#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>"),
    # Over a cluster (the launch takes the fewest blocks up to `cluster` whose slices stay
    # within 113 KB): one block of a cluster plan (7, 3001: a cluster of one), two blocks at
    # 57853 f32 and 65536 bf16, 2 of at most 4 at 100003, 6 at 300001, 7 at 200003 f32 (edge
    # words in a middle block's slice), 16 at the widest rows a cluster of 16 holds.
    ("bf16", 7, "#softmax.strategy<row_staged, lanes = 32, rows = 1, vector = 8, chunks = 1, cluster = 4>"),
    ("f16", 3001, "#softmax.strategy<row_staged, lanes = 64, rows = 1, vector = 8, chunks = 1, cluster = 16>"),
    ("f32", 57853, "#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 4, chunks = 1, cluster = 2>"),
    ("bf16", 65536, "#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 2>"),
    ("f16", 100003, "#softmax.strategy<row_staged, lanes = 256, rows = 1, vector = 8, chunks = 1, cluster = 4>"),
    ("bf16", 300001, "#softmax.strategy<row_staged, lanes = 1024, rows = 1, vector = 8, chunks = 1, cluster = 16>"),
    ("f32", 200003, "#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 4, chunks = 1, cluster = 8>"),
    ("bf16", 1851384, "#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 16>"),
    ("f32", 925692, "#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 4, chunks = 1, cluster = 16>"),
]


# row_split written by hand (a row split over ceil(N / span) blocks in three launches,
# RowKernel.h): spans of 256 lanes of one vector (f32 1024 columns, 16-bit 2048) and of 64 lanes
# of two (f32 512); widths below span + vector (the chunked_online fallback), at it, odd and
# prime widths between, and wide rows; M = 1, 2, 3, 7, 129.
# Over a cluster (one launch, cluster = K): 4 blocks of small spans (several spans a block at
# 5000 columns and up), 16 blocks of one warp, 16 blocks of the widest spans.
SPLIT_HAND_PLANS = {
    "f32": ["#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 4, chunks = 1>",
            "#softmax.strategy<row_split, lanes = 64, rows = 1, vector = 4, chunks = 2>",
            "#softmax.strategy<row_split, lanes = 128, rows = 1, vector = 4, chunks = 2, cluster = 4>",
            "#softmax.strategy<row_split, lanes = 512, rows = 1, vector = 4, chunks = 8, cluster = 16>"],
    "f16": ["#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 1>",
            "#softmax.strategy<row_split, lanes = 32, rows = 1, vector = 8, chunks = 1, cluster = 16>"],
    "bf16": ["#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 1>",
             "#softmax.strategy<row_split, lanes = 32, rows = 1, vector = 8, chunks = 8>",
             "#softmax.strategy<row_split, lanes = 128, rows = 1, vector = 8, chunks = 2, cluster = 4>"],
}


def plan_tag(strategy):
    """A short name of a hand-written plan: its lanes, vector, chunks and cluster."""
    numbers = dict(re.findall(r"(\w+) = (\d+)", strategy))
    return "L{}V{}C{}K{}".format(numbers["lanes"], numbers["vector"], numbers["chunks"],
                                 numbers.get("cluster", 1))
SPLIT_WIDTHS = [7, 1027, 1028, 2055, 2056, 2057, 5000, 50257, 131073]
SPLIT_ROWS = [1, 2, 3, 7, 129]
# Static [M, N] programs whose selection splits the rows (few rows, wider than a block or a
# cluster holds), with every fused variant.
SPLIT_STATIC = (2, 1000003)


def hand_program(dtype, n, strategy):
    t = f"tensor<?x{n}x{dtype}>"
    return (f"func.func @case(%x: {t}) -> {t} {{\n"
            f"  %y = softmax.fused softmax %x axis = 1 prologue [] "
            f"{{strategies = [{strategy}]}} : {t} -> {t}\n  return %y : {t}\n}}\n")


def static_program(dtype, m, n):
    t = f"tensor<{m}x{n}x{dtype}>"
    return (f"func.func @case(%x: {t}) -> {t} {{\n  %y = softmax.softmax %x : {t}\n"
            f"  return %y : {t}\n}}\n")


# Softmax over a non-last axis (the strided_axis plan, AxisKernel.cpp): axis 0 of [C, inner],
# axis 1 of [outer, C, inner] and axis -2 of [2, 3, C, inner] (the dimensions after the axis are
# the contiguous `inner` columns), axis sizes and inner sizes around the plan's edges (C = 1; 7 and
# 8 around a vector; 33; 1000 and 4096 over a cluster's blocks on aligned layouts (sm_90), the
# online path of one block on the others; inner 1 and 3 narrower than a vector, 4097 not a
# multiple of one: the scalar kernel).
AXIS_C = [1, 7, 8, 33, 1000, 4096]
AXIS_INNER = [1, 3, 1024, 4097]
AXIS_KINDS = ["0", "1", "-2"]
AXIS_VARIANTS = ["log_softmax", "scale", "temperature", "cast_out", "masked_nan"]
# Hand-written plans: the online path at small C, lanes below a warp (shuffles between rows).
AXIS_HAND_PLANS = {
    "f32": ["#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 4, chunks = 1>",
            "#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 2>"],
    "bf16": ["#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 8, chunks = 1>",
             "#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 2>"],
}


# Hand-written plans over a cluster (static C only: the register path).
AXIS_CLUSTER_PLANS = {
    "f32": ["#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>",
            "#softmax.strategy<strided_axis, lanes = 8, rows = 8, vector = 4, chunks = 9, cluster = 16>",
            "#softmax.strategy<strided_axis, lanes = 32, rows = 8, vector = 4, chunks = 32, cluster = 4>"],
    "bf16": ["#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 8, chunks = 16, cluster = 8>",
             "#softmax.strategy<strided_axis, lanes = 16, rows = 16, vector = 8, chunks = 4, cluster = 16>",
             "#softmax.strategy<strided_axis, lanes = 32, rows = 8, vector = 8, chunks = 16, cluster = 8>"],
}


def axis_shape(kind, c, inner):
    """The tensor shape and the axis for an axis kind, C and inner; outer sizes shrink so that
    a case stays under 2^24 elements (the float64 reference is CPU work)."""
    outer = max(1, min(3, (1 << 24) // max(1, c * inner)))
    if kind == "0":
        return [c, inner], 0
    if kind == "1":
        return [outer, c, inner], 1
    return [2, outer, c, inner], -2


def axis_program(variant, dtype, shape, axis, static=False, strategy=None):
    """A softmax-dialect function over `axis`; dynamic dimensions unless `static`."""
    dims = "x".join(str(d) if static else "?" for d in shape)
    t = f"tensor<{dims}x{dtype}>"
    out_dtype = ("bf16" if dtype != "bf16" else "f16") if variant == "cast_out" else dtype
    if variant == "widen_temperature":
        out_dtype = "f32"
    o = f"tensor<{dims}x{out_dtype}>"
    if strategy:
        return (f"func.func @case(%x: {t}) -> {t} {{\n"
                f"  %y = softmax.fused softmax %x axis = {axis} prologue [] "
                f"{{strategies = [{strategy}]}} : {t} -> {t}\n  return %y : {t}\n}}\n")
    args, lines, cur, tin = "", [], "%x", t
    if variant == "scale":
        lines.append(f"  %s = softmax.scale %x by 0.125 : {t}")
        cur = "%s"
    elif variant == "temperature":
        args = ", %t: f32"
        lines.append(f"  %s = softmax.scale %x by %t : {t}, f32")
        cur = "%s"
    elif variant == "widen_temperature":
        # The input widened to f32, then times a scalar (a 16-bit input with an f32 result).
        args = ", %t: f32"
        if dtype != "f32":
            lines.append(f"  %w = softmax.cast %x : {t} to {o}")
            cur = "%w"
        lines.append(f"  %s = softmax.scale {cur} by %t : {o}, f32")
        cur = "%s"
        t = o
    final = "softmax.log_softmax" if variant == "log_softmax" else "softmax.softmax"
    extra = " masked_rows = nan" if variant == "masked_nan" else ""
    lines.append(f"  %p = {final} {cur} axis = {axis}{extra} : {t}")
    result = "%p"
    if out_dtype != dtype and variant != "widen_temperature":
        lines.append(f"  %y = softmax.cast %p : {t} to {o}")
        result = "%y"
    return (f"func.func @case(%x: {tin}{args}) -> {o} {{\n" + "\n".join(lines) +
            f"\n  return {result} : {o}\n}}\n")


def axis_cases(quick=False):
    """The strided_axis cases (see AXIS_C)."""
    cs = AXIS_C if not quick else [1, 33, 4096]
    inners = AXIS_INNER if not quick else [3, 1024]
    for dtype in ("f32", "bf16"):
        for kind in AXIS_KINDS:
            for c in cs:
                for inner in inners:
                    shape, axis = axis_shape(kind, c, inner)
                    yield dict(name=f"axis {kind} softmax {dtype} {'x'.join(map(str, shape))}",
                               axis=axis, variant="softmax", dtype=dtype, shape=shape)
            # A dynamic C's tiers (aligned layouts: inner 1024): either side of the two
            # smallest tiers' capacities (8, 16) and of the largest (4096), where the general
            # plan takes over; just past a tier's lower bound (1025: the f32 tier of 1536,
            # whose chunks past 1024 load the last one in the axis, masked; 1537 and 3073,
            # past the f32 tiers at three quarters), and f32 C over the tiers of clusters
            # (2049: the last blocks' slices wholly past C; 3000; 4096). The variants through
            # a lean f32 tier (C = 1000).
            # Past 4096 (f32): the tiers over clusters of 6-16 blocks of C = 1024's plan (6145:
            # the tier of 8192; 16384, the last; 16385, the general plan again); 16-bit: over
            # clusters of 4 and 8 blocks of C = 2048's packed plan (rule 6; 8000 and 12000: the
            # last blocks' slices in part or wholly past C).
            for c in (8, 9, 16, 17, 1025, 1537, 2048, 2049, 3000, 3073, 4096, 4097, 6145,
                      8000, 12000, 16384, 16385):
                shape, axis = axis_shape(kind, c, 1024)
                yield dict(name=f"axis {kind} tier softmax {dtype} {'x'.join(map(str, shape))}",
                           axis=axis, variant="softmax", dtype=dtype, shape=shape)
            for variant in AXIS_VARIANTS:
                shape, axis = axis_shape(kind, 1000, 1024)
                yield dict(name=f"axis {kind} tier {variant} {dtype} "
                                f"{'x'.join(map(str, shape))}",
                           axis=axis, variant=variant, dtype=dtype, shape=shape)
            # A constant scale through the tiers of 1536, 2048 and 4096 (16-bit: packed, -inf
            # past C as loaded; f32: over clusters of 3, 4 and 8 blocks, that of 1536 at three
            # quarters over a dynamic inner size).
            for c in (1500, 2000, 4000):
                shape, axis = axis_shape(kind, c, 1024)
                yield dict(name=f"axis {kind} tier scale {dtype} {'x'.join(map(str, shape))}",
                           axis=axis, variant="scale", dtype=dtype, shape=shape)
            # A scale by a scalar through the 16-bit tiers past 1024, which hold their values
            # packed and are launched for a positive factor only (-inf past C as loaded): C =
            # 2000 and 4000 (the tiers of 2048 and 4096), to a 16-bit and to an f32 result; a
            # negative and a zero factor take the general plan; the launch rules of the host
            # code JIT-compiled too (--launcher=host-code; the C++ API's interpreter by default).
            if dtype != "f32" and kind != "-2":
                for c in (2000, 4000):
                    for variant in ("temperature", "widen_temperature"):
                        for scalar in (0.7, -0.7, 0.0):
                            shape, axis = axis_shape(kind, c, 1024)
                            yield dict(name=f"axis {kind} tier {variant} {dtype} "
                                            f"{'x'.join(map(str, shape))} scalar {scalar}",
                                       axis=axis, variant=variant, dtype=dtype, shape=shape,
                                       scalar=scalar)
                shape, axis = axis_shape(kind, 3000, 1024)
                for scalar in (0.7, -0.7):
                    yield dict(name=f"axis {kind} tier widen_temperature {dtype} "
                                    f"{'x'.join(map(str, shape))} scalar {scalar} host-code",
                               axis=axis, variant="widen_temperature", dtype=dtype, shape=shape,
                               scalar=scalar, launcher="host-code")
            # The variants through the tiers over clusters (C = 3000: the tier of 4096 over 8
            # blocks; f32 after a prologue or as a log_softmax, a 16-bit input widened to f32
            # and scaled: rule 5 of AxisPlan.cpp; other 16-bit ones through the general plan).
            for variant in AXIS_VARIANTS + ["widen_temperature"]:
                shape, axis = axis_shape(kind, 3000, 1024)
                yield dict(name=f"axis {kind} tier {variant} {dtype} "
                                f"{'x'.join(map(str, shape))}",
                           axis=axis, variant=variant, dtype=dtype, shape=shape)
            # Static shapes: the plan chosen for the exact C (register or online path); the
            # lean vector kernels of a static C (AxisKernel.cpp, usesLeanAddressing): f32 C =
            # 2048 and 4096 in registers in blocks of 512, a last chunk past C (2047), columns
            # past the tensor's loaded from column 0 (inner 1000: not whole blocks).
            # f32 C = 3000 and 4096 over a cluster of 6 and 8 blocks (AxisPlan.cpp, rule 5).
            # f32 C = 5000 and 16384 over clusters of 5 and 16 blocks of C = 1024's plan (rule 5
            # past 8 blocks of 512; 16 is sm_90's non-portable size).
            for c, inner in ((8, 1024), (1000, 3), (4096, 1024), (2048, 1024), (2047, 1000),
                             (4096, 1000), (3000, 1024), (5000, 1000), (16384, 1024)):
                shape, axis = axis_shape(kind, c, inner)
                yield dict(name=f"axis {kind} static softmax {dtype} {'x'.join(map(str, shape))}",
                           axis=axis, variant="softmax", dtype=dtype, shape=shape, static=True)
            for variant in AXIS_VARIANTS:
                shape, axis = axis_shape(kind, 1000, 4097)
                yield dict(name=f"axis {kind} {variant} {dtype} {'x'.join(map(str, shape))}",
                           axis=axis, variant=variant, dtype=dtype, shape=shape)
            for i, strategy in enumerate(AXIS_HAND_PLANS[dtype]):
                shape, axis = axis_shape(kind, 1000, 1024)
                yield dict(name=f"axis {kind} hand {i} {dtype} {'x'.join(map(str, shape))}",
                           axis=axis, variant="softmax", dtype=dtype, shape=shape,
                           strategy=strategy)
            # Columns over a cluster (static C): the chosen plans of the variants at C = 4096
            # (8 blocks; the plain softmax is among the static shapes above), and hand-written clusters whose last blocks' slices lie wholly past C
            # (C = 1000 over 8 blocks of 512) or in part, and the non-portable 16 blocks.
            for variant in AXIS_VARIANTS:
                shape, axis = axis_shape(kind, 4096, 1024)
                yield dict(name=f"axis {kind} static {variant} {dtype} "
                                f"{'x'.join(map(str, shape))}",
                           axis=axis, variant=variant, dtype=dtype, shape=shape, static=True)
            for i, strategy in enumerate(AXIS_CLUSTER_PLANS[dtype]):
                shape, axis = axis_shape(kind, 1000, 1024)
                yield dict(name=f"axis {kind} hand cluster {i} {dtype} "
                                f"{'x'.join(map(str, shape))}",
                           axis=axis, variant="softmax", dtype=dtype, shape=shape,
                           strategy=strategy, static=True)
        # Special values over axes 0 and 1, the register (C = 33) and online (C = 4096) paths.
        for special in SPECIALS:
            for variant in ("softmax", "log_softmax"):
                for kind in ("0", "1"):
                    for c in (33, 4096):
                        shape, axis = axis_shape(kind, c, 1024)
                        yield dict(name=f"axis {kind} {variant}+{special} {dtype} "
                                        f"{'x'.join(map(str, shape))}",
                                   axis=axis, variant=variant, dtype=dtype, shape=shape,
                                   special=special)
                    # The lean kernel of the same static shape (C = 4096 in registers).
                    shape, axis = axis_shape(kind, 4096, 1000)
                    yield dict(name=f"axis {kind} static {variant}+{special} {dtype} "
                                    f"{'x'.join(map(str, shape))}",
                               axis=axis, variant=variant, dtype=dtype, shape=shape,
                               special=special, static=True)
        # Columns of -inf only (the masked_rows policy of a column): with C = 1 each row of
        # -inf that --special=neg-inf-rows writes (rows r % 10 == 1) is a row of such columns.
        for variant in ("softmax", "log_softmax", "masked_nan"):
            shape, axis = axis_shape("1", 1, 1024)
            yield dict(name=f"axis 1 {variant}+masked-columns {dtype} {'x'.join(map(str, shape))}",
                       axis=axis, variant=variant, dtype=dtype, shape=shape,
                       special="neg-inf-rows")
        # Rows with a stride larger than the last dimension (axis -2 of [B, H, S]: H strided).
        for c, inner in ((33, 1000), (4096, 100)):
            shape, axis = axis_shape("-2", c, inner)
            yield dict(name=f"axis -2 softmax {dtype} {'x'.join(map(str, shape))} stride "
                            f"{inner + 13}", axis=axis, variant="softmax", dtype=dtype,
                       shape=shape, stride=inner + 13)


def cases(quick):
    widths = WIDTHS if not quick else [1, 33, 1000, 4097, 50257]
    for dtype in DTYPES:
        for n in widths:
            for m in ROWS:
                yield dict(name=f"softmax {dtype} {m}x{n}", variant="softmax", dtype=dtype, m=m, n=n)
            # A taller problem too, so that blocks hold several rows.
            m = max(2, min(4099, (4 << 20) // n))
            yield dict(name=f"softmax {dtype} {m}x{n}", variant="softmax", dtype=dtype, m=m, n=n)
        for variant in VARIANTS:
            for n in VARIANT_WIDTHS:
                yield dict(name=f"{variant} {dtype} 37x{n}", variant=variant, dtype=dtype, m=37, n=n)
            # A static row width: the plans of static rows, on the widest vector that divides
            # the width (1100: 16-bit vectors of 4; 1025: f32 vectors of 1, 16-bit rows off the
            # vector, the general kernel).
            for n in STATIC_VARIANT_WIDTHS:
                yield dict(name=f"{variant} {dtype} 37x{n} static width", variant=variant,
                           dtype=dtype, m=37, n=n, width=n)
        for special in SPECIALS:
            for variant in ("softmax", "log_softmax"):
                for n in SPECIAL_WIDTHS:
                    yield dict(name=f"{variant}+{special} {dtype} 37x{n}", variant=variant,
                               dtype=dtype, m=37, n=n, special=special)
        for variant in ("softmax", "attention"):
            for n in (100, 3000, 40000):
                yield dict(name=f"{variant} {dtype} 37x{n} stride {n + 13}", variant=variant,
                           dtype=dtype, m=37, n=n, stride=n + 13)
        for n in CLUSTER_WIDTHS:
            for m in CLUSTER_ROWS:
                yield dict(name=f"softmax {dtype} {m}x{n}", variant="softmax", dtype=dtype, m=m,
                           n=n)
        for plan, n, strategy in HAND_PLANS:
            yield dict(name=f"hand {plan} {dtype} 37x{n}", hand=strategy, dtype=dtype, m=37, n=n)
        for strategy in SPLIT_HAND_PLANS[dtype]:
            for n in SPLIT_WIDTHS:
                for m in SPLIT_ROWS if n < 100000 else (1, 3):
                    yield dict(name=f"hand row_split {dtype} {m}x{n} {plan_tag(strategy)}",
                               hand=strategy, dtype=dtype, m=m, n=n)
            # Rows off the vector boundary (a head per row) and special values.
            yield dict(name=f"hand row_split {dtype} 7x50257 stride 50260 {plan_tag(strategy)}",
                       hand=strategy, dtype=dtype, m=7, n=50257, stride=50260)
            for special in SPECIALS:
                yield dict(name=f"hand row_split+{special} {dtype} 3x50257 {plan_tag(strategy)}",
                           hand=strategy, dtype=dtype, m=3, n=50257, special=special)
        # A row count known only at run time: the split where the rows are fewer than the
        # multiprocessors (the row-count alternative of the last tier), else a block a row.
        for m in SPLIT_ROWS + [132, 133]:
            yield dict(name=f"row_split dynamic softmax {dtype} {m}x1000003", variant="softmax",
                       dtype=dtype, m=m, n=1000003)
        for variant in VARIANTS:
            yield dict(name=f"row_split dynamic {variant} {dtype} 3x300001", variant=variant,
                       dtype=dtype, m=3, n=300001, width=300001)
        m, n = SPLIT_STATIC
        for variant in ["softmax"] + VARIANTS:
            yield dict(name=f"row_split static {variant} {dtype} {m}x{n}", variant=variant,
                       dtype=dtype, m=m, n=n, width=n, rows=m)
        for staged_dtype, n, strategy in STAGED_HAND_PLANS:
            if staged_dtype == dtype:
                for m in (1, 37):
                    yield dict(name=f"hand row_staged {dtype} {m}x{n}", hand=strategy,
                               dtype=dtype, m=m, n=n)
                yield dict(name=f"hand row_staged {dtype} 37x{n} stride {n + 3}", hand=strategy,
                           dtype=dtype, m=37, n=n, stride=n + 3)
        # 3000, 4097 and 9000: blocks of whole warps that are not a power of two (384, 288 lanes).
        # 513, 700, 1025, 1026, 1100, 3500: rows on the widest vector that divides the width
        # (f32 vectors of 1 or 2, 16-bit of 4); 4608, 6656: 16 values on 288 and 416 threads
        # at 40 and 48 registers; 1537, 2049, 2501, 3001: 16-bit rows off the 8-byte boundary
        # on 16 values a thread (128, 160, 160, 192 lanes, the general kernel).
        for n in (1000, 1023, 127, 3000, 4097, 9000, 50257, 131071, 513, 700, 1025, 1026, 1100,
                  3500, 4608, 6656, 1537, 2049, 2501, 3001):
            yield dict(name=f"static softmax {dtype} 300x{n}", static=True, dtype=dtype, m=300, n=n)
    yield from pipelined_cases()
    yield from axis_cases(quick)


def run_case(case, runner, workdir, lock, memcheck, bench, tool="memcheck"):
    tag = "".join(c if c.isalnum() else "_" for c in case["name"])
    src = os.path.join(workdir, tag + ".mlir")
    out = os.path.join(workdir, tag + ".json")
    if "axis" in case:
        text = axis_program(case["variant"], case["dtype"], case["shape"], case["axis"],
                            static=case.get("static", False), strategy=case.get("strategy"))
        shapes = [] if case.get("static") else ["x".join(map(str, case["shape"]))]
    elif "hand" in case:
        text, shapes = hand_program(case["dtype"], case["n"], case["hand"]), [f"{case['m']}x{case['n']}"]
    elif case.get("static"):
        text, shapes = static_program(case["dtype"], case["m"], case["n"]), []
    else:
        text, shape_fn = program(case["variant"], case["dtype"], case.get("width"),
                                 case.get("rows"))
        shapes = shape_fn(case["m"], case["n"])
        if case.get("rows"):
            shapes = shapes[1:]  # a static input takes no --shape
    with open(src, "w") as f:
        f.write(text)
    cmd = [runner, src, "--check", f"--json={out}", "--seed=7"]
    if bench:
        cmd += ["--bench", "--reps=10", "--warmup=3", f"--gpu-lock={lock}"]
    cmd += [f"--shape={s}" for s in shapes]
    if "special" in case:
        cmd.append(f"--special={case['special']}")
    if "stride" in case:
        cmd.append(f"--row-stride={case['stride']}")
    if "scalar" in case:
        cmd.append(f"--scalar={case['scalar']}")
    if "launcher" in case:
        cmd.append(f"--launcher={case['launcher']}")
    if memcheck:
        sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
        cmd = [sanitizer, "--tool", tool, "--error-exitcode", "99"] + cmd
    start = time.time()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=CASE_TIMEOUT)
    except subprocess.TimeoutExpired as e:
        # A hung kernel (a barrier some block never reaches) must fail its case, not the run.
        out_text = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        proc = subprocess.CompletedProcess(cmd, 124, out_text, f"timed out after {CASE_TIMEOUT} s")
    result = {"name": case["name"], "exit": proc.returncode, "seconds": round(time.time() - start, 2),
              "command": " ".join(cmd[cmd.index(runner):])}
    if os.path.exists(out):
        with open(out) as f:
            try:
                result.update(json.load(f))
            except json.JSONDecodeError:
                pass
    checks = [c for c in result.get("checks", []) if c.get("checked")]
    if checks:
        result["max_abs_error"] = max(c["max_abs_error"] for c in checks)
        result["max_rel_error"] = max(c["max_rel_error"] for c in checks)
    if memcheck:
        # memcheck, synccheck and initcheck end with "ERROR SUMMARY: N errors"; racecheck with
        # "RACECHECK SUMMARY: N hazards displayed (N errors, N warnings)".
        summary = [l for l in proc.stdout.splitlines() + proc.stderr.splitlines()
                   if "ERROR SUMMARY" in l or "RACECHECK SUMMARY" in l]
        result["memcheck"] = summary[-1].strip() if summary else "no summary"
    if proc.returncode != 0:
        result["log"] = (proc.stdout + proc.stderr)[-2000:]
    return result


def pipelined_cases():
    """Row counts large enough that each block of a 16-bit register plan works through at least
    two row groups (RowKernel.cpp buildBlockCount: per block = min(4, groups / 2112) where
    groups are consecutive), so the prefetch of the next group and the reuse of the reductions'
    shared slots are exercised: M = 4224 x rows a block of the plan the width gets. Groups of
    8 KB or more are walked a grid apart, round(groups / (16 x slots)) a block: the last cases
    take 2 or 3 there, with a last block short of them."""
    for dtype in ("bf16", "f16"):
        for n, rows in ((32, 256), (1000, 8), (4096, 2), (16384, 1)):
            m = 4224 * rows
            yield dict(name=f"pipelined softmax {dtype} {m}x{n}", variant="softmax", dtype=dtype,
                       m=m, n=n)
    # row_cluster with many rows (more clusters than are resident at once) in 16-bit types,
    # and a row stride.
    yield dict(name="pipelined softmax bf16 264x40000", variant="softmax", dtype="bf16", m=264,
               n=40000)
    yield dict(name="pipelined attention f16 1100x20000", variant="attention", dtype="f16",
               m=1100, n=20000)
    yield dict(name="pipelined log_softmax bf16 600x100003 stride 100011", variant="log_softmax",
               dtype="bf16", m=600, n=100003, stride=100011)
    yield dict(name="pipelined attention bf16 33792x1000", variant="attention", dtype="bf16",
               m=33792, n=1000)
    yield dict(name="pipelined padding bf16 8448x4096", variant="padding", dtype="bf16",
               m=8448, n=4096)
    # The attention chain's Full kernel (the 4096-column tier, two rows a block).
    yield dict(name="pipelined attention bf16 8448x4096", variant="attention", dtype="bf16",
               m=8448, n=4096)
    yield dict(name="pipelined log_softmax f16 8448x4096 stride 4100", variant="log_softmax",
               dtype="f16", m=8448, n=4096, stride=4100)
    # Elastic lanes over several row groups a block: 600 columns on 96 lanes x 2 rows (the
    # 1024-column tier), 3000 on 384 lanes (the 4096 tier), 12000 on 384 lanes of 32 values.
    for dtype, m, n in (("bf16", 8448, 600), ("f16", 4224, 3000), ("bf16", 4224, 12000)):
        yield dict(name=f"pipelined softmax {dtype} {m}x{n}", variant="softmax", dtype=dtype,
                   m=m, n=n)
    # Groups a grid apart, 2-3 a block (slots: 528 for 4096 columns on 512 lanes of 8 at 32
    # registers, 396 for 8192 on 512 of 16 at 40, 264 for 16384 on 512 of 32 at 64).
    for dtype, m, n, static in (("bf16", 13001, 4096, False), ("bf16", 13001, 4096, True),
                                ("f16", 9601, 8192, False), ("bf16", 17001, 8192, True),
                                ("bf16", 6401, 16384, True)):
        yield dict(name=f"pipelined {'static ' if static else ''}softmax {dtype} {m}x{n}",
                   variant="softmax", dtype=dtype, m=m, n=n, static=static)


def memcheck_cases():
    """One case per plan and per fused variant, small enough for the sanitizer."""
    for dtype in DTYPES:
        # Dynamic tiers: multi_row (8, 100), row_registers (1000, 3000, 6000, 9000), row_cluster
        # (20000, 40000, 70000, 140000: 16 blocks), chunked_online (270000).
        # 513, 1026, 1100: the alternatives of a tier on narrower vectors (fast and general);
        # 1300, 2501, 3583: the 16-bit tiers between them (fast, general, general).
        for n in (8, 100, 513, 1000, 1026, 1100, 1300, 2501, 3583, 3000, 6000, 9000, 20000,
                  40000, 70000, 140000, 270000):
            yield dict(name=f"softmax {dtype} 5x{n}", variant="softmax", dtype=dtype, m=5, n=n)
        yield dict(name=f"softmax {dtype} 5x3000 stride 3013", variant="softmax", dtype=dtype,
                   m=5, n=3000, stride=3013)
        yield dict(name=f"softmax {dtype} 5x40000 stride 40013", variant="softmax", dtype=dtype,
                   m=5, n=40000, stride=40013)
    for variant in VARIANTS:
        yield dict(name=f"{variant} bf16 5x1000", variant=variant, dtype="bf16", m=5, n=1000)
    for variant in ("attention", "bias", "log_softmax"):  # alternatives on vectors of 4
        yield dict(name=f"{variant} bf16 5x1100", variant=variant, dtype="bf16", m=5, n=1100)
    # Full kernels: rows as wide as a tier's span.
    for variant, n in (("softmax", 16384), ("attention", 4096), ("padding_log", 4096)):
        yield dict(name=f"{variant} bf16 5x{n}", variant=variant, dtype="bf16", m=5, n=n)
    for variant in ("log_softmax", "bias", "causal", "mask", "attention"):  # row_cluster
        yield dict(name=f"{variant} bf16 5x40000", variant=variant, dtype="bf16", m=5, n=40000)
    for plan, n, strategy in HAND_PLANS:
        yield dict(name=f"hand {plan} f32 5x{n}", hand=strategy, dtype="f32", m=5, n=n)
    # row_staged: the bulk copy, the edge slots, several rows a block (a grid smaller than the
    # rows is not launched, but 1-word rows and strided rows are).
    for dtype, n, strategy in STAGED_HAND_PLANS:
        yield dict(name=f"hand row_staged {dtype} 5x{n} stride {n + 3}", hand=strategy,
                   dtype=dtype, m=5, n=n, stride=n + 3)
    # row_split: the three launches (slots in the output, the block reductions), rows off the
    # vector boundary, the fallback (5 columns), a static fused program.
    for dtype, strategies in SPLIT_HAND_PLANS.items():
        for strategy in (strategies[0], strategies[-1]):
            for n in (5, 5000):
                yield dict(name=f"hand row_split {dtype} 3x{n} stride {n + 3} {plan_tag(strategy)}",
                           hand=strategy, dtype=dtype, m=3, n=n, stride=n + 3)
    for variant in ("attention", "padding_log", "bias"):
        yield dict(name=f"row_split static {variant} bf16 2x300001", variant=variant,
                   dtype="bf16", m=2, n=300001, width=300001, rows=2)
    # strided_axis: the vector and scalar kernels, the register and online paths, shuffles and
    # shared memory between the rows of a column, the blocks of a cluster (C = 4096: a dynamic
    # C's tier of 8 blocks).
    for dtype in ("f32", "bf16"):
        for kind, c, inner in (("0", 33, 1024), ("1", 4096, 64), ("-2", 7, 4097)):
            shape, axis = axis_shape(kind, c, inner)
            shape = [min(d, 2) if i < len(shape) - 2 else d for i, d in enumerate(shape)]
            yield dict(name=f"axis {kind} softmax {dtype} {'x'.join(map(str, shape))}",
                       axis=axis, variant="softmax", dtype=dtype, shape=shape)
        yield dict(name=f"axis 1 hand {dtype} 1x100x64", axis=1, variant="softmax",
                   dtype=dtype, shape=[1, 100, 64], strategy=AXIS_HAND_PLANS[dtype][1])
        # A column over a cluster of 8 (its exchange through distributed shared memory).
        yield dict(name=f"axis 1 hand cluster {dtype} 2x1000x64", axis=1, variant="softmax",
                   dtype=dtype, shape=[2, 1000, 64], strategy=AXIS_CLUSTER_PLANS[dtype][0],
                   static=True)
        # A dynamic C's tier over a cluster (bf16: 8 blocks of packed values, the last ones
        # wholly past C = 12000; f32: 16 blocks) and through a constant scale (bf16: packed
        # values, -inf past C as loaded).
        yield dict(name=f"axis 1 tier softmax {dtype} 1x12000x64", axis=1, variant="softmax",
                   dtype=dtype, shape=[1, 12000, 64])
        yield dict(name=f"axis 1 tier scale {dtype} 1x3000x64", axis=1, variant="scale",
                   dtype=dtype, shape=[1, 3000, 64])
        # bf16 times a positive scalar to f32: a packed tier for positive factors (C = 3000).
        if dtype == "bf16":
            yield dict(name="axis 1 tier widen_temperature bf16 1x3000x64", axis=1,
                       variant="widen_temperature", dtype=dtype, shape=[1, 3000, 64])


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runner", default=os.environ.get("SOFTMAX_RUN", "softmax-run"))
    parser.add_argument("--jobs", type=int, default=min(12, os.cpu_count() or 4))
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--memcheck", action="store_true", help="the compute-sanitizer subset")
    parser.add_argument("--tool", default="memcheck",
                        help="with --memcheck: the compute-sanitizer tool (memcheck, racecheck, "
                             "synccheck, initcheck)")
    parser.add_argument("--quick", action="store_true", help="fewer widths")
    parser.add_argument("--pipelined", action="store_true",
                        help="only the row counts that pipeline the 16-bit register plans (with "
                             "--memcheck: under the sanitizer, two cases)")
    parser.add_argument("--axis", action="store_true",
                        help="only the softmax-over-a-non-last-axis (strided_axis) cases")
    parser.add_argument("--match", default=None,
                        help="only the cases whose name matches this regular expression (a "
                             "change's subset, e.g. 'bf16|f16' for the 16-bit plans)")
    parser.add_argument("--shard", default=None, metavar="K/N",
                        help="only the K-th of N interleaved parts of the cases (K in 1..N), so "
                             "that the whole suite can run over N device calls")
    parser.add_argument("--jsonl-dir", default=None, help="where the .jsonl goes (default: --out)")
    args = parser.parse_args()
    shard = None
    if args.shard:
        m = re.fullmatch(r"([0-9]+)/([0-9]+)", args.shard)
        if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
            parser.error(f"--shard wants K/N with 1 <= K <= N, got {args.shard!r}")
        shard = (int(m.group(1)), int(m.group(2)))

    os.makedirs(args.out, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="softmax-conformance-")
    lock = os.path.join(workdir, "gpu.lock")
    if args.pipelined:
        selected = list(pipelined_cases())
        if args.memcheck:
            # A register plan's, and a row_cluster plan's (distributed shared memory).
            picked = [selected[2]] + [c for c in selected if c["name"] == "pipelined softmax bf16 264x40000"]
            selected = [dict(c, name=c["name"] + " " + args.tool) for c in picked]
    elif args.axis:
        selected = [c for c in (memcheck_cases() if args.memcheck else axis_cases(args.quick))
                    if "axis" in c]
    else:
        selected = list(memcheck_cases() if args.memcheck else cases(args.quick))
    if args.match:
        selected = [c for c in selected if re.search(args.match, c["name"])]
    kind = args.tool if args.memcheck else "conformance"
    if args.pipelined:
        kind += "-pipelined"
    if args.axis:
        kind += "-axis"
    if shard:
        # Interleaved, so that each part has its share of the slow (wide, sanitized) cases.
        selected = selected[shard[0] - 1::shard[1]]
        kind += f"-shard{shard[0]}of{shard[1]}"
    print(f"{kind}: {len(selected)} cases, {args.jobs} at a time", flush=True)
    start = time.time()
    results = []
    # Each result as it comes, so that a run cut short (a device call's time limit) still
    # leaves the cases it finished; the sorted .jsonl and the table follow at the end.
    partial_path = os.path.join(args.jsonl_dir or args.out, f"{kind}.partial.jsonl")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool, \
            open(partial_path, "w") as partial:
        futures = [pool.submit(run_case, c, args.runner, workdir, lock, args.memcheck,
                               not args.memcheck, args.tool) for c in selected]
        for future in concurrent.futures.as_completed(futures):
            results.append(future.result())
            partial.write(json.dumps(results[-1]) + "\n")
            partial.flush()
    order = {c["name"]: i for i, c in enumerate(selected)}
    results.sort(key=lambda r: order[r["name"]])

    with open(os.path.join(args.jsonl_dir or args.out, f"{kind}.jsonl"), "w") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")

    passed = [r for r in results if r["exit"] == 0]
    failed = [r for r in results if r["exit"] != 0]
    if args.memcheck:
        clean = [r for r in results if r.get("memcheck", "").endswith(" 0 errors") or
                 "(0 errors, 0 warnings)" in r.get("memcheck", "")]
    with open(os.path.join(args.out, f"{kind}.md"), "w") as f:
        f.write(f"| case | result | max abs err | max rel err | median us | GB/s | x copy |\n")
        f.write("|---|---|---|---|---|---|---|\n")
        for r in results:
            f.write(f"| {r['name']} | {'pass' if r['exit'] == 0 else 'FAIL (exit %d)' % r['exit']}"
                    f"{' ' + r['memcheck'] if 'memcheck' in r else ''} | "
                    f"{fmt(r.get('max_abs_error'), '.2e')} | {fmt(r.get('max_rel_error'), '.2e')} | "
                    f"{fmt(r.get('median_us'), '.1f')} | {fmt(r.get('gbps'), '.0f')} | "
                    f"{fmt(r.get('fraction_of_copy'), '.3f')} |\n")

    for r in failed:
        print(f"FAIL {r['name']} (exit {r['exit']}): {r.get('command')}")
        print("   " + r.get("log", "").strip().replace("\n", "\n   ")[-800:])
    print(f"\n{kind} finished in {time.time() - start:.0f} s")
    print(f"{'cases':>8} {'passed':>8} {'failed':>8}" + (f" {args.tool + ' clean':>15}" if args.memcheck else ""))
    print(f"{len(results):>8} {len(passed):>8} {len(failed):>8}" +
          (f" {len(clean):>15}" if args.memcheck else ""))
    ok = not failed and (not args.memcheck or len(clean) == len(results))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
