#!/usr/bin/env python3
"""A small HTTP server for the CLI's remote-file tests (test_remote.cpp).

Serves the files of one directory under three prefixes:
  /range/NAME     Range requests answered with 206 and Content-Range, a fixed ETag; several
                  ranges in one request with one multipart/byteranges answer
  /norange/NAME   Range ignored: always 200 with the whole file
  /changing/NAME  like /range, but the ETag changes after the first request (a file replaced mid-read)
  /slow/NAME      like /range, each answer 50 ms late (a distant server)
  /stats          {"requests": N, "max_in_flight": N}: how many requests were answered at once
Prints the port on the first line of stdout, then serves until killed.
"""
import http.server
import json
import os
import re
import sys
import threading
import time

ROOT = sys.argv[1]
requests_seen = {}
lock = threading.Lock()
stats = {"requests": 0, "in_flight": 0, "max_in_flight": 0}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the CLI reuses its connection
    # Headers and body are two writes: with Nagle's algorithm the body waits for the client's
    # delayed ACK, 40 ms per request on Linux, which no real server makes a client wait.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    # Several ranges: one multipart/byteranges answer, as nginx gives (RFC 9110 14.6).
    def send_multipart(self, path, size, etag):
        boundary = "range-server-boundary"
        body = bytearray()
        with open(path, "rb") as f:
            for spec in self.headers["Range"][6:].split(","):
                first, last = (int(x) for x in spec.split("-"))
                last = min(last, size - 1)
                if first > last:
                    continue
                f.seek(first)
                body += ("\r\n--%s\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes %d-%d/%d\r\n\r\n"
                         % (boundary, first, last, size)).encode()
                body += f.read(last - first + 1)
        body += ("\r\n--%s--\r\n" % boundary).encode()
        self.send_response(206)
        self.send_header("Content-Type", "multipart/byteranges; boundary=" + boundary)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", etag)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        if self.path == "/stats":
            with lock:
                body = json.dumps({"requests": stats["requests"], "max_in_flight": stats["max_in_flight"]}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        with lock:
            stats["requests"] += 1
            stats["in_flight"] += 1
            stats["max_in_flight"] = max(stats["max_in_flight"], stats["in_flight"])
        try:
            self.answer()
        finally:
            with lock:
                stats["in_flight"] -= 1

    def answer(self):
        match = re.match(r"^/(range|norange|changing|slow)/([^/]+)$", self.path)
        path = os.path.join(ROOT, match.group(2)) if match else None
        if not path or not os.path.isfile(path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        mode = match.group(1)
        if mode == "slow":
            time.sleep(0.05)
        size = os.path.getsize(path)
        seen = requests_seen.get(self.path, 0)
        requests_seen[self.path] = seen + 1
        etag = '"v1"' if mode != "changing" or seen == 0 else '"v2"'
        several = re.match(r"^bytes=\d+-\d+(,\d+-\d+)+$", self.headers.get("Range", ""))
        if mode != "norange" and several:
            self.send_multipart(path, size, etag)
            return
        wanted = re.match(r"^bytes=(\d+)-(\d*)$", self.headers.get("Range", ""))
        if mode == "norange" or not wanted:
            first, last, status = 0, size - 1, 200
        else:
            first = int(wanted.group(1))
            last = min(int(wanted.group(2)) if wanted.group(2) else size - 1, size - 1)
            if first >= size:
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % size)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            status = 206
        self.send_response(status)
        self.send_header("Content-Length", str(last - first + 1))
        self.send_header("ETag", etag)
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (first, last, size))
        self.end_headers()
        try:
            with open(path, "rb") as f:
                f.seek(first)
                left = last - first + 1
                while left > 0:
                    block = f.read(min(left, 1 << 20))
                    if not block:
                        break
                    self.wfile.write(block)
                    left -= len(block)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading a whole-file answer: expected for /norange


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
sys.stdout.write("%d\n" % server.server_address[1])
sys.stdout.flush()
server.serve_forever()
