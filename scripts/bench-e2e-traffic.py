#!/usr/bin/env python3
"""Traffic generator for scripts/bench-e2e: h12 frames over TCP on 127.0.0.1.

Starts a listener, opens --connections client connections to it, and writes h12 frames
(mixed body sizes, random bodies, CRC-32 of the body) from every client concurrently until
--stream-bytes bytes have been written in total. The server reads and discards. Writes are
cut at random sizes so that frames straddle segments the way real traffic does.

h12 layout (FrameFormat.h12, docs/formats.md): magic:u16=0x55AA ver:u8 cmd:u8 len:u32be
crc:crc32be — 12 header bytes, `len` counts the body, the CRC covers the body.

Prints one JSON object: frames and bytes written, per connection and in total. It is the
count every decoder in the benchmark must reproduce.
"""
import argparse
import json
import random
import socket
import struct
import sys
import threading
import time
import zlib

MAGIC = 0x55AA
VERSION = 1


def body_length(rng):
    """Mixed sizes: mostly small messages, some medium, a few large (mean about 1 KiB)."""
    pick = rng.random()
    if pick < 0.60:
        return rng.randint(16, 512)
    if pick < 0.90:
        return rng.randint(512, 2048)
    return rng.randint(2048, 8192)


def frame(rng):
    body = rng.randbytes(body_length(rng))
    header = struct.pack(">HBBII", MAGIC, VERSION, rng.randrange(256), len(body), zlib.crc32(body))
    return header + body


def client(port, budget, seed, result, pace):
    rng = random.Random(seed)
    sock = socket.create_connection(("127.0.0.1", port))
    frames = written = 0
    pending = bytearray()
    while written + len(pending) < budget:
        pending += frame(rng)
        frames += 1
        # Send in random-sized writes, keeping the tail for the next write.
        while len(pending) >= 16384:
            cut = rng.randint(1, 16384)
            sock.sendall(pending[:cut])
            written += cut
            del pending[:cut]
            if pace:
                time.sleep(pace)
    sock.sendall(pending)
    written += len(pending)
    sock.shutdown(socket.SHUT_WR)
    sock.recv(1)  # wait for the server's close, so the FIN exchange is captured
    sock.close()
    result.update(frames=frames, bytes=written)


def serve(listener, count, received):
    def drain(conn, index):
        total = 0
        while True:
            chunk = conn.recv(1 << 20)
            if not chunk:
                break
            total += len(chunk)
        received[index] = total
        conn.close()

    threads = []
    for index in range(count):
        conn, _ = listener.accept()
        thread = threading.Thread(target=drain, args=(conn, index))
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=5512)
    parser.add_argument("--connections", type=int, default=6)
    parser.add_argument("--stream-bytes", type=int, required=True, help="total bytes written, all connections")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--pace", type=float, default=0.0, help="seconds to sleep after each write (eases capture drops)")
    args = parser.parse_args()

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(args.connections)
    received = [0] * args.connections
    server = threading.Thread(target=serve, args=(listener, args.connections, received))
    server.start()

    results = [{} for _ in range(args.connections)]
    clients = [
        threading.Thread(target=client, args=(args.port, args.stream_bytes // args.connections, args.seed * 1000 + index, results[index], args.pace))
        for index in range(args.connections)
    ]
    for thread in clients:
        thread.start()
    for thread in clients:
        thread.join()
    server.join()
    listener.close()

    sent = sum(r["bytes"] for r in results)
    if sent != sum(received):
        sys.exit(f"bench-e2e-traffic: server received {sum(received)} bytes, clients sent {sent}")
    print(json.dumps({
        "frames": sum(r["frames"] for r in results),
        "bytes": sent,
        "connections": [{"frames": r["frames"], "bytes": r["bytes"]} for r in results],
    }))


if __name__ == "__main__":
    main()
