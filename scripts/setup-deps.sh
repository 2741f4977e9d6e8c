#!/usr/bin/env bash
# Installs the Debian 12 packages FloatScope builds and tests with; a no-op when all are present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libmpfr-dev libgmp-dev libboost-dev libeigen3-dev
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev
  catch2 libcli11-dev libfmt-dev nlohmann-json3-dev libbenchmark-dev zlib1g-dev
  libonnx-dev libprotobuf-dev python3-onnx
  dataset-fashion-mnist python3-numpy
  pybind11-dev python3-dev python3-pytest python3-gmpy2 python3-pandas
  xvfb xauth fonts-dejavu-core
  clang libclang-rt-14-dev
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
