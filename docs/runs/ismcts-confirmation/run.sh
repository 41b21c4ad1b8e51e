#!/bin/bash
# Run the declared seeds (61 to 90) that have no saved output here yet, two at a time, each
# saved as sS.txt beside this script once it has finished (a seed cut short leaves only its
# .part file, and is run again from scratch next time). Run from anywhere:
#     bash docs/runs/ismcts-confirmation/run.sh
# Needs the test extras (open-spiel). Reading the results waits for all 30 (README.md).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
pending=()
for seed in $(seq 61 90); do
  [ -e "$here/s$seed.txt" ] || pending+=("$seed")
done
run_seed() {
  python3 bench/vs_openspiel_ismcts.py --hands 1000 --seed "$1" --factors 1 --match oh_hell \
    > "$here/s$1.part" 2>&1 && mv "$here/s$1.part" "$here/s$1.txt"
}
export -f run_seed
export here
printf '%s\n' "${pending[@]}" | xargs -r -P 2 -I{} bash -c 'run_seed {}'
