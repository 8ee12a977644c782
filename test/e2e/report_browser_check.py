#!/usr/bin/python3
"""Opens a `perfgauge history report` page in headless Chromium and says what it shows.

  report_browser_check.py dom URL          the DOM after load, summarised as JSON: each
                                           series (benchmark, metric, machine, shown), each
                                           change point, the regressions listed
  report_browser_check.py screenshot URL PNG
                                           a 1200x2000 screenshot, and how many distinct
                                           colours and non-white pixels it has, as JSON

The test (test/e2e/cli_history_report_test.cpp) asserts on the JSON. Chromium runs with a
throwaway profile, no network services, and is killed (its whole process group) after 120 s.
"""
import html.parser
import json
import os
import signal
import subprocess
import sys
import tempfile

CHROMIUM = os.environ.get("PERFGAUGE_TEST_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


def chromium(args):
    with tempfile.TemporaryDirectory(prefix="perfgauge-chromium-") as profile:
        proc = subprocess.Popen([CHROMIUM, *FLAGS, "--user-data-dir=" + profile, *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            sys.exit("chromium did not finish within 120 s")
        finally:
            # Helpers (zygote, GPU, renderer) share the group: none outlives the check.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if proc.returncode != 0:
            sys.exit("chromium exited %d: %s" % (proc.returncode, err.decode(errors="replace")))
        return out.decode(errors="replace")


class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.series, self.changes, self.regressions = [], [], 0
        self.current = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "div" and "series" in classes:
            self.current = a.get("id")
            self.series.append({"id": a.get("id"), "benchmark": a.get("data-benchmark"),
                                "metric": a.get("data-metric"), "machine": a.get("data-machine"),
                                "shown": a.get("data-shown") == "1"
                                and "display: none" not in (a.get("style") or "")})
        elif tag == "line" and "change" in classes:
            self.changes.append({"series": self.current, "run": int(a.get("data-run")),
                                 "regression": "regression" in classes})
        elif tag == "tr" and "regression" in classes:
            self.regressions += 1


def dom(url):
    parser = Dom()
    parser.feed(chromium(["--dump-dom", url]))
    return {"series": parser.series, "changes": parser.changes,
            "regressions": parser.regressions}


def screenshot(url, png):
    from PIL import Image
    chromium(["--screenshot=" + png, "--window-size=1200,2000", "--hide-scrollbars", url])
    with Image.open(png) as image:
        rgb = image.convert("RGB")
        pixels = list(rgb.getdata())
        return {"width": rgb.width, "height": rgb.height, "colours": len(set(pixels)),
                "non_white": sum(1 for p in pixels if p != (255, 255, 255))}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "dom":
        print(json.dumps(dom(sys.argv[2])))
    elif len(sys.argv) == 4 and sys.argv[1] == "screenshot":
        print(json.dumps(screenshot(sys.argv[2], sys.argv[3])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
