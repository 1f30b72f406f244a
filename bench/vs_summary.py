#!/usr/bin/env python3
"""Summarize bench/sysbench-vs.sh's results.tsv: per server, test and thread
count, the medians over the rounds of each tool, the ratios benchpress/sysbench
of the medians, the spread of the per-round TPS ratios, sysbench's own p99
spread over its rounds (max/min: the noise floor under any p99 ratio), and
PASS/MISS against the targets (TPS ratio >= 0.95, p99 ratio <= 1.1). The
verdict uses the medians only; the spreads are there to read it by.
In an A/A control run (sysbench-vs.sh CONTROL=1) the second tool is
"control", a second sysbench run, in the bp columns."""
import csv
import math
import statistics
import sys
from collections import defaultdict

TPS_MIN, P99_MAX = 0.95, 1.1


def f(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def med(xs):
    xs = [x for x in xs if not math.isnan(x)]
    return statistics.median(xs) if xs else math.nan


def ratio(a, b):
    return a / b if b and not math.isnan(a) and not math.isnan(b) else math.nan


runs = defaultdict(lambda: defaultdict(list))  # (srv, test, th) -> tool -> rows
rounds = defaultdict(dict)  # (srv, test, th, round) -> tool -> row
order = []
with open(sys.argv[1]) as fh:
    for row in csv.DictReader(fh, delimiter="\t"):
        key = (row["server"], row["test"], int(row["threads"]))
        if key not in order:
            order.append(key)
        runs[key][row["tool"]].append(row)
        rounds[key + (row["round"],)][row["tool"]] = row

hdr = "%-9s %-18s %4s | %10s %10s %6s | %7s %7s %6s | %7s %7s %6s %6s | %6s | %-11s %s"
print(hdr % ("server", "test", "thr", "sb TPS", "bp TPS", "ratio", "sb p50", "bp p50", "ratio",
             "sb p99", "bp p99", "ratio", "sb±", "cpu/q", "TPS spread", "verdict"))
misses = 0
for key in order:
    second = "control" if "control" in runs[key] else "benchpress"
    sb, bp = runs[key]["sysbench"], runs[key][second]
    m = {}
    for tool, rows in (("sb", sb), ("bp", bp)):
        m[tool + "tps"] = med([f(r["tps"]) for r in rows])
        m[tool + "p50"] = med([f(r["p50_ms"]) for r in rows])
        m[tool + "p99"] = med([f(r["p99_ms"]) for r in rows])
        m[tool + "cpuq"] = med([ratio(f(r["cpu_s"]), f(r["queries"])) for r in rows])
    rt, r50, r99 = ratio(m["bptps"], m["sbtps"]), ratio(m["bpp50"], m["sbp50"]), ratio(m["bpp99"], m["sbp99"])
    per_round = [ratio(f(v[second]["tps"]), f(v["sysbench"]["tps"]))
                 for k, v in rounds.items() if k[:3] == key and second in v and "sysbench" in v]
    per_round = [x for x in per_round if not math.isnan(x)]
    spread = "%.2f-%.2f" % (min(per_round), max(per_round)) if per_round else "n/a"
    sb99 = [x for x in (f(r["p99_ms"]) for r in sb) if not math.isnan(x) and x > 0]
    self99 = "%.2f" % (max(sb99) / min(sb99)) if len(sb99) > 1 else "n/a"
    ok = rt >= TPS_MIN and r99 <= P99_MAX
    misses += not ok
    verdict = "PASS" if ok else "MISS" + ("" if rt >= TPS_MIN else " tps") + ("" if r99 <= P99_MAX else " p99")
    print(hdr % (key[0], key[1], key[2], "%.0f" % m["sbtps"], "%.0f" % m["bptps"], "%.2f" % rt,
                 "%.3f" % m["sbp50"], "%.3f" % m["bpp50"], "%.2f" % r50,
                 "%.3f" % m["sbp99"], "%.3f" % m["bpp99"], "%.2f" % r99, self99,
                 "%.2f" % ratio(m["bpcpuq"], m["sbcpuq"]), spread, verdict))
print("%d of %d steps PASS (TPS ratio >= %.2f and p99 ratio <= %.1f); cpu/q = client CPU per query, "
      "benchpress/sysbench; TPS spread = min-max of the per-round ratios; "
      "sb± = sysbench's own max/min p99 over its rounds" % (len(order) - misses, len(order), TPS_MIN, P99_MAX))
