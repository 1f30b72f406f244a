"""Unit tests for bench/vs_summary.py's verdict statistics
(python3 -m unittest discover -s bench -p 'test_*.py')."""
import math
import unittest

import vs_summary as vs


def rows(tps, p99):
    return [{"tps": str(t), "p99_ms": str(p)} for t, p in zip(tps, p99)]


class PermP(unittest.TestCase):
    def test_exact_values(self):
        lt = lambda x, y: x < y  # noqa: E731
        cases = [
            # (xs, ys, p): 4 + 4 values have 70 splits
            ([1, 2, 3, 4], [5, 6, 7, 8], 1 / 70),  # fully separated: only the observed split
            ([1, 2, 3, 5], [4, 6, 7, 8], 2 / 70),  # one pair out of order
            ([1, 2, 3, 6], [4, 5, 7, 8], 4 / 70),  # two pairs: above 0.05
            ([5, 6, 7, 8], [1, 2, 3, 4], 1.0),  # the other way round
            ([1, 2], [3, 4], 1 / 6),
        ]
        for xs, ys, want in cases:
            with self.subTest(xs=xs, ys=ys):
                self.assertAlmostEqual(vs.perm_p(xs, ys, lt), want)

    def test_undecidable(self):
        lt = lambda x, y: x < y  # noqa: E731
        self.assertTrue(math.isnan(vs.perm_p([], [1.0], lt)))
        self.assertTrue(math.isnan(vs.perm_p([math.nan], [1.0], lt)))
        self.assertTrue(math.isnan(vs.perm_p(list(range(9)), list(range(9)), lt)))


class Verdict(unittest.TestCase):
    def test_table(self):
        sb = rows([1000, 1010, 990, 1005], [10, 10.2, 9.8, 10.1])
        cases = [
            # name, benchpress rounds, want verdict prefix, missed, significant
            ("parity", rows([1000, 1001, 999, 1002], [10, 10, 10, 10]), "PASS", False, False),
            ("tps clearly low", rows([800, 810, 790, 805], [10, 10, 10, 10]), "MISS tps", True, True),
            ("p99 clearly high", rows([1000, 1000, 1000, 1000], [15, 16, 14, 15]), "MISS p99", True, True),
            ("tps low in noise", rows([700, 1200, 900, 940], [10, 10, 10, 10]), "miss? tps", True, False),
        ]
        for name, bp, want, missed, sig in cases:
            with self.subTest(name):
                rt = vs.med([vs.f(r["tps"]) for r in bp]) / vs.med([vs.f(r["tps"]) for r in sb])
                r99 = vs.med([vs.f(r["p99_ms"]) for r in bp]) / vs.med([vs.f(r["p99_ms"]) for r in sb])
                text, m, s = vs.verdict(sb, bp, rt, r99)
                self.assertTrue(text.startswith(want), text)
                self.assertEqual((m, s), (missed, sig))


if __name__ == "__main__":
    unittest.main()
