# Runs the store and recipe checks (the `mutants` binary: the store's sources compiled with
# CONTEND_MUTANTS, the store test files and the recipe checks) once clean and once per mutant of
# catalogue.txt. Clean must pass; every mutant must be caught — some test fails or an always-on
# assertion aborts. Prints the table: mutant, the store checks and the recipe checks that caught
# it. Usage:
#   cmake -DBINARY=<mutants> -DCATALOGUE=<catalogue.txt> -P run_mutants.cmake
execute_process(COMMAND ${BINARY} --gtest_brief=1 RESULT_VARIABLE clean_status
                OUTPUT_VARIABLE clean_output ERROR_VARIABLE clean_output TIMEOUT 300)
if(NOT clean_status EQUAL 0)
  message(FATAL_ERROR "mutants: the checks fail without a mutant:\n${clean_output}")
endif()
file(STRINGS ${CATALOGUE} lines REGEX "^[0-9]+ ")
# The test suites of the store's own test files (store, store_model, store_environment, tuple,
# bytes); every other suite is a recipe check.
set(store_suites "^(Store|Tuple|Subspace|AssignBytes|CopyBytes|KeyHead|KeyOrder|LoadBigEndian)")
set(survivors "")
set(count 0)
foreach(line IN LISTS lines)
  string(REGEX MATCH "^([0-9]+) ([a-z_0-9]+)" _ "${line}")
  set(number ${CMAKE_MATCH_1})
  set(name ${CMAKE_MATCH_2})
  math(EXPR count "${count} + 1")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env CONTEND_MUTANT=${number} ${BINARY} --gtest_brief=1
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output TIMEOUT 300)
  string(REGEX MATCHALL "\\[  FAILED  \\] [A-Za-z0-9_]+\\.[A-Za-z0-9_/]+" failed "${output}")
  list(TRANSFORM failed REPLACE "\\[  FAILED  \\] " "")
  list(REMOVE_DUPLICATES failed)
  string(REGEX MATCH "internal check failed at [^ ]+" assertion "${output}")
  if(status EQUAL 0)
    list(APPEND survivors "${number} ${name}")
    message(STATUS "mutant ${number} ${name}: SURVIVED")
  elseif(failed)
    set(store_checks ${failed})
    list(FILTER store_checks INCLUDE REGEX "${store_suites}")
    set(recipe_checks ${failed})
    list(FILTER recipe_checks EXCLUDE REGEX "${store_suites}")
    list(LENGTH store_checks store_count)
    list(LENGTH recipe_checks recipe_count)
    list(JOIN store_checks ", " store_shown)
    list(JOIN recipe_checks ", " recipe_shown)
    message(STATUS "mutant ${number} ${name}: caught by ${store_count} store checks (${store_shown}) "
                   "and ${recipe_count} recipe checks (${recipe_shown})")
  elseif(assertion)
    message(STATUS "mutant ${number} ${name}: caught by the assertion ${assertion}")
  else()
    message(STATUS "mutant ${number} ${name}: caught (status ${status})")
  endif()
endforeach()
if(count LESS 15)
  message(FATAL_ERROR "mutants: the catalogue holds ${count} mutants, fewer than 15")
endif()
if(survivors)
  list(JOIN survivors "\n  " shown)
  message(FATAL_ERROR "mutants: not caught by any store or recipe check:\n  ${shown}")
endif()
message(STATUS "mutants: all ${count} caught")
