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

With --tls-keylog FILE the same frames go over TLS 1.3 (Python's ssl; the suite is OpenSSL's
default first choice, TLS_AES_128_GCM_SHA256 unless OPENSSL_CONF says otherwise) with a fresh
self-signed certificate, and the client logs its keys to FILE: the counts are of plaintext.
"""
import argparse
import json
import os
import random
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
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


def client(port, budget, seed, result, pace, context):
    rng = random.Random(seed)
    sock = socket.create_connection(("127.0.0.1", port))
    if context:
        sock = context.wrap_socket(sock, server_hostname="localhost")
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
    if context:
        sock = sock.unwrap()  # close_notify both ways, then the TCP close below
    sock.shutdown(socket.SHUT_WR)
    sock.recv(1)  # wait for the server's close, so the FIN exchange is captured
    sock.close()
    result.update(frames=frames, bytes=written)


def serve(listener, count, received, context):
    def drain(conn, index):
        if context:
            conn = context.wrap_socket(conn, server_side=True)
        total = 0
        while True:
            chunk = conn.recv(1 << 20)
            if not chunk:
                break
            total += len(chunk)
        received[index] = total
        if context:
            conn = conn.unwrap()
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
    parser.add_argument("--tls-keylog", help="speak TLS 1.3; the client logs its keys to this file")
    args = parser.parse_args()

    client_context = server_context = None
    if args.tls_keylog:
        workdir = tempfile.mkdtemp()
        certificate, key = os.path.join(workdir, "cert.pem"), os.path.join(workdir, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                        "-days", "30", "-subj", "/CN=localhost"], check=True, capture_output=True)
        server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server_context.load_cert_chain(certificate, key)
        client_context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        client_context.check_hostname = False
        client_context.verify_mode = ssl.CERT_NONE
        for context in (server_context, client_context):
            context.minimum_version = ssl.TLSVersion.TLSv1_3
        client_context.keylog_filename = args.tls_keylog

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(args.connections)
    received = [0] * args.connections
    server = threading.Thread(target=serve, args=(listener, args.connections, received, server_context))
    server.start()

    results = [{} for _ in range(args.connections)]
    clients = [
        threading.Thread(target=client, args=(args.port, args.stream_bytes // args.connections, args.seed * 1000 + index, results[index], args.pace, client_context))
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
