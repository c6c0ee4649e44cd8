"""A file server as a NAS over a slow link looks to photogrid: every request answered after
DELAY seconds, the bytes of all responses together at most RATE bytes a second, byte ranges
honoured, folders listed as python's http.server lists them. Each response is written whole
(no small writes that Nagle's algorithm would hold back). Prints the bytes it sent when stopped.

    python3 slow-server.py PORT ROOT DELAY RATE   (RATE 0: unlimited)
"""
import http.server, os, signal, sys, threading, time

port, root, delay, rate = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
lock = threading.Lock()
state = {"free_at": 0.0, "sent": 0}


def pace(n):
    """Waits until the link has room for n more bytes."""
    with lock:
        state["sent"] += n
        if rate <= 0:
            return
        start = max(time.monotonic(), state["free_at"])
        state["free_at"] = start + n / rate
        wait = state["free_at"] - time.monotonic()
    if wait > 0:
        time.sleep(wait)


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    wbufsize = 1 << 16

    def log_message(self, *args):
        pass

    def do_GET(self):
        time.sleep(delay)
        path = self.translate_path(self.path)
        spec = self.headers.get("Range", "")
        if os.path.isdir(path) or not spec.startswith("bytes=") or not os.path.isfile(path):
            return super().do_GET()
        size = os.path.getsize(path)
        first, _, last = spec[6:].partition("-")
        first = int(first or 0)
        last = min(int(last) if last else size - 1, size - 1)
        if first >= size:
            self.send_error(416)
            return
        with open(path, "rb") as f:
            f.seek(first)
            body = f.read(last - first + 1)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.write_paced(body)

    def copyfile(self, source, outputfile):
        self.write_paced(source.read())

    def write_paced(self, body):
        for i in range(0, len(body), 16384):
            chunk = body[i:i + 16384]
            pace(len(chunk))
            self.wfile.write(chunk)
            self.wfile.flush()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client that closed its connection early (a range cut short) is no news


def stop(*_):
    print(f"sent {state['sent']} bytes", flush=True)
    os._exit(0)


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
os.chdir(root)
Server(("127.0.0.1", port), Handler).serve_forever()
