#!/usr/bin/env bash
# The i386 builds of Debian's bitboard engines (Stockfish 15.1, Glaurung 2.2), unpacked under
# target/engines32/ beside the x86_64 ones in /usr/games, for scripts/engine-arch-pairs.py:
# a whole engine's speed on 32-bit against 64-bit. They are not installed (the i386 package
# would replace the amd64 one), only downloaded and unpacked; they run on the i386 C and C++
# runtimes, which this script installs. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=target/engines32
if [ -x "$dest/usr/games/stockfish" ] && [ -x "$dest/usr/games/glaurung" ] \
    && [ -x /usr/games/stockfish ] && [ -x /usr/games/glaurung ] \
    && [ -e /lib32/libstdc++.so.6 ]; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
dpkg --print-foreign-architectures | grep -qx i386 || dpkg --add-architecture i386
# A partly failed update (one index mid-sync on the mirror) leaves the others usable.
apt-get update -qq >/dev/null 2>&1 || echo "warning: apt-get update reported errors; going on" >&2
apt-get install -y -qq stockfish glaurung libc6:i386 libstdc++6:i386 libgcc-s1:i386 >/dev/null
mkdir -p "$dest/debs"
(cd "$dest/debs" && apt-get download stockfish:i386 glaurung:i386 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
for deb in "$dest"/debs/*.deb; do
    dpkg-deb -x "$deb" "$dest"
done
echo "unpacked the i386 stockfish and glaurung under $dest/usr/games"
