# One-way layering, checked on the sources: `cmake -DROOT=<repository> -P tests/layering.cmake`
# fails naming every include that points the wrong way.
#
#   base/           includes nothing of ours but base/
#   model/          base/ and model/ only (no sim/, no scenarios/)
#   sim/store/      base/ and sim/store/ only (not the runtime, not the recipes, not the model)
#   sim/runtime/    base/, sim/store/, sim/runtime/
#   sim/recipes/    base/, model/, sim/store/, sim/runtime/, sim/recipes/
#   fdb_c/          base/, sim/store/, fdb_c/ (libfdb_c serves the C API from the store alone)
#
# Optional -DEXTRA_FILE=<path> -DEXTRA_AS=<layer dir> checks one more file as if it lay in that
# layer (the test suite uses it to show the check fails on a wrong include).
if(NOT ROOT)
  message(FATAL_ERROR "layering.cmake: pass -DROOT=<repository root>")
endif()

set(allowed_base "base/")
set(allowed_model "base/;model/")
set(allowed_store "base/;sim/store/")
set(allowed_runtime "base/;sim/store/;sim/runtime/")
set(allowed_recipes "base/;model/;sim/store/;sim/runtime/;sim/recipes/")
set(allowed_fdb_c "base/;sim/store/;fdb_c/")
set(layers "base:base" "model:model" "sim/store:store" "sim/runtime:runtime"
           "sim/recipes:recipes" "fdb_c:fdb_c")
# Our include paths start with one of these; anything else is a system or third-party header.
set(ours "base/;model/;sim/;scenarios/;include/;contend/;fdb_c/")

set(violations "")
function(check_file file layer_dir rule)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" included "${line}")
    set(is_ours FALSE)
    foreach(prefix IN LISTS ours)
      string(FIND "${included}" "${prefix}" at)
      if(at EQUAL 0)
        set(is_ours TRUE)
      endif()
    endforeach()
    if(NOT is_ours)
      continue()
    endif()
    set(ok FALSE)
    foreach(prefix IN LISTS allowed_${rule})
      string(FIND "${included}" "${prefix}" at)
      if(at EQUAL 0)
        set(ok TRUE)
      endif()
    endforeach()
    if(NOT ok)
      file(RELATIVE_PATH shown "${ROOT}" "${file}")
      list(APPEND violations "${shown} (${layer_dir}/) includes \"${included}\"")
      set(violations "${violations}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

set(checked 0)
foreach(entry IN LISTS layers)
  string(REPLACE ":" ";" pair "${entry}")
  list(GET pair 0 dir)
  list(GET pair 1 rule)
  file(GLOB_RECURSE files "${ROOT}/${dir}/*.h" "${ROOT}/${dir}/*.cpp")
  foreach(file IN LISTS files)
    check_file("${file}" "${dir}" "${rule}")
    math(EXPR checked "${checked} + 1")
  endforeach()
  if(EXTRA_FILE AND EXTRA_AS STREQUAL dir)
    check_file("${EXTRA_FILE}" "${dir}" "${rule}")
  endif()
endforeach()

if(violations)
  list(JOIN violations "\n  " shown)
  message(FATAL_ERROR "layering: includes against the one-way layering:\n  ${shown}")
endif()
message(STATUS "layering: ${checked} files, every include points down")
