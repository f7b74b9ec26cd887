#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# notify-listen.py SOCKET LOG [STAMPS] - play systemd's side of sd_notify: append each datagram
# to LOG, and to STAMPS with the monotonic time it came, in seconds, before it.
import socket
import sys
import time

sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(sys.argv[1])
stamps = open(sys.argv[3], "a", buffering=1) if len(sys.argv) > 3 else None
with open(sys.argv[2], "a", buffering=1) as log:
    while True:
        msg = sock.recv(4096).decode()
        log.write(msg + "\n")
        if stamps:
            stamps.write("%.3f %s\n" % (time.monotonic(), msg))
