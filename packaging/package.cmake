# Debian packages with CPack's DEB generator: `bash scripts/package.sh` (docs/packaging.md).
# One package per Slurm release: slurmd loads a SPANK plugin only when its
# plugin_version matches its own major.minor, so the package depends on that
# release and says so in its version (jobsentry_0.1.0-1+slurm22.05_amd64.deb).
set(JOBSENTRY_SLURM_SERIES "")
if(SLURM_INCLUDE_DIR AND EXISTS "${SLURM_INCLUDE_DIR}/slurm/slurm_version.h")
  file(STRINGS "${SLURM_INCLUDE_DIR}/slurm/slurm_version.h" version_line REGEX "^#define SLURM_VERSION_NUMBER ")
  if(version_line MATCHES "0x([0-9a-fA-F][0-9a-fA-F])([0-9a-fA-F][0-9a-fA-F])([0-9a-fA-F][0-9a-fA-F])")
    math(EXPR slurm_major "0x${CMAKE_MATCH_1}")
    math(EXPR slurm_minor "0x${CMAKE_MATCH_2}")
    math(EXPR slurm_next_minor "${slurm_minor} + 1")
    if(slurm_minor LESS 10)
      set(slurm_minor "0${slurm_minor}")
    endif()
    if(slurm_next_minor LESS 10)
      set(slurm_next_minor "0${slurm_next_minor}")
    endif()
    set(JOBSENTRY_SLURM_SERIES "${slurm_major}.${slurm_minor}")
    set(slurm_next "${slurm_major}.${slurm_next_minor}")
  endif()
endif()

install(FILES README.md DESTINATION share/doc/jobsentry)
install(DIRECTORY docs/ DESTINATION share/doc/jobsentry/docs FILES_MATCHING PATTERN "*.md")
# Absolute: the site's Slurm configuration, a conffile that enables nothing by itself.
install(FILES packaging/jobsentry.conf DESTINATION /etc/slurm/plugstack.conf.d)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME jobsentry)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "jobsentry developers <root@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "hang detection, OS-noise probes, checkpoint periods and RMA checks for Slurm MPI jobs")
set(CPACK_PACKAGE_DESCRIPTION "A SPANK plugin (jobsentry.so) and its per-job supervisor: detects hangs of MPI jobs\n\
by sampling their ranks' stacks (ParaStack's statistics), measures OS noise, advises Young/Daly\n\
checkpoint periods and checks MPI one-sided programs. Enabled by one plugstack line:\n\
see /etc/slurm/plugstack.conf.d/jobsentry.conf.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang")  # jobsentry-mpicc (rma-check --precise) compiles with it
set(CPACK_STRIP_FILES ON)  # the supervisor reads the ranks' symbols, never its own
if(JOBSENTRY_SLURM_SERIES)
  set(CPACK_DEBIAN_PACKAGE_RELEASE "1+slurm${JOBSENTRY_SLURM_SERIES}")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "slurmd (>= ${JOBSENTRY_SLURM_SERIES}~), slurmd (<< ${slurm_next}~)")
endif()
configure_file(packaging/prerm packaging/prerm COPYONLY)
configure_file(packaging/conffiles packaging/conffiles COPYONLY)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${CMAKE_BINARY_DIR}/packaging/prerm;${CMAKE_BINARY_DIR}/packaging/conffiles")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
