#!/bin/bash
# Run the declared seeds (61 to 90) that have no saved output here yet, two at a time
# (bench/run_seeds.sh). Run from anywhere:
#     bash bench/runs/ismcts-confirmation/run.sh
# Needs the test extras (open-spiel). Reading the results waits for all 30 (README.md).
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../../run_seeds.sh" "$here" 61 90
