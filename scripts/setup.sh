#!/usr/bin/env bash
# One-time set-up on a fresh Debian machine: the JDK, Maven and the Java test jars from Debian's packages,
# then a virtual environment at .venv with junitbot and its test tools. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(openjdk-17-jdk-headless junit5 libmockito-java libbyte-buddy-java libobjenesis-java libjacoco-java libassertj-core-java bubblewrap git chromium maven)
missing=()
for package in "${DEBIAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing Debian packages: ${missing[*]} (run as root, or install them yourself)" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
# torch first, pinned. On PyPI it is the CUDA build (several GB of nvidia-* wheels, unused here: embeddings run
# on the CPU); PyTorch's CPU index is only tried when that fails, since many runners cannot reach it.
.venv/bin/python -m pip install -q "torch==${TORCH_VERSION:-2.13.0}" || .venv/bin/python -m pip install -q torch --index-url https://download.pytorch.org/whl/cpu
.venv/bin/python -m pip install -q -e '.[dev]'
touch .venv/.installed
echo "setup: ready (.venv/bin/junitbot)"
