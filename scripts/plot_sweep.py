#!/usr/bin/python3
"""Plot a perfgauge run sweep: working-set size (log x) against time per item.

    scripts/plot_sweep.py RESULT.json -o sweep.png [--counters instructions,branch-misses]
    (or: perfgauge plot RESULT.json -o sweep.png, which finds a Python with matplotlib, and
    draws every result compare reads: a stat or Google Benchmark result is given to this script
    converted into a run result, with --per run|iteration)

Benchmarks without a working-set size (Google Benchmark's, stat's) are placed by the last
number of their name (BM_decode/4096, BM_copy/size:64: one line per name without it, on a log
axis of that argument); when some benchmark's name ends in no number, each benchmark is one
point of its own (median and IQR as error bars), side by side.

One column per cache state (hot, cold, flush), one line per series with its IQR over the samples
shaded, and dotted vertical lines at the L1d, L2 and L3 sizes the run used
(context.perfgauge.workload_context). Lines are labelled by every parameter that differs between
them and styled by it: colour for the variant (memcpy included), line style for the
distribution, marker for the shape. Further rows show counters per item, labelled with their
source ([hw], [sw], [sim]); by default instructions and branch-misses when the run counted them.
An axis with zero values uses a symlog scale (linear near 0, noted on the axis) so that zeros
stay visible. Writes PNG or SVG (by extension), headless (matplotlib's Agg backend). Uses
Debian's python3-matplotlib (scripts/install-deps.sh).
"""
# First of all (importing matplotlib takes a while): an interrupt from here on is one line.
from plot_common import (QUIET_INTERRUPT, handle_interrupts, read_json, run_main,  # noqa: I001
                         save_figure, say as note)

handle_interrupts()

import argparse  # noqa: E402
import collections  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
import matplotlib.lines  # noqa: E402
import matplotlib.ticker  # noqa: E402

DEFAULT_COUNTERS = ["instructions", "branch-misses"]
shown_input = {"name": "the result"}  # the file the user gave, for run_main's messages


def fail(message, status=2):
    """Exit 2: the input or the options are wrong; 1: the work could not be done (a full disk)."""
    note(message)
    sys.exit(status)


def percentile(sorted_values, q):
    """numpy's default (linear) definition, without numpy."""
    position = (len(sorted_values) - 1) * q
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def load(path, shown):
    """The result at `path`, named `shown` in messages (the file the user gave)."""
    result = read_json(path, shown, fail)
    context = result.get("context") if isinstance(result, dict) else None
    perfgauge = context.get("perfgauge") if isinstance(context, dict) else None
    if not isinstance(perfgauge, dict) or not isinstance(result.get("benchmarks"), list):
        fail(f"{shown} is not a perfgauge run result (no context.perfgauge)")
    return result, perfgauge


def size_label(value, _position=None):
    for shift, unit in ((30, "G"), (20, "M"), (10, "K")):
        if value >= 1 << shift:
            return f"{value / (1 << shift):g}{unit}"
    return f"{value:g}B"


def argument_label(value, _position=None):
    """A benchmark argument as written in names (1024, not 1.024k), up to a million."""
    return f"{value:.0f}" if value < 1e6 else number_label(value)


def number_label(value, _position=None):
    """Tick labels as plain numbers with SI suffixes (0.5, 12, 3k), not powers of ten."""
    if value == 0:
        return "0"
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= factor:
            return f"{value / factor:g}{suffix}"
    return f"{value:.3g}"


# A benchmark name's last argument: BM_decode/4096, BM_copy/size:64 (Google Benchmark's forms).
TRAILING_ARGUMENT = re.compile(r"/(?:[A-Za-z_][A-Za-z0-9_]*:)?([0-9]+)$")


def place(entry):
    """(series key, x) of an iteration entry, and the x axis it needs: "bytes" (a working-set
    size), "argument" (the last number of its name) or None (nothing to place it by)."""
    params = entry.get("perfgauge_params") or {}
    if "size_bytes" in params:
        return (params.get("cache", "-"), params.get("variant", params.get("workload", "?")),
                params.get("dist", "-"), params.get("shape", "-")), \
            int(params["size_bytes"]), "bytes"
    name = entry.get("run_name") or entry.get("name", "?")
    match = TRAILING_ARGUMENT.search(name)
    if match:
        return ("-", name[:match.start()], "-", "-"), int(match.group(1)), "argument"
    return ("-", name, "-", "-"), 0, None


def collect(result, metrics):
    """{(cache, variant, dist, shape): {x: {metric: [samples]}}} from the iteration entries, and
    the x axis ("bytes", "argument", or "benchmark": one position per benchmark, in file order,
    when some benchmark has nothing else to place it by)."""
    entries = [e for e in result["benchmarks"] if e.get("run_type") == "iteration"]
    placed = [place(e) for e in entries]
    axes = {axis for _, _, axis in placed}
    if None in axes or len(axes) > 1:
        order = {}
        for e in entries:
            order.setdefault(e.get("run_name") or e.get("name", "?"), len(order) + 1)
        placed = [(("-", name, "-", "-"), order[name], "benchmark")
                  for name in (e.get("run_name") or e.get("name", "?") for e in entries)]
    series = collections.defaultdict(
        lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
    for entry, (key, x, _) in zip(entries, placed):
        point = series[key][x]
        point["time"].append(entry["perfgauge_ns_per_item"])
        for metric in metrics:
            if metric in entry:
                point[metric].append(entry[metric])
    return series, (placed[0][2] if placed else "bytes")


LINE_STYLES = ["-", "--", "-.", ":"]
MARKERS = ["o", "s", "^", "D", "v"]


def styles(lines):
    """Label and style of each line, a (variant, dist, shape) tuple: the parameters that differ
    between the lines name it; colour follows the variant, line style the distribution, marker
    the shape. Also returns the names of those parameters."""
    # "-": a parameter the line does not have (memcpy has no shape); it varies nothing.
    values = [sorted({line[i] for line in lines}) for i in range(3)]
    varying = [i for i in range(3) if len(set(values[i]) - {"-"}) > 1]
    out = {}
    for line in sorted(lines):
        variant, dist, shape = line
        named = [line[i] for i in varying if line[i] != "-"]
        out[line] = dict(label=" / ".join(named) or variant,
                         color=f"C{values[0].index(variant) % 10}",
                         linestyle=LINE_STYLES[values[1].index(dist) % len(LINE_STYLES)],
                         marker=MARKERS[values[2].index(shape) % len(MARKERS)])
    return out, [("variant", "distribution", "shape")[i] for i in varying]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("result", help="JSON written by perfgauge run")
    parser.add_argument("-o", "--output", required=True, help="FILE.png or FILE.svg")
    parser.add_argument("--counters", help="counter rows, comma-separated (default: "
                        "instructions,branch-misses when counted; 'none' for time only)")
    # perfgauge plot draws into a scratch directory (and reads a pipe's copy from there): the
    # messages name the files the user gave, never a scratch path that is gone by then.
    parser.add_argument("--result-name", help="the result's name in messages (default: RESULT)")
    parser.add_argument("--output-name", help="the picture's name in messages (default: -o)")
    parser.add_argument("--per", default="item",
                        help="what each value is per: item (run), run (stat), iteration (Google "
                        "Benchmark)")
    parser.add_argument(QUIET_INTERRUPT, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    result_name = args.result_name or args.result
    shown_input["name"] = result_name
    output_name = args.output_name or args.output
    if not args.output.endswith((".png", ".svg")):
        fail(f"-o {output_name}: the file must end in .png or .svg")

    result, perfgauge = load(args.result, result_name)
    counted = [e["name"] for e in perfgauge.get("events", []) if e.get("counted")]
    if args.counters == "none":
        counters = []
    elif args.counters:
        counters = args.counters.split(",")
        missing = [c for c in counters if c not in counted]
        if missing:
            fail(f"--counters: {', '.join(missing)} not counted in this run "
                 f"(counted: {', '.join(counted) or 'none'})")
    else:
        counters = [c for c in DEFAULT_COUNTERS if c in counted]
    metrics = ["time"] + counters

    series, x_axis = collect(result, counters)
    if not series:
        fail(f"{result_name} has no sample to plot (every benchmark lacks one)")
    caches = [c for c in ("hot", "cold", "flush", "-") if any(k[0] == c for k in series)]
    context = perfgauge.get("workload_context", {})
    cache_lines = [(name, int(context.get(key, 0))) for name, key in
                   (("L1d", "l1d_bytes"), ("L2", "l2_bytes"), ("L3", "l3_bytes"))]
    sources = {e["name"]: e.get("source", "") for e in perfgauge.get("events", [])}
    style, varying = styles({k[1:] for k in series})
    all_sizes = sorted({size for points in series.values() for size in points})

    figure, axes = plt.subplots(len(metrics), len(caches), squeeze=False, sharex=True,
                                figsize=(6.4 * len(caches), 3.8 * len(metrics)))
    for column, cache in enumerate(caches):
        for row, metric in enumerate(metrics):
            ax = axes[row][column]
            values_seen = []
            for key in sorted(k for k in series if k[0] == cache):
                sizes, medians, low, high = [], [], [], []
                for size in sorted(series[key]):
                    samples = sorted(series[key][size].get(metric, []))
                    if not samples:
                        continue
                    sizes.append(size)
                    medians.append(percentile(samples, 0.5))
                    low.append(percentile(samples, 0.25))
                    high.append(percentile(samples, 0.75))
                if not sizes:
                    continue
                values_seen += medians + low
                s = style[key[1:]]
                if x_axis == "benchmark":  # separate benchmarks: no line between them
                    ax.errorbar(sizes, medians, yerr=[[m - lo for m, lo in zip(medians, low)],
                                                      [hi - m for m, hi in zip(medians, high)]],
                                color=s["color"], marker=s["marker"], markersize=5,
                                linestyle="none", capsize=3)
                    continue
                ax.plot(sizes, medians, markersize=3.5, linewidth=1.4, **s)
                ax.fill_between(sizes, low, high, color=s["color"], alpha=0.2, linewidth=0)
            for name, size in cache_lines if x_axis == "bytes" else []:
                if size > 0:
                    ax.axvline(size, color="grey", linestyle=":", linewidth=1)
                    ax.text(size, 1.0, f" {name}", transform=ax.get_xaxis_transform(),
                            va="top", fontsize=8, color="grey")
            if x_axis == "benchmark":
                names = sorted({(x, k[1]) for k in series for x in series[k]})
                ax.set_xticks([x for x, _ in names])
                ax.set_xticklabels([name for _, name in names])
            else:
                ax.set_xscale("log", base=2)
                # One labelled tick per power of 4 (every power of 2 crowds the axis).
                ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(base=4, numticks=30))
                ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
                ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(
                    size_label if x_axis == "bytes" else argument_label))
            ax.tick_params(axis="x", labelrotation=45, labelsize=8)
            per = args.per
            ylabel = f"ns per {per}" if metric == "time" else f"{metric} per {per}"
            if metric != "time" and sources.get(metric):
                ylabel += f" [{sources[metric]}]"
            positive = [v for v in values_seen if v > 0]
            if values_seen and len(positive) < len(values_seen):
                # A log axis would drop the zeros: linear below the smallest non-zero value.
                linthresh = min(positive) if positive else 1.0
                ax.set_yscale("symlog", linthresh=linthresh)
                # Counts are never negative; a little room below 0 keeps the zeros in sight.
                ax.set_ylim(bottom=-0.05 * linthresh, top=None if positive else 1.0)
                ylabel += "\n(symlog: 0 shown)"
            else:
                ax.set_yscale("log")
            ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(number_label))
            ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
            ax.tick_params(axis="y", labelsize=8)
            ax.grid(True, which="major", alpha=0.3)
            ax.set_ylabel(ylabel, fontsize=9)
            if row == 0 and cache != "-":
                dists = sorted({k[2] for k in series if k[0] == cache})
                ax.set_title(f"{cache} cache ({', '.join(dists)})", fontsize=10)
            if row == len(metrics) - 1:
                ax.set_xlabel({"bytes": "working set (bytes)",
                               "argument": "argument (the last number of the name)",
                               "benchmark": "benchmark"}[x_axis])
            if all_sizes and x_axis == "benchmark":
                ax.set_xlim(all_sizes[0] - 0.5, all_sizes[-1] + 0.5)
            elif all_sizes:
                ax.set_xlim(all_sizes[0] / 1.5, all_sizes[-1] * 1.5)
    # One legend for the whole figure, under it: every column shares the same series.
    # One point per benchmark: the x axis names them, no legend needed.
    handles = [] if x_axis == "benchmark" else \
        [matplotlib.lines.Line2D([], [], **s) for s in style.values()]
    title = "benchmark" if x_axis != "bytes" else " / ".join(varying) if varying else "variant"
    if handles:
        figure.legend(handles=handles, loc="lower center", ncol=min(len(handles), 5), fontsize=8,
                      title=title, title_fontsize=8, frameon=False)
    cpu = perfgauge.get("system", {}).get("cpu", "")
    what = {"bytes": "per size", "argument": "per argument", "benchmark": "per benchmark"}[x_axis]
    figure.suptitle(f"perfgauge: median and IQR {what}" + (f" — {cpu}" if cpu else ""),
                    fontsize=10)
    rows_of_legend = (len(handles) + 4) // 5
    figure.tight_layout(rect=(0, (0.02 + 0.03 * rows_of_legend) * 3 / (len(metrics) + 1), 1, 1))
    try:
        save_figure(figure, args.output, dpi=110)
    except OSError as e:
        where = " (drawing it in perfgauge's temporary directory, under $TMPDIR)" \
            if args.output_name else ""
        fail(f"cannot write {output_name}: {e.strerror}{where}", status=1)
    states = f"{len(caches)} cache states, " if caches != ["-"] else ""
    lines = f"{len(style)} benchmarks" if x_axis == "benchmark" else f"{len(style)} lines"
    note(f"wrote {output_name} ({states}{lines}, rows: {', '.join(metrics)})")


if __name__ == "__main__":
    run_main(main, lambda: shown_input["name"])
