#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# silent-clients.py SOCKET N SECONDS [BYTES] - connect N clients to a Unix socket, each sending
# BYTES (default nothing) and then nothing more, for at most SECONDS. Prints, once all are
# done, how many the server closed on its own and the slowest such close, in seconds.
import select
import socket
import sys
import time

path, n, limit = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
payload = sys.argv[4].encode() if len(sys.argv) > 4 else b""
start = time.monotonic()
clients = []
for _ in range(n):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    if payload:
        s.send(payload)
    clients.append(s)
print("connected", flush=True)
closed, slowest = 0, 0.0
while clients and time.monotonic() - start < limit:
    ready, _, _ = select.select(clients, [], [], 0.1)
    for s in ready:
        if not s.recv(4096):
            closed += 1
            slowest = time.monotonic() - start
            clients.remove(s)
            s.close()
print("closed %d %.2f" % (closed, slowest), flush=True)
