#!/usr/bin/env bash
# Installs the Debian packages hwprof needs to build and test, if any are missing.
# Runs apt-get update first (once per call), and uses sudo when not root.
set -euo pipefail
PKGS=(build-essential clang make pkg-config libelf-dev libdw-dev libzstd-dev
      libcmocka-dev libzydis-dev libipt-dev linux-perf zstd bc time zlib1g-dev jq)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all Debian packages present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
