#!/usr/bin/env bash
# Placement of the job threads: cpus_allowed / cpumask / cpus_allowed_policy=split /
# numa_cpu_nodes / numa_mem_policy. While a 2-job time_based run is going, the threads'
# Cpus_allowed_list (/proc/PID/task/*/status) must show each job pinned as fio pins it, for fio
# and the binary under test alike; bad values give fio's lines and exit 1.
. "$(dirname "$0")/fio_common.sh"

errors=()
add_err() { errors+=("$*"); }
ncpu=$(nproc --all)

# pinned SIDE NAME WANT ARGS...: the sorted single-CPU affinities of the run's threads
pinned() {
	local side=$1 name=$2 want=$3 bin pid got
	shift 3
	if [ "$side" = ref ]; then bin=$REF_FIO; else bin=$UT_FIO; fi
	mkdir -p "$T/$name.$side.d"
	(cd "$T/$name.$side.d" && exec "$bin" --name=p --ioengine=null --size=1m --time_based --runtime=3 \
		--thread --numjobs=2 "$@" >"$T/$name.$side.out" 2>&1) &
	pid=$!
	sleep 1.5
	got=$(cat /proc/$pid/task/*/status 2>/dev/null | awk '/^Cpus_allowed_list/ && $2 !~ /[-,]/ { print $2 }' |
		sort -n | tr '\n' ' ')
	wait $pid || add_err "$name ($side): exit $?: $(head -c 300 "$T/$name.$side.out")"
	case_ran
	[ "$got" = "$want" ] || add_err "$name ($side): single-CPU threads '$got', expected '$want'"
}

if [ "$ncpu" -ge 2 ]; then
	for side in ref ut; do
		pinned "$side" split "0 1 " --cpus_allowed=0-1 --cpus_allowed_policy=split
		pinned "$side" mask "1 1 " --cpumask=2
		pinned "$side" list "0 0 " --cpus_allowed=0
		pinned "$side" shared "" --cpus_allowed=0-1
	done
else
	skip_note "one CPU: no split to check"
fi
# numa: node 0 exists everywhere; its CPUs are the machine's
for side in ref ut; do
	run_one "$side" numa --name=p --ioengine=null --size=1m --numa_cpu_nodes=0 --numa_mem_policy=bind:0
	[ "$(rc_of numa $side)" = 0 ] || add_err "numa ($side): exit $(rc_of numa $side): $(head -c 300 "$T/numa.$side.err")"
done

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
