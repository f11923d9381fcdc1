"""Headless Chromium (the Debian package) driven over the DevTools protocol, for the report's tests.

``chromium()`` finds the browser, installing the Debian package with apt-get where
it can (root), and fails the test with what to install where it cannot.
"""
from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

NAMES = ("chromium", "chromium-browser", "google-chrome")


def chromium() -> str:
    """The browser's path; installs Debian's ``chromium`` when missing and possible, else fails clearly."""
    found = next((shutil.which(n) for n in NAMES if shutil.which(n)), None)
    if found is None and shutil.which("apt-get") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
            subprocess.run(cmd, env=env, capture_output=True, timeout=900)
        found = shutil.which("chromium")
    if found is None:
        pytest.fail("the report's browser test needs headless Chromium: install the Debian package "
                    "(`sudo apt-get install chromium`) or put chromium on PATH", pytrace=False)
    return found


class Page:
    """One browser tab: open a URL, evaluate JavaScript, click, take a screenshot."""

    def __init__(self, ws):
        self.ws, self.next_id = ws, 0

    async def call(self, method: str, **params):
        self.next_id += 1
        await self.ws.write_message(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(await self.ws.read_message())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    async def js(self, expression: str):
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"JavaScript failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def open(self, url: str, timeout: float = 60) -> None:
        await self.call("Page.navigate", url=url)
        deadline = time.monotonic() + timeout
        while await self.js("document.readyState") != "complete" or await self.js("location.href") != url:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not load in {timeout} s")
            await asyncio.sleep(0.1)
        await self.js("Promise.all(Array.from(document.images).map(i => i.decode().catch(() => null)))")

    async def screenshot(self, path: Path, height: int = 1400) -> None:
        await self.call("Emulation.setDeviceMetricsOverride", width=1280, height=height, deviceScaleFactor=1,
                        mobile=False)
        shot = await self.call("Page.captureScreenshot", format="png")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))


def run_in_browser(scenario, profile_dir: Path, timeout: float = 120):
    """Start headless Chromium, run ``await scenario(page)`` in one tab, stop the browser; return its result."""
    from tornado.websocket import websocket_connect

    proc = subprocess.Popen([chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                             f"--user-data-dir={profile_dir}", "--window-size=1280,1400", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file, deadline = profile_dir / "DevToolsActivePort", time.monotonic() + 60
        while not port_file.exists() or not port_file.read_text().strip():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("headless Chromium did not start (no DevToolsActivePort)")
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        targets = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10).read())
        url = next(t["webSocketDebuggerUrl"] for t in targets if t["type"] == "page")

        async def main():
            ws = await websocket_connect(url, max_message_size=256 * 2**20)
            try:
                return await asyncio.wait_for(scenario(Page(ws)), timeout)
            finally:
                ws.close()

        return asyncio.run(main())
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
