#!/usr/bin/env python3
"""The test page's web server: serves ROOT over HTTP on localhost with the
headers that make a page cross-origin isolated (so that it has
SharedArrayBuffer and the engine its threads), unless --no-isolation, and
takes the page's verdict as a POST to /report, written to REPORT; then it
stops.  It writes the port it listens on to PORTFILE.

usage: serve.py ROOT PORTFILE REPORT [--no-isolation]"""
import http.server
import os
import sys
import threading


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    root, portfile, report = sys.argv[1:4]
    isolate = "--no-isolation" not in sys.argv[4:]

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".wasm": "application/wasm", ".js": "text/javascript"}

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=root, **kwargs)

        def end_headers(self):
            if isolate:
                self.send_header("Cross-Origin-Opener-Policy", "same-origin")
                self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def do_POST(self):
            if self.path != "/report":
                self.send_error(404)
                return
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            with open(report + ".tmp", "wb") as f:
                f.write(body)
            os.replace(report + ".tmp", report)
            self.send_response(204)
            self.end_headers()
            threading.Thread(target=server.shutdown).start()

        def log_message(self, fmt, *args):
            pass  # the page's own report says what happened

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(portfile + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(portfile + ".tmp", portfile)
    server.serve_forever()


if __name__ == "__main__":
    main()
