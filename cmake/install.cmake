# Install rules and the CMake package: `cmake --install build --prefix P` gives
#   P/bin/contend                                  the CLI
#   P/include/contend/{testing,recipe}.h           what a user includes
#   P/include/contend/{base,model,sim,scenarios}/... the headers those two include, nothing more
#   P/lib*/libcontend_*.a                          the static libraries
#   P/lib*/contend/libfdb_c.so                     FoundationDB's C API on the simulated store,
#                                                  in a directory of its own so that only
#                                                  LD_LIBRARY_PATH=P/lib*/contend picks it over
#                                                  a real FoundationDB client
#   P/include/contend/fdb_c/fdb_c.h                its declarations
#   P/lib*/cmake/contend/                          contendConfig.cmake, version file, targets
#   P/share/contend/scenarios/*.toml               the shipped scenarios
#   P/share/doc/contend/                           README and docs
# A project then writes find_package(contend CONFIG REQUIRED) and links contend::testing (or
# contend::scenarios, ... contend::store); contend::contend is the CLI as an imported executable.
include(CMakePackageConfigHelpers)

set(CONTEND_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/contend)

set(contend_exported contend_base contend_model contend_store contend_runtime contend_recipes contend_scenarios)
if(CONTEND_TESTING)
  list(APPEND contend_exported contend_testing)
endif()
install(TARGETS ${contend_exported} EXPORT contendTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
install(TARGETS contend EXPORT contendTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        COMPONENT bin)
if(TARGET contend_fdb_c)
  install(TARGETS contend_fdb_c EXPORT contendTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/contend COMPONENT bin)
  install(FILES ${CONTEND_ROOT}/fdb_c/fdb_c.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/contend/fdb_c
          COMPONENT dev)
endif()
install(EXPORT contendTargets NAMESPACE contend:: FILE contendTargets.cmake
        DESTINATION ${CONTEND_CMAKE_DIR} COMPONENT dev)

# The headers a user's recipe and test include: contend/testing.h and contend/recipe.h, and what
# those include, transitively (the out-of-tree example's build fails if one is missing). Each
# says in its first lines what it is for.
set(CONTEND_PUBLIC_HEADERS
    base/digest128.h base/invariant.h base/sanitizers.h base/simulator_fault.h base/splitmix.h
    base/task.h
    model/accounting.h model/check.h model/history.h model/history_json.h model/operations.h
    model/spec.h model/verdict.h
    sim/store/byte_arena.h sim/store/bytes.h sim/store/conflict_history.h sim/store/environment.h
    sim/store/error.h sim/store/error_or.h sim/store/fifo.h sim/store/key_head.h
    sim/store/mutation.h sim/store/retry.h sim/store/slot_vector.h sim/store/store.h
    sim/store/transaction.h sim/store/invariant.h
    sim/runtime/faults.h sim/runtime/latency.h sim/runtime/rng.h sim/runtime/strategy.h
    sim/runtime/footprint.h sim/runtime/range_set.h sim/runtime/suffix_draws.h sim/runtime/task.h
    sim/runtime/world.h
    sim/recipes/keys.h sim/recipes/recipe.h
    scenarios/batch.h scenarios/expectation.h scenarios/runner.h scenarios/scenario.h
    scenarios/seed_range.h scenarios/testing/contend_testing.h)
foreach(header ${CONTEND_PUBLIC_HEADERS})
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES ${CONTEND_ROOT}/${header}
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/contend/${dir} COMPONENT dev)
endforeach()
install(FILES ${CONTEND_ROOT}/include/contend/testing.h ${CONTEND_ROOT}/include/contend/recipe.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/contend COMPONENT dev)

set(CONTEND_SCENARIOS_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/contend/scenarios)
configure_package_config_file(${CONTEND_ROOT}/cmake/contendConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/contendConfig.cmake
                              INSTALL_DESTINATION ${CONTEND_CMAKE_DIR}
                              PATH_VARS CONTEND_SCENARIOS_INSTALL_DIR)
# 0.x: a minor version may break the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/contendConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/contendConfig.cmake
              ${PROJECT_BINARY_DIR}/contendConfigVersion.cmake
        DESTINATION ${CONTEND_CMAKE_DIR} COMPONENT dev)

file(GLOB CONTEND_SHIPPED_SCENARIOS CONFIGURE_DEPENDS ${CONTEND_ROOT}/scenarios/*.toml)
install(FILES ${CONTEND_SHIPPED_SCENARIOS} DESTINATION ${CONTEND_SCENARIOS_INSTALL_DIR}
        COMPONENT bin)
install(FILES ${CONTEND_ROOT}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT bin)
# (What `npm install` may leave in docs/examples/node-queue is not documentation.)
install(DIRECTORY ${CONTEND_ROOT}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT bin
        PATTERN images EXCLUDE PATTERN node_modules EXCLUDE PATTERN package-lock.json EXCLUDE
        PATTERN .gitignore EXCLUDE)

# A Debian package of the above: `cpack -G DEB --config build/CPackConfig.cmake` gives
# contend_<version>_<arch>.deb, installed under /usr. The binary's shared libraries (libfmt9, libmimalloc2.0,
# libtomlplusplus3, libstdc++6, ...) come from dpkg-shlibdeps; the -dev packages are what the
# installed CMake package's find_dependency calls and the static libraries' links need.
set(CPACK_PACKAGE_NAME contend)
set(CPACK_PACKAGE_VENDOR contend)
set(CPACK_PACKAGE_CONTACT "contend maintainers <contend@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "simulator and model checker for queue recipes on an MVCC store")
# CPack puts the summary first and indents these lines as the extended description (lintian
# wants them under 80 columns).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "contend runs queue algorithms (the FoundationDB Queue and Priority Queue
recipes, their high-contention variants, and a user's own) against a
simulated MVCC store that injects conflicts, ambiguous commits, stale reads
and delays, and checks every history against a sequential model. This
package holds the contend command, the static libraries, headers and CMake
package (find_package(contend)) for checking one's own recipe from a
GoogleTest suite, and the shipped scenarios under /usr/share/contend.")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://example.invalid/contend")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)  # the installed binary without its symbol tables
set(contend_deb_depends libfmt-dev nlohmann-json3-dev libtomlplusplus-dev)
if(CONTEND_TESTING)
  list(APPEND contend_deb_depends libgtest-dev)
endif()
list(JOIN contend_deb_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
# Building against the package (the CMake package, the example) needs a compiler and CMake.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake (>= 3.25), g++ (>= 4:12)")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "ninja-build, python3")
include(CPack)
