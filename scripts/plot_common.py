"""What perfgauge's plotting scripts (plot_sweep.py, history_plot.py) share.

Imported from the directory the scripts sit in (Python puts a script's own directory first on
its path): scripts/ in the source tree, share/perfgauge once installed.
"""
import json


def read_json(path, shown, fail):
    """The JSON document at `path`, named `shown` in messages; `fail(message)` (which exits)
    when the file cannot be read or is not JSON."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        fail(f"cannot read {shown}: {e.strerror}")
    except json.JSONDecodeError as e:
        fail(f"{shown} is not JSON: {e}")
    return None  # not reached: fail exits
