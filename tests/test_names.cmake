# Fails when a CTest name depends on the build: a parameter printed as a memory dump ("24-byte
# object <...>"), GoogleTest's "# GetParam() = ..." comment, or the checkout's path. Such names
# differ between machines and builds, so CI history and `--gtest_filter` cannot follow a test.
#   cmake -DCTEST=... -DBUILD=... -DROOT=... -P test_names.cmake
execute_process(COMMAND ${CTEST} --test-dir ${BUILD} -N RESULT_VARIABLE status
                OUTPUT_VARIABLE listed ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ctest -N failed: ${err}")
endif()
string(REGEX MATCHALL "Test +#[0-9]+: [^\n]*" tests "${listed}")
list(LENGTH tests count)
if(count LESS 100)
  message(FATAL_ERROR "ctest -N listed ${count} tests; expected the whole suite:\n${listed}")
endif()
set(bad "")
foreach(line IN LISTS tests)
  string(FIND "${line}" "${ROOT}" at_root)
  if(line MATCHES "byte object <|GetParam\\(\\)" OR NOT at_root EQUAL -1)
    string(APPEND bad "  ${line}\n")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "test names that depend on the build (tests/support/param_names.h names "
                      "a parameter by what it prints):\n${bad}")
endif()
message(STATUS "${count} test names, none depending on the build")
