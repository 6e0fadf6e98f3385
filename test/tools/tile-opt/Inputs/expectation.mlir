func.func @f() {
  // expected-error @+1 {{never emitted}}
  return
}
