#!/usr/bin/env bash
# Issue 19 (session 22): scripts/probes/launch_gap.cu in 10 processes (run on the GPU machine).
set -u
export PATH=/usr/local/cuda/bin:$PATH
nvcc -O2 -arch=sm_90 scripts/probes/launch_gap.cu -o /tmp/launch_gap || exit 1
for p in $(seq 1 10); do echo "== process $p"; /tmp/launch_gap; done 2>&1 | tee $OUT/launch_gap.txt
