#!/usr/bin/env python3
# make-corpus.py: writes the hand-made nettrace corpus files (good/ and bad/).
# Run from this folder; the outputs are committed. Fuzzer finds are added
# by hand to bad/ (or good/) with a name saying what they exercise.
import struct, os

def u8(v): return struct.pack('<B', v)
def u16(v): return struct.pack('<H', v)
def u32(v): return struct.pack('<I', v & 0xffffffff)
def i32(v): return struct.pack('<i', v)
def u64(v): return struct.pack('<Q', v & 0xffffffffffffffff)
def utf16z(s): return s.encode('utf-16-le') + b'\0\0'
def leb(v):
    out = b''
    while True:
        b = v & 0x7f; v >>= 7
        if v: out += u8(b | 0x80)
        else: return out + u8(b)
def str8(s): b = s.encode(); return leb(len(b)) + b

# ---- V4/V5 ----
def v4_header(pid=42):
    h = b'Nettrace' + i32(20) + b'!FastSerialization.1'
    h += b'\x05\x05\x01' + i32(4) + i32(4) + i32(5) + b'Trace\x06'
    h += struct.pack('<8h', 2026, 1, 4, 1, 0, 0, 0, 0) + u64(0) + u64(1000000000) + i32(8) + i32(pid) + i32(2) + i32(1000000)
    return h + b'\x06'

def v4_block(pos, name, content, ver=2):
    o = b'\x05\x05\x01' + i32(ver) + i32(ver) + i32(len(name)) + name.encode() + b'\x06' + i32(len(content))
    pad = (4 - (pos + len(o)) % 4) % 4
    return o + b'\0' * pad + content + b'\x06'

def v4_trace(blocks, end=True):
    t = v4_header()
    for name, content in blocks:
        t += v4_block(len(t), name, content)
    return t + (b'\x01' if end else b'')

def meta_record(mid, provider, eid, name='', version=0, level=4, kw=0, fields=b'\0\0\0\0', tags=b''):
    return i32(mid) + utf16z(provider) + i32(eid) + utf16z(name) + u64(kw) + i32(version) + i32(level) + fields + tags

def block_hdr(flags=1, hs=20):
    return u16(hs) + u16(flags) + u64(0) + u64(0) + b'\0' * (hs - 20)

def crow(mid, ts, payload, flags_extra=0, thread=None):
    f = 0x81 | flags_extra | (0x04 if thread is not None else 0)
    r = u8(f) + leb(mid)
    if thread is not None: r += leb(thread)
    return r + leb(ts) + leb(len(payload)) + payload

def urow(mid, seq, thread, ts, payload):
    body = u32(mid) + u32(seq) + u64(thread) + u64(thread) + u32(0) + u32(0) + u64(ts) + b'\0' * 32 + u32(len(payload)) + payload
    pad = (4 - len(body) % 4) % 4
    body += b'\0' * pad
    return u32(len(body)) + body

RT = 'Microsoft-Windows-DotNETRuntime'

def j298(method_id, flags, data, token=0x06000001, module=0x2000):
    return u16(0) + u32(flags) + u32(len(data)) + u64(method_id) + u64(module) + u32(token) + utf16z('C') + utf16z('M') + utf16z('void  ()') + data

FIB = bytes.fromhex('0e08830202c000002ad802241804bcff')

def w(path, data):
    with open(path, 'wb') as f: f.write(data)

# good
meta = block_hdr() + crow(0, 0, meta_record(1, RT, 298, kw=0x10000000000)) + crow(0, 0, meta_record(2, 'My-Source', 5, 'Hello', fields=i32(1) + i32(9) + utf16z('x'), tags=i32(1) + u8(1) + u8(24)))
ev = block_hdr() + crow(1, 10, j298(0x1000, 0x80000000, FIB), thread=7) + crow(2, 5, i32(99))
w('good/v5-compressed-with-opcode-tag.nettrace', v4_trace([('MetadataBlock', meta), ('StackBlock', u32(1) + u32(1) + u32(0)), ('EventBlock', ev), ('SPBlock', u64(20) + u32(1) + u64(7) + u32(2))]))
meta_u = block_hdr(0) + urow(0, 0, 7, 0, meta_record(1, RT, 298))
ev_u = block_hdr(0) + urow(1, 1, 7, 100, j298(0x1000, 0x80000000, FIB)) + urow(0x80000001, 2, 7, 200, j298(0x1040, 0x80000000, FIB, token=0x06000002))
w('good/v4-uncompressed-rows.nettrace', v4_trace([('MetadataBlock', meta_u), ('EventBlock', ev_u)]))
w('good/v4-unknown-block-skipped.nettrace', v4_trace([('MetadataBlock', meta), ('FutureBlock', b'\x01\x02\x03'), ('EventBlock', ev)]))
w('good/v4-no-end-tag.nettrace', v4_trace([('MetadataBlock', meta), ('EventBlock', ev)], end=False))
w('good/v4-header-size-24.nettrace', v4_trace([('MetadataBlock', meta), ('EventBlock', block_hdr(1, 24) + ev[20:])]))
w('good/v4-empty.nettrace', v4_trace([]))

def v6_trace(blocks, end=True):
    t = b'Nettrace' + u32(0) + u32(6) + u32(0)
    tr = struct.pack('<8h', 2026, 1, 4, 1, 0, 0, 0, 0) + u64(0) + u64(1000000000) + i32(8) + i32(2) + str8('ProcessId') + str8('4242') + str8('HardwareThreadCount') + str8('3')
    blocks = [(1, tr)] + blocks + ([(0, b'')] if end else [])
    for kind, c in blocks:
        t += u32(kind << 24 | len(c)) + c
    return t

def v6_meta_row(mid, provider, eid, name, opt):
    r = leb(mid) + str8(provider) + leb(eid) + str8(name) + u16(0) + u16(len(opt)) + opt
    return u16(len(r)) + r

v6meta = u16(0) + v6_meta_row(1, RT, 298, '', u8(8) + u8(4) + u8(3) + u64(0x10000000000)) + v6_meta_row(2, 'My-Source', 5, 'Hello', u8(9) + u8(2) + u8(1) + u8(24))
v6thread = u16(5) + leb(1) + u8(3) + leb(1234) + b''
v6thread = u16(len(leb(1) + u8(3) + leb(1234))) + leb(1) + u8(3) + leb(1234)
v6ev = block_hdr() + u8(0x81 | 0x04 | 0x10) + leb(1) + leb(1) + leb(10) + leb(3) + leb(len(j298(0x1000, 0x80000000, FIB))) + j298(0x1000, 0x80000000, FIB)
v6ev += u8(0x81) + leb(2) + leb(5) + leb(4) + i32(99)
v6sp = u64(20) + u32(2) + u32(1) + leb(1) + leb(2)
w('good/v6-blocks.nettrace', v6_trace([(3, v6meta), (6, v6thread), (8, u32(1) + u32(0)), (5, u32(1) + u32(0)), (2, v6ev), (4, v6sp), (42, b'future')]))

# bad
w('bad/bad-magic.nettrace', b'Nettracf' + v4_trace([])[8:])
w('bad/v3-netperf.nettrace', i32(20) + b'!FastSerialization.1' + b'\x05\x05\x01')
w('bad/v7.nettrace', b'Nettrace' + u32(0) + u32(7) + u32(0) + u32(0))
w('bad/header-size-below-20.nettrace', v4_trace([('EventBlock', block_hdr(1, 20)[:0] + u16(12) + u16(1) + u64(0) + u64(0))]))
w('bad/payload-past-block.nettrace', v4_trace([('EventBlock', block_hdr() + u8(0x81) + leb(1) + leb(1) + leb(200) + b'abc')]))
w('bad/uncompressed-row-too-long.nettrace', v4_trace([('EventBlock', block_hdr(0) + u32(1000) + b'\0' * 8)]))
w('bad/row-varint-too-long.nettrace', v4_trace([('EventBlock', block_hdr() + u8(0x81) + b'\xff' * 11)]))
bad_end = bytearray(v4_trace([('EventBlock', block_hdr())])); bad_end[-2] = 0x07
w('bad/block-end-tag.nettrace', bytes(bad_end))
w('bad/object-tag.nettrace', v4_header() + b'\x33')
w('bad/negative-block-size.nettrace', v4_header() + b'\x05\x05\x01' + i32(2) + i32(2) + i32(10) + b'EventBlock\x06' + i32(-16))
w('bad/type-name-length.nettrace', v4_header() + b'\x05\x05\x01' + i32(2) + i32(2) + i32(100000) + b'x')
w('bad/metadata-redefined.nettrace', v4_trace([('MetadataBlock', block_hdr() + crow(0, 0, meta_record(1, 'A', 1)) + crow(0, 0, meta_record(1, 'B', 1)))]))
deep = meta_record(1, 'A', 1, fields=i32(1) + (i32(1) + i32(1)) * 100)
w('bad/metadata-nesting.nettrace', v4_trace([('MetadataBlock', block_hdr() + crow(0, 0, deep))]))
w('bad/metadata-short.nettrace', v4_trace([('MetadataBlock', block_hdr() + crow(0, 0, i32(1) + utf16z('A')))]))
w('bad/metadata-tag-overrun.nettrace', v4_trace([('MetadataBlock', block_hdr() + crow(0, 0, meta_record(1, 'A', 1, tags=i32(1000) + u8(2) + b'xx')))]))
w('bad/stack-count.nettrace', v4_trace([('StackBlock', u32(1) + u32(0xffffffff) + u32(0))]))
w('bad/stack-size.nettrace', v4_trace([('StackBlock', u32(1) + u32(1) + u32(0x7fffffff))]))
w('bad/sp-count.nettrace', v4_trace([('SPBlock', u64(0) + u32(0xffffffff))]))
w('bad/298-data-size.nettrace', v4_trace([('MetadataBlock', meta), ('EventBlock', block_hdr() + crow(1, 1, j298(1, 0x80000000, b'')[:6] + u32(5000) + j298(1, 0, b'')[10:] + b'ab'))]))
w('bad/bulktype-count.nettrace', v4_trace([('MetadataBlock', block_hdr() + crow(0, 0, meta_record(1, RT, 15))), ('EventBlock', block_hdr() + crow(1, 1, u32(0xffffffff) + u16(0) + b'\0' * 40))]))
w('bad/methoddetails-params.nettrace', v4_trace([('MetadataBlock', block_hdr() + crow(0, 0, meta_record(1, RT, 72))), ('EventBlock', block_hdr() + crow(1, 1, u64(1) + u64(2) + u32(0x06000001) + u32(0x10000000) + u64(3)))]))
w('bad/moduleload-unterminated.nettrace', v4_trace([('MetadataBlock', block_hdr() + crow(0, 0, meta_record(1, RT, 152, version=2))), ('EventBlock', block_hdr() + crow(1, 1, u64(1) + u64(2) + u32(0) + u32(0) + b'a\0b\0'))]))
w('bad/v6-second-trace-block.nettrace', v6_trace([(1, b'')]))
w('bad/v6-metadata-row-overrun.nettrace', v6_trace([(3, u16(0) + u16(500) + b'\x01')]))
w('bad/v6-trace-first.nettrace', b'Nettrace' + u32(0) + u32(6) + u32(0) + u32(2 << 24))
