#!/bin/sh
# The machine check on this machine (examples/bench --check): the check
# alone, exit 0, no benchmark run; each part as /proc and /sys say it here;
# the same check in the table's context and in the JSON context.
# Usage: check_machine.sh BENCH_PROGRAM
set -u
prog=$1
. "$(dirname "$0")/check_lib.sh"
dir=$tmp
# the value of a line "  NAME   value" of the check
part() { sed -n "s|^  $1  *||p" "$dir/check"; }

"$prog" --check >"$dir/check" 2>"$dir/err"; rc=$?
[ $rc = 0 ] || bad "--check: exit $rc"
cat "$dir/check"
[ "$(head -n 1 "$dir/check")" = "machine check (/proc and /sys):" ] \
    || bad "--check: first line $(head -n 1 "$dir/check")"
grep -q 'ns/op' "$dir/check" && bad "--check ran the suite"
[ -s "$dir/err" ] && bad "--check wrote to stderr: $(cat "$dir/err")"
tail -n 1 "$dir/check" | grep -q '^how to get quiet figures: doc/runner.md' \
    || bad "--check: no pointer to the quiet figures"
"$prog" --help | grep -q -e '^  --check' || bad "--help lacks --check"

# each part, as the machine says it
[ "$(part cores)" = "$(getconf _NPROCESSORS_ONLN) online" ] \
    || bad "cores: $(part cores)"
if [ -r /proc/loadavg ]; then
    part 'load average' | grep -Eq '^[0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2} \(1, 5, 15 min\)' \
        || bad "load: $(part 'load average')"
else
    [ "$(part 'load average')" = unknown ] || bad "load: $(part 'load average')"
fi
gov=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null)
case $(part governor) in
    "${gov:-unknown}"|mixed) ;;
    *) bad "governor: $(part governor), cpu0 says ${gov:-nothing}" ;;
esac
case $(cat /proc/sys/kernel/randomize_va_space 2>/dev/null) in
    0) aslr=off ;; 1) aslr=partial ;; 2) aslr=full ;; *) aslr=unknown ;;
esac
[ "$(part ASLR)" = "$aslr" ] || bad "ASLR: $(part ASLR), the kernel: $aslr"
case $(part turbo/boost) in on|off|unknown) ;; *) bad "turbo: $(part turbo/boost)" ;; esac
if grep -q '^flags.* hypervisor' /proc/cpuinfo 2>/dev/null; then
    [ "$(part 'virtual machine')" = yes ] || bad "VM: $(part 'virtual machine')"
fi
if [ -d /sys/bus/event_source/devices ]; then
    if ls /sys/bus/event_source/devices | grep -Eq '^cpu|^armv|^arm_|pmu'; then pmu=yes; else pmu=no; fi
    [ "$(part 'CPU PMU')" = $pmu ] || bad "PMU: $(part 'CPU PMU'), the kernel: $pmu"
fi
# a finding for a VM without a PMU, and for a load over the cores
if [ "$(part 'virtual machine')" = yes ] && [ "$(part 'CPU PMU')" = no ]; then
    grep -q '^ - a virtual machine without a PMU' "$dir/check" || bad "no PMU finding"
fi
if part 'load average' | grep -q 'over the cores'; then
    grep -q '^ - the load average .* exceeds the ' "$dir/check" || bad "no load finding"
fi

# the same check under the table's context line and in the JSON context
"$prog" --filter='one multiply' --out="$dir/r.json" >"$dir/table" 2>/dev/null \
    || bad "a run: exit"
# the machine line, joined where it wraps at 100 columns
machine_line() {
    awk 'NR >= 2 && NF == 0 { exit } NR >= 2 { printf "%s%s", s, $0; s = " " }' "$dir/table"
}
machine_line | grep -Eq "^machine: load ([0-9.]+|unknown) on [0-9]+ cores.*, governor .*, turbo (on|off|unknown), ASLR $aslr, virtual machine $(part 'virtual machine'), PMU $(part 'CPU PMU')\$" \
    || bad "table context: $(machine_line)"
grep -Eq "\"profiler_machine\": \{\"loaded\": (true|false|null), \"governor\": \"[^\"]*\", \"turbo\": \"(on|off|unknown)\", \"aslr\": \"$aslr\"" "$dir/r.json" \
    || bad "JSON context: $(grep profiler_machine "$dir/r.json")"

check_done check_machine
