# (The consumer is built with the same compiler flags as hipamp, so sanitizer builds link.)
# Installs the hipamp build in HIPAMP_BINARY_DIR into a fresh prefix, then configures,
# builds and runs the consumer project against that prefix alone.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
if(NOT CONFIG)
  set(CONFIG Release)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --install "${HIPAMP_BINARY_DIR}" --prefix "${prefix}" --config ${CONFIG}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "install failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}" -B "${WORK_DIR}/build"
                        -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=${CONFIG}
                        "-DCMAKE_CXX_FLAGS=${CONSUMER_CXX_FLAGS}"
                        "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_LINKER_FLAGS}"
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "consumer configure failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/build" --config ${CONFIG} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "consumer build failed (${rc})")
endif()
file(GLOB_RECURSE exe "${WORK_DIR}/build/consumer" "${WORK_DIR}/build/*/consumer.exe")
execute_process(COMMAND ${exe} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "consumer run failed (${rc})")
endif()
