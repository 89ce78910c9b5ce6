#!/usr/bin/env bash
# Installs the Debian packages hwprof needs to build and test, if any are missing.
# Runs apt-get update first (once per call), and uses sudo when not root.
# The export tests also use viewers: Chromium (headless), Go's pprof and
# speedscope from npm (into ~/.cache/hwprof/npm); HWPROF_NO_VIEWERS=1 skips
# them (those checks then SKIP).
set -euo pipefail
PKGS=(build-essential clang make pkg-config libelf-dev libdw-dev libzstd-dev
      libcmocka-dev libzydis-dev libtraceevent-dev libipt-dev libiberty-dev linux-perf zstd bc time zlib1g-dev jq)
if [ "${HWPROF_NO_VIEWERS:-0}" != 1 ]; then
  PKGS+=(chromium fonts-dejavu-core golang-go)
  command -v npm >/dev/null 2>&1 || PKGS+=(npm)
fi
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all Debian packages present"
else
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# speedscope's static build, for the headless browser check of exports
SPEEDSCOPE_VERSION=1.25.0
NPM_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/hwprof/npm"
if [ "${HWPROF_NO_VIEWERS:-0}" != 1 ] && command -v npm >/dev/null 2>&1 &&
   ! grep -qs "\"version\": \"$SPEEDSCOPE_VERSION\"" "$NPM_DIR/node_modules/speedscope/package.json"; then
  echo "install-deps: npm install speedscope@$SPEEDSCOPE_VERSION into $NPM_DIR"
  mkdir -p "$NPM_DIR"
  npm install --no-audit --no-fund --loglevel=error --prefix "$NPM_DIR" "speedscope@$SPEEDSCOPE_VERSION" ||
    echo "install-deps: npm install speedscope failed; the browser check will SKIP"
fi
