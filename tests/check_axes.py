#!/usr/bin/env python3
"""Check a prof-compare HTML picture as headless Chromium lays it out: a
script added to a copy of the page (the probe, --probe) reports the title
and every tick label with its box, and this checks them in the page as
Chromium left it (tests/chromium.py --dom, or --dump-dom): the title names
both sides (as given, a byte that is not UTF-8 shown as U+FFFD) and fits
the picture; no tick of the sample and change axes is below -100%; each
complexity chart has 3 to 5 ticks per axis, its times in one unit; no two
labels of an axis overlap. Load the probe at 960x800.
Usage: check_axes.py --probe PAGE.html PROBE.html
       check_axes.py PAGE.html PROBE-DOM.html OLD_NAME NEW_NAME MIN_CHARTS"""
import html
import json
import os
import re
import sys

SCRIPT = """<script>
(function () {
  function box(e) { var r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }
  function texts(root, sel) {
    return Array.prototype.map.call(root.querySelectorAll(sel), function (e) {
      return { text: e.textContent, box: box(e) }; });
  }
  var r = { svg: box(document.querySelector('svg')), doc: document.title };
  r.title = ['title-old', 'title-new'].map(function (id) {
    var e = document.getElementById(id); return e ? { text: e.textContent, box: box(e) } : null; });
  r.axes = Array.prototype.map.call(document.querySelectorAll('g.axis'), function (g) {
    return texts(g, 'text'); });
  r.charts = Array.prototype.map.call(document.querySelectorAll('g.chart'), function (g) {
    return { x: texts(g, 'g.xticks text'), y: texts(g, 'g.yticks text') }; });
  var pre = document.createElement('pre');
  pre.id = 'axes-result';
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
})();
</script>"""

failures = []


def bad(msg):
    failures.append(msg)
    print("FAIL:", msg)


def overlaps(labels, what):
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            (l1, t1, r1, b1), (l2, t2, r2, b2) = a["box"], b["box"]
            if l1 < r2 and l2 < r1 and t1 < b2 and t2 < b1:
                bad(f"{what}: labels {a['text']!r} and {b['text']!r} overlap")


def main():
    if sys.argv[1] == "--probe":
        page, probe = sys.argv[2:4]
        text = open(page, encoding="utf-8").read()
        with open(probe, "w", encoding="utf-8") as f:
            f.write(text.replace("</body>", SCRIPT + "</body>"))
        return
    page, dom, old, new, min_charts = sys.argv[1:6]
    name = lambda s: os.fsencode(s).decode("utf-8", "replace")
    old, new = name(old), name(new)
    dom = open(dom, encoding="utf-8", errors="replace").read()
    m = re.search(r'<pre id="axes-result">(.*?)</pre>', dom, re.S)
    if not m:
        raise SystemExit(f"{page}: the probe reported nothing:\n{dom[:2000]}")
    r = json.loads(html.unescape(m.group(1)))
    if r["doc"] != f"prof-compare: {old} against {new}":
        bad(f"document title {r['doc']!r}")
    for t, side, want in zip(r["title"], ("old", "new"), (old, new)):
        if t is None or t["text"] != f"{side}: {want}":
            bad(f"{side} title {t and t['text']!r}, want {side}: {want!r}")
        elif t["box"][2] > r["svg"][2] or t["box"][0] < r["svg"][0]:
            bad(f"{side} title runs off the picture: {t['box']} in {r['svg']}")
    if len(r["axes"]) != 2:
        bad(f"{len(r['axes'])} sample/change axes")
    for k, labels in enumerate(r["axes"]):
        values = [float(l["text"].rstrip("%")) for l in labels]
        if len(values) < 3 or min(values) < -100:
            bad(f"axis {k}: ticks {values}")
        overlaps(labels, f"axis {k}")
    if len(r["charts"]) < int(min_charts):
        bad(f"{len(r['charts'])} complexity chart(s), want {min_charts}")
    for k, c in enumerate(r["charts"]):
        xs, ys = [l["text"] for l in c["x"]], [l["text"] for l in c["y"]]
        units = {y.split(" ")[-1] for y in ys}
        if not 3 <= len(xs) <= 5 or not 3 <= len(ys) <= 5:
            bad(f"chart {k}: {len(xs)} N ticks {xs}, {len(ys)} time ticks {ys}")
        if len(units) != 1 or not units <= {"ns", "us", "ms", "s"}:
            bad(f"chart {k}: time ticks in {sorted(units)}: {ys}")
        overlaps(c["x"], f"chart {k} N")
        overlaps(c["y"], f"chart {k} time")
        print(f"{page}: chart {k}: N {xs}, time {ys}")
    print(f"{page}: title {[t and t['text'] for t in r['title']]}, "
          f"axes {[[l['text'] for l in a] for a in r['axes']]}")
    if failures:
        raise SystemExit(f"{page}: {len(failures)} check(s) failed")


if __name__ == "__main__":
    main()
