"""Tile's library operations for PyTorch users.

    import torch, tile
    y = tile.softmax(torch.randn(4, 5, device="cuda"))
    o = tile.attention(q, k, v, causal=True)

The operations call Tile's C API (libtile.so) through ctypes on the
tensors' memory and the current CUDA stream; the library is found through
$TILE_LIBRARY, next to this package, in the install prefix's lib/ or in a
source checkout's build/lib (tile.library_path() says which).

With torch 2.4 or later they are also torch custom operators
(torch.ops.tile.softmax, torch.ops.tile.softmax_matmul,
torch.ops.tile.attention) that torch.compile traces without graph breaks.
softmax has a backward; softmax_matmul and attention are forward only.
"""

from ._library import TileError, TileLibraryError, library_path
from ._ops import attention, softmax, softmax_matmul

__all__ = ["TileError", "TileLibraryError", "attention", "library_path",
           "softmax", "softmax_matmul"]
__version__ = "0.1.0"
