"""Checks what the guest's suite steps (scripts/arm64/suite-plan.sh) wrote, prints one line per
check and ends with 'N passed, N failed'. Exit status 1 on any failure.

    check_suite.py OUT_DIR      (OUT_DIR holds NAME.out, NAME.err and NAME.rc of every step)"""
import json
import os
import re
import sys

out_dir = sys.argv[1]
passed = 0
failed = 0
figures = []


def read(name, ext):
    try:
        return open(os.path.join(out_dir, f"{name}.{ext}"), encoding="utf-8", errors="replace").read()
    except FileNotFoundError:
        return None


def status(name):
    rc = read(name, "rc")
    return rc.split("\n")[0] if rc else "missing (the step never finished)"


def check(what, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS {what}")
    else:
        failed += 1
        print(f"FAIL {what}" + (f": {detail}" if detail else ""))


def step_json(name, stream="out"):
    """The JSON document a step wrote (stat writes its report on stderr, as perf stat does)."""
    text = read(name, stream) or ""
    start = text.find("{")
    if start < 0:
        return None
    try:
        return json.JSONDecoder().raw_decode(text[start:])[0]
    except json.JSONDecodeError:
        return None


def event(result, name):
    for e in result.get("events", []):
        if e["event"] == name:
            return e
    return None


def tail(name):
    err = read(name, "err") or ""
    return " | ".join(err.strip().split("\n")[-3:])


# 1. The hardware-path tests.
rc = status("pmu_tests")
out = read("pmu_tests", "out") or ""
m = re.search(r"\[  PASSED  \] (\d+) test", out)
skipped = re.search(r"\[  SKIPPED \] (\d+) test", out)
check("perfgauge_pmu_tests pass in the guest", rc == "exit 0",
      f"{rc}; " + " | ".join(l for l in out.split("\n") if "FAILED" in l)[:800])
if m:
    figures.append(f"perfgauge_pmu_tests: {m.group(1)} passed, "
                   f"{skipped.group(1) if skipped else 0} skipped in the guest")

# 1b. Every test of hardware-path-tests.txt ran in the guest, was not skipped and passed (their
# drivers' GoogleTest JSON reports).
steps_of = {"perfgauge_pmu_tests": "pmu_tests", "perfgauge_guest_e2e_tests": "e2e_tests"}
listed = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hardware-path-tests.txt")
results = {}
for driver, step in steps_of.items():
    try:
        report = json.load(open(os.path.join(out_dir, f"{step}.json"), encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError) as e:
        check(f"{driver} wrote its test report", False, f"{status(step)}; {e}; {tail(step)}")
        continue
    for suite in report.get("testsuites", []):
        for test in suite.get("testsuite", []):
            results[(driver, f"{suite['name']}.{test['name']}")] = test
rc = status("e2e_tests")
out = read("e2e_tests", "out") or ""
check("perfgauge_guest_e2e_tests pass in the guest", rc == "exit 0",
      f"{rc}; " + " | ".join(l for l in out.split("\n") if "FAILED" in l)[:800])
ran = 0
for line in open(listed, encoding="utf-8"):
    if not line.strip() or line.startswith("#"):
        continue
    driver, name = line.split()
    test = results.get((driver, name))
    if test is None:
        check(f"{name} ran in the guest", False, f"not in {driver}'s report")
        continue
    failures = [f.get("failure", "")[:300] for f in test.get("failures", [])]
    ok = test.get("status") == "RUN" and test.get("result") == "COMPLETED" and not failures
    ran += 1 if ok else 0
    check(f"{name} ran in the guest (not skipped) and passed", ok,
          f"{test.get('status')} {test.get('result')} {' | '.join(failures)}")
figures.append(f"hardware-path tests that ran and passed in the guest: {ran} "
               f"(hardware-path-tests.txt)")

# 2. instructions = a N + b, b the same for every N: user space alone (":u") exactly, and as
# written (user and kernel) within `slack`: the kernel's share is what exec and exit cost plus
# the interrupts that land in a run, and when QEMU's host is busy an interrupt may land once
# more or less (seen: 310369 four times and 310371 once, beside a build). User space alone moved
# by 2 once too (30010369 four times and 30010371 once, loop 10M, stop 37's rehearsal beside
# the sanitizer tests): allowed, and named in the check, until it is understood.
RUNS = 3  # stat -r of the exact-count steps (suite-plan.sh)


def exact_counts(prefix, ins_name, cyc_name, slack=0):
    fits = {}
    for n_text in ["0000100000", "0001000000", "0010000000", "0100000000"]:
        name = f"{prefix}_{n_text}"
        n = int(n_text)
        r = step_json(name, "err")
        if r is None:
            check(f"stat -e {ins_name},{cyc_name} -r {RUNS} of loop {n}", False,
                  f"{status(name)}; {tail(name)}")
            continue
        ins = event(r, ins_name)
        cyc = event(r, cyc_name)
        ok = ins is not None and ins["status"] == "counted" and len(ins["samples"]) == RUNS
        check(f"stat -e {ins_name},{cyc_name} -r {RUNS} of loop {n}: counted in every run", ok,
              json.dumps(ins)[:300])
        if not ok:
            continue
        samples = [int(round(s)) for s in ins["samples"]]
        median = sorted(samples)[RUNS // 2]
        same = all(abs(x - median) <= slack for x in samples)
        check(f"loop {n}: the {RUNS} runs count the same {ins_name}"
              + (f" (within {slack})" if slack else ""), same, str(samples))
        fits[n] = samples
        cycles = [int(round(s)) for s in cyc["samples"]] if cyc and cyc.get("samples") else None
        figures.append(f"loop {n}: {ins_name} {samples}, {cyc_name} {cycles}, "
                       f"read path {r.get('read_path')}")
    if len(fits) >= 2:
        bs = {n: sorted(fits[n])[RUNS // 2] - 3 * n for n in sorted(fits)}
        spread = max(bs.values()) - min(bs.values())
        check(f"{ins_name} = 3 N + b with one b for N = 1e5..1e8"
              + (f" (within {slack})" if slack else ""), spread <= slack, str(bs))
        figures.append(f"{ins_name}: b for each N: {bs}")
    return fits


fits = exact_counts("statu", "instructions:u", "cycles:u", slack=2)
exact_counts("stat", "instructions", "cycles", slack=64)

# 3. Multiplexing: more events than counters, every one scaled, within 1% of exact.
r = step_json("multiplex", "err")
b = None
if fits:
    n0 = min(fits)
    b = fits[n0][0] - 3 * n0
if r is None:
    check("multiplexed stat ran", False, f"{status('multiplex')}; {tail('multiplex')}")
else:
    exact = 3 * 100_000_000 + (b or 0)
    fractions = {e["event"]: e.get("running_fraction") for e in r["events"]}
    check("multiplexed: every event counted",
          all(e["status"] == "counted" for e in r["events"]),
          "; ".join(f"{e['event']}: {e['status']} {e.get('reason', '')}" for e in r["events"]))
    check("multiplexed: some events ran part of the time (running fraction < 1 shown)",
          any(f is not None and f < 1 for f in fractions.values()), str(fractions))
    for name in ["instructions", "instructions:u", "r08", "r08:u"]:
        e = event(r, name)
        if e is None or e.get("value") is None:
            check(f"multiplexed {name} scaled within 1% of {exact}", False, "not counted")
            continue
        error = abs(e["value"] - exact) / exact
        check(f"multiplexed {name} scaled within 1% of {exact}", error < 0.01,
              f"{e['value']:.0f} ({100 * error:.2f}% off)")
        figures.append(f"multiplex {name}: {e['value']:.0f} vs exact {exact} "
                       f"({100 * (e['value'] - exact) / exact:+.3f}%), running fraction "
                       f"{e.get('running_fraction')}")
    figures.append("multiplex notes: " + " / ".join(r.get("notes", [])))

# 4. branch-misses refused with the kernel's reason, the rest counted.
r = step_json("unsupported", "err")
if r is None:
    check("stat with branch-misses ran", False, f"{status('unsupported')}; {tail('unsupported')}")
else:
    bm = event(r, "branch-misses")
    ins = event(r, "instructions")
    check("branch-misses refused with a reason", bm is not None and bm["status"] != "counted"
          and bool(bm.get("reason")), json.dumps(bm)[:300])
    check("instructions counted beside the refused event",
          ins is not None and ins["status"] == "counted", json.dumps(ins)[:300])
    if bm:
        figures.append(f"branch-misses: {bm['status']}: {bm.get('reason')}")

# 5. events --resolve with hardware events.
out = read("events", "out") or ""
check("events --resolve exits 0 and shows the raw event",
      status("events") == "exit 0" and "r08" in out, f"{status('events')}; {tail('events')}")

# 5b. perfgauge run: the branchy decoder's per-item instructions are the same in two runs.
def per_item_instructions(name):
    r = step_json(name)
    if r is None:
        return None
    found = {}
    for b in r.get("benchmarks", []):
        for key, value in b.items():
            if "instructions" in key and isinstance(value, (int, float)):
                found[f"{b.get('name')} {key}"] = value
    return found


a = per_item_instructions("run_a")
b2 = per_item_instructions("run_b")
check("run: the branchy decoder's instructions are counted",
      bool(a) and bool(b2), f"{status('run_a')}; {tail('run_a')}")
if a and b2:
    # Exact per batch, not per item: a batch's size follows from the calibrated time, and the
    # overhead subtracted per batch is calibrated too, so two runs may differ by about an
    # instruction per batch (seen: 22.934111 and 22.934119 per item). A count that came from a
    # clock or a model would differ by percents; 1e-4 tells the two apart.
    def same(x, y):
        return x.keys() == y.keys() and all(abs(x[k] - y[k]) <= 1e-4 * abs(x[k]) for k in x)
    check("run: per-item instructions equal across runs (within 1e-4)", same(a, b2),
          f"{sorted(a.items())[:4]} vs {sorted(b2.items())[:4]}")
    figures.append("run branchy: " + "; ".join(f"{k} = {v}" for k, v in sorted(a.items())[:6]))

def check_session(step, label):
    """A perfgauge_session_exact step: each region corrected to its known work, and what a
    region costs (docs/library.md, "What a region costs") among the figures."""
    s = step_json(step)
    if s is None:
        check(f"{label}: session regions ran", False, f"{status(step)}; {tail(step)}")
        return
    figures.append(f"{label}: a region costs {s.get('nested_overhead')} instructions entered "
                   f"by id (+{s.get('lookup_overhead')} by name), {s.get('overhead')} inside")
    for region in s["regions"]:
        per_entry = region["corrected"] / region["count"]
        off = per_entry - region["work_per_entry"]
        # What the calibration cannot see: the moves that load the loop counts, and the part of
        # a nested region's entry and exit its parent keeps (icount makes it the same every
        # time: +12.0, +2.5 and +1.0 per entry at depths 0, 1, 2 entered by id, 2026-12-08);
        # issue 51 asks for at most 20 at every depth. A lost or double-counted snapshot would
        # be thousands off.
        check(f"{label}: region {region['name']} (depth {region['depth']}) "
              f"corrected = its work (within 20)", abs(off) <= 20,
              f"{per_entry:.1f} per entry vs work {region['work_per_entry']:.0f}")
        figures.append(f"{label}: region {region['name']} depth "
                       f"{region['depth']}: raw {region['raw'] / region['count']:.1f}, "
                       f"corrected {per_entry:.1f} per entry, work {region['work_per_entry']:.0f}"
                       f" ({off:+.1f})")


# 6. User-space reads on and off: doctor and calibrate say which path, sessions exact.
for ua in ["1", "0"]:
    doctor = read(f"doctor_ua{ua}", "out") or ""
    line = next((l for l in doctor.split("\n") if "rdpmc" in l), "")
    want = "enabled" if ua == "1" else "disabled"
    check(f"perf_user_access {ua}: doctor says user-space reads are {want}", want in line,
          line or tail(f"doctor_ua{ua}"))
    figures.append(f"perf_user_access {ua}: doctor: {line.strip()}")
    if ua == "1":
        # The clock perfgauge reads here is the generic timer: doctor names it, not a TSC.
        clock = next((l for l in doctor.split("\n") if "CNTVCT_EL0" in l), "")
        check("doctor names arm64's clock (the generic timer), not a TSC",
              bool(clock) and "TSC" not in doctor, clock or doctor[-300:])
    c = step_json(f"calibrate_ua{ua}")
    if c is None:
        check(f"perf_user_access {ua}: calibrate ran", False,
              f"{status(f'calibrate_ua{ua}')}; {tail(f'calibrate_ua{ua}')}")
    else:
        user = c.get("snapshot_rdpmc_ns")
        check(f"perf_user_access {ua}: calibrate {'times' if ua == '1' else 'has no'} a "
              f"user-space snapshot", (user is not None) == (ua == "1"), f"snapshot_rdpmc_ns={user}")
        # QEMU's PMU has no branch-misses: the group timed is the two events it has, and says so.
        group = c.get("snapshot_rdpmc_group")
        check(f"perf_user_access {ua}: calibrate names the group it timed",
              group == ("{cycles,instructions}" if ua == "1" else None),
              f"snapshot_rdpmc_group={group}")
        figures.append(f"perf_user_access {ua}: calibrate snapshot_rdpmc_ns={user}, "
                       f"snapshot_ns={c.get('snapshot_ns')}")
    for step, label in ([(f"session_ua{ua}", f"perf_user_access {ua}")] +
                        ([("session_ua1_pair", "perf_user_access 1, {instructions,cycles}")]
                         if ua == "1" else [])):
        check_session(step, label)

# 6b. selftest --counters: pass where QEMU's PMU counts (instructions exactly, cycles equal to
# them, a multiplexed list, user-space reads, Session regions), unavailable with the kernel's
# reason for branch-misses, which it does not implement; one line per check on stdout.
try:
    counters = json.load(open(os.path.join(out_dir, "counters.json"), encoding="utf-8"))
except (FileNotFoundError, json.JSONDecodeError) as e:
    counters = None
    check("selftest --counters wrote its checks", False, f"{status('counters')}; {e}; {tail('counters')}")
if counters is not None:
    verdicts = {c["name"]: c for c in counters.get("checks", [])}
    check("selftest --counters exits 0", status("counters") == "exit 0", status("counters"))
    lines = (read("counters", "out") or "").split("\n")
    for name in ["instructions", "cycles", "multiplexing", "user-space reads", "regions"]:
        c = verdicts.get(name, {})
        check(f"selftest --counters: {name} passes", c.get("verdict") == "pass",
              f"{c.get('verdict')}: {c.get('detail')}")
    for name in ["branch-misses predictable", "branch-misses random"]:
        c = verdicts.get(name, {})
        check(f"selftest --counters: {name} unavailable with the kernel's reason",
              c.get("verdict") == "unavailable" and "branch-misses" in (c.get("detail") or ""),
              f"{c.get('verdict')}: {c.get('detail')}")
    check("selftest --counters prints one line per check",
          all(any(l.split(" ", 1)[0] == c["verdict"] and f" {c['name']}: " in l for l in lines)
              for c in counters.get("checks", [])), "\n".join(lines)[-600:])
    for c in counters.get("checks", []):
        figures.append(f"selftest --counters: {c['verdict']} {c['name']}: {c.get('detail')}")

# 7. paranoid 3, unprivileged: doctor and stat say counting is disabled and what fixes it.
doctor = (read("doctor_user", "out") or "") + (read("doctor_user", "err") or "")
check("paranoid 3 as a user: doctor says counting is refused to unprivileged users",
      "unprivileged" in doctor and "perf_event_paranoid" in doctor, doctor[-400:])
stat = (read("stat_user", "out") or "") + (read("stat_user", "err") or "")
check("paranoid 3 as a user: stat says why and what fixes it",
      "paranoid" in stat and ("sysctl" in stat or "tee" in stat), stat[-400:])
# Every event refused: nothing would be counted, so the command is not run and stat exits 1.
check("paranoid 3 as a user: stat exits 1 without running the command",
      status("stat_user") == "exit 1" and "was not run" in stat,
      f"exit {status('stat_user')}: {stat[-300:]}")

# Each step's guest time (the `seconds` line init writes in its .rc): where the stage's time
# goes, beside the host's seconds scripts/arm64-guest.sh prints as the steps end.
times = []
for name in sorted(os.listdir(out_dir)):
    seconds = re.search(r"^seconds ([0-9.]+)", read(name[:-3], "rc") or "", re.M) \
        if name.endswith(".rc") else None
    if seconds:
        times.append((name[:-3], float(seconds.group(1))))
figures.append("guest seconds per step: " + ", ".join(f"{n} {t:.2f}" for n, t in times)
               + f"; together {sum(t for _, t in times):.1f}")

print("\n".join("figure: " + f for f in figures))
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
