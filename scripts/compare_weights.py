#!/usr/bin/env python3
"""Compares two safetensors files tensor by tensor (Python's standard library only).

Usage: compare_weights.py A.safetensors B.safetensors [--tol T]

Prints how many tensors are bit-identical and the largest difference, absolute and relative to
the tensor's largest magnitude in B; exits 0 when both files hold the same tensors (names,
dtypes, shapes) and every tensor's relative difference is at most T (default 1e-3), 1 otherwise.
scripts/device-check.sh uses it to compare a world-size-1 data-parallel run with a
single-process run of the same experiment.
"""
import argparse
import array
import json
import struct
import sys

CODES = {"F64": "d", "F32": "f", "I64": "q", "I32": "i", "I16": "h", "I8": "b", "U8": "B"}


def read(path):
    with open(path, "rb") as f:
        (size,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(size))
        data = f.read()
    header.pop("__metadata__", None)
    return header, data


def values(entry, data):
    begin, end = entry["data_offsets"]
    raw = data[begin:end]
    dtype = entry["dtype"]
    if dtype in CODES:
        out = array.array(CODES[dtype])
        out.frombytes(raw)
        if sys.byteorder != "little":
            out.byteswap()
        return list(out)
    if dtype == "F16":
        return list(struct.unpack("<%de" % (len(raw) // 2), raw))
    if dtype == "BF16":
        halves = struct.unpack("<%dH" % (len(raw) // 2), raw)
        return list(struct.unpack("<%df" % len(halves), struct.pack("<%dI" % len(halves),
                                                                    *(h << 16 for h in halves))))
    raise ValueError("unsupported dtype " + dtype)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--tol", type=float, default=1e-3)
    args = parser.parse_args()
    ha, da = read(args.a)
    hb, db = read(args.b)
    if sorted(ha) != sorted(hb):
        only = sorted(set(ha) ^ set(hb))
        print("different tensors: %s" % ", ".join(only[:8]))
        return 1
    identical = 0
    worst_abs, worst_rel, worst_name = 0.0, 0.0, ""
    for name in sorted(ha):
        ea, eb = ha[name], hb[name]
        if ea["dtype"] != eb["dtype"] or ea["shape"] != eb["shape"]:
            print("%s: %s %s vs %s %s" % (name, ea["dtype"], ea["shape"], eb["dtype"], eb["shape"]))
            return 1
        begin_a, end_a = ea["data_offsets"]
        begin_b, end_b = eb["data_offsets"]
        if da[begin_a:end_a] == db[begin_b:end_b]:
            identical += 1
            continue
        va, vb = values(ea, da), values(eb, db)
        diff = max(abs(x - y) for x, y in zip(va, vb))
        scale = max(abs(y) for y in vb) or 1.0
        if diff / scale > worst_rel:
            worst_abs, worst_rel, worst_name = diff, diff / scale, name
    ok = worst_rel <= args.tol
    print("%d tensors, %d bit-identical; largest difference %.3g (%.3g relative%s)%s"
          % (len(ha), identical, worst_abs, worst_rel, ", " + worst_name if worst_name else "",
             "" if ok else " > tolerance %g" % args.tol))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
