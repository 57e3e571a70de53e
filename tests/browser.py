"""Drive headless Chromium over the DevTools protocol (one browser, many pages).

One process for the whole crawl: starting Chromium per page (`--dump-dom`) would cost a
second each. Talks CDP over the websocket Chromium opens on a free local port.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    def __init__(self, binary: str, profile: Path, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self.proc = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0",
             "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        port_file = profile / "DevToolsActivePort"
        deadline = time.time() + timeout
        while not (port_file.exists() and port_file.read_text().count("\n") >= 1):
            if time.time() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("chromium did not open its DevTools port")
            time.sleep(0.1)
        port = port_file.read_text().splitlines()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as reply:
            targets = json.loads(reply.read())
        page = next(t for t in targets if t["type"] == "page")
        self._stack = ExitStack()  # websockets ≥ 14 wants its connection used as a context
        self.ws = self._stack.enter_context(
            connect(page["webSocketDebuggerUrl"], max_size=None, open_timeout=timeout)
        )
        self._id = 0
        self.send("Page.enable")
        self.send("Runtime.enable")

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params or {}}))
        while True:
            msg = json.loads(self.ws.recv(timeout=self.timeout))
            if msg.get("id") == self._id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def goto(self, url: str) -> None:
        """Navigate and wait for the load event (all of a static page's DOM and scripts)."""
        self._id += 1
        sent = self._id
        self.ws.send(json.dumps({"id": sent, "method": "Page.navigate", "params": {"url": url}}))
        loaded = answered = False
        while not (loaded and answered):
            msg = json.loads(self.ws.recv(timeout=self.timeout))
            if msg.get("id") == sent:
                if "errorText" in msg.get("result", {}):
                    raise RuntimeError(f"{url}: {msg['result']['errorText']}")
                answered = True
            elif msg.get("method") == "Page.loadEventFired" and answered:
                loaded = True

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})[
            "result"
        ]
        return result.get("value")

    def screenshot(self, path: Path, width: int, height: int) -> Path:
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        shot = self.send("Page.captureScreenshot", {"format": "png"})
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    def close(self) -> None:
        if hasattr(self, "_stack"):
            self._stack.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
