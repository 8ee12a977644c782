#!/usr/bin/python3
"""Plot a perfgauge run sweep: working-set size (log x) against time per item.

    scripts/plot_sweep.py RESULT.json -o sweep.png [--counters instructions,branch-misses]

One column per cache state (hot, cold, flush), one line per variant (branchy, bmi2, memcpy, ...)
with its IQR over the samples shaded, and dotted vertical lines at the L1d, L2 and L3 sizes the
run used (context.perfgauge.workload_context). Further rows show counters per item; by default
instructions and branch-misses when the run counted them. Writes PNG or SVG (by extension),
headless (matplotlib's Agg backend). Uses Debian's python3-matplotlib (scripts/install-deps.sh).
"""
import argparse
import collections
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
import matplotlib.ticker  # noqa: E402

DEFAULT_COUNTERS = ["instructions", "branch-misses"]


def fail(message):
    print(f"plot_sweep.py: {message}", file=sys.stderr)
    sys.exit(2)


def percentile(sorted_values, q):
    """numpy's default (linear) definition, without numpy."""
    position = (len(sorted_values) - 1) * q
    low = int(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            result = json.load(f)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except json.JSONDecodeError as e:
        fail(f"{path} is not JSON: {e}")
    perfgauge = result.get("context", {}).get("perfgauge")
    if perfgauge is None or "benchmarks" not in result:
        fail(f"{path} is not a perfgauge run result (no context.perfgauge)")
    return result, perfgauge


def size_label(value, _position=None):
    for shift, unit in ((30, "G"), (20, "M"), (10, "K")):
        if value >= 1 << shift:
            return f"{value / (1 << shift):g}{unit}"
    return f"{value:g}B"


def collect(result, metrics):
    """{(cache, variant, shape, dist): {size: {metric: [samples]}}} from the iteration entries."""
    series = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
    for entry in result["benchmarks"]:
        params = entry.get("perfgauge_params")
        if entry.get("run_type") != "iteration" or not params or params.get("shape") == "one-shot":
            continue
        key = (params["cache"], params["variant"], params.get("shape", "-"), params["dist"])
        point = series[key][int(params["size_bytes"])]
        point["time"].append(entry["perfgauge_ns_per_item"])
        for metric in metrics:
            if metric in entry:
                point[metric].append(entry[metric])
    return series


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("result", help="JSON written by perfgauge run")
    parser.add_argument("-o", "--output", required=True, help="FILE.png or FILE.svg")
    parser.add_argument("--counters", help="counter rows, comma-separated (default: "
                        "instructions,branch-misses when counted; 'none' for time only)")
    args = parser.parse_args()
    if not args.output.endswith((".png", ".svg")):
        fail(f"-o {args.output}: the file must end in .png or .svg")

    result, perfgauge = load(args.result)
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
        fail(f"{args.result} has no end-on-end sweep to plot (no perfgauge_params with sizes)")
    caches = [c for c in ("hot", "cold", "flush") if any(k[0] == c for k in series)]
    context = perfgauge.get("workload_context", {})
    cache_lines = [(name, int(context.get(key, 0))) for name, key in
                   (("L1d", "l1d_bytes"), ("L2", "l2_bytes"), ("L3", "l3_bytes"))]

    figure, axes = plt.subplots(len(metrics), len(caches), squeeze=False, sharex=True,
                                figsize=(6 * len(caches), 3.6 * len(metrics)))
    colours = {}
    for column, cache in enumerate(caches):
        for row, metric in enumerate(metrics):
            ax = axes[row][column]
            for key in sorted(k for k in series if k[0] == cache):
                _, variant, shape, dist = key
                label = variant if shape in ("-", "end-on-end") else f"{variant} ({shape})"
                colour = colours.setdefault(label, f"C{len(colours)}")
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
                ax.plot(sizes, medians, marker="o", markersize=3, color=colour, label=label)
                ax.fill_between(sizes, low, high, color=colour, alpha=0.25, linewidth=0)
            for name, size in cache_lines:
                if size > 0:
                    ax.axvline(size, color="grey", linestyle=":", linewidth=1)
                    ax.text(size, 1.0, f" {name}", transform=ax.get_xaxis_transform(),
                            va="top", fontsize=8, color="grey")
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(size_label))
            ax.set_yscale("log")
            ax.grid(True, which="major", alpha=0.3)
            ax.set_ylabel("ns per item" if metric == "time" else f"{metric} per item")
            if row == 0:
                dist = next(k[3] for k in series if k[0] == cache)
                ax.set_title(f"{cache} cache ({dist})")
            if row == len(metrics) - 1:
                ax.set_xlabel("working set (bytes)")
            ax.legend(fontsize=8)
    cpu = perfgauge.get("system", {}).get("cpu", "")
    figure.suptitle(f"perfgauge sweep: median and IQR per size — {cpu}", fontsize=10)
    figure.tight_layout()
    try:
        figure.savefig(args.output, dpi=110)
    except OSError as e:
        fail(f"cannot write {args.output}: {e.strerror}")
    print(f"plot_sweep.py: wrote {args.output} ({len(caches)} cache states, "
          f"{len(colours)} lines, rows: {', '.join(metrics)})", file=sys.stderr)


if __name__ == "__main__":
    main()
