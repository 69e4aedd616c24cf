#!/usr/bin/env python3
"""Synthetic capture for scripts/bench-e2e's connection scaling: N concurrent h12 connections.

Writes a pcap (LINKTYPE_ETHERNET, microsecond timestamps) in which --connections TCP
connections to 10.255.0.1:5512 all open (SYN, SYN-ACK, ACK) before any data flows, then send
h12 frames round-robin, one segment per connection per round, then all close (FIN each way).
So every connection is live at once: the capture exercises the flow table at that size, not
the reassembly of one stream. Real loopback captures cannot hold 100,000 concurrent
connections from one host easily; this one is built packet by packet.

h12 frames as in bench-e2e-traffic.py; small bodies (16-256 bytes); segments of at most 1448
payload bytes. IPv4 header checksums are correct; TCP checksums are left 0, as on a capture
with checksum offload.

Prints one JSON object: frames, bytes (client-to-server stream bytes) and connections.
"""
import argparse
import json
import random
import struct
import zlib

SERVER_IP = bytes([10, 255, 0, 1])
SERVER_PORT = 5512
MSS = 1448
FIN, SYN, RST, PSH, ACK = 0x01, 0x02, 0x04, 0x08, 0x10


def ip_checksum(header):
    total = sum(struct.unpack("!10H", header))
    total = (total & 0xFFFF) + (total >> 16)
    total = (total & 0xFFFF) + (total >> 16)
    return (~total) & 0xFFFF


class Writer:
    def __init__(self, out):
        self.out = out
        self.time_us = 1_700_000_000 * 1_000_000
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1))

    def packet(self, src_ip, src_port, dst_ip, dst_port, seq, ack, flags, payload=b""):
        tcp = struct.pack("!HHIIBBHHH", src_port, dst_port, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF, 5 << 4, flags, 65535, 0, 0)
        ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp) + len(payload), 0, 0x4000, 64, 6, 0, src_ip, dst_ip))
        ip[10:12] = struct.pack("!H", ip_checksum(bytes(ip)))
        frame = b"\x02\x00\x00\x00\x00\x02" + b"\x02\x00\x00\x00\x00\x01" + b"\x08\x00" + bytes(ip) + tcp + payload
        self.time_us += 1
        self.out.write(struct.pack("<IIII", self.time_us // 1_000_000, self.time_us % 1_000_000, len(frame), len(frame)))
        self.out.write(frame)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, required=True)
    parser.add_argument("--frames-per-connection", type=int, required=True)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    clients = []
    for index in range(args.connections):
        ip = bytes([10, (index >> 16) & 0xFF, (index >> 8) & 0xFF, index & 0xFF])
        clients.append((ip, 20000 + index % 40000))
    # Each connection's whole client-to-server stream, cut into segments later.
    streams = []
    frames = 0
    for _ in clients:
        stream = bytearray()
        for _ in range(args.frames_per_connection):
            body = rng.randbytes(rng.randint(16, 256))
            stream += struct.pack(">HBBII", 0x55AA, 1, rng.randrange(256), len(body), zlib.crc32(body)) + body
            frames += 1
        streams.append(bytes(stream))

    client_isn = [rng.getrandbits(32) for _ in clients]
    server_isn = [rng.getrandbits(32) for _ in clients]
    with open(args.out, "wb") as out:
        w = Writer(out)
        for i, (ip, port) in enumerate(clients):
            w.packet(ip, port, SERVER_IP, SERVER_PORT, client_isn[i], 0, SYN)
            w.packet(SERVER_IP, SERVER_PORT, ip, port, server_isn[i], client_isn[i] + 1, SYN | ACK)
            w.packet(ip, port, SERVER_IP, SERVER_PORT, client_isn[i] + 1, server_isn[i] + 1, ACK)
        sent = [0] * len(clients)
        remaining = len(clients)
        while remaining:
            remaining = 0
            for i, (ip, port) in enumerate(clients):
                if sent[i] >= len(streams[i]):
                    continue
                chunk = streams[i][sent[i]:sent[i] + MSS]
                w.packet(ip, port, SERVER_IP, SERVER_PORT, client_isn[i] + 1 + sent[i], server_isn[i] + 1, ACK | PSH, chunk)
                sent[i] += len(chunk)
                w.packet(SERVER_IP, SERVER_PORT, ip, port, server_isn[i] + 1, client_isn[i] + 1 + sent[i], ACK)
                remaining += sent[i] < len(streams[i])
        for i, (ip, port) in enumerate(clients):
            end = client_isn[i] + 1 + len(streams[i])
            w.packet(ip, port, SERVER_IP, SERVER_PORT, end, server_isn[i] + 1, FIN | ACK)
            w.packet(SERVER_IP, SERVER_PORT, ip, port, server_isn[i] + 1, end + 1, FIN | ACK)
            w.packet(ip, port, SERVER_IP, SERVER_PORT, end + 1, server_isn[i] + 2, ACK)
    print(json.dumps({"frames": frames, "bytes": sum(len(s) for s in streams), "connections": len(clients)}))


if __name__ == "__main__":
    main()
