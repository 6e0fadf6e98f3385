// Cut off inside a tile type.
func.func @copy(%in: !tile.ptr<f3