"""A local HTTP server that answers a script of answers in turn and records every request (the vectors' server)."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator
from contextlib import contextmanager


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Script:
    answers: list[dict[str, Any]]
    seen: list[Seen] = field(default_factory=list)


def _handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_: Any) -> None:
            pass

        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            script.seen.append(Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            answer = script.answers.pop(0) if script.answers else {"status": 200, "headers": {}, "body": {}}
            if answer.get("drop"):
                self.close_connection = True
                return
            payload = answer.get("body", "")
            data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
            self.send_response(answer["status"])
            for name, value in answer.get("headers", {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _answer

    return Handler


@contextmanager
def scripted_server(answers: list[dict[str, Any]]) -> Iterator[tuple[str, Script]]:
    script = Script(list(answers))
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", script
    finally:
        server.shutdown()
        server.server_close()
