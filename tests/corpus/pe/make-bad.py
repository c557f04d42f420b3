#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# make-bad.py: writes tests/corpus/pe/bad/*, malformed variants of
# tests/data/pe/sample32.dll and sample32.webcil. Each must make the reader
# fail with a GError (check-pe replays them under ASan+UBSan in CI).
# Usage: python3 tests/corpus/pe/make-bad.py   (from the source tree)
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
data = os.path.join(here, '..', '..', 'data', 'pe')
dll = open(os.path.join(data, 'sample32.dll'), 'rb').read()
webcil = open(os.path.join(data, 'sample32.webcil'), 'rb').read()

u16 = lambda b, o: struct.unpack_from('<H', b, o)[0]
u32 = lambda b, o: struct.unpack_from('<I', b, o)[0]

lfanew = u32(dll, 0x3C)
opt = lfanew + 24
sect = opt + u16(dll, lfanew + 20)
sections = [struct.unpack_from('<IIII', dll, sect + 40 * i + 8) for i in range(u16(dll, lfanew + 6))]

def rva(r):
    for vsize, va, raw, ptr in sections:
        if va <= r < va + max(vsize, raw):
            return ptr + r - va
    raise ValueError(hex(r))

cli = rva(u32(dll, opt + 208))
md = rva(u32(dll, cli + 8))
vlen = u32(dll, md + 12)
n_streams = u16(dll, md + 18 + vlen)
streams = {}
p = md + 20 + vlen
for _ in range(n_streams):
    off, size = struct.unpack_from('<II', dll, p)
    name = dll[p + 8:dll.index(b'\0', p + 8)].decode()
    streams[name] = md + off
    p += 8 + ((len(name) + 4) & ~3)
tables = streams['#~']
valid = struct.unpack_from('<Q', dll, tables + 8)[0]
present = [t for t in range(64) if valid >> t & 1]
rows = {t: u32(dll, tables + 24 + 4 * i) for i, t in enumerate(present)}
row_count_at = {t: tables + 24 + 4 * i for i, t in enumerate(present)}
# Every index of this small sample is 2 bytes: row sizes from II.22
# (SPEC: pgo-assembly(5) "Table columns").
size = {0x00: 10, 0x01: 6, 0x02: 14, 0x06: 14, 0x08: 6, 0x0A: 6, 0x0C: 6, 0x0E: 6, 0x11: 2,
        0x1B: 2, 0x20: 22, 0x23: 20, 0x29: 4, 0x2A: 8, 0x2B: 4}
start = {}
at = tables + 24 + 4 * len(present)
for t in present:
    start[t] = at
    at += rows[t] * size[t]
row = lambda t, r: start[t] + (r - 1) * size[t]

def patch(buf, off, fmt, value):
    b = bytearray(buf)
    struct.pack_into(fmt, b, off, value)
    return bytes(b)

trycatch = rva(u32(dll, row(0x06, 3)))          # fat body with a small EH section
eh = trycatch + 12 + u32(dll, trycatch + 4)
eh = (eh + 3) & ~3
# Method 6's signature blob (23 bytes) rewritten to declare 0x1FFFFFFF
# generic parameters, no parameters and void: far more than the
# GenericParam table's rows.
sig6 = streams['#Blob'] + u16(dll, row(0x06, 6) + 10) + 1
generic_count = bytearray(dll)
generic_count[sig6:sig6 + 7] = bytes([0x10, 0xDF, 0xFF, 0xFF, 0xFF, 0x00, 0x01])

cases = {
    'truncated-dos-header.dll': dll[:0x30],
    'truncated-coff-header.dll': dll[:lfanew + 12],
    'truncated-section-table.dll': dll[:sect + 20],
    'truncated-metadata.dll': dll[:md + 0x100],
    'cli-header-rva-out-of-range.dll': patch(dll, opt + 208, '<I', 0x00090000),
    'metadata-rva-out-of-range.dll': patch(dll, cli + 8, '<I', 0x7FFF0000),
    'metadata-size-past-section.dll': patch(dll, cli + 12, '<I', 0xFFFFFF00),
    'overlapping-sections.dll': patch(dll, sect + 40 + 12, '<I', sections[0][1] + 0x100),
    'section-count-overflow.dll': patch(dll, lfanew + 6, '<H', 0xFFFF),
    'stream-count-overflow.dll': patch(dll, md + 18 + vlen, '<H', 0xFFFF),
    'row-count-overflow.dll': patch(dll, row_count_at[0x06], '<I', 0x00FFFFFF),
    'row-count-over-rid-mask.dll': patch(dll, row_count_at[0x0A], '<I', 0xFFFFFFFF),
    'unknown-table.dll': patch(dll, tables + 8, '<Q', valid | 1 << 0x2F),
    'bad-coded-index-memberref.dll': patch(dll, row(0x0A, 1), '<H', (1 << 3) | 7),
    'bad-coded-index-resolution-scope.dll': patch(dll, row(0x01, 1), '<H', (0x3FFF << 2) | 2),
    'nested-class-cycle.dll': patch(dll, row(0x29, 1) + 2, '<H', u16(dll, row(0x29, 1))),
    'string-index-past-heap.dll': patch(dll, row(0x02, 2) + 4, '<H', 0xFFFF),
    'blob-index-past-heap.dll': patch(dll, row(0x06, 1) + 10, '<H', 0xFFFF),
    'method-rva-out-of-range.dll': patch(dll, row(0x06, 2), '<I', 0x00070000),
    # TryCatch's IL would end one byte after the raw data of .text.
    'body-past-end-of-section.dll': patch(dll, trycatch + 4, '<I', sections[0][3] + sections[0][2] - (trycatch + 12) + 1),
    'body-code-size-overflow.dll': patch(dll, trycatch + 4, '<I', 0xFFFFFFF0),
    'generic-count-overflow.dll': bytes(generic_count),
    'eh-clause-count-overflow.dll': patch(patch(dll, eh, '<B', 0x41), eh + 1, '<I', 0xFFFFFF | (u32(dll, eh) & 0xFF000000)),
    'webcil-no-sections.webcil': patch(webcil, 8, '<H', 0),
    'webcil-section-past-payload.webcil': patch(webcil, 28 + 12, '<I', 0x7FFFFFF0),
    'webcil-truncated.webcil': webcil[:0x300],
}
out = os.path.join(here, 'bad')
os.makedirs(out, exist_ok=True)
for name, content in cases.items():
    with open(os.path.join(out, name), 'wb') as f:
        f.write(content)
