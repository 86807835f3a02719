"""Runs the shared contract scenario (sdks/test-vectors/contract-scenario.json) through the SDK's typed methods."""

from __future__ import annotations

import datetime as dt
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

import vaultline
from conftest import VECTORS

UNTIL_DEADLINE = 60.0
TEMPLATE = re.compile(r"\$\{([^}]+)\}")


def load_scenario() -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = json.loads((VECTORS / "contract-scenario.json").read_text("utf-8"))["steps"]
    return steps


@dataclass
class Receiver:
    """A merchant's webhook endpoint on loopback: records every delivery and answers 204."""

    url: str = ""
    received: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.received.append(({k: v for k, v in self.headers.items()}, body))
                self.send_response(204)
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/webhooks/vaultline"
        return self

    def stop(self) -> None:
        if self.server:
            self.server.shutdown()
            self.server.server_close()


class Scenario:
    def __init__(self, client: vaultline.Vaultline, variables: dict[str, Any]) -> None:
        self.client = client
        self.variables = variables
        self.saved: dict[str, Any] = {}

    # ${…} values
    def lookup(self, expression: str) -> Any:
        if expression in self.variables:
            return self.variables[expression]
        kind, _, offset = expression.partition(":")
        if kind in ("date", "date_compact", "time"):
            at = dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=int(offset))
            if kind == "time":
                return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
            return at.strftime("%Y-%m-%d" if kind == "date" else "%Y%m%d")
        name, *rest = expression.split(".")
        return at_path(self.saved[name], ".".join(rest)) if rest else self.saved[name]

    def resolve(self, value: Any) -> Any:
        if isinstance(value, str):
            whole = TEMPLATE.fullmatch(value)
            if whole:
                return self.lookup(whole.group(1))
            return TEMPLATE.sub(lambda match: str(self.lookup(match.group(1))), value)
        if isinstance(value, list):
            return [self.resolve(item) for item in value]
        if isinstance(value, dict):
            return {key: self.resolve(item) for key, item in value.items()}
        return value

    def call(self, step: dict[str, Any]) -> Any:
        """One operation, through the typed method the generated OPERATIONS table names."""
        operation = vaultline.OPERATIONS[step["call"]]
        method: Callable[..., Any] = getattr(getattr(self.client, operation.resource), operation.method)
        path = self.resolve(step.get("path", {}))
        params = self.resolve(step.get("params", {}))
        kwargs: dict[str, Any] = {}
        for wire, value in params.items():
            argument = operation.query_params.get(wire) or operation.header_params.get(wire)
            assert argument, f"{step['call']} has no parameter {wire}"
            kwargs[argument] = value
        body = self.resolve(step["body"]) if "body" in step else None
        if "raw_body" in step:
            body = json.loads(step["raw_body"])
            # The SDK serializes a dict compactly in its key order: the signed bytes, exactly.
            assert json.dumps(body, separators=(",", ":"), ensure_ascii=False) == step["raw_body"]
        if body is not None:
            if operation.body == "fields":
                kwargs.update(body)
            else:
                kwargs["body"] = body
        if "headers" in step:
            kwargs["extra_headers"] = self.resolve(step["headers"])
        answer = method(*(path[name] for name in operation.path_params), **kwargs)
        return list(answer) if operation.paginated else answer

    def run_step(self, step: dict[str, Any]) -> None:
        if "verify_webhook" in step:
            self.verify_webhook(self.resolve(step["verify_webhook"]))
            return
        until = step.get("until")
        answer = self.call_until(step, until) if until else self.call(step)
        for check in self.resolve(step.get("expect", [])):
            assert_check(answer, check, step["call"])
        if "save" in step:
            self.saved[step["save"]] = answer

    def call_until(self, step: dict[str, Any], until: dict[str, Any]) -> Any:
        deadline = time.monotonic() + UNTIL_DEADLINE
        while True:
            try:
                answer = self.call(step)
                if until.get("succeeds") or holds(answer, until):
                    return answer
                fails = until.get("fails_if")
                assert not (fails and holds(answer, fails)), f"{step['call']}: {fails}"
            except vaultline.APIError:
                if not until.get("succeeds"):
                    raise
            assert time.monotonic() < deadline, f"{step['call']}: {until} did not hold within {UNTIL_DEADLINE} s"
            time.sleep(0.1)

    def verify_webhook(self, spec: dict[str, Any]) -> None:
        receiver: Receiver = self.variables["receiver"]
        deadline = time.monotonic() + UNTIL_DEADLINE
        while not any(spec["containing"].encode() in body for _, body in receiver.received):
            assert time.monotonic() < deadline, f"no webhook containing {spec['containing']} within {UNTIL_DEADLINE} s"
            time.sleep(0.1)
        headers, body = next((h, b) for h, b in receiver.received if spec["containing"].encode() in b)
        event = self.client.webhooks.verify(body, headers, spec["secret"])
        assert spec["containing"] in event["type"]
        changed = body.replace(spec["containing"].encode(), b"token.deleted")
        try:
            self.client.webhooks.verify(changed, headers, spec["secret"])
        except vaultline.WebhookVerificationError:
            return
        raise AssertionError("a changed body verified")


def at_path(value: Any, path: str) -> Any:
    """The value at a dotted path; * maps over a list (the answer is the list of values)."""
    if not path:
        return value
    head, _, rest = path.partition(".")
    if head == "*":
        return [at_path(item, rest) for item in value]
    if isinstance(value, list):
        index = int(head)
        return at_path(value[index], rest) if index < len(value) else None
    return at_path(value.get(head) if isinstance(value, dict) else None, rest)


def holds(answer: Any, condition: dict[str, Any]) -> bool:
    value = at_path(answer, condition["path"])
    if "equals" in condition:
        return bool(value == condition["equals"])
    return value is not None if condition.get("exists") else False


def assert_check(answer: Any, check: dict[str, Any], operation: str) -> None:
    value = at_path(answer, check["path"])
    if "equals" in check:
        assert value == check["equals"], f"{operation}: {check['path']} is {value!r}, not {check['equals']!r}"
    if "not_equals" in check:
        assert value != check["not_equals"], f"{operation}: {check['path']} is {value!r}"
    if "matches" in check:
        assert isinstance(value, str) and re.search(check["matches"], value), f"{operation}: {check['path']} is {value!r}"
    if "includes" in check:
        assert check["includes"] in value, f"{operation}: {check['path']} has no {check['includes']!r}"
    if "only" in check:
        assert value and all(item == check["only"] for item in value), f"{operation}: {check['path']} is {value!r}"
