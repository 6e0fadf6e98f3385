# Fails when docs/reference/ differs from what ODS generates.
foreach(pair "Dialect/Tile/IR/TileDialect.md" "Dialect/Tile/Transforms/Passes.md"
             "Conversion/ConversionPasses.md" "Dialect/Tile/IR/ElementwiseOps.md"
             "Dialect/Tile/IR/TileOps.md")
  get_filename_component(name ${pair} NAME)
  file(READ ${GENERATED}/${pair} generated)
  if(NOT EXISTS ${COMMITTED}/${name})
    message(FATAL_ERROR "docs/reference/${name} is missing: run `ninja tile-docs`")
  endif()
  file(READ ${COMMITTED}/${name} committed)
  if(NOT generated STREQUAL committed)
    message(FATAL_ERROR "docs/reference/${name} is stale: run `ninja tile-docs`")
  endif()
endforeach()
message(STATUS "docs/reference is up to date")
