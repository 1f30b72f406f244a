#!/usr/bin/env python3
"""Summarize bench/sysbench-vs.sh's results.tsv: per server, test and thread
count, the medians over the rounds of each tool, the ratios benchpress/sysbench
of the medians, the spread of the per-round TPS ratios, sysbench's own p99
spread over its rounds (max/min: the noise floor under any p99 ratio), and
PASS/MISS against the targets (TPS ratio >= 0.95, p99 ratio <= 1.1). The
verdict uses the medians only; the spreads are there to read it by.
A MISS is then tested against the rounds' scatter, pairing the two tools'
runs of each round (the A/B, B/A order exists so that both see the same
drift): a one-sided exact paired permutation test (sign flips) of the
per-round log ratios against the target (log(bp / (0.95 x sb)) for TPS,
log(bp / (1.1 x sb)) for p99). "MISS" means p <= 0.05: with 6 rounds,
roughly 5 of them beyond the target and the sixth not far the other way
(the smallest p with n rounds is 1/2^n: fewer than 5 rounds can never show
a miss beyond the noise, which the summary then says); "miss?" means
the rounds cannot tell the miss from the machine's noise at that level, with
the p-value beside it. (Until 2026-11-29 (09:21) the test was unpaired: a
Mann-Whitney U over all relabellings of the rounds.)
In an A/A control run (sysbench-vs.sh CONTROL=1) the second tool is
"control", a second sysbench run, in the bp columns."""
import csv
import itertools
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


def paired_p(pairs, target, worse_low):
    """One-sided exact paired permutation p-value (sign flips) that the
    first of each pair is worse than target x the second: d = log(a / (target
    x b)) per pair, the statistic their sum, and p the share of the 2^n sign
    assignments whose sum is at least as bad (<= when lower is worse, >=
    when higher is). nan with fewer than 2 usable pairs or more than 20."""
    d = [math.log(a / (target * b)) for a, b in pairs
         if not math.isnan(a) and not math.isnan(b) and a > 0 and b > 0]
    if len(d) < 2 or len(d) > 20:
        return math.nan
    obs = sum(d)
    hits = total = 0
    for signs in itertools.product((1.0, -1.0), repeat=len(d)):
        t = sum(sg * x for sg, x in zip(signs, d))
        total += 1
        hits += (t <= obs + 1e-12) if worse_low else (t >= obs - 1e-12)
    return hits / total


ALPHA = 0.05


def verdict(pairs, rt, r99):
    """The step's verdict from its rounds, each a (sysbench row, benchpress
    row) pair with tps and p99_ms, and the ratios of the medians: (text,
    missed, significant)."""
    if rt >= TPS_MIN and r99 <= P99_MAX:
        return "PASS", False, False
    ps = []
    if not rt >= TPS_MIN:
        ps.append(("tps", paired_p([(f(b["tps"]), f(a["tps"])) for a, b in pairs], TPS_MIN, True)))
    if not r99 <= P99_MAX:
        ps.append(("p99", paired_p([(f(b["p99_ms"]), f(a["p99_ms"])) for a, b in pairs], P99_MAX, False)))
    sig = any(p <= ALPHA for _, p in ps)
    return ("MISS" if sig else "miss?") + "".join(" %s (p=%.2f)" % (m, p) for m, p in ps), True, sig


def main(path):
    runs = defaultdict(lambda: defaultdict(list))  # (srv, test, th) -> tool -> rows
    rounds = defaultdict(dict)  # (srv, test, th, round) -> tool -> row
    order = []
    with open(path) as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            key = (row["server"], row["test"], int(row["threads"]))
            if key not in order:
                order.append(key)
            runs[key][row["tool"]].append(row)
            rounds[key + (row["round"],)][row["tool"]] = row

    hdr = "%-9s %-18s %4s | %10s %10s %6s | %7s %7s %6s | %7s %7s %6s %6s | %6s | %-11s | %-11s %s"
    print(hdr % ("server", "test", "thr", "sb TPS", "bp TPS", "ratio", "sb p50", "bp p50", "ratio",
                 "sb p99", "bp p99", "ratio", "sb±", "cpu/q", "fair sb/bp", "TPS spread", "verdict"))
    misses = real = 0
    for key in order:
        second = "control" if "control" in runs[key] else "benchpress"
        sb, bp = runs[key]["sysbench"], runs[key][second]
        m = {}
        for tool, rows in (("sb", sb), ("bp", bp)):
            m[tool + "tps"] = med([f(r["tps"]) for r in rows])
            m[tool + "p50"] = med([f(r["p50_ms"]) for r in rows])
            m[tool + "p99"] = med([f(r["p99_ms"]) for r in rows])
            m[tool + "cpuq"] = med([ratio(f(r["cpu_s"]), f(r["queries"])) for r in rows])
            m[tool + "fair"] = med([f(r.get("spread_pct")) for r in rows])
        rt, r50, r99 = ratio(m["bptps"], m["sbtps"]), ratio(m["bpp50"], m["sbp50"]), ratio(m["bpp99"], m["sbp99"])
        per_round = [ratio(f(v[second]["tps"]), f(v["sysbench"]["tps"]))
                     for k, v in rounds.items() if k[:3] == key and second in v and "sysbench" in v]
        per_round = [x for x in per_round if not math.isnan(x)]
        spread = "%.2f-%.2f" % (min(per_round), max(per_round)) if per_round else "n/a"
        sb99 = [x for x in (f(r["p99_ms"]) for r in sb) if not math.isnan(x) and x > 0]
        self99 = "%.2f" % (max(sb99) / min(sb99)) if len(sb99) > 1 else "n/a"
        pairs = [(v["sysbench"], v[second]) for k, v in sorted(rounds.items()) if k[:3] == key and second in v and "sysbench" in v]
        text, missed, sig = verdict(pairs, rt, r99)
        # A run that failed (nan) is left out of the medians: say so.
        n = len({k[3] for k in rounds if k[:3] == key})
        usable = [sum(not math.isnan(f(r["tps"])) for r in rows) for rows in (sb, bp)]
        if min(usable) < n:
            text += " (usable rounds: sysbench %d, %s %d of %d)" % (usable[0], second, usable[1], n)
        misses += missed
        real += sig
        print(hdr % (key[0], key[1], key[2], "%.0f" % m["sbtps"], "%.0f" % m["bptps"], "%.3f" % rt,
                     "%.3f" % m["sbp50"], "%.3f" % m["bpp50"], "%.2f" % r50,
                     "%.3f" % m["sbp99"], "%.3f" % m["bpp99"], "%.3f" % r99, self99,
                     "%.2f" % ratio(m["bpcpuq"], m["sbcpuq"]), "%.1f/%.1f" % (m["sbfair"], m["bpfair"]), spread, text))
    n_rounds = max((len({k[3] for k in rounds if k[:3] == key}) for key in order), default=0)
    if n_rounds < 5:
        print("# %d round(s): the paired test's smallest p is 1/2^%d > 0.05, so no miss can show beyond the noise (ROUNDS >= 5)"
              % (n_rounds, n_rounds))
    print("%d of %d steps PASS (TPS ratio >= %.2f and p99 ratio <= %.1f); of the %d misses %d beyond the rounds' "
          "noise (MISS: one-sided paired permutation test over the rounds, p <= %.2f; miss?: not); cpu/q = client CPU per query, "
          "benchpress/sysbench; fair = stddev/mean of the events per thread in %%, medians (sysbench's "
          "threads fairness); TPS spread = min-max of the per-round ratios; "
          "sb± = sysbench's own max/min p99 over its rounds"
          % (len(order) - misses, len(order), TPS_MIN, P99_MAX, misses, real, ALPHA))


if __name__ == "__main__":
    main(sys.argv[1])
