#!/usr/bin/env python3
"""Plots hipamp's benchmark results, each hipamp figure beside its peer from the same run.

Reads Google Benchmark JSON files (--benchmark_out=<file> --benchmark_out_format=json). A
benchmark named `<work>_hipamp/<args>` is the hipamp figure; `<work>_<peer>/<args>` (same work,
same args, same file) is its peer, e.g. saxpy_hipamp/65536/real_time beside
saxpy_omp/65536/real_time. One PNG per (file, work): grouped bars of time per iteration for every
size, hipamp first, each peer bar labelled with peer time / hipamp time (above 1: hipamp faster).

With repetitions the median aggregate is used (else the median of the repetitions); failed
runs (error_occurred) are left out and listed.

Usage:
  plot_benchmarks.py [RESULT.json ...] [--out DIR] [--markdown FILE]
    RESULT.json  default: benchmarks/results/*.json
    --out        where the PNGs go (default docs/img/benchmarks)
    --markdown   rewrite the part of FILE between <!-- plots:begin --> and <!-- plots:end -->
                 with the figures and their ratio tables (e.g. docs/performance.md)
Needs matplotlib (Debian: apt-get install python3-matplotlib).
"""
import argparse
import glob
import json
import os
import re
import statistics
import sys

UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
BEGIN, END = "<!-- plots:begin -->", "<!-- plots:end -->"
# Google Benchmark appends these to the name; they say how, not what size.
NAME_SUFFIXES = re.compile(r"/(real_time|process_time|manual_time|min_time:[^/]*|"
                           r"min_warmup_time:[^/]*|iterations:\d+|repeats:\d+|threads:\d+)")


class Result:
    """One JSON file: seconds per iteration for every benchmark run name, paired by work."""

    def __init__(self, path):
        self.path = path
        with open(path) as f:
            doc = json.load(f)
        if not isinstance(doc, dict) or "benchmarks" not in doc:
            raise ValueError("%s: not a Google Benchmark JSON file (no 'benchmarks')" % path)
        self.context = doc.get("context", {})
        self.failed = []
        medians, repetitions = {}, {}
        for b in doc["benchmarks"]:
            name = b.get("run_name") or b.get("name", "")
            if b.get("error_occurred"):
                self.failed.append("%s: %s" % (name, b.get("error_message", "error")))
                continue
            if "real_time" not in b:
                continue
            seconds = b["real_time"] * UNIT_SECONDS.get(b.get("time_unit", "ns"), 1e-9)
            if b.get("run_type") == "aggregate":
                if b.get("aggregate_name") == "median":
                    medians[name] = seconds
            else:
                repetitions.setdefault(name, []).append(seconds)
        self.seconds = {n: statistics.median(v) for n, v in repetitions.items()}
        self.seconds.update(medians)
        self.works = self.pair()

    def pair(self):
        """{work: {"sizes": [args...], "hipamp": {args: s}, "peers": {peer: {args: s}}}}."""
        split = {name: name.partition("/")[::2] for name in self.seconds}
        works = sorted({base[:-len("_hipamp")] for base, _ in split.values()
                        if base.endswith("_hipamp")}, key=len, reverse=True)
        out = {w: {"sizes": [], "hipamp": {}, "peers": {}} for w in works}
        self.unpaired = []
        for name, (base, args) in split.items():
            if base.endswith("_hipamp") and base[:-len("_hipamp")] in out:
                entry = out[base[:-len("_hipamp")]]
                entry["hipamp"][args] = self.seconds[name]
            else:
                # The longest work this benchmark extends: saxpy_big_omp belongs to saxpy_big.
                work = next((w for w in works if base.startswith(w + "_")), None)
                if work is None:
                    self.unpaired.append(name)
                    continue
                out[work]["peers"].setdefault(base[len(work) + 1:], {})[args] = self.seconds[name]
                continue
        for entry in out.values():
            sizes = set(entry["hipamp"])
            for peer in entry["peers"].values():
                sizes |= set(peer)
            entry["sizes"] = sorted(sizes, key=size_key)
        return out

    def machine(self):
        c = self.context
        parts = [c.get("host_name", "unknown host")]
        if "num_cpus" in c:
            parts.append("%s CPUs" % c["num_cpus"])
        if c.get("mhz_per_cpu"):
            parts.append("%s MHz" % c["mhz_per_cpu"])
        if c.get("date"):
            parts.append(str(c["date"]).split("T")[0])
        return ", ".join(parts)


def size_key(args):
    numbers = [int(x) for x in re.findall(r"\d+", label(args))]
    return (numbers, args)


def label(args):
    return NAME_SUFFIXES.sub("", "/" + args).strip("/") or "(no args)"


def human_seconds(s):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if s >= scale:
            return "%.3g %s" % (s / scale, unit)
    return "%.3g ns" % (s / 1e-9)


def plot(result, work, entry, out_dir, plt):
    peers = sorted(entry["peers"])
    series = [("hipamp", entry["hipamp"])] + [(p, entry["peers"][p]) for p in peers]
    sizes = entry["sizes"]
    fig, ax = plt.subplots(figsize=(max(5.0, 1.6 * len(sizes) * len(series) / 2 + 2), 4.2))
    width = 0.8 / len(series)
    for k, (who, times) in enumerate(series):
        xs = [i + (k - (len(series) - 1) / 2) * width for i in range(len(sizes))]
        heights = [times.get(s, 0.0) for s in sizes]
        bars = ax.bar(xs, heights, width, label=who, color="C%d" % k)
        for bar, size in zip(bars, sizes):
            if size not in times:
                ax.annotate("missing", (bar.get_x() + width / 2, 0), ha="center", va="bottom",
                            fontsize=7, rotation=90, xytext=(0, 2), textcoords="offset points")
            elif who != "hipamp" and size in entry["hipamp"]:
                ratio = times[size] / entry["hipamp"][size]
                ax.annotate("%.2fx" % ratio, (bar.get_x() + width / 2, bar.get_height()),
                            ha="center", va="bottom", fontsize=8, xytext=(0, 2),
                            textcoords="offset points")
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels([label(s) for s in sizes])
    ax.set_yscale("log")
    ax.set_ylabel("time per iteration (s, log scale)")
    ax.set_xlabel("size")
    note = "" if peers else "  (no peer in this run!)"
    ax.set_title("%s: hipamp beside %s%s\n%s" % (work, ", ".join(peers) or "-", note,
                                                  result.machine()), fontsize=10)
    ax.legend(fontsize=8)
    ax.text(1.0, -0.16, "label over a peer bar: peer time / hipamp time (>1: hipamp faster)",
            transform=ax.transAxes, ha="right", fontsize=7, color="0.35")
    fig.tight_layout()
    stem = os.path.splitext(os.path.basename(result.path))[0]
    png = os.path.join(out_dir, "%s__%s.png" % (stem, re.sub(r"[^\w.-]", "_", work)))
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return png


def ratio_table(entry):
    peers = sorted(entry["peers"])
    rows = ["| size | hipamp | " + " | ".join("%s | %s/hipamp" % (p, p) for p in peers) + " |",
            "|---|---|" + "---|---|" * len(peers)]
    for size in entry["sizes"]:
        h = entry["hipamp"].get(size)
        cells = [label(size), human_seconds(h) if h else "missing"]
        for p in peers:
            t = entry["peers"][p].get(size)
            cells.append(human_seconds(t) if t else "missing")
            cells.append("%.2f" % (t / h) if t and h else "-")
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def update_markdown(path, sections):
    with open(path) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        raise ValueError("%s has no %s ... %s block to fill" % (path, BEGIN, END))
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    body = "\n".join(sections) if sections else "_No results in benchmarks/results/ yet._"
    with open(path, "w") as f:
        f.write(head + BEGIN + "\n" + body + "\n" + END + tail)


# Benchmarks that time hipamp and its peer inside one run report them as counters instead:
# hipamp_<unit> beside <peer>_<unit> (cub_us, peer_ms, cuda_TFLOPS, ...). Units where larger is
# better are throughputs; the others are times.
COUNTER_UNITS = {"us": False, "ms": False, "GBps": True, "TFLOPS": True, "GFLOPS": True}


def counter_pairs(path):
    """{family: [(args, hipamp, {peer: value}, higher_is_better, unit)]} from counter benchmarks."""
    with open(path) as f:
        doc = json.load(f)
    families = {}
    for b in doc.get("benchmarks", []):
        if b.get("error_occurred") or (b.get("run_type") == "aggregate" and
                                        b.get("aggregate_name") != "median"):
            continue
        name = NAME_SUFFIXES.sub("", b.get("run_name", b["name"]))
        family, _, args = name.partition("/")
        for unit, higher in COUNTER_UNITS.items():
            ours = b.get("hipamp_" + unit)
            if not isinstance(ours, (int, float)) or ours <= 0:
                continue
            peers = {k[: -len(unit) - 1]: v for k, v in b.items()
                     if k.endswith("_" + unit) and not k.startswith(("hipamp_", "single_"))
                     and isinstance(v, (int, float)) and v > 0}
            if peers:
                families.setdefault(family, []).append((args or "-", ours, peers, higher, unit))
            break
    return families


def plot_counters(path, family, rows, out_dir, plt):
    """Grouped bars of hipamp beside each peer; each peer bar labelled peer/hipamp speed."""
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(rows) + 2), 4))
    peers = sorted({p for _, _, ps, _, _ in rows for p in ps})
    width = 0.8 / (1 + len(peers))
    unit = rows[0][4]
    for i, (args, ours, ps, higher, _) in enumerate(rows):
        ax.bar(i, ours, width, color="tab:blue", label="hipamp" if i == 0 else None)
        for j, peer in enumerate(peers):
            if peer not in ps:
                continue
            x = i + (j + 1) * width
            ax.bar(x, ps[peer], width, color="C%d" % (j + 1), label=peer if i == 0 else None)
            ratio = ours / ps[peer] if higher else ps[peer] / ours
            ax.text(x, ps[peer], "%.2f" % ratio, ha="center", va="bottom", fontsize=7)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(rows))])
    ax.set_xticklabels([r[0] for r in rows], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(unit + (" (higher is better)" if rows[0][3] else " (lower is better)"))
    ax.set_title("%s: hipamp beside its peers (labels: hipamp speed / peer speed)" % family,
                 fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    base = os.path.splitext(os.path.basename(path))[0]
    png = os.path.join(out_dir, "%s__%s.png" % (base, re.sub(r"[^A-Za-z0-9_.-]", "_", family)))
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return png


def figure_section(title, path, result, png, markdown):
    """Markdown lines for one figure: heading, machine, and the image linked relative to the page."""
    rel = os.path.relpath(png, os.path.dirname(os.path.abspath(markdown)))
    return ["### %s (%s)" % (title, os.path.basename(path)), "",
            "%s" % result.machine(), "", "![%s](%s)" % (title, rel), ""]


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="*")
    parser.add_argument("--out", default=os.path.join(repo, "docs", "img", "benchmarks"))
    parser.add_argument("--markdown")
    args = parser.parse_args(argv)
    paths = args.results or sorted(glob.glob(os.path.join(repo, "benchmarks", "results", "*.json")))

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_benchmarks: matplotlib is missing (Debian: apt-get install python3-matplotlib; "
              "then run this script with /usr/bin/python3)", file=sys.stderr)
        return 2

    os.makedirs(args.out, exist_ok=True)
    sections, problems = [], 0
    for path in paths:
        try:
            result = Result(path)
        except (OSError, ValueError) as e:  # json.JSONDecodeError is a ValueError
            print("plot_benchmarks: skipping %s: %s" % (path, e), file=sys.stderr)
            problems += 1
            continue
        for failure in result.failed:
            print("plot_benchmarks: %s: failed run left out: %s" % (path, failure), file=sys.stderr)
        for name in result.unpaired:
            print("plot_benchmarks: %s: %s has no hipamp counterpart; not plotted" % (path, name),
                  file=sys.stderr)
        counters = {} if result.works else counter_pairs(path)
        for family, rows in sorted(counters.items()):
            png = plot_counters(path, family, rows, args.out, plt)
            print(png)
            if args.markdown:
                sections += figure_section(family, path, result, png, args.markdown)
        if not result.works and not counters:
            print("plot_benchmarks: %s: no <work>_hipamp/<args> benchmarks" % path, file=sys.stderr)
        for work in sorted(result.works):
            entry = result.works[work]
            png = plot(result, work, entry, args.out, plt)
            print(png)
            if args.markdown:
                sections += figure_section(work, path, result, png, args.markdown)
                sections += ratio_table(entry) + [""]
    if args.markdown:
        update_markdown(args.markdown, sections)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
