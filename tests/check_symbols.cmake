# Every external symbol that libprofiler.a defines is the profiler's own:
# FLINT's profiler names (which ours must override) or prof_* names, and
# the -finstrument-functions hooks (alone in their object: see trace_hooks.c)
# and the exec family (alone in theirs, trace_exec.c: the trace is written
# before exec).
execute_process(COMMAND ${NM} -g --defined-only ${LIB}
  OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIB}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(count 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-fA-F]+ [A-Z] (.+)$")
    set(sym ${CMAKE_MATCH_1})
    math(EXPR count "${count} + 1")
    if(NOT sym MATCHES "^(prof_[a-z_]+|timeit_(start|stop|query_wall|start_us|stop_us|print)|clock_last|clock_accum|fprint_memory_usage|print_memory_usage|get_memory_usage|gettimeofday|__cyg_profile_func_(enter|exit)|exec(ve|v|vpe|vp|l|le|lp)|fexecve)$")
      message(SEND_ERROR "libprofiler.a defines a symbol outside the API: ${sym}")
    endif()
  endif()
endforeach()
if(count LESS 10)
  message(FATAL_ERROR "only ${count} symbols found: nm output not understood")
endif()
message(STATUS "${count} external symbols, all the profiler's own")
