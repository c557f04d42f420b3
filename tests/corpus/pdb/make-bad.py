#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# make-bad.py: writes tests/corpus/pdb/bad/*.pdb, malformed variants of
# tests/fixtures/data/hotloop/hotloop.pdb.  Each must make the portable
# PDB reader fail, when it opens the file or when it reads a method's
# source lines, with a one-line GError naming the file (check-pdb
# replays them; CI runs it under ASan+UBSan).
# Usage: python3 tests/corpus/pdb/make-bad.py   (from the source tree)
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
src = os.path.join(here, '..', '..', 'fixtures', 'data', 'hotloop', 'hotloop.pdb')
pdb = open(src, 'rb').read()

u16 = lambda b, o: struct.unpack_from('<H', b, o)[0]
u32 = lambda b, o: struct.unpack_from('<I', b, o)[0]
u64 = lambda b, o: struct.unpack_from('<Q', b, o)[0]

# the metadata root and its stream headers (ECMA-335 II.24.2.1)
vlen = u32(pdb, 12)
n_streams = u16(pdb, 18 + vlen)
streams, headers = {}, {}
p = 20 + vlen
for _ in range(n_streams):
    off, size = struct.unpack_from('<II', pdb, p)
    name = pdb[p + 8:pdb.index(b'\0', p + 8)].decode()
    streams[name], headers[name] = off, p
    p += 8 + ((len(name) + 4) & ~3)

# #Pdb: id (20), EntryPoint (4), ReferencedTypeSystemTables (8), row counts
pdbs = streams['#Pdb']
referenced = u64(pdb, pdbs + 24)
ts_rows_at = {t: pdbs + 32 + 4 * i for i, t in enumerate(t for t in range(64) if referenced >> t & 1)}

# #~: the Document rows (8 bytes: every index 2 bytes in this small PDB),
# then MethodDebugInformation (Document, SequencePoints: 2 bytes each)
tables = streams['#~']
valid = u64(pdb, tables + 8)
present = [t for t in range(64) if valid >> t & 1]
rows = {t: u32(pdb, tables + 24 + 4 * i) for i, t in enumerate(present)}
assert pdb[tables + 6] == 0, 'HeapSizes: this script assumes 2-byte heap indexes'
document = tables + 24 + 4 * len(present)
mdi = document + 8 * rows[0x30]
blob = streams['#Blob']

def patch(buf, off, fmt, value):
    b = bytearray(buf)
    struct.pack_into(fmt, b, off, value)
    return bytes(b)

spin_points = blob + u16(pdb, mdi + 2)  # Spin's blob: its length, then the points
assert pdb[spin_points] < 0x80
name_blob = blob + u16(pdb, document)   # document 1's name: its length, then the separator

bad = {
    # a cut inside the table stream
    'truncated-table-stream': pdb[:tables + 0x40],
    # the #Blob stream runs past the end of the file
    'stream-past-end': patch(pdb, headers['#Blob'] + 4, '<I', u32(pdb, headers['#Blob'] + 4) + 0x1000),
    # Spin's SequencePoints index past the #Blob heap
    'blob-index-past-heap': patch(pdb, mdi + 2, '<H', 0xFFFF),
    # Spin's Document past the Document table
    'document-past-table': patch(pdb, mdi, '<H', rows[0x30] + 6),
    # Spin's points blob one byte short: its last record cut
    'sequence-points-cut': patch(pdb, spin_points, '<B', pdb[spin_points] - 1),
    # document 1's name starts with a lone UTF-8 continuation byte
    'document-name-bad-separator': patch(pdb, name_blob + 1, '<B', 0x80),
    # ReferencedTypeSystemTables names table 0x2D, which does not exist
    'referenced-table-past-0x2c': patch(pdb, pdbs + 24, '<Q', referenced | 1 << 0x2D),
    # a type-system table (MethodDef) in the table stream
    'type-system-table-in-tables': patch(pdb, tables + 8, '<Q', valid | 1 << 0x06),
    # one MethodDef row more than MethodDebugInformation has
    'methoddef-rows-mismatch': patch(pdb, ts_rows_at[0x06], '<I', u32(pdb, ts_rows_at[0x06]) + 1),
    # the #Blob stream named "#B\nob" and running past the end: the
    # message shows the name on one line
    'stream-name-control-character': patch(patch(pdb, headers['#Blob'] + 10, '<B', 0x0A),
                                           headers['#Blob'] + 4, '<I', 0x10000),
    # a Windows (MSF 7.00) PDB: the other format a .pdb may have
    'windows-msf': b'Microsoft C/C++ MSF 7.00\r\n\x1aDS\0\0\0' + bytes(64),
}

out = os.path.join(here, 'bad')
os.makedirs(out, exist_ok=True)
for name, data in sorted(bad.items()):
    with open(os.path.join(out, name + '.pdb'), 'wb') as f:
        f.write(data)
