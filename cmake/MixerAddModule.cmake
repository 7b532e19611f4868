# mixer_add_module(<name> SOURCE <file.mlir>
#                  [NUM_THREADS <n>] [NAIVE] [GENERATE_VJP]
#                  [PIPELINE_OPTIONS <options>] [MCPU <cpu>] [MATTR <features>])
#
# Compiles the module with mixer-compile into <name>.o and the header
# <name>.h (in ${CMAKE_CURRENT_BINARY_DIR}/<name>) and makes the static
# library target <name> of it: linking it adds the header's directory to the
# include path and links what the object needs (Mixer::Runtime, libm, and
# Mixer::OpenMP unless NUM_THREADS is 1). The object is rebuilt when the
# source or mixer-compile changes.
function(mixer_add_module name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "NAIVE;GENERATE_VJP"
    "SOURCE;NUM_THREADS;PIPELINE_OPTIONS;MCPU;MATTR" "")
  if(NOT ARG_SOURCE)
    message(FATAL_ERROR "mixer_add_module(${name}): SOURCE is required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mixer_add_module(${name}): unknown arguments "
                        "${ARG_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(source "${ARG_SOURCE}" ABSOLUTE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  set(object "${dir}/${name}.o")
  set(header "${dir}/${name}.h")

  set(flags)
  if(DEFINED ARG_NUM_THREADS)
    list(APPEND flags --num-threads ${ARG_NUM_THREADS})
  endif()
  if(ARG_NAIVE)
    list(APPEND flags --naive)
  endif()
  if(ARG_GENERATE_VJP)
    list(APPEND flags --generate-vjp)
  endif()
  if(ARG_PIPELINE_OPTIONS)
    list(APPEND flags "--pipeline-options=${ARG_PIPELINE_OPTIONS}")
  endif()
  if(ARG_MCPU)
    list(APPEND flags --mcpu ${ARG_MCPU})
  endif()
  if(ARG_MATTR)
    list(APPEND flags --mattr ${ARG_MATTR})
  endif()

  file(MAKE_DIRECTORY "${dir}")
  add_custom_command(
    OUTPUT "${object}" "${header}"
    COMMAND "${MIXER_COMPILE_EXECUTABLE}" "${source}" -o "${object}"
            --header "${header}" ${flags}
    DEPENDS "${source}" "${MIXER_COMPILE_EXECUTABLE}"
    COMMENT "mixer-compile ${ARG_SOURCE}"
    VERBATIM)
  set_source_files_properties("${object}" PROPERTIES
    EXTERNAL_OBJECT TRUE GENERATED TRUE)
  add_library(${name} STATIC "${object}" "${header}")
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C)
  target_include_directories(${name} INTERFACE "${dir}")
  target_link_libraries(${name} INTERFACE Mixer::Runtime m)
  if(NOT "${ARG_NUM_THREADS}" STREQUAL "1")
    target_link_libraries(${name} INTERFACE Mixer::OpenMP)
  endif()
endfunction()
