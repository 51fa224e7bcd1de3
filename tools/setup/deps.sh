#!/usr/bin/env bash
# Installs the Debian packages of tools/setup/packages.txt that this machine lacks. As root it
# runs apt-get; otherwise it prints the exact command to run and exits 1.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mapfile -t pkgs < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$here/packages.txt")

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "deps: not a Debian system; make sure these (or your distribution's equivalents) are installed: ${pkgs[*]}" >&2
  exit 0
fi

need=()
for p in "${pkgs[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || need+=("$p")
done
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "deps: missing Debian packages. Install them, then run make again:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
echo "deps: installing ${need[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
