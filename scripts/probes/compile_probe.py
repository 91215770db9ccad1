#!/usr/bin/env python3
"""Compiles a probe source with the exact command CMake uses for a test source.

usage: compile_probe.py BUILD_DIR PROBE_SOURCE OBJECT [EXTRA_FLAG...]
Exit status: the compiler's.
"""
import json
import shlex
import subprocess
import sys

build, probe, obj, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
entries = json.load(open(f"{build}/compile_commands.json"))
entry = next(e for e in entries if e["file"].endswith("test_gpu_launch_geometry.cpp"))
args = shlex.split(entry["command"])
out = []
skip = False
for a in args:
    if skip:
        skip = False
        continue
    if a in ("-MT", "-MF", "-o"):
        skip = True
        continue
    if a == "-MD":
        continue
    out.append(probe if a == entry["file"] else a)
out += extra + ["-o", obj]
sys.exit(subprocess.call(out, cwd=entry["directory"]))
