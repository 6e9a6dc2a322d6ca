"""Reproducible directory order for golden files.

Hermes lists supporting files in the filesystem's order (`Path.glob`,
`rglob`, `iterdir`), which differs between filesystems. With
SKILLSCOPE_LISTING_ORDER=fnv1a, importing this module makes `os.scandir` and
`os.listdir` list every folder by the 32-bit FNV-1a hash of each name's bytes,
then the name, which skillscope does with the same variable
(`src/engine/listing.rs`). Any fixed order is a possible filesystem order, so
Hermes' walk is unchanged; only the order it sees becomes the same
everywhere.
"""
import os

_real_scandir = os.scandir
_real_listdir = os.listdir


def fnv1a(data: bytes) -> int:
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def _key(name):
    raw = os.fsencode(name)
    return (fnv1a(raw), raw)


class _Listing:
    """What `os.scandir` returns: an iterator and a context manager."""

    def __init__(self, entries):
        self._entries = iter(entries)

    def __iter__(self):
        return self._entries

    def __next__(self):
        return next(self._entries)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def close(self):
        pass


def _scandir(path="."):
    with _real_scandir(path) as it:
        entries = sorted(it, key=lambda e: _key(e.name))
    return _Listing(entries)


def _listdir(path="."):
    return sorted(_real_listdir(path), key=_key)


if os.environ.get("SKILLSCOPE_LISTING_ORDER") == "fnv1a":
    os.scandir = _scandir
    os.listdir = _listdir
