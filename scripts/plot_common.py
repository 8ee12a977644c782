"""What perfgauge's plotting scripts (plot_sweep.py, history_plot.py) share.

Imported from the directory the scripts sit in (Python puts a script's own directory first on
its path): scripts/ in the source tree, share/perfgauge once installed. Imported before
matplotlib (it installs the interrupt handlers, and importing matplotlib takes a while).

A script never ends in a traceback: an interrupt (SIGINT, SIGTERM, SIGHUP) is one line and
exit 128+N, with no half-written picture left; any other failure is one line naming the input
and the reason, exit 2 when the input is not what the script draws, else 1.
"""
import os
import signal
import sys

NAME = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "plot"
# perfgauge passes this when it runs a script: it says the interrupt itself (one line in all).
QUIET_INTERRUPT = "--quiet-interrupt"
_partial = []  # the picture being written, removed when interrupted


def say(message):
    """`message` on stderr, prefixed with the script's name; a full or closed stderr loses the
    message, never the picture."""
    data = f"{NAME}: {message}\n".encode(errors="replace")
    try:
        while data:
            data = data[os.write(2, data):]
    except OSError:
        pass


def _on_interrupt(signum, _frame):
    for path in _partial:
        try:
            os.unlink(path)
        except OSError:
            pass
    if QUIET_INTERRUPT not in sys.argv:
        say(f"interrupted by {signal.Signals(signum).name}: nothing written")
    os._exit(128 + signum)  # at once: no traceback, no cleanup that could raise


def handle_interrupts():
    """From now on SIGINT, SIGTERM and SIGHUP end the script with one line and 128+N. A signal
    that was ignored when the script started (nohup, a background job) stays ignored."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(signum) != signal.SIG_IGN:
            signal.signal(signum, _on_interrupt)


def read_json(path, shown, fail):
    """The JSON document at `path`, named `shown` in messages; `fail(message)` (which exits 2)
    when the file cannot be read or is not JSON. A UTF-8 byte order mark at the start is
    skipped, as perfgauge's own reader does."""
    import json  # here: the handlers are installed before anything slow is imported

    try:
        with open(path, encoding="utf-8-sig") as f:
            return json.load(f)
    except OSError as e:
        fail(f"cannot read {shown}: {e.strerror}")
    except UnicodeDecodeError as e:
        fail(f"{shown} is not UTF-8 text (byte {e.start}): give the JSON perfgauge wrote")
    except json.JSONDecodeError as e:
        fail(f"{shown} is not JSON: {e}")
    except RecursionError:
        fail(f"{shown}: JSON nested too deeply to read: give the JSON perfgauge wrote")
    return None  # not reached: fail exits


def save_figure(figure, path, **options):
    """Writes `figure` to `path` whole or not at all: drawn beside it, then renamed over it (an
    interrupt removes the half-drawn file). OSError when it cannot be written."""
    directory, base = os.path.split(path)
    partial = os.path.join(directory, f".{base}.{os.getpid()}.partial{os.path.splitext(base)[1]}")
    _partial.append(partial)
    try:
        figure.savefig(partial, **options)
        os.replace(partial, path)
    except BaseException:
        try:
            os.unlink(partial)
        except OSError:
            pass
        raise
    finally:
        _partial.remove(partial)


def run_main(main, input_name):
    """Runs `main()`; an exception it lets out becomes one line naming the input
    (`input_name()`, the file the user gave) and the reason: exit 2 when the content is not what
    was expected (a missing key, a wrong type or value), 1 otherwise."""
    try:
        main()
    except SystemExit:
        raise
    except RecursionError:
        say(f"{input_name()}: nested too deeply to draw")
        sys.exit(2)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        detail = f"missing {e}" if isinstance(e, KeyError) else str(e)
        say(f"{input_name()}: not the JSON this script draws ({type(e).__name__}: {detail})")
        sys.exit(2)
    except MemoryError:
        say(f"cannot draw {input_name()}: out of memory")
        sys.exit(1)
    except Exception as e:  # noqa: BLE001 (the last resort: one line, never a traceback)
        say(f"cannot draw {input_name()}: {type(e).__name__}: {e}")
        sys.exit(1)
