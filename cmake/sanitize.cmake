# The sanitizer build (docs/hardening.md; scripts/sanitize-build.sh makes it in
# build-asan/): jobsentry's own programs and tests with ASan+UBSan, any UBSan
# finding fatal.
#
# Left plain (jobsentry_plain): code that runs inside someone else's process.
# The ASan runtime must be the first library of a process (it intercepts
# malloc before anything else runs); an instrumented jobsentry.so dlopened by
# an uninstrumented slurmstepd/srun, or an rma-check module LD_PRELOADed into
# mpirun and the ranks, would stop the loader with "ASan runtime does not come
# first in initial library list". The same holds for libjobsentry_ckpt (linked
# into the user's MPI program) and for the MPI test programs, which stand for
# the user's programs that jobsentry samples (Open MPI's own allocations at
# exit would also be reported as leaks). Static libraries linked into both
# kinds get an uninstrumented twin, LIB_plain (jobsentry_plain_twin).
option(JOBSENTRY_SANITIZE "build jobsentry's programs and tests with ASan+UBSan (a build dir of its own)" OFF)
if(JOBSENTRY_SANITIZE)
  if(JOBSENTRY_FUZZ)
    message(FATAL_ERROR "JOBSENTRY_SANITIZE and JOBSENTRY_FUZZ are separate builds")
  endif()
  # -O1 and line tables: readable reports, a quicker build on this 2-core machine.
  set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-O1 -g1")
  set(CMAKE_C_FLAGS_RELWITHDEBINFO "-O1 -g1")
  # Every target unless it is marked JOBSENTRY_PLAIN.
  set(_js_san "$<NOT:$<BOOL:$<TARGET_PROPERTY:JOBSENTRY_PLAIN>>>")
  add_compile_options("$<${_js_san}:-fsanitize=address;-fsanitize=undefined;-fno-sanitize-recover=undefined;-fno-omit-frame-pointer>")
  add_link_options("$<${_js_san}:-fsanitize=address;-fsanitize=undefined>")
endif()

# jobsentry_plain(TARGET...): built without the sanitizers (see above).
function(jobsentry_plain)
  foreach(t ${ARGN})
    set_target_properties(${t} PROPERTIES JOBSENTRY_PLAIN ON)
  endforeach()
endfunction()

# jobsentry_plain_twin(LIB): LIB_plain, to be linked by plain targets. In a
# sanitized build it is LIB compiled again without sanitizers (same sources,
# include dirs, definitions and links, each linked library replaced by its
# own twin if it has one); otherwise an alias of LIB. Call it in LIB's
# directory, after LIB's target_* calls.
function(jobsentry_plain_twin lib)
  if(NOT JOBSENTRY_SANITIZE)
    add_library(${lib}_plain ALIAS ${lib})
    return()
  endif()
  get_target_property(srcs ${lib} SOURCES)
  add_library(${lib}_plain STATIC ${srcs})
  jobsentry_plain(${lib}_plain)
  foreach(p INCLUDE_DIRECTORIES INTERFACE_INCLUDE_DIRECTORIES COMPILE_DEFINITIONS POSITION_INDEPENDENT_CODE
            CXX_VISIBILITY_PRESET VISIBILITY_INLINES_HIDDEN)
    get_target_property(v ${lib} ${p})
    if(NOT v STREQUAL "v-NOTFOUND")
      set_target_properties(${lib}_plain PROPERTIES ${p} "${v}")
    endif()
  endforeach()
  get_target_property(libs ${lib} INTERFACE_LINK_LIBRARIES)
  if(libs)
    foreach(l ${libs})
      if(TARGET ${l}_plain)
        target_link_libraries(${lib}_plain PUBLIC ${l}_plain)
      else()
        target_link_libraries(${lib}_plain PUBLIC ${l})
      endif()
    endforeach()
  endif()
endfunction()
