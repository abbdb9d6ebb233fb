#!/usr/bin/env bash
# Build qbsolv and MQLib from the source archives beside this script into DEST (default ./.clients).
# Needs gcc/g++, cmake and make. See README.md here for versions and licences.
#   DEST/qbsolv -i m.qubo -o answer.txt
#   DEST/MQLib -fQ m.mqlib -h BURER2002 -r 5 -ps
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=$(mkdir -p "${1:-.clients}" && cd "${1:-.clients}" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tar xzf "$here/qbsolv-7b71f11.tar.gz" -C "$work"
# qbsolv's sources predate GCC 10's -fno-common default
cmake -S "$work/qbsolv" -B "$work/qbsolv/build" -DCMAKE_C_FLAGS=-fcommon -DCMAKE_CXX_FLAGS=-fcommon >/dev/null
make -s -C "$work/qbsolv/build" -j2 >/dev/null 2>&1
cp "$work/qbsolv/build/qbsolv" "$dest/qbsolv"
tar xzf "$here/MQLib-5854962.tar.gz" -C "$work"
mkdir -p "$work/MQLib/bin"
(cd "$work/MQLib" && find src -type d | sed "s|^src|.build|" | xargs mkdir -p)
make -s -C "$work/MQLib" -j2 >/dev/null 2>&1
cp "$work/MQLib/bin/MQLib" "$dest/MQLib"
echo "built $dest/qbsolv $dest/MQLib"
