#!/usr/bin/env bash
# Python benchmark (part of `make bench`): deals per second through the Python binding
# (Session.deals() and the bulk Session.evaluate()) beside the CLI and the Python peers endplay
# (from PyPI) and redeal (not on PyPI: set REDEAL_SOURCE to a checkout of its repository with
# its dds submodule to include it), for the conditions of bindings/python/bench/peers.py.
# Installs the package and the peers into target/python-bench-venv; prints bench.py's table.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
venv="$top/target/python-bench-venv"
pip() { "$venv/bin/python" -m pip --disable-pip-version-check --no-input -q "$@"; }

[ -x "$top/target/release/dealer" ] || (cd "$top" && make -s >/dev/null)
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
pip install "$top/bindings/python"
pip install endplay || echo "endplay did not install: left out"
if [ -n "${REDEAL_SOURCE:-}" ]; then
  pip install "$REDEAL_SOURCE" || echo "redeal did not install from $REDEAL_SOURCE: left out"
fi
"$venv/bin/python" "$top/bindings/python/bench/bench.py" "$@"
