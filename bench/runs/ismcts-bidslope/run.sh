#!/bin/bash
# Run the declared seeds (91 to 120) that have no saved output here yet, two at a time
# (bench/run_seeds.sh). Run from anywhere:
#     bash bench/runs/ismcts-bidslope/run.sh
# Needs the test extras (open-spiel). Reading the results waits for all 30 (README.md).
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../../run_seeds.sh" "$here" 91 120 --expert expert@100ms:bidslope=15 --by-place
