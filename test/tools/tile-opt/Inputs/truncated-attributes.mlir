// Cut off inside an attribute dictionary.
func.func @k() attributes {tile.kernel, tile.num_warps = 