# Writes softmax-run's Version.h (from Version.h.in) with the project's version and the commit
# the tree is at, at every build (softmax-run-version), so that --version names the commit the
# binary was built from; the file is rewritten only when that changes, so an unchanged commit
# rebuilds nothing. "-dirty" marks uncommitted changes to tracked files; a tree that is not a
# git checkout says "unknown".
#   cmake -DSOURCE_DIR=... -DPROJECT_VERSION=... -DINPUT=... -DOUTPUT=... -P WriteVersion.cmake
set(SOFTMAX_GIT_COMMIT "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE git_commit OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE git_result ERROR_QUIET)
  if(git_result EQUAL 0 AND git_commit)
    set(SOFTMAX_GIT_COMMIT "${git_commit}")
    execute_process(COMMAND ${GIT_EXECUTABLE} diff --quiet HEAD --
                    WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE git_dirty ERROR_QUIET)
    if(NOT git_dirty EQUAL 0)
      string(APPEND SOFTMAX_GIT_COMMIT "-dirty")
    endif()
  endif()
endif()
configure_file(${INPUT} ${OUTPUT} @ONLY)
