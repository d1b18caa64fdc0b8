# receiver.py — run with: WEBHOOK_SECRETS=<new>,<old> python3 receiver.py
# Python ≥ 3.8, standard library only. In Flask pass request.get_data(), in Django request.body.
from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

SIGNATURE_HEADER = "X-Service-Signature"  # agent platform: "X-Platform-Signature"
TOLERANCE_SECONDS = 300
MAX_BODY_BYTES = 1024 * 1024


def verify_webhook(raw: bytes, header: str, secrets: list[str], now: float | None = None) -> bool:
    """True when one v1 of the header is the HMAC-SHA256 of "<t>.<raw body>" under one of the secrets."""
    timestamp, signatures = None, []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t" and re.fullmatch(r"[0-9]+", value):
            timestamp = int(value)
        elif key == "v1" and re.fullmatch(r"[0-9a-f]{64}", value):
            signatures.append(value)
    if timestamp is None or not signatures:
        return False
    if abs((time.time() if now is None else now) - timestamp) > TOLERANCE_SECONDS:
        return False  # a replayed old delivery
    signed = f"{timestamp}.".encode() + raw
    for secret in secrets:
        expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
        if any(hmac.compare_digest(expected, given) for given in signatures):  # constant time
            return True
    return False


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            return self.answer(413, b"too large")
        raw = self.rfile.read(length)  # the exact bytes; json.loads + json.dumps do not verify
        secrets = [s for s in os.environ.get("WEBHOOK_SECRETS", "").split(",") if s]  # new and old during a rotation
        if not verify_webhook(raw, self.headers.get(SIGNATURE_HEADER, ""), secrets):
            return self.answer(400, b"invalid signature")
        self.answer(202, b"")  # answer within 5 s: queue slow work
        event = json.loads(raw)
        # drop repeats by event["id"] (kept 7 days), then handle event["type"] and event["data"]

    def answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    HTTPServer(("", int(os.environ.get("PORT", "8080"))), Receiver).serve_forever()
