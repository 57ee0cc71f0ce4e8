#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# e2e: early (one of the longest: started first, so that no long script is left running alone at the end)
# iops k8s and iops k8s-pod (no cluster runs here):
#  1. manifests for the Filesystem, Block, shared-claim, config.file and hostile-string variants:
#     the same options give the same bytes; each is validated offline against the Kubernetes
#     schemas (kubernetes-models, its TypeScript types for unknown fields, YAML 1.2 and 1.1
#     readings: tests/e2e/k8s/validate.cjs, installed with npm into build/node-k8s from the
#     lock file, a counted SKIP where npm cannot install it); the validator itself refuses
#     broken manifests;
#  2. bad options: one line on stderr, exit 1, nothing on stdout;
#  3. the pods as processes (tests/e2e/k8s/pods.sh) in a network and mount namespace of their
#     own: loopback addresses only, the pods' names in an /etc/hosts of the test's. A SKIP with
#     the reason where namespaces cannot be made, or while `iops --server` is not in the build.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
M=$T/m
mkdir -p "$M"

# --- 1. the variants --------------------------------------------------------------------------
cat >"$T/job.fio" <<'EOF'
[global]
ioengine=psync
size=16m
[randrw]
rw=randrw
bs=4k
EOF
# Hostile for YAML, valid for fio: quotes, colons, hashes, indicators, a leading blank, Unicode.
printf '%s\n' '; yes: no # {x} & *y "double" '"'single'"' \ back ~ null' '[evil]' \
	'description="a: b - c # d"' '  rw=read' 'size=1m' '; snowman ☃ NEL-free' >"$T/evil.fio"
cat >"$T/config.file" <<'EOF'
# simple-fio's config.file (seed 004)
storageclass=ocs-storagecluster-ceph-rbd
volumemode=Block
platform=bm
server=3
sample=2
prefill=true
storage(Gi)=200
rw=randwrite randread
bs=4K 8K 16K
iodepth=8
numjobs=4
size=10G
direct=1
time_based=1
runtime=300
EOF

# expect NAME PODS VOLUME FILES [ARGS...]: NAME.expect.json for validate.cjs (FILES: key=path,...)
expect() {
	python3 - "$@" <<'EOF'
import json, sys
name, pods, volume, files, args = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
data = {}
for kv in filter(None, files.split(',')):
    k, p = kv.split('=', 1)
    data[k] = open(p, encoding='utf-8').read()
json.dump({'pods': pods, 'volume': volume, 'files': data, 'args': args}, open(name + '.expect.json', 'w'))
EOF
}
render() {	# NAME ARGS...: NAME.yaml
	local name=$1
	shift
	"$IOPS" k8s "$@" >"$M/$name.yaml" 2>"$M/$name.err" || fail "iops k8s $*: exit $?: $(cat "$M/$name.err")"
	[ ! -s "$M/$name.err" ] || [ "$name" = config ] || fail "iops k8s $*: said $(cat "$M/$name.err")"
}
FSJOB=(--name=randread --rw=randread --bs=4k --size=1g --direct=1 --ioengine=libaio --iodepth=16 --runtime=60 --time_based)
render filesystem --name=fsbench --parallelism=3 --storage-class=fast-ssd --size=20Gi \
	--node-selector=kubernetes.io/os=linux --output-format=json+ -- "${FSJOB[@]}"
expect "$M/filesystem" 3 Filesystem "" "${FSJOB[@]}"
render block --name=blk --parallelism=2 --volume-mode=Block --namespace=bench --deadline=3600 \
	--token-secret=iops-token --image=registry.example.com/storage/iops:0.1.0 -- "$T/job.fio"
expect "$M/block" 2 Block "job.fio=$T/job.fio" /iops/job/job.fio
render shared --name=shared --parallelism=4 --shared-pvc=rwx-claim -- --name=w --rw=randwrite --size=256m
expect "$M/shared" 4 shared "" --name=w --rw=randwrite --size=256m
render config --name=sweep --config="$T/config.file" --output-format=csv
expect "$M/config" 3 Block "config.file=$T/config.file"
grep -q -- '- "--runs=1"' "$M/config.yaml" || fail "config: the sweep is not one session per server"
grep -q 'storage: "200Gi"' "$M/config.yaml" || fail "config: storage(Gi)=200 is not the claims' size"
grep -q 'storageClassName: ocs-storagecluster-ceph-rbd' "$M/config.yaml" || fail "config: no storage class"
HOSTILE=("--description=a: b # c \"d\" \\ 'e' yes ~ null [f] {g} &h *i !j %k @l \`m" "--description=☃ ü ‰")
render hostile --name=hostile -- "${HOSTILE[@]}" "$T/evil.fio"
expect "$M/hostile" 1 Filesystem "evil.fio=$T/evil.fio" "${HOSTILE[@]}" /iops/job/evil.fio
case_ran
"$IOPS" k8s --name=fsbench --parallelism=3 --storage-class=fast-ssd --size=20Gi \
	--node-selector=kubernetes.io/os=linux --output-format=json+ -- "${FSJOB[@]}" | cmp -s - "$M/filesystem.yaml" ||
	fail "the same options gave other bytes"
echo "ok: 5 manifests rendered, the same options give the same bytes"

# --- the schemas (offline once installed) ---
cache=$(cd "$(dirname "$IOPS")" && pwd)/node-k8s
npm_why=
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	npm_why="node or npm not installed (apt-get install nodejs npm)"
elif ! cmp -s "$cache/package-lock.json" "$here/k8s/package-lock.json" || [ ! -d "$cache/node_modules/kubernetes-models" ]; then
	new=$(mktemp -d "$(dirname "$cache")/node-k8s.XXXXXX")
	cp "$here/k8s/package.json" "$here/k8s/package-lock.json" "$new/"
	if (cd "$new" && timeout 240 npm ci --no-audit --no-fund --ignore-scripts >"$T/npm.log" 2>&1); then
		rm -rf "$cache" && mv "$new" "$cache" || npm_why="cannot move the npm install into $cache"
	else
		npm_why="npm cannot install kubernetes-models: $(grep -m1 -i 'err' "$T/npm.log" || tail -1 "$T/npm.log")"
		rm -rf "$new"
	fi
fi
if [ -n "$npm_why" ]; then
	case_skip "schema validation: $npm_why"
else
	node "$here/k8s/validate.cjs" "$cache" "$M"/{filesystem,block,shared,config,hostile}.yaml >"$T/validate.out" 2>&1 ||
		{ cat "$T/validate.out"; fail "a manifest does not validate"; }
	cat "$T/validate.out"
	# the validator refuses what it must: an unknown field, a wrong type, a YAML 1.1 ambiguity
	sed 's/volumeDevices:/volumDevices:/' "$M/block.yaml" >"$M/bad-field.yaml"
	sed 's/^  completions: 3$/  completions: "3"/' "$M/filesystem.yaml" >"$M/bad-type.yaml"
	sed 's/readOnlyRootFilesystem: true/readOnlyRootFilesystem: yes/' "$M/shared.yaml" >"$M/bad-yaml11.yaml"
	sed 's/^  clusterIP: None$/  clusterIP: 10.0.0.1/' "$M/shared.yaml" >"$M/bad-headless.yaml"
	for b in bad-field bad-type bad-yaml11 bad-headless; do
		! node "$here/k8s/validate.cjs" "$cache" "$M/$b.yaml" >"$T/$b.out" 2>&1 || fail "the validator took $b.yaml"
		grep -q '^FAIL: ' "$T/$b.out" || fail "$b.yaml: $(cat "$T/$b.out")"
	done
	echo "ok: the validator refuses an unknown field, a wrong type, a YAML 1.1 boolean, a Service with a cluster IP"
	case_ran
fi

# --- 2. refusals: one line on stderr, exit 1, nothing on stdout ---------------------------------
printf '[a]\nrw=read\n\0' >"$T/bin.fio"
printf '[a]\n; caf\xe9\nrw=read\n' >"$T/latin1.fio"
printf '[a]\ninclude other.fio\n' >"$T/inc.fio"
printf 'server=0\n' >"$T/bad.file"
long=$(printf 'a%.0s' $(seq 61))
refuse() {	# WORD ARGS...: iops k8s ARGS... refused, its one line naming WORD
	local word=$1 rc
	shift
	"$IOPS" k8s "$@" >"$T/r.out" 2>"$T/r.err"
	rc=$?
	[ $rc = 1 ] || fail "iops k8s $*: exit $rc, not 1"
	[ ! -s "$T/r.out" ] || fail "iops k8s $*: printed on stdout: $(head -2 "$T/r.out")"
	[ "$(wc -l <"$T/r.err")" = 1 ] || fail "iops k8s $*: not one line: $(cat "$T/r.err")"
	grep -q '^iops k8s: ' "$T/r.err" || fail "iops k8s $*: $(cat "$T/r.err")"
	grep -qF -- "$word" "$T/r.err" || fail "iops k8s $*: '$word' not in: $(cat "$T/r.err")"
}
refuse parallelism --parallelism=0 -- --name=a
refuse parallelism --parallelism=1025 -- --name=a
refuse parallelism --parallelism=99999999999999999999 -- --name=a
refuse parallelism --parallelism= -- --name=a
refuse parallelism --parallelism=three -- --name=a
refuse name --name=Bad -- --name=a
refuse name --name="$long" --parallelism=11 -- --name=a
refuse size --size=10GB -- --name=a
refuse size --size=0 -- --name=a
refuse volume-mode --volume-mode=raw -- --name=a
refuse node-selector --node-selector=disk -- --name=a
refuse image "--image=bad image" -- --name=a
refuse namespace --namespace=Prod -- --name=a
refuse port --port=65536 -- --name=a
refuse wait --wait=0 -- --name=a
refuse shared-pvc --shared-pvc=c --size=1Gi -- --name=a
refuse shared-pvc --shared-pvc=c --volume-mode=Block -- --name=a
refuse bogus --bogus -- --name=a
refuse "'-x'" -x -- --name=a
refuse "no workload"
refuse randrd -- --name=a --rw=randrd
refuse missing.fio -- "$T/missing.fio"
refuse bin.fio -- "$T/bin.fio"
refuse "not UTF-8" -- "$T/latin1.fio"
refuse include -- "$T/inc.fio"
refuse missing.file --config="$T/missing.file"
refuse "server=0" --config="$T/bad.file"
refuse "--name=a" --config="$T/config.file" -- --name=a
refuse "output-format=csv" --output-format=csv -- --name=a
refuse "--output-format=json" -- --output-format=json --name=a
refuse "--client=x" -- --client=x --name=a
"$IOPS" k8s --help | grep -q -- '--shared-pvc' || fail "iops k8s --help"
echo "ok: 31 bad command lines refused (one line, exit 1, nothing on stdout)"
case_ran

# --- 3. the pods, emulated --------------------------------------------------------------------
"$IOPS" k8s --name=d --wait=20 --output-format=json+ -- --name=j --rw=randread --bs=4k --size=4m \
	--ioengine=psync --direct=1 >"$T/one.yaml" || fail "iops k8s for the one-pod case"
# the namespaces are asked of the kernel by unshare(1) itself (root, CLONE_NEWNET|CLONE_NEWNS);
# the Block pod's loop device by the probe, here (pods.sh fails if losetup then fails)
if [ "$(id -u)" != 0 ] || ! unshare -n -m true 2>"$T/unshare.err"; then
	case_skip "pods: cannot make network and mount namespaces here (unshare -n -m: $(id -u) = 0 needed; $(head -c 200 "$T/unshare.err"))"
else
	command -v losetup >/dev/null || missing_prereq "losetup is required (Debian package util-linux)"
	PODS_LOOP_WHY=
	kernel_has loop || PODS_LOOP_WHY=${PROBE_WHY:-no loop device}
	PODS_LOOP_WHY=$PODS_LOOP_WHY unshare -n -m bash "$here/k8s/pods.sh" "$IOPS" "$T" >"$T/pods.out" 2>&1
	rc=$?
	cat "$T/pods.out"
	[ $rc = 0 ] && ! grep -q '^FAIL' "$T/pods.out" || fail "the pods (exit $rc)"
	[ "$(grep -c '^ok: ' "$T/pods.out")" -ge 4 ] || fail "the pods: fewer than 4 cases ran"
	case_ran
fi
