#!/usr/bin/env python3
"""Writes the binary fuzz seeds (seeds/dbcop, seeds/cobra) from the VeriStrong samples and by hand.

Run from this directory: python3 make-binary-seeds.py. Its output is committed; the build never runs it.
"""
import os
import struct

SAMPLES = '../samples/veristrong-artifact/'


def u64(v):
    return struct.pack('<Q', v & 0xFFFFFFFFFFFFFFFF)


def string(s):
    b = s.encode()
    return u64(len(b)) + b


def bincode(sessions, info='fuzz seed'):
    """sessions: [[(events, success)]], events: [(write, variable, value, success)]"""
    n_txn = sum(len(s) for s in sessions)
    n_evt = sum(len(e) for s in sessions for e, _ in s)
    out = u64(0) + u64(len(sessions)) + u64(4) + u64(n_txn) + u64(n_evt)
    out += string(info) + string('2025-01-01') + string('2025-01-01')
    out += u64(len(sessions))
    for s in sessions:
        out += u64(len(s))
        for events, ok in s:
            out += u64(len(events))
            for w, var, val, eok in events:
                out += bytes([w]) + u64(var) + u64(val) + bytes([eok])
            out += bytes([ok])
    return out


def read_bincode(path):
    data = open(path, 'rb').read()
    pos = 40
    for _ in range(3):
        n = struct.unpack_from('<Q', data, pos)[0]
        pos += 8 + n
    sessions = []
    (ns,) = struct.unpack_from('<Q', data, pos); pos += 8
    for _ in range(ns):
        (nt,) = struct.unpack_from('<Q', data, pos); pos += 8
        txns = []
        for _ in range(nt):
            (ne,) = struct.unpack_from('<Q', data, pos); pos += 8
            events = []
            for _ in range(ne):
                w = data[pos]; var, val = struct.unpack_from('<QQ', data, pos + 1); ok = data[pos + 17]
                events.append((w, var, val, ok)); pos += 18
            txns.append((events, data[pos])); pos += 1
        sessions.append(txns)
    return sessions


def cobra_records(path):
    data = open(path, 'rb').read()
    at, records = 0, []
    while at < len(data) and data[at] != 0xFF:
        size = {ord('S'): 9, ord('C'): 9, ord('W'): 25, ord('R'): 33}[data[at]]
        records.append(data[at:at + size]); at += size
    return records


def cobra_slice(src, logs, commits):
    """The first `commits` committed transactions of each log."""
    out = {}
    for log in logs:
        kept, done = [], 0
        for r in cobra_records(os.path.join(src, log)):
            if done == commits:
                break
            kept.append(r)
            done += r[0] == ord('C')
        out[log] = b''.join(kept)
    return out


def rec(op, *fields):
    return op.encode() + b''.join(struct.pack('>q', f) for f in fields)


def write_dir(path, logs):
    os.makedirs(path, exist_ok=True)
    for name, data in logs.items():
        open(os.path.join(path, name), 'wb').write(data)


INIT = 0xbebeebee
os.makedirs('seeds/dbcop', exist_ok=True)
# Serializable by construction: session 1 writes, session 2 reads what it wrote; one failed event
# and one failed transaction, which the reader drops.
open('seeds/dbcop/serial.bincode', 'wb').write(bincode([
    [([(1, 0, 1, 1), (1, 1, 1, 1)], 1), ([(0, 0, 1, 1), (1, 0, 2, 1), (1, 2, 9, 0)], 1)],
    [([(0, 0, 2, 1), (0, 1, 1, 1)], 1), ([(1, 3, 7, 1)], 0)],
    [([(0, 2, 0, 1), (1, 2, 3, 1)], 1)],
]))
# A write skew: both read x0 = 0 and x1 = 0, each writes the other.
open('seeds/dbcop/write-skew.bincode', 'wb').write(bincode([
    [([(0, 0, 0, 1), (0, 1, 0, 1), (1, 0, 1, 1)], 1)],
    [([(0, 0, 0, 1), (0, 1, 0, 1), (1, 1, 2, 1)], 1)],
]))
real = read_bincode(SAMPLES + 'fig11/ser/dbcop/chengRW-1000/history.bincode')
open('seeds/dbcop/chengRW-slice.bincode', 'wb').write(bincode([s[:4] for s in real[:3]], 'chengRW-1000 slice'))

write_dir('seeds/cobra/serial', {
    'T1.log': rec('S', 0x10) + rec('W', 0x77, 0xa, 5) + rec('W', 0x78, 0xb, 6) + rec('C', 0x10)
              + rec('S', 0x11) + rec('R', INIT, INIT, 0xc, 0) + rec('W', 0x79, 0xc, 1) + rec('C', 0x11) + b'\xff\xff',
    'T2.log': rec('S', 0x20) + rec('R', 0x10, 0x77, 0xa, 5) + rec('R', 0x11, 0x79, 0xc, 1) + rec('W', 0x7a, 0xb, 7)
              + rec('C', 0x20),
})
write_dir('seeds/cobra/chengRW-slice',
          cobra_slice(SAMPLES + 'fig11/ser/cobra/chengRW-1000', ['T10.log', 'T11.log', 'T12.log'], 4))
write_dir('seeds/cobra/twitter-slice', cobra_slice(SAMPLES + 'fig5/twitter-1k', ['T28.log', 'T29.log'], 6))
