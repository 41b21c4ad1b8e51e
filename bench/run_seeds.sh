#!/bin/bash
# Run the seeds FIRST..LAST of bench/vs_openspiel_ismcts.py that have no saved output in FOLDER
# yet, two at a time, each saved as FOLDER/sS.txt once it has finished (a seed cut short leaves
# only its .part file, and is run again from scratch next time). The arguments after LAST go to
# the bench, after --hands 1000 --seed S --factors 1 --match oh_hell. Run from anywhere:
#     bash bench/run_seeds.sh bench/runs/NAME 91 120 --expert expert@100ms
# Needs the test extras (open-spiel). A declared run's folder says how it is read (README.md).
set -u
if [ $# -lt 3 ]; then
  echo "usage: bash bench/run_seeds.sh FOLDER FIRST LAST [bench arguments...]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
folder=$(cd "$1" && pwd) || exit 2
first=$2
last=$3
shift 3
cd "$root"
pending=()
for seed in $(seq "$first" "$last"); do
  [ -e "$folder/s$seed.txt" ] || pending+=("$seed")
done
run_seed() {
  python3 bench/vs_openspiel_ismcts.py --hands 1000 --seed "$1" --factors 1 --match oh_hell "${@:2}" \
    > "$folder/s$1.part" 2>&1 && mv "$folder/s$1.part" "$folder/s$1.txt"
}
export -f run_seed
export folder
printf '%s\n' "${pending[@]}" | xargs -r -P 2 -I{} bash -c 'run_seed "$@"' _ {} "$@"
