#!/usr/bin/env python3
"""One kind of hostile peer against a leader's port, for SECONDS seconds
(bench/hostile_peers.sh). Prints at the end "connections=N dropped=M
slowest_drop_s=T": how many connections the leader closed on its own within
the phase (a refusal), and the longest it took after the attack's last byte.

usage: hostile_peer.py KIND HOST PORT SECONDS [CREDENTIAL_FILE]
  garbage     connects, sends 64 random bytes, closes; again and again
  hello       sends the hello of each credential in CREDENTIAL_FILE (one per
              line: another user's, another job's, a replayed one), one per
              connection, and waits for an answer that must not come
  oversized   announces a 4 GiB message
  endless     20 connections announce a 16 KiB hello and send it a byte at a time
  flood       1000 connections that send nothing, held open
"""
import os
import socket
import struct
import sys
import time
import resource


def frame(text: bytes) -> bytes:
    return struct.pack(">I", len(text)) + text


def connect(host, port):
    return socket.create_connection((host, port), timeout=5)


def dropped_within(s, seconds):
    """Seconds until the leader closed s (EOF or reset), or None: it did not."""
    start = time.monotonic()
    s.settimeout(seconds)
    try:
        if s.recv(4096):  # any answer (a welcome): the leader took us for its agent
            print("ANSWERED: the leader answered a hostile peer", file=sys.stderr)
            sys.exit(2)
        return time.monotonic() - start
    except socket.timeout:
        return None
    except OSError:  # reset
        return time.monotonic() - start


def main():
    kind, host, port, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    end = time.monotonic() + seconds
    made = 0
    drops = []

    def note(s, wait):
        t = dropped_within(s, wait)
        if t is not None:
            drops.append(t)
    if kind == "garbage":
        while time.monotonic() < end:
            with connect(host, port) as s:
                s.sendall(os.urandom(64))
                note(s, 7)
            made += 1
            time.sleep(0.01)
    elif kind == "hello":
        with open(sys.argv[5]) as f:
            credentials = [line.strip() for line in f if line.strip()]
        for credential in credentials:
            if time.monotonic() >= end:
                break
            with connect(host, port) as s:
                s.sendall(frame(b'{"type":"hello","credential":"%s"}' % credential.encode()))
                note(s, 7)
            made += 1
        time.sleep(max(0.0, end - time.monotonic()))
    elif kind == "oversized":
        while time.monotonic() < end:
            with connect(host, port) as s:
                s.sendall(struct.pack(">I", 0xFFFFFFFF) + b"x" * 1024)
                note(s, 7)
            made += 1
            time.sleep(0.01)
    elif kind == "endless":
        while time.monotonic() < end:
            held = [connect(host, port) for _ in range(20)]
            made += len(held)
            for s in held:
                s.sendall(struct.pack(">I", 16000) + b'{"type":"hello","credential":"')
            until = min(end, time.monotonic() + 7)
            while time.monotonic() < until:
                for s in held:
                    try:
                        s.send(b"A")
                    except OSError:
                        pass
                time.sleep(0.2)
            for s in held:
                note(s, 0.01)  # dropped by now (5 s without a whole hello), or still held
                s.close()
    elif kind == "flood":
        resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))
        held = []
        for _ in range(1000):
            try:
                held.append(connect(host, port))
            except OSError:
                pass
        made = len(held)
        time.sleep(max(0.0, end - time.monotonic()))
        for s in held:
            note(s, 0.01)
            s.close()
    else:
        sys.exit("unknown kind " + kind)
    print("connections=%d dropped=%d slowest_drop_s=%.2f" % (made, len(drops), max(drops, default=0)))


if __name__ == "__main__":
    main()
