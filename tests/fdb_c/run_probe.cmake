# Runs config_probe with CONTEND_FDB_CONFIG=CONFIG and requires both its exit status (0: the
# library answered EXPECTED_CODE) and, when EXPECTED_MESSAGE is set, that message in its output.
#   cmake -DPROBE=... -DCONFIG=... -DEXPECTED_CODE=... [-DEXPECTED_MESSAGE=...] -P run_probe.cmake
set(ENV{CONTEND_FDB_CONFIG} "${CONFIG}")
execute_process(COMMAND ${PROBE} ${EXPECTED_CODE} RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "fdb_setup_network did not answer ${EXPECTED_CODE}:\n${out}${err}")
endif()
if(EXPECTED_MESSAGE)
  string(FIND "${err}" "${EXPECTED_MESSAGE}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected \"${EXPECTED_MESSAGE}\" on stderr, got:\n${err}")
  endif()
endif()
message(STATUS "${out}${err}")
