# Sourced by the softmax tuning scripts (tune_softmax*.sh): times one
# forced variant with compare.py's timer, Tile only.
#   tune_softmax_run VARIANT DTYPE N-LIST
# prints compare.py's result lines for DTYPE prefixed with VARIANT, without
# the error column. TILE_LIB names the library (default: the installed
# build/install/lib/libtile.so).
tune_softmax_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tune_softmax_lib="${TILE_LIB:-$tune_softmax_root/build/install/lib/libtile.so}"
tune_softmax_run() {
  TILE_SOFTMAX_VARIANT=$1 python3 "$tune_softmax_root/bench/scripts/compare.py" \
    --only softmax --dtypes "$2" --softmax-n "$3" --providers tile \
    --lib "$tune_softmax_lib" --out /tmp/tune_softmax --no-plots 2>&1 |
    grep -E "^softmax $2 " | sed "s/^/$1 /" | sed 's/ err .*//'
}
