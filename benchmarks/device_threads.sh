#!/bin/bash
# What 16 cores change: zerosum against postflop-solver with 1-16 threads, on a lent device machine
# (16 cores; no network there, so what it needs travels in .devdata/, which .git/info/exclude ignores):
#   mkdir -p .devdata; cp ../shared/data/poker-spots/*.json .devdata/; cp PEER/pfs-spot .devdata/
#   pip download phevaluator's cp312 manylinux wheel into .devdata/ (the device's python is 3.12)
#   then, through the device tool: THREADS=1,2,4,8,16 FLOP_THREADS=4,8,16 bash benchmarks/device_threads.sh
#   with carry [".devdata", "src/zerosum/poker/__pycache__/hand-strength-tables-v1.npz"]
# The device has numba, numpy, scipy, click and rich; .venv/bin/{zerosum,python} are made as wrappers
# because bench_poker_solvers.py runs those (where there is no .venv). Checked here
# with THREADS=1 in a scratch clone; not yet run on a device (none was lent).
set -x
cd "$(dirname "$0")/.."
PY=${PY:-python3}
$PY -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .devdata/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD/src:/tmp/site PYTHONUNBUFFERED=1 ZEROSUM_PFS_BIN=$PWD/.devdata/pfs-spot
OUT=${OUT:-/tmp/devout}; mkdir -p $OUT
if [ ! -e .venv/bin/zerosum ]; then  # (a real environment is left as it is)
    mkdir -p .venv/bin
    printf '#!/bin/sh\nexec %s -c "import sys; sys.argv[0]=\\"zerosum\\"; from zerosum.cli import entry; entry()" "$@"\n' "$(command -v $PY)" > .venv/bin/zerosum
    chmod +x .venv/bin/zerosum; ln -sf "$(command -v $PY)" .venv/bin/python
fi
nproc; uptime; lscpu | grep -i "model name"; $PY -c "import numba, numpy, sys; print(sys.version, numba.__version__, numpy.__version__)"
ls /usr/bin/time
( time timeout ${WARM_S:-240} .venv/bin/zerosum warm-up ) 2>&1 | tail -5
THREADS=${THREADS:-1,2,4,8,16}
timeout ${TURN_S:-200} $PY benchmarks/bench_poker_solvers.py .devdata/pfs-example-turn-td9d6h-qc.json .devdata/limit-turn-ks7d2c9h.json --repeats 1 --targets 0.005 --threads $THREADS --json > $OUT/turns.json 2> $OUT/turns.err; echo turns rc $?
tail -3 $OUT/turns.err
uptime
if [ -n "$FLOP_THREADS" ]; then
timeout ${FLOP_S:-220} $PY benchmarks/bench_poker_solvers.py .devdata/texassolver-sample-flop-qsjh2h.json --repeats 1 --targets 0.005 --threads $FLOP_THREADS --json > $OUT/flop.json 2> $OUT/flop.err; echo flop rc $?
tail -3 $OUT/flop.err
fi
uptime
