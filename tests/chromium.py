#!/usr/bin/env python3
"""Load several pages in ONE headless Chromium and write, per page, what
`chromium --screenshot --dump-dom --enable-logging=stderr` would leave:
each Chromium start costs about 1.7 CPU-seconds, so the tests that look at
many pages start one browser for all of them.

The driver speaks the DevTools protocol over --remote-debugging-pipe
(commands to Chromium's fd 3, replies and events from its fd 4, JSON
messages each ended by a NUL byte; python3's standard library only). Each
page gets a browser context of its own (as a profile of its own would: no
shared storage, a renderer of its own; tabs of one context, three at a
time, left 3 of 6 speedscope sandwich tables wrong, though they cost 0.4
CPU-s a page less), a viewport of the given size at device scale 1, and
then, after the load:
  --budget MS (default 0): with MS > 0, as --virtual-time-budget=MS: virtual
      time runs, paused while network fetches are pending, until MS virtual
      milliseconds have passed; with 0, the page's load event; then two
      animation frames, so that what the page draws in one is there too;
  --png FILE: a screenshot of the viewport, as --screenshot=FILE;
  --dom FILE: the page as --dump-dom prints it (the doctype, then
      document.documentElement.outerHTML);
  --log FILE: the console, one message a line, as --enable-logging=stderr
      --v=0 prints it: 'CONSOLE:LEVEL "TEXT", source: URL (LINE)'; an
      uncaught exception is such a line whose text starts "Uncaught" (as
      Chromium words it); the driver's own errors are lines "ERROR: ..."
      (a page that opens a dialog, such as an alert, fails then).
Page options (--size WxH, default 800x600, Chromium's headless window;
--hide-scrollbars; --budget; --png; --dom; --log) apply to the next URL
only. Pages load --parallel N at a time (default 2), each within
--timeout S seconds (default 120).

Usage: chromium.py [--browser PATH] --profile DIR [--parallel N] [--timeout S]
                   {[PAGE OPTION]... URL}...
Exits 0 when every page loaded and its files were written; otherwise 1,
after naming each page that failed and why on stderr (its log says too).
Chromium's own stderr goes to DIR/chromium.log."""
import base64
import fcntl
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


class Failed(Exception):
    pass


class Browser:
    """One Chromium and its pipe: call() sends a command and waits for its
    reply; events are queued per session (events(session))."""

    def __init__(self, path, profile):
        os.makedirs(profile, exist_ok=True)
        cmd_r, cmd_w = os.pipe()
        ev_r, ev_w = os.pipe()
        # the child's ends to its fds 3 and 4, from copies above both (the
        # pipes' own numbers may be 3 or 4) that close at exec
        hi_r, hi_w = (fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (cmd_r, ev_w))

        def child_fds():
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        self.stderr = open(os.path.join(profile, "chromium.log"), "wb")
        self.proc = subprocess.Popen(
            [path] + FLAGS + ["--user-data-dir=" + profile,
                              "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.stderr, stderr=self.stderr,
            close_fds=False, preexec_fn=child_fds)
        for fd in (cmd_r, ev_w, hi_r, hi_w):
            os.close(fd)
        self.out = os.fdopen(cmd_w, "wb", buffering=0)
        self.inp = os.fdopen(ev_r, "rb", buffering=0)
        self.lock = threading.Lock()
        self.next_id = 0
        self.replies = {}           # id -> Queue of its one reply
        self.sessions = {}          # sessionId -> Queue of its events
        self.gone = None            # why the pipe closed
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b""
        try:
            while True:
                chunk = self.inp.read(1 << 16)
                if not chunk:
                    break
                buf += chunk
                *msgs, buf = buf.split(b"\0")
                for raw in msgs:
                    msg = json.loads(raw)
                    if "id" in msg:
                        with self.lock:
                            q = self.replies.pop(msg["id"], None)
                        if q:
                            q.put(msg)
                    elif "sessionId" in msg:
                        self.events(msg["sessionId"]).put(msg)
                    elif msg.get("method") == "Target.detachedFromTarget":
                        self.events(msg["params"]["sessionId"]).put(msg)
        finally:
            self.gone = f"Chromium closed its pipe (status {self.proc.poll()})"
            with self.lock:
                waiting, self.replies = list(self.replies.values()), {}
                sessions = list(self.sessions.values())
            for q in waiting + sessions:
                q.put(None)

    def events(self, session):
        with self.lock:
            return self.sessions.setdefault(session, queue.Queue())

    def call(self, method, params=None, session=None, timeout=60):
        q = queue.Queue()
        with self.lock:
            if self.gone:
                raise Failed(self.gone)
            self.next_id += 1
            msg = {"id": self.next_id, "method": method, "params": params or {}}
            if session:
                msg["sessionId"] = session
            self.replies[self.next_id] = q
            self.out.write(json.dumps(msg).encode() + b"\0")
        try:
            reply = q.get(timeout=max(timeout, 0.1))
        except queue.Empty:
            raise Failed(f"{method}: no reply in {timeout:.0f} s") from None
        if reply is None:
            raise Failed(f"{method}: {self.gone}")
        if "error" in reply:
            raise Failed(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Failed:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.stderr.close()


def text_of(args):
    """A console call's arguments as Chromium's console log prints them."""
    def one(a):
        if "value" in a:
            v = a["value"]
            return v if isinstance(v, str) else json.dumps(v)
        return a.get("description", a.get("type", ""))
    return " ".join(one(a) for a in args)


def console_line(msg):
    """An event's line in the log, or None for an event that is not one."""
    method, p = msg.get("method"), msg.get("params", {})
    if method == "Runtime.consoleAPICalled":
        frames = (p.get("stackTrace") or {}).get("callFrames") or [{}]
        level = {"warning": "WARNING", "error": "ERROR", "assert": "ERROR"}.get(
            p.get("type"), "INFO")
        return (level, text_of(p.get("args", [])), frames[0].get("url", ""),
                frames[0].get("lineNumber", -1) + 1)
    if method == "Runtime.exceptionThrown":
        d = p["exceptionDetails"]
        desc = (d.get("exception") or {}).get("description", "")
        text = d.get("text", "Uncaught")
        if desc:
            text += " " + desc.split("\n")[0]
        return ("ERROR", text, d.get("url", ""), d.get("lineNumber", -1) + 1)
    if method == "Log.entryAdded":
        e = p["entry"]
        return (e.get("level", "info").upper().replace("VERBOSE", "INFO"),
                e.get("text", ""), e.get("url", ""), e.get("lineNumber", -1) + 1)
    return None


def load(browser, page, timeout):
    """Load one page and write its files; raise Failed on any error."""
    end = time.monotonic() + timeout
    left = lambda: end - time.monotonic()
    lines = []
    ctx = target = None
    try:
        ctx = browser.call("Target.createBrowserContext", timeout=left())["browserContextId"]
        w, h = page["size"]
        target = browser.call("Target.createTarget", {
            "url": "about:blank", "browserContextId": ctx, "width": w, "height": h},
            timeout=left())["targetId"]
        sid = browser.call("Target.attachToTarget",
                           {"targetId": target, "flatten": True}, timeout=left())["sessionId"]
        events = browser.events(sid)
        call = lambda m, p=None: browser.call(m, p, sid, timeout=left())
        for domain in ("Page", "Runtime", "Log", "Inspector"):
            call(domain + ".enable")
        call("Emulation.setDeviceMetricsOverride", {
            "width": w, "height": h, "deviceScaleFactor": 1, "mobile": False})
        if page["hide_scrollbars"]:
            call("Emulation.setScrollbarsHidden", {"hidden": True})
        budget = page["budget"]
        if budget:
            call("Emulation.setVirtualTimePolicy", {"policy": "pause"})
        nav = call("Page.navigate", {"url": page["url"]})
        if nav.get("errorText"):
            raise Failed(f"navigation: {nav['errorText']}")
        if budget:
            call("Emulation.setVirtualTimePolicy", {
                "policy": "pauseIfNetworkFetchesPending", "budget": budget})
        ready = "Emulation.virtualTimeBudgetExpired" if budget else "Page.loadEventFired"

        def drain(until=None, block=False):
            while True:
                try:
                    msg = events.get(timeout=max(left(), 0.01)) if block else events.get_nowait()
                except queue.Empty:
                    if block:
                        raise Failed(f"no {until} in {timeout:.0f} s") from None
                    return
                if msg is None:
                    raise Failed(browser.gone)
                method = msg.get("method")
                line = console_line(msg)
                if line:
                    lines.append(line)
                elif method == "Page.javascriptDialogOpening":
                    # an alert (speedscope's for a file it cannot load) stops
                    # the page, and its virtual time: a failure now, not at
                    # the timeout, and no files but the log
                    p = msg["params"]
                    raise Failed(f"the page opened a dialog: {p.get('type')}: "
                                 f"{p.get('message')}")
                elif method in ("Inspector.targetCrashed", "Target.detachedFromTarget"):
                    raise Failed(f"the page is gone ({method})")
                if method == until:
                    return

        drain(ready, block=True)
        # then two animation frames, in real time: what the page asked to
        # draw last (speedscope sizes its lists in a requestAnimationFrame
        # callback; the virtual time budget may pass before one runs, and
        # the sandwich table is then empty) is in the page before it is read
        call("Runtime.evaluate", {"awaitPromise": True, "expression":
             "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"})
        if page["png"]:
            shot = call("Page.captureScreenshot", {"format": "png"})
            with open(page["png"], "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        if page["dom"]:
            r = call("Runtime.evaluate", {"returnByValue": True, "expression":
                     "(document.doctype ? '<!DOCTYPE ' + document.doctype.name + '>\\n' : '')"
                     " + document.documentElement.outerHTML"})
            if "exceptionDetails" in r:
                raise Failed("document.documentElement.outerHTML: " + str(r["exceptionDetails"]))
            with open(page["dom"], "w", encoding="utf-8") as f:
                f.write(r["result"]["value"] + "\n")
        drain()
    except Failed as e:
        lines.append(("ERROR", f"ERROR: {page['url']}: {e}", "", 0))
        raise
    finally:
        if page["log"]:
            with open(page["log"], "w", encoding="utf-8") as f:
                for level, text, url, line in lines:
                    if text.startswith("ERROR: "):
                        f.write(text + "\n")
                    else:
                        f.write(f'CONSOLE:{level} "{text}", source: {url} ({line})\n')
        try:
            if target:
                browser.call("Target.closeTarget", {"targetId": target}, timeout=10)
            if ctx:
                browser.call("Target.disposeBrowserContext", {"browserContextId": ctx},
                             timeout=10)
        except Failed:
            pass


def parse(argv):
    opts = {"browser": None, "profile": None, "parallel": 2, "timeout": 120.0}
    pages = []
    fresh = lambda: {"size": (800, 600), "hide_scrollbars": False, "budget": 0,
                     "png": None, "dom": None, "log": None}
    page = fresh()
    args = iter(argv)
    for a in args:
        if a in ("--browser", "--profile"):
            opts[a[2:]] = next(args)
        elif a == "--parallel":
            opts["parallel"] = int(next(args))
        elif a == "--timeout":
            opts["timeout"] = float(next(args))
        elif a == "--size":
            w, h = next(args).split("x")
            page["size"] = (int(w), int(h))
        elif a == "--hide-scrollbars":
            page["hide_scrollbars"] = True
        elif a == "--budget":
            page["budget"] = int(next(args))
        elif a in ("--png", "--dom", "--log"):
            page[a[2:]] = next(args)
        elif a.startswith("-"):
            raise SystemExit(f"chromium.py: unknown option {a}\n{__doc__}")
        else:
            page["url"] = a
            pages.append(page)
            page = fresh()
    if not opts["profile"] or not pages:
        raise SystemExit(__doc__)
    if not opts["browser"]:
        opts["browser"] = shutil.which("chromium") or shutil.which("chromium-browser")
    if not opts["browser"]:
        raise SystemExit("chromium.py: no chromium")
    return opts, pages


def main():
    opts, pages = parse(sys.argv[1:])
    browser = Browser(opts["browser"], opts["profile"])
    failed = []

    def one(page):
        try:
            load(browser, page, opts["timeout"])
        except Failed as e:
            failed.append(f"{page['url']}: {e}")

    try:
        with ThreadPoolExecutor(max(1, opts["parallel"])) as pool:
            list(pool.map(one, pages))
    finally:
        browser.close()
    for f in failed:
        print("chromium.py: FAIL:", f, file=sys.stderr)
    if failed:
        log = os.path.join(opts["profile"], "chromium.log")
        with open(log, encoding="utf-8", errors="replace") as f:
            tail = f.readlines()[-10:]
        print(f"chromium.py: {len(failed)} of {len(pages)} page(s) failed; the end of "
              f"Chromium's stderr ({log}):", file=sys.stderr)
        sys.stderr.write("".join(tail))
        sys.exit(1)


if __name__ == "__main__":
    main()
