#!/usr/bin/env python3
"""Writes crates/engine/src/py_printable.rs: the characters past ASCII that
Python 3.11's `str.isprintable()` (Unicode 14.0.0) calls non-printable, as
ranges; `repr()` escapes them. Run it with the Python Hermes 0.19.0 runs on:

    target/hermes-venv/bin/python tests/golden/gen_printable.py
"""
import sys
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "crates" / "engine" / "src" / "py_printable.rs"

ranges = []
start = None
for cp in range(0x80, 0x110000):
    if not chr(cp).isprintable():
        if start is None:
            start = cp
    elif start is not None:
        ranges.append((start, cp - 1))
        start = None
if start is not None:
    ranges.append((start, 0x10FFFF))

rows = []
for i in range(0, len(ranges), 4):
    rows.append("    " + " ".join(f"(0x{a:05X}, 0x{b:05X})," for a, b in ranges[i:i + 4]))
OUT.write_text(
    "//! The characters past ASCII that Python's `str.isprintable()` calls\n"
    f"//! non-printable (Python {sys.version_info.major}.{sys.version_info.minor}, Unicode {unicodedata.unidata_version}), "
    "which `repr()`\n"
    "//! escapes. Written by `tests/golden/gen_printable.py`; do not edit.\n\n"
    "/// Inclusive ranges, sorted.\n"
    "#[rustfmt::skip]\n"
    f"pub(crate) const NON_PRINTABLE: [(u32, u32); {len(ranges)}] = [\n" + "\n".join(rows) + "\n];\n"
)
print(f"{OUT}: {len(ranges)} ranges")
