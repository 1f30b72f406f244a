"""Unit tests for bench/vs_summary.py's verdict statistics
(python3 -m unittest discover -s bench -p 'test_*.py')."""
import math
import unittest

import vs_summary as vs


def rows(tps, p99):
    return [{"tps": str(t), "p99_ms": str(p)} for t, p in zip(tps, p99)]


class PairedP(unittest.TestCase):
    def test_exact_values(self):
        cases = [
            # (pairs (bp, sb), target, lower is worse, p)
            # all 6 rounds below 0.95 x sysbench: only the observed signs
            ([(80, 100)] * 6, 0.95, True, 1 / 64),
            # 2026-11-29 (09:21), PostgreSQL point select 8's p99 ratios per
            # round: 5 of 6 above 1.1, p = 3/64 (the unpaired test said 0.06)
            ([(1.242, 1), (1.104, 1), (1.368, 1), (1.162, 1), (1.174, 1), (1.071, 1)], 1.1, False, 3 / 64),
            # 4 rounds can never go below 1/16
            ([(80, 100)] * 4, 0.95, True, 1 / 16),
            # the other way round: better than the target in every round
            ([(120, 100)] * 4, 0.95, True, 1.0),
        ]
        for pairs, target, low, want in cases:
            with self.subTest(pairs=pairs):
                self.assertAlmostEqual(vs.paired_p(pairs, target, low), want)

    def test_undecidable(self):
        self.assertTrue(math.isnan(vs.paired_p([], 0.95, True)))
        self.assertTrue(math.isnan(vs.paired_p([(math.nan, 1.0), (1.0, 1.0)], 0.95, True)))
        self.assertTrue(math.isnan(vs.paired_p([(1.0, 1.0)] * 21, 0.95, True)))


class Verdict(unittest.TestCase):
    def test_table(self):
        sb = rows([1000, 1010, 990, 1005, 1000, 995], [10, 10.2, 9.8, 10.1, 10, 10])
        cases = [
            # name, benchpress rounds, want verdict prefix, missed, significant
            ("parity", rows([1000, 1001, 999, 1002, 1000, 998], [10] * 6), "PASS", False, False),
            ("tps clearly low", rows([800, 810, 790, 805, 800, 800], [10] * 6), "MISS tps", True, True),
            ("p99 clearly high", rows([1000] * 6, [15, 16, 14, 15, 15, 15]), "MISS p99", True, True),
            ("tps low in noise", rows([700, 1200, 900, 940, 1100, 800], [10] * 6), "miss? tps", True, False),
        ]
        for name, bp, want, missed, sig in cases:
            with self.subTest(name):
                rt = vs.med([vs.f(r["tps"]) for r in bp]) / vs.med([vs.f(r["tps"]) for r in sb])
                r99 = vs.med([vs.f(r["p99_ms"]) for r in bp]) / vs.med([vs.f(r["p99_ms"]) for r in sb])
                text, m, s = vs.verdict(list(zip(sb, bp)), rt, r99)
                self.assertTrue(text.startswith(want), text)
                self.assertEqual((m, s), (missed, sig))


if __name__ == "__main__":
    unittest.main()
