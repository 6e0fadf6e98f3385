func.func @f() attributes {a = array<index: 1>} {
  return
}
