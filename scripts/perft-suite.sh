#!/usr/bin/env bash
# Runs `ccr perft` on every position of an EPD file (`FEN ;D1 n ;D2 n … ;id name`) at the
# deepest listed depth not above MAX_DEPTH, checks each count and prints the speed.
# Usage: perft-suite.sh BINARY EPD [MAX_DEPTH [extra perft flags…]]. Exits 1 on a mismatch.
set -euo pipefail
bin=$1 epd=$2 max_depth=${3:-5}
shift $(($# < 3 ? $# : 3))
status=0 total_nodes=0 total_seconds=0
while IFS= read -r line; do
    case $line in '' | '#'*) continue ;; esac
    fen=$(sed 's/ *;.*//' <<<"$line")
    id=$(sed -n 's/.*;id \([^;]*\).*/\1/p' <<<"$line")
    read -r depth expected < <(tr ';' '\n' <<<"$line" |
        awk -v max="$max_depth" '/^D[0-9]+ / { d = substr($1, 2) + 0; if (d <= max && d > best) { best = d; n = $2 } }
                                END { print best + 0, n }')
    [ "$depth" -gt 0 ] || continue
    start=$(date +%s.%N)
    got=$("$bin" perft "$depth" --fen "$fen" "$@" 2>/dev/null | tail -n 1)
    end=$(date +%s.%N)
    got=${got#Nodes searched: }
    mark=ok
    if [ "$got" != "$expected" ]; then mark="MISMATCH (expected $expected)"; status=1; fi
    awk -v id="${id:-?}" -v d="$depth" -v n="$got" -v s="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" -v m="$mark" \
        'BEGIN { printf "%-10s depth %d  %12s nodes  %7.3f s  %6.1f M nodes/s  %s\n", id, d, n, s, n / s / 1e6, m }'
    total_nodes=$(awk -v a="$total_nodes" -v b="$got" 'BEGIN { printf "%d", a + b }')
    total_seconds=$(awk -v a="$total_seconds" -v s="$start" -v e="$end" 'BEGIN { print a + e - s }')
done <"$epd"
awk -v n="$total_nodes" -v s="$total_seconds" \
    'BEGIN { printf "total: %d nodes in %.3f s, %.1f M nodes/s\n", n, s, n / s / 1e6 }'
exit $status
