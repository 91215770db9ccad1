#!/usr/bin/env python3
"""Tests of scripts/plot_benchmarks.py: pairing hipamp figures with their peers, medians of
repetitions, failed runs, units, the markdown block, bad files, and (with matplotlib) that PNGs
render, on synthetic files and on a real (noisy, loaded-machine) bench_simple_model sample.

Run: python3 -m unittest discover -s scripts/tests
"""
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import plot_benchmarks as pb  # noqa: E402

SAMPLE = os.path.join(HERE, "data", "bench_simple_model_sample.json")

try:
    import matplotlib  # noqa: F401
    HAVE_MATPLOTLIB = True
except ImportError:
    HAVE_MATPLOTLIB = False


def run(name, t, unit="ns", **extra):
    b = {"name": name, "run_name": name, "run_type": "iteration", "real_time": t,
         "cpu_time": t, "time_unit": unit, "iterations": 10}
    b.update(extra)
    return b


def aggregate(name, kind, t, unit="ns"):
    return {"name": name + "_" + kind, "run_name": name, "run_type": "aggregate",
            "aggregate_name": kind, "real_time": t, "cpu_time": t, "time_unit": unit}


class Synthetic(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, benchmarks, name="r.json"):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            json.dump({"context": {"host_name": "box", "num_cpus": 8}, "benchmarks": benchmarks}, f)
        return path

    def test_pairs_by_work_and_args_and_takes_medians(self):
        r = pb.Result(self.write([
            run("saxpy_hipamp/1024/real_time", 10), run("saxpy_hipamp/1024/real_time", 30),
            run("saxpy_hipamp/1024/real_time", 20),  # median of repetitions: 20
            run("saxpy_omp/1024/real_time", 50),
            aggregate("saxpy_omp/1024/real_time", "mean", 999),  # ignored: not the median
            run("saxpy_hipamp/64/real_time", 4, unit="us"), run("saxpy_omp/64/real_time", 2, unit="ms"),
            run("saxpy_eigen/64/real_time", 1, unit="s"),
        ]))
        saxpy = r.works["saxpy"]
        self.assertEqual(saxpy["sizes"], ["64/real_time", "1024/real_time"])  # numeric order
        self.assertAlmostEqual(saxpy["hipamp"]["1024/real_time"], 20e-9)
        self.assertAlmostEqual(saxpy["peers"]["omp"]["1024/real_time"], 50e-9)
        self.assertAlmostEqual(saxpy["hipamp"]["64/real_time"], 4e-6)
        self.assertAlmostEqual(saxpy["peers"]["omp"]["64/real_time"], 2e-3)
        self.assertAlmostEqual(saxpy["peers"]["eigen"]["64/real_time"], 1.0)

    def test_median_aggregate_wins_over_repetitions(self):
        r = pb.Result(self.write([run("k_hipamp/1", 1), run("k_hipamp/1", 2), run("k_hipamp/1", 9),
                                  aggregate("k_hipamp/1", "median", 5)]))
        self.assertAlmostEqual(r.works["k"]["hipamp"]["1"], 5e-9)

    def test_longest_work_owns_a_peer_and_strays_are_listed(self):
        r = pb.Result(self.write([run("saxpy_hipamp/1", 1), run("saxpy_big_hipamp/1", 2),
                                  run("saxpy_big_omp/1", 3), run("saxpy_omp/1", 4),
                                  run("lonely_cublas/1", 5)]))
        self.assertEqual(set(r.works["saxpy_big"]["peers"]), {"omp"})
        self.assertAlmostEqual(r.works["saxpy_big"]["peers"]["omp"]["1"], 3e-9)
        self.assertAlmostEqual(r.works["saxpy"]["peers"]["omp"]["1"], 4e-9)
        self.assertEqual(r.unpaired, ["lonely_cublas/1"])

    def test_failed_runs_are_left_out_and_listed(self):
        r = pb.Result(self.write([run("k_hipamp/8", 1), run("k_omp/8", 0, error_occurred=True,
                                                             error_message="out of memory")]))
        self.assertEqual(r.works["k"]["peers"], {})
        self.assertIn("out of memory", r.failed[0])

    def test_labels_drop_how_keep_what(self):
        self.assertEqual(pb.label("4096/real_time"), "4096")
        self.assertEqual(pb.label("512/64/iterations:10/repeats:3/threads:4"), "512/64")
        self.assertEqual(pb.label(""), "(no args)")

    def test_bad_files_are_reported_not_fatal(self):
        bad = os.path.join(self.tmp.name, "bad.json")
        with open(bad, "w") as f:
            f.write("{not json")
        other = os.path.join(self.tmp.name, "other.json")
        with open(other, "w") as f:
            json.dump({"something": 1}, f)
        self.assertRaises(ValueError, pb.Result, bad)
        self.assertRaises(ValueError, pb.Result, other)
        if HAVE_MATPLOTLIB:
            self.assertEqual(pb.main([bad, other, "--out", self.tmp.name]), 1)

    def test_markdown_block_is_replaced_and_nothing_else(self):
        md = os.path.join(self.tmp.name, "perf.md")
        with open(md, "w") as f:
            f.write("# Perf\nintro\n%s\nold\n%s\noutro\n" % (pb.BEGIN, pb.END))
        pb.update_markdown(md, ["new line"])
        with open(md) as f:
            self.assertEqual(f.read(), "# Perf\nintro\n%s\nnew line\n%s\noutro\n" % (pb.BEGIN, pb.END))
        pb.update_markdown(md, [])
        with open(md) as f:
            self.assertIn("No results", f.read())
        with open(md, "w") as f:
            f.write("no markers")
        self.assertRaises(ValueError, pb.update_markdown, md, [])

    def test_ratio_table(self):
        r = pb.Result(self.write([run("k_hipamp/2", 10), run("k_omp/2", 25), run("k_omp/4", 5)]))
        rows = pb.ratio_table(r.works["k"])
        self.assertEqual(rows[2], "| 2 | 10 ns | 25 ns | 2.50 |")
        self.assertEqual(rows[3], "| 4 | missing | 5 ns | - |")


class RealSample(unittest.TestCase):
    def test_sample_pairs_saxpy_and_stencil_with_omp(self):
        r = pb.Result(SAMPLE)
        self.assertEqual(set(r.works), {"saxpy", "stencil"})
        for work in r.works.values():
            self.assertEqual(set(work["peers"]), {"omp"})
            self.assertEqual(set(work["hipamp"]), set(work["peers"]["omp"]))
            for s in work["sizes"]:
                self.assertGreater(work["hipamp"][s], 0)

    @unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib missing")
    def test_pngs_render_and_markdown_links_them(self):
        with tempfile.TemporaryDirectory() as tmp:
            md = os.path.join(tmp, "performance.md")
            with open(md, "w") as f:
                f.write("%s\n%s\n" % (pb.BEGIN, pb.END))
            self.assertEqual(pb.main([SAMPLE, "--out", os.path.join(tmp, "img"), "--markdown", md]), 0)
            pngs = sorted(os.listdir(os.path.join(tmp, "img")))
            self.assertEqual(pngs, ["bench_simple_model_sample__saxpy.png",
                                    "bench_simple_model_sample__stencil.png"])
            for png in pngs:
                with open(os.path.join(tmp, "img", png), "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            with open(md) as f:
                text = f.read()
            self.assertIn("](img/bench_simple_model_sample__saxpy.png)", text)
            self.assertIn("| size | hipamp | omp | omp/hipamp |", text)


if __name__ == "__main__":
    unittest.main()
