#!/bin/sh
# The opt-in rule for sampling (as check_tracer_optin.sh checks it for
# tracing): a program that does not call prof_sample_* links no object
# of the sampler (neither its API nor its perf ring code); one that does
# links both.
# Usage: check_sampler_optin.sh NM KIND:PROGRAM...   KIND: plain or sampled
set -u
nm=$1; shift
fail=0
for kp in "$@"; do
    kind=${kp%%:*} prog=${kp#*:}
    n=$("$nm" "$prog" | grep -c -E ' [Tt] (prof_sample_start|prof_impl_sample_rings_open)$')
    if [ "$kind" = plain ] && [ "$n" -ne 0 ]; then
        echo "FAILED: $prog does not sample but links the sampler"; fail=1
    elif [ "$kind" = sampled ] && [ "$n" -ne 2 ]; then
        echo "FAILED: $prog samples but lacks the sampler ($n of 2 symbols)"; fail=1
    else
        echo "ok: $kind $prog"
    fi
done
exit $fail
