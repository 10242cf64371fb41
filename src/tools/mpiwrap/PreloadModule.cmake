# Building a PMPI preload module from a list of prototypes (gen_wrappers.py):
# rma-check's and trace's modules, each once per MPI (Open MPI, MPICH).

# Both modules of a list: TARGET (libOUTPUT.so, Open MPI) and TARGET_mpich (libOUTPUT-mpich.so),
# of the wrappers PROTOS generates in NAMESPACE and the sources after it.
function(jobsentry_preload_modules target output namespace protos)
  set(gen_dir ${CMAKE_CURRENT_BINARY_DIR}/generated)
  jobsentry_generate_wrappers(${namespace} ${protos} ${gen_dir})
  jobsentry_preload_module(${target} ${output} MPI::MPI_C ${gen_dir} ${ARGN})
  jobsentry_preload_module(${target}_mpich ${output}-mpich jobsentry_mpich ${gen_dir} ${ARGN})
endfunction()

# Generates DIR/wrappers_gen.cpp and .h from PROTOS, the wrappers in NAMESPACE.
function(jobsentry_generate_wrappers namespace protos dir)
  add_custom_command(
    OUTPUT ${dir}/wrappers_gen.cpp ${dir}/wrappers_gen.h
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND Python3::Interpreter ${MPIWRAP_GENERATOR} ${namespace} ${protos} ${dir}/wrappers_gen.cpp
            ${dir}/wrappers_gen.h
    DEPENDS ${MPIWRAP_GENERATOR} ${protos}
    COMMENT "Generating the ${namespace} PMPI wrappers")
endfunction()

# A module libOUTPUT.so of the generated wrappers in GEN_DIR and the sources after it,
# linked with MPI_TARGET (its wrappers take that MPI's handles).
function(jobsentry_preload_module target output mpi_target gen_dir)
  add_library(${target} SHARED ${gen_dir}/wrappers_gen.cpp ${MPIWRAP_DIR}/fortran_sentinels.cpp
              ${MPIWRAP_DIR}/call_site.cpp ${ARGN})
  # preload/: the generated wrappers include the module's "guard.h".
  target_include_directories(${target} PRIVATE ${gen_dir} ${JOBSENTRY_SRC} ${CMAKE_CURRENT_SOURCE_DIR}/preload)
  target_link_libraries(${target} PRIVATE ${mpi_target})
  jobsentry_plain(${target})  # LD_PRELOADed into mpirun and the ranks: no sanitizer runtime (cmake/sanitize.cmake)
  # C bindings only: the C++ bindings of mpi.h would pull in libmpi_cxx.
  target_compile_definitions(${target} PRIVATE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${output})
  install(TARGETS ${target} LIBRARY DESTINATION lib)
endfunction()
