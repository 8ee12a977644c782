#!/usr/bin/python3
"""Plot series of a perfgauge history store over time, with their change points marked.

    perfgauge history plot [REGEX] [--metric M] -o history.png|history.svg
    (perfgauge writes the series and their change points as JSON and runs this script with a
    Python that has matplotlib: scripts/history_plot.py SERIES.json -o FILE)

One panel per series (one benchmark's metric on one machine class): each run's median, in the
order the runs were added (in the unit the y axis names, e.g. "ms per run"), with its 95% interval as an error bar; each segment between change
points as a horizontal line at its median; each change point as a dashed vertical line before
its first run, labelled with its size and interval (red: regression, green: improvement); each
accepted baseline as a dotted purple line before its first run, labelled "accepted: REASON".
Writes PNG or SVG (by extension; SVG keeps its text as text), headless (matplotlib's Agg
backend). Uses Debian's python3-matplotlib (scripts/install-deps.sh).
"""
# First of all (importing matplotlib takes a while): an interrupt from here on is one line.
from plot_common import (QUIET_INTERRUPT, handle_interrupts, read_json, run_main,  # noqa: I001
                         save_figure, say)

handle_interrupts()

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402

import matplotlib  # noqa: E402

matplotlib.use("Agg")
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text in an SVG
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

shown_input = {"name": "the series"}  # the file given, for run_main's messages


def fail(message):
    say(message)
    sys.exit(2)


def load(path):
    data = read_json(path, path, fail)
    if not isinstance(data, dict) or not isinstance(data.get("series"), list) \
            or not data["series"]:
        fail(f"{path} holds no series (written by perfgauge history plot)")
    return data


def percent(share):
    return f"{100 * share:+.1f}%"


def draw_series(axes, series):
    runs = series["runs"]
    x = list(range(len(runs)))
    # Values are stored raw (ns, counts); `scale` makes the axis read plain numbers in the unit
    # `unit_label` names ("ms per run"). Older perfgauge's JSON has neither: drawn as stored.
    scale = series.get("scale") or 1
    values = [r["median"] * scale for r in runs]
    axes.errorbar(x, values, yerr=[r["spread"] * scale for r in runs], fmt="o", markersize=3,
                  color="tab:blue", ecolor="tab:gray", elinewidth=1, capsize=2, zorder=3)
    starts = [0] + [c["index"] for c in series["changes"]] + [len(runs)]
    for first, end in zip(starts, starts[1:]):
        level = statistics.median(values[first:end])
        axes.hlines(level, first - 0.4, end - 0.6, colors="tab:orange", linewidth=2, zorder=2)
    for change in series["changes"]:
        colour = "tab:red" if change["regression"] else "tab:green"
        at = change["index"] - 0.5
        axes.axvline(at, color=colour, linestyle="--", linewidth=1.2, zorder=1)
        what = "regression" if change["regression"] else "improvement"
        text = (f"change {percent(change['size'])} [{percent(change['low'])}, "
                f"{percent(change['high'])}] {what}, run {runs[change['index']]['run']}")
        axes.annotate(text, xy=(at, 1), xycoords=("data", "axes fraction"),
                      xytext=(3, -3), textcoords="offset points", va="top", fontsize=7,
                      color=colour, rotation=90)
    # Baselines accepted in the store ("accepted", absent from older perfgauge's JSON): a
    # dotted line before the first run of the accepted level.
    for accepted in series.get("accepted") or []:
        at = accepted["index"] - 0.5
        axes.axvline(at, color="tab:purple", linestyle=":", linewidth=1.2, zorder=1)
        axes.annotate(f"accepted: {accepted.get('reason', '')}", xy=(at, 0),
                      xycoords=("data", "axes fraction"), xytext=(-3, 3),
                      textcoords="offset points", ha="right", va="bottom", fontsize=7,
                      color="tab:purple", rotation=90)  # left of the line: a change's is right
    step = max(1, len(runs) // 12)
    axes.set_xticks(x[::step])
    axes.set_xticklabels([f"{r['run']}\n{r['commit'][:7] or '-'}" for r in runs[::step]],
                         fontsize=7)
    axes.set_xlim(-0.7, len(runs) - 0.3)
    axes.set_ylabel(series.get("unit_label") or series["unit"])
    axes.ticklabel_format(axis="y", style="plain", useOffset=False)  # no "1e7" above the axis
    axes.set_title(f"{series['benchmark']} [{series['metric']}] on {series['machine']}",
                   fontsize=9)
    axes.grid(True, axis="y", alpha=0.3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("series", help="JSON written by perfgauge history plot")
    parser.add_argument("-o", "--output", required=True, help="FILE.png or FILE.svg")
    parser.add_argument(QUIET_INTERRUPT, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    shown_input["name"] = args.series
    if not args.output.endswith((".png", ".svg")):
        fail(f"-o {args.output}: the file must end in .png or .svg")
    data = load(args.series)
    series = data["series"]
    figure, panels = plt.subplots(len(series), 1, figsize=(9, 3.2 * len(series)),
                                  squeeze=False)
    for axes, one in zip(panels[:, 0], series):
        draw_series(axes, one)
    panels[-1, 0].set_xlabel("run (id, commit), in the order added")
    figure.tight_layout()
    try:
        save_figure(figure, args.output)
    except OSError as e:
        say(f"cannot write {args.output}: {e.strerror}")
        sys.exit(1)


if __name__ == "__main__":
    run_main(main, lambda: shown_input["name"])
