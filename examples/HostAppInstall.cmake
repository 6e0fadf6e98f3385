# The host-app-install test (cmake -P, see examples/CMakeLists.txt):
#
#   1. `cmake --install` the build tree into a fresh prefix under WORK_DIR
#      and check what was installed (headers, the two runtime libraries, the
#      three tools, the CMake package, the docs, the tile Python package
#      and that it imports and finds its libtile.so; no compiler libraries);
#   2. check that libtile.so needs nothing from LLVM, MLIR or CUDA, and that
#      the installed tools start (their RPATH finds the LLVM libraries);
#   3. configure examples/host_app against the prefix alone
#      (-DCMAKE_PREFIX_PATH=<prefix>) with the build's generator and
#      compilers, and build it: tile_host_app (Tile::runtime, static) and
#      tile_host_app_shared (Tile::runtime_shared, libtile.so);
#   4. run both. Without a GPU they print "no GPU: skipping" and exit 0; with
#      one they check the library operations and exit 0 only if all pass.
#
# Variables (-D): BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR CXX_COMPILER CONFIG
# LIBDIR, and optionally MAKE_PROGRAM C_COMPILER PYTHONDIR (where the tile
# Python package is installed; its import is checked too).

foreach(var BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR CXX_COMPILER CONFIG LIBDIR)
  if("${${var}}" STREQUAL "")
    message(FATAL_ERROR "HostAppInstall.cmake needs -D${var}=...")
  endif()
endforeach()

# The prefix is the whole destination (no staging directory).
unset(ENV{DESTDIR})
set(prefix "${WORK_DIR}/prefix")
set(app_build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# Runs a command; stops the test with its output when it fails. The output
# is left in `step_output`.
function(run_step name)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "${name}: ${shown}")
  execute_process(COMMAND ${ARGN}
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE out
    TIMEOUT 600)
  if(NOT rc EQUAL 0)
    message("${out}")
    message(FATAL_ERROR "${name} failed (exit status: ${rc})")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

#--- 1. Install --------------------------------------------------------------
run_step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}"
         --prefix "${prefix}" --config "${CONFIG}")

set(expected
  include/tile_runtime.h
  include/tile_runtime.hpp
  ${LIBDIR}/libtile_runtime.a
  ${LIBDIR}/libtile.so
  ${LIBDIR}/cmake/Tile/TileConfig.cmake
  ${LIBDIR}/cmake/Tile/TileConfigVersion.cmake
  ${LIBDIR}/cmake/Tile/TileTargets.cmake
  bin/tile-compile
  bin/tile-opt
  bin/tile-run
  share/doc/tile/README.md
  share/doc/tile/install.md
  share/doc/tile/examples/host_app/main.cpp)
foreach(file ${expected})
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
# Only these tools and libraries: the compiler's libraries (libTileIR.a, ...)
# and build-time tools (tile-kernel-gen) are not part of the installation.
file(GLOB installed_tools RELATIVE "${prefix}/bin" "${prefix}/bin/*")
list(SORT installed_tools)
if(NOT installed_tools STREQUAL "tile-compile;tile-opt;tile-run")
  message(FATAL_ERROR "bin/ holds ${installed_tools}; expected tile-compile, "
                      "tile-opt and tile-run (the top-level CMakeLists.txt's "
                      "LLVM_TOOLCHAIN_TOOLS)")
endif()
file(GLOB installed_archives RELATIVE "${prefix}/${LIBDIR}"
     "${prefix}/${LIBDIR}/*.a")
if(NOT installed_archives STREQUAL "libtile_runtime.a")
  message(FATAL_ERROR "${LIBDIR}/ holds the archives ${installed_archives}; "
                      "expected libtile_runtime.a only")
endif()
message(STATUS "installed into ${prefix}")

# The tile Python package, with its own copy of libtile.so, imports from the
# prefix's site-packages and finds that copy (TILE_LIBRARY unset).
if(NOT "${PYTHONDIR}" STREQUAL "")
  foreach(file __init__.py _library.py _ops.py lib/libtile.so)
    if(NOT EXISTS "${prefix}/${PYTHONDIR}/tile/${file}")
      message(FATAL_ERROR "not installed: ${PYTHONDIR}/tile/${file}")
    endif()
  endforeach()
  if(EXISTS /usr/bin/python3)
    run_step("import tile" "${CMAKE_COMMAND}" -E env --unset=TILE_LIBRARY
             "PYTHONPATH=${prefix}/${PYTHONDIR}" /usr/bin/python3 -c
             "print(__import__('tile').library_path())")
    string(STRIP "${step_output}" found)
    file(REAL_PATH "${found}" found)
    file(REAL_PATH "${prefix}/${PYTHONDIR}/tile/lib/libtile.so" expected_lib)
    if(NOT found STREQUAL expected_lib)
      message(FATAL_ERROR "the installed tile package loaded ${found}, not "
                          "${expected_lib}")
    endif()
  endif()
endif()

#--- 2. What the installed binaries need ---------------------------------------
# Fails when a library or executable needs a library whose name matches
# `forbidden` (its direct and indirect dependencies, as the loader would find
# them; unresolved ones count too).
function(check_dependencies kind file forbidden)
  file(GET_RUNTIME_DEPENDENCIES
    ${kind} "${file}"
    RESOLVED_DEPENDENCIES_VAR resolved
    UNRESOLVED_DEPENDENCIES_VAR unresolved)
  foreach(dep ${resolved} ${unresolved})
    get_filename_component(name "${dep}" NAME)
    if(name MATCHES "${forbidden}")
      message(FATAL_ERROR "${file} depends on ${dep}")
    endif()
  endforeach()
  set(dependencies ${resolved} ${unresolved} PARENT_SCOPE)
endfunction()

# The runtime opens libcuda.so.1 at run time (dlopen) and links nothing from
# LLVM, MLIR or CUDA.
check_dependencies(LIBRARIES "${prefix}/${LIBDIR}/libtile.so"
                   "LLVM|MLIR|cuda|cudart|nvrtc")
string(REPLACE ";" ", " shown "${dependencies}")
message(STATUS "libtile.so needs: ${shown}")

# The installed tools start from the prefix (RPATH to the LLVM libraries).
foreach(tool tile-opt tile-run tile-compile)
  run_step("${tool} --version" "${prefix}/bin/${tool}" --version)
endforeach()

#--- 3. Build the host application against the prefix ----------------------------
set(configure_args
  -G "${GENERATOR}"
  -S "${SOURCE_DIR}/examples/host_app"
  -B "${app_build}"
  "-DCMAKE_PREFIX_PATH=${prefix}"
  "-DCMAKE_BUILD_TYPE=${CONFIG}"
  "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
  --no-warn-unused-cli)
if(NOT "${C_COMPILER}" STREQUAL "")
  list(APPEND configure_args "-DCMAKE_C_COMPILER=${C_COMPILER}")
endif()
if(NOT "${MAKE_PROGRAM}" STREQUAL "")
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
run_step("configure host_app" "${CMAKE_COMMAND}" ${configure_args})

# find_package(Tile) must have found the package in the prefix, not another
# installation.
file(STRINGS "${app_build}/CMakeCache.txt" tile_dir REGEX "^Tile_DIR:")
string(REGEX REPLACE "^Tile_DIR:[A-Z]*=" "" tile_dir "${tile_dir}")
file(REAL_PATH "${tile_dir}" tile_dir)
file(REAL_PATH "${prefix}/${LIBDIR}/cmake/Tile" expected_dir)
if(NOT tile_dir STREQUAL expected_dir)
  message(FATAL_ERROR "find_package(Tile) used ${tile_dir}, not the package "
                      "installed in ${expected_dir}")
endif()

run_step("build host_app" "${CMAKE_COMMAND}" --build "${app_build}"
         --config "${CONFIG}" --parallel 2)

#--- 4. Run it ------------------------------------------------------------------
foreach(app tile_host_app tile_host_app_shared)
  set(exe "${app_build}/${app}")
  if(NOT EXISTS "${exe}" AND EXISTS "${app_build}/${CONFIG}/${app}")
    set(exe "${app_build}/${CONFIG}/${app}") # multi-config generators
  endif()
  # The static variant needs no Tile library at run time; the shared one
  # needs the installed libtile.so. Neither needs LLVM or MLIR.
  check_dependencies(EXECUTABLES "${exe}" "LLVM|MLIR")
  set(tile_libs ${dependencies})
  list(FILTER tile_libs INCLUDE REGEX "/libtile\\.so")
  if(app STREQUAL "tile_host_app" AND tile_libs)
    message(FATAL_ERROR "${app} links Tile::runtime statically but needs "
                        "${tile_libs}")
  endif()
  if(app STREQUAL "tile_host_app_shared")
    file(REAL_PATH "${prefix}/${LIBDIR}" prefix_libdir)
    set(found_in_prefix FALSE)
    foreach(lib ${tile_libs})
      get_filename_component(lib_dir "${lib}" DIRECTORY)
      file(REAL_PATH "${lib_dir}" lib_dir)
      if(lib_dir STREQUAL prefix_libdir)
        set(found_in_prefix TRUE)
      endif()
    endforeach()
    if(NOT found_in_prefix)
      message(FATAL_ERROR "${app} does not load libtile.so from "
                          "${prefix_libdir} (it needs: ${tile_libs})")
    endif()
  endif()

  run_step("${app}" "${exe}")
  message("${step_output}")
  if(step_output MATCHES "FAIL")
    message(FATAL_ERROR "${app} reported a failure")
  endif()
  if(step_output MATCHES "no GPU: skipping")
    message(STATUS "${app}: skipped its GPU checks (no GPU)")
  elseif(NOT step_output MATCHES "PASS")
    message(FATAL_ERROR "${app} printed neither PASS nor the skip message")
  endif()
endforeach()
message(STATUS "host-app-install: OK")
