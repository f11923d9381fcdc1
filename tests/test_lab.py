"""JupyterLab keeps a researcher's work: a real server on loopback opens a study notebook's .py as a
notebook (jupytext), runs one cell and saves; the tracked .ipynb never changes and the .py holds the edit."""
import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from jupyter_client.kernelspec import KernelSpecManager

ROOT = Path(__file__).resolve().parents[1]
NAME = "01_raeder2010_variability"
KERNEL = "cvrepro" if "cvrepro" in KernelSpecManager().find_kernel_specs() else "python3"
TOKEN = "cvrepro-test"


def git(cwd, *args) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def project(tmp_path):
    """A git checkout holding the project's jupytext configuration and one notebook pair, committed."""
    for path in ["pyproject.toml", ".gitignore", f"notebooks/{NAME}.py", f"notebooks/{NAME}.ipynb"]:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / path, tmp_path / path)
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    return tmp_path


@pytest.fixture
def server(project):
    """`make lab`'s JupyterLab on the project, on loopback; yields a function calling its REST API."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = [sys.executable, "-m", "jupyterlab", f"--notebook-dir={project}", "--no-browser", "--ip=127.0.0.1",
            f"--port={port}", f"--IdentityProvider.token={TOKEN}", "--ServerApp.port_retries=0"]
    proc = subprocess.Popen(args + (["--allow-root"] if os.geteuid() == 0 else []), cwd=project,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"

    def api(method, path, body=None):
        request = urllib.request.Request(f"{base}{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"token {TOKEN}",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            text = response.read()
            return json.loads(text) if text else None

    deadline = time.monotonic() + 90
    while True:
        try:
            api("GET", "/api/status")
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"JupyterLab did not start: {proc.stderr.read()[-2000:]}")
            time.sleep(0.3)
    api.port = port
    try:
        yield api
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


async def execute(port: int, kernel_id: str, code: str) -> list[dict]:
    """Run ``code`` on the kernel through the server's websocket; return its iopub outputs."""
    from tornado.websocket import websocket_connect

    ws = await websocket_connect(f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels?token={TOKEN}")
    msg_id = uuid.uuid4().hex
    await ws.write_message(json.dumps({
        "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": "t", "session": uuid.uuid4().hex,
                   "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
        "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                    "allow_stdin": False, "stop_on_error": True}}))
    outputs, reply = [], None
    while reply is None or not any(o.get("execution_state") == "idle" for o in outputs):
        message = json.loads(await ws.read_message())
        if message.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        if message["msg_type"] == "execute_reply":
            reply = message["content"]
        elif message["channel"] == "iopub":
            outputs.append({**message["content"], "msg_type": message["msg_type"]})
    ws.close()
    assert reply["status"] == "ok", reply
    return outputs


def test_lab_saves_the_py_and_never_the_tracked_ipynb(project, server):
    path = f"notebooks/{NAME}.py"
    model = server("GET", f"/api/contents/{path}?type=notebook&content=1")
    cells = model["content"]["cells"]
    params = next(c for c in cells if "parameters" in c["metadata"].get("tags", []))
    kernel = server("POST", "/api/kernels", {"name": KERNEL})
    try:
        outputs = asyncio.run(execute(server.port, kernel["id"], params["source"] + "\nprint(profile)"))
    finally:
        server("DELETE", f"/api/kernels/{kernel['id']}")
    assert any(o.get("text") == "quick\n" for o in outputs)
    params["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "quick\n"}]
    params["execution_count"] = 1
    original = (project / path).read_text()
    server("PUT", f"/api/contents/{path}", {"type": "notebook", "format": "json", "content": model["content"]})
    assert git(project, "status", "--porcelain") == ""                  # ran and saved: nothing tracked changed
    assert (project / path).read_text() == original

    params["source"] = params["source"].replace('profile = "quick"', 'profile = "smoke"')   # the researcher's edit
    server("PUT", f"/api/contents/{path}", {"type": "notebook", "format": "json", "content": model["content"]})
    assert git(project, "status", "--porcelain").splitlines() == [f" M {path}"]   # only the source changed
    assert 'profile = "smoke"' in (project / path).read_text()
    copy = json.loads((project / "build" / "lab" / f"{NAME}.ipynb").read_text())   # untracked, keeps outputs
    assert any(c.get("outputs") for c in copy["cells"])
    reopened = server("GET", f"/api/contents/{path}?type=notebook&content=1")
    assert any('profile = "smoke"' in c["source"] for c in reopened["content"]["cells"])


def test_sync_refuses_to_overwrite_an_ipynb_edited_after_its_py(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "tools"))
    import sync_notebooks

    monkeypatch.setattr(sync_notebooks, "NOTEBOOKS", tmp_path)
    source, target = tmp_path / f"{NAME}.py", tmp_path / f"{NAME}.ipynb"
    shutil.copy(ROOT / "notebooks" / source.name, source)
    target.write_text(sync_notebooks.build(source).replace("# 01 ·", "# 01 (edited) ·"))
    os.utime(source, (time.time() - 60, time.time() - 60))             # the .ipynb is the newer
    assert sync_notebooks.main([]) == 1 and "(edited)" in target.read_text()
    os.utime(target, (time.time() - 120, time.time() - 120))           # the .py is the newer: its edit wins
    assert sync_notebooks.main([]) == 0 and "(edited)" not in target.read_text()
    target.write_text(target.read_text().replace("# 01 ·", "# 01 (edited) ·"))
    assert sync_notebooks.main(["--force"]) == 0 and "(edited)" not in target.read_text()


def test_make_lab_reaches_the_whole_project_and_starts_as_root():
    dry = subprocess.run(["make", "-n", "-W", "pyproject.toml", "lab"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    line = next(x for x in dry.splitlines() if "jupyter lab" in x)
    assert "--notebook-dir=." in line and (("--allow-root" in line) == (os.geteuid() == 0))
