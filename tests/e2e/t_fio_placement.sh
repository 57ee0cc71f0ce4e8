#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: early (one of the longest: started first, so that no long script is left running alone at the end)
# Placement of the job threads: cpus_allowed / cpumask / cpus_allowed_policy=split /
# numa_cpu_nodes / numa_mem_policy. While a 2-job time_based run is going, the threads'
# Cpus_allowed_list (/proc/PID/task/*/status) must show each job pinned as fio pins it, for fio
# and the binary under test alike; bad values give fio's lines and exit 1. The CPUs are the
# first two this process may use (a container's cpuset need not hold CPUs 0 and 1); the NUMA
# cases run where the kernel has NUMA (probed).
. "$(dirname "$0")/fio_common.sh"

errors=()
add_err() { errors+=("$*"); }
ncpu=$(nproc --all)

# pinned SIDE NAME WANT ARGS...: the sorted single-CPU affinities of the run's job threads. The
# threads are looked at every 0.1 s while the run lasts (a loaded machine starts them late):
# WANT must show in one look taken while the two job threads exist; an empty WANT (nothing
# pinned) must hold in every such look, and there must be one.
pinned() {
	local side=$1 name=$2 want=$3 bin pid got seen=0 ok=0 nthreads
	shift 3
	if [ "$side" = ref ]; then bin=$REF_FIO; else bin=$UT_FIO; fi
	mkdir -p "$T/$name.$side.d"
	(cd "$T/$name.$side.d" && exec "$bin" --name=p --ioengine=null --size=1m --time_based --runtime=3 \
		--thread --numjobs=2 "$@" >"$T/$name.$side.out" 2>&1) &
	pid=$!
	sleep 0.3
	while kill -0 "$pid" 2>/dev/null; do
		nthreads=$(ls "/proc/$pid/task" 2>/dev/null | wc -l)
		got=$(cat /proc/$pid/task/*/status 2>/dev/null | awk '/^Cpus_allowed_list/ && $2 !~ /[-,]/ { print $2 }' |
			sort -n | tr '\n' ' ')
		if [ "$nthreads" -ge 3 ]; then	# the main thread and the two jobs at least
			seen=$((seen + 1))
			if [ -n "$want" ]; then
				[ "$got" = "$want" ] && { ok=1; break; }
			elif [ -n "$got" ]; then
				break
			fi
		fi
		sleep 0.1
	done
	[ -z "$want" ] && [ -z "$got" ] && [ "$seen" -gt 0 ] && ok=1
	wait $pid || add_err "$name ($side): exit $?: $(head -c 300 "$T/$name.$side.out")"
	case_ran
	[ "$ok" = 1 ] || add_err "$name ($side): single-CPU threads '$got' ($seen looks), expected '$want'"
}

mapfile -t cpus < <(allowed_cpus)
if [ "${#cpus[@]}" -ge 2 ]; then
	a=${cpus[0]} b=${cpus[1]}
	for side in ref ut; do
		pinned "$side" split "$a $b " --cpus_allowed="$a,$b" --cpus_allowed_policy=split
		pinned "$side" mask "$b $b " --cpumask=$((1 << b))
		pinned "$side" list "$a $a " --cpus_allowed="$a"
		pinned "$side" shared "" --cpus_allowed="$a,$b"
	done
	# in a narrower cpuset (taskset, docker --cpuset-cpus) the machine still has all its CPUs:
	# cpus_allowed names one of them, as fio takes it (musl's sysconf counts only the allowed)
	for side in ref ut; do
		FIO_WRAP="taskset -c $b" run_one "$side" narrow --name=p --ioengine=null --size=1m --cpus_allowed="$b"
		[ "$(rc_of narrow $side)" = 0 ] || add_err "narrow ($side): exit $(rc_of narrow $side): $(head -c 300 "$T/narrow.$side.err")"
	done
	FIO_WRAP="taskset -c $b" run_pair narrow-bad --name=p --ioengine=null --size=1m --cpus_allowed="$ncpu"
	case_ran
	[ "$(head -n 1 "$T/narrow-bad.ref.err")" = "$(head -n 1 "$T/narrow-bad.ut.err")" ] ||
		add_err "narrow-bad: fio [$(head -n 1 "$T/narrow-bad.ref.err")] iops [$(head -n 1 "$T/narrow-bad.ut.err")]"
else
	case_skip "one CPU allowed here (${cpus[*]}): no split to check"
fi
# numa: node 0, where the kernel has NUMA; its CPUs are the machine's
if kernel_has numa; then
	for side in ref ut; do
		run_one "$side" numa --name=p --ioengine=null --size=1m --numa_cpu_nodes=0 --numa_mem_policy=bind:0
		[ "$(rc_of numa $side)" = 0 ] || add_err "numa ($side): exit $(rc_of numa $side): $(head -c 300 "$T/numa.$side.err")"
	done
else
	case_skip "numa_cpu_nodes, numa_mem_policy: no NUMA here ($PROBE_WHY)"
fi

# refusals: fio's lines, exit 1
bad=("cpu-too-large|--cpus_allowed=$ncpu" "mask-too-large|--cpumask=$((1 << ncpu))"
     "no-node|--numa_cpu_nodes=63" "bad-mpol|--numa_mem_policy=xyz" "bad-policy|--cpus_allowed_policy=half")
for c in "${bad[@]}"; do
	IFS='|' read -r name arg <<<"$c"
	run_pair "$name" --name=p --ioengine=null --size=1m "$arg"
	case_ran
	[ "$(rc_of "$name" ref)" = 1 ] && [ "$(rc_of "$name" ut)" = 1 ] ||
		add_err "$name: exit $(rc_of "$name" ref) (fio) / $(rc_of "$name" ut), expected 1"
	while IFS= read -r line; do
		case $line in libnuma:* | "") continue ;; esac	# libnuma's own warning (fio links it)
		grep -qxF -- "$line" "$T/$name.ut.err" || add_err "$name: fio says '$line', iops: '$(head -n 2 "$T/$name.ut.err" | tr '\n' '|')'"
	done <"$T/$name.ref.err"
done

if [ ${#errors[@]} -gt 0 ]; then
	printf '%s\n' "${errors[@]}" >&2
	fail "${#errors[@]} problem(s)"
fi
echo "placement: pinned threads as fio's, numa options, ${#bad[@]} refusals"
