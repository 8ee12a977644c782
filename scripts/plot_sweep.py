#!/usr/bin/python3
"""Plot a perfgauge run sweep: working-set size (log x) against time per item.

    scripts/plot_sweep.py RESULT.json -o sweep.png [--counters instructions,branch-misses]
    (or: perfgauge plot RESULT.json -o sweep.png, which finds a Python with matplotlib)

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
import argparse
import collections
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
import matplotlib.lines  # noqa: E402
import matplotlib.ticker  # noqa: E402

from plot_common import read_json  # noqa: E402

DEFAULT_COUNTERS = ["instructions", "branch-misses"]


def note(message):
    """Says `message` on stderr; a full or closed stderr loses the note, never the picture."""
    data = f"plot_sweep.py: {message}\n".encode(errors="replace")
    try:
        while data:
            data = data[os.write(2, data):]
    except OSError:
        pass


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
    perfgauge = result.get("context", {}).get("perfgauge")
    if perfgauge is None or "benchmarks" not in result:
        fail(f"{shown} is not a perfgauge run result (no context.perfgauge)")
    return result, perfgauge


def size_label(value, _position=None):
    for shift, unit in ((30, "G"), (20, "M"), (10, "K")):
        if value >= 1 << shift:
            return f"{value / (1 << shift):g}{unit}"
    return f"{value:g}B"


def number_label(value, _position=None):
    """Tick labels as plain numbers with SI suffixes (0.5, 12, 3k), not powers of ten."""
    if value == 0:
        return "0"
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= factor:
            return f"{value / factor:g}{suffix}"
    return f"{value:.3g}"


def collect(result, metrics):
    """{(cache, variant, dist, shape): {size: {metric: [samples]}}} from the iteration entries."""
    series = collections.defaultdict(
        lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
    for entry in result["benchmarks"]:
        params = entry.get("perfgauge_params")
        if entry.get("run_type") != "iteration" or not params or "size_bytes" not in params:
            continue
        key = (params["cache"], params.get("variant", params.get("workload", "?")),
               params.get("dist", "-"), params.get("shape", "-"))
        point = series[key][int(params["size_bytes"])]
        point["time"].append(entry["perfgauge_ns_per_item"])
        for metric in metrics:
            if metric in entry:
                point[metric].append(entry[metric])
    return series


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
    args = parser.parse_args()
    result_name = args.result_name or args.result
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

    series = collect(result, counters)
    if not series:
        fail(f"{result_name} has no sweep to plot (no perfgauge_params with sizes)")
    caches = [c for c in ("hot", "cold", "flush") if any(k[0] == c for k in series)]
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
                ax.plot(sizes, medians, markersize=3.5, linewidth=1.4, **s)
                ax.fill_between(sizes, low, high, color=s["color"], alpha=0.2, linewidth=0)
            for name, size in cache_lines:
                if size > 0:
                    ax.axvline(size, color="grey", linestyle=":", linewidth=1)
                    ax.text(size, 1.0, f" {name}", transform=ax.get_xaxis_transform(),
                            va="top", fontsize=8, color="grey")
            ax.set_xscale("log", base=2)
            # One labelled tick per power of 4 (every power of 2 crowds the axis).
            ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(base=4, numticks=30))
            ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
            ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(size_label))
            ax.tick_params(axis="x", labelrotation=45, labelsize=8)
            ylabel = "ns per item" if metric == "time" else f"{metric} per item"
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
            if row == 0:
                dists = sorted({k[2] for k in series if k[0] == cache})
                ax.set_title(f"{cache} cache ({', '.join(dists)})", fontsize=10)
            if row == len(metrics) - 1:
                ax.set_xlabel("working set (bytes)")
            if all_sizes:
                ax.set_xlim(all_sizes[0] / 1.5, all_sizes[-1] * 1.5)
    # One legend for the whole figure, under it: every column shares the same series.
    handles = [matplotlib.lines.Line2D([], [], **s) for s in style.values()]
    title = " / ".join(varying) if varying else "variant"
    figure.legend(handles=handles, loc="lower center", ncol=min(len(handles), 5), fontsize=8,
                  title=title, title_fontsize=8, frameon=False)
    cpu = perfgauge.get("system", {}).get("cpu", "")
    figure.suptitle(f"perfgauge sweep: median and IQR per size — {cpu}", fontsize=10)
    rows_of_legend = (len(handles) + 4) // 5
    figure.tight_layout(rect=(0, (0.02 + 0.03 * rows_of_legend) * 3 / (len(metrics) + 1), 1, 1))
    try:
        figure.savefig(args.output, dpi=110)
    except OSError as e:
        where = " (drawing it in perfgauge's temporary directory, under $TMPDIR)" \
            if args.output_name else ""
        fail(f"cannot write {output_name}: {e.strerror}{where}", status=1)
    note(f"wrote {output_name} ({len(caches)} cache states, {len(style)} lines, rows: "
         f"{', '.join(metrics)})")


if __name__ == "__main__":
    main()
