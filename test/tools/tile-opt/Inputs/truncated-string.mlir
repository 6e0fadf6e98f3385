// Cut off inside a string.
func.func @debug() {
  tile.print "row max