#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# notify-listen.py SOCKET LOG - play systemd's side of sd_notify: append each datagram to LOG.
import socket
import sys

sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as log:
    while True:
        log.write(sock.recv(4096).decode() + "\n")
