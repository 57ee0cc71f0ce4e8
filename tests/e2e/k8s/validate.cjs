// SPDX-License-Identifier: MIT
// Validates manifests printed by `iops k8s`, offline: node validate.cjs CACHE MANIFEST.yaml...
// CACHE holds node_modules installed from package.json / package-lock.json beside this file.
// For each manifest:
//  - YAML: every document parses under YAML 1.2 (strict, unique keys) and reads the same under
//    YAML 1.1 (what go-yaml in kubectl follows: yes/no/on/off, octal, sexagesimal numbers);
//  - the Kubernetes schemas: kubernetes-models' validate() of every object (types, required
//    fields, enums, formats), and its TypeScript types through tsc (unknown fields: a typo such
//    as volumDevices fails there, not in the schemas, which let unknown fields pass);
//  - what the schemas cannot say: an Indexed Job with completions = parallelism, the headless
//    Service its pods' subdomain names and its selector picks, the ConfigMap the volume names,
//    every mount and device naming a volume, the security settings of docker/k8s-job.yaml;
//  - MANIFEST.expect.json when it exists: {"pods": N, "volume": "Filesystem"|"Block"|"shared",
//    "args": [the client's arguments after --], "files": {ConfigMap key: text}}.
// Prints "ok FILE: KINDS" per manifest, "FAIL: FILE: WHY" and exits 1 at the first problem.
'use strict';
const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');
const { spawnSync } = require('child_process');

const cache = path.resolve(process.argv[2]);
const files = process.argv.slice(3);
const req = createRequire(path.join(cache, 'package.json'));
const YAML = req('yaml');
const models = {
  'v1/ConfigMap': [req('kubernetes-models/v1/ConfigMap').ConfigMap, 'IConfigMap', 'kubernetes-models/v1/ConfigMap'],
  'v1/Service': [req('kubernetes-models/v1/Service').Service, 'IService', 'kubernetes-models/v1/Service'],
  'batch/v1/Job': [req('kubernetes-models/batch/v1/Job').Job, 'IJob', 'kubernetes-models/batch/v1/Job'],
};

function fail(file, why) {
  console.log(`FAIL: ${file}: ${why}`);
  process.exit(1);
}

function check(file, cond, why) {
  if (!cond) fail(file, why);
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function parse(file, text, version) {
  const docs = YAML.parseAllDocuments(text, { version, uniqueKeys: true, strict: true, prettyErrors: true });
  for (const d of docs) {
    if (d.errors.length) fail(file, `YAML ${version}: ${d.errors[0].message}`);
    if (d.warnings.length) fail(file, `YAML ${version}: ${d.warnings[0].message}`);
  }
  return docs.map((d) => d.toJS());
}

function semantics(file, objs) {
  const byKind = {};
  for (const o of objs) byKind[o.kind] = o;
  const job = byKind.Job, svc = byKind.Service, cm = byKind.ConfigMap;
  check(file, job && svc, 'no Job or no Service');
  const js = job.spec, pod = js.template.spec, c = pod.containers[0];
  check(file, js.completionMode === 'Indexed', 'the Job is not Indexed');
  check(file, js.completions === js.parallelism && js.completions >= 1, 'completions != parallelism');
  check(file, js.backoffLimit === 0, 'backoffLimit is not 0');
  check(file, pod.restartPolicy === 'Never', 'restartPolicy is not Never');
  check(file, svc.spec.clusterIP === 'None', 'the Service is not headless');
  check(file, pod.subdomain === svc.metadata.name, "the pods' subdomain is not the Service's name");
  check(file, svc.metadata.namespace === job.metadata.namespace, 'the Service and the Job are in two namespaces');
  for (const [k, v] of Object.entries(svc.spec.selector))
    check(file, js.template.metadata.labels[k] === v, `the Service's selector ${k} does not pick the pods`);
  check(file, svc.spec.ports[0].port === c.ports[0].containerPort, 'the Service and the container ports differ');
  // docker/k8s-job.yaml's security settings
  const psc = pod.securityContext, csc = c.securityContext;
  check(file, psc.runAsNonRoot === true && psc.runAsUser !== 0, 'the pod may run as root');
  check(file, psc.seccompProfile && psc.seccompProfile.type === 'RuntimeDefault', 'no RuntimeDefault seccomp profile');
  check(file, csc.allowPrivilegeEscalation === false, 'allowPrivilegeEscalation is not false');
  check(file, csc.readOnlyRootFilesystem === true, 'the root file system is writable');
  check(file, same(csc.capabilities.drop, ['ALL']) && !csc.capabilities.add, 'capabilities are not all dropped');
  check(file, pod.automountServiceAccountToken === false, 'the service account token is mounted');
  check(file, same(c.command, ['/usr/bin/iops']) && c.args[0] === 'k8s-pod', 'the container does not run iops k8s-pod');
  const vols = new Set(pod.volumes.map((v) => v.name));
  for (const m of (c.volumeMounts || []).concat(c.volumeDevices || []))
    check(file, vols.has(m.name), `mount or device ${m.name} names no volume`);
  const cmv = pod.volumes.find((v) => v.configMap);
  check(file, !!cmv === !!cm, 'a ConfigMap without its volume, or the other way round');
  if (cm) check(file, cmv.configMap.name === cm.metadata.name, 'the volume names another ConfigMap');
  const arg = (name) => (c.args.find((a) => a.startsWith(`--${name}=`)) || '').slice(name.length + 3);
  check(file, Number(arg('pods')) === js.completions, '--pods is not the number of completions');
  check(file, arg('name') === job.metadata.name && arg('service') === svc.metadata.name, '--name/--service differ');
  return { job, cm, c, pod, arg };
}

function expectations(file, m) {
  const ef = file.replace(/\.yaml$/, '.expect.json');
  if (!fs.existsSync(ef)) return;
  const e = JSON.parse(fs.readFileSync(ef, 'utf8'));
  const { job, cm, c, pod, arg } = m;
  if (e.pods !== undefined) check(file, job.spec.completions === e.pods, `${job.spec.completions} pods, not ${e.pods}`);
  if (e.args !== undefined) {
    const got = c.args.slice(c.args.indexOf('--') + 1);
    check(file, same(got, e.args), `client arguments ${JSON.stringify(got)}, not ${JSON.stringify(e.args)}`);
  }
  if (e.files !== undefined)
    check(file, same(cm ? cm.data : {}, e.files), "the ConfigMap's data are not the files' texts");
  const data = pod.volumes.find((v) => v.name === 'data');
  if (e.volume === 'Block') {
    check(file, data.ephemeral.volumeClaimTemplate.spec.volumeMode === 'Block', 'the claim is not Block');
    check(file, c.volumeDevices && c.volumeDevices[0].devicePath === arg('device'), 'no device at --device');
  } else if (e.volume === 'shared') {
    const mnt = c.volumeMounts.find((v) => v.name === 'data');
    check(file, data.persistentVolumeClaim && /\$\(IOPS_POD_INDEX\)/.test(mnt.subPathExpr), 'no shared claim subPathExpr');
    check(file, c.env.some((v) => v.name === 'IOPS_POD_INDEX' && v.valueFrom.fieldRef), 'no IOPS_POD_INDEX');
  } else if (e.volume === 'Filesystem') {
    check(file, data.ephemeral.volumeClaimTemplate.spec.volumeMode === 'Filesystem', 'the claim is not Filesystem');
    check(file, c.volumeMounts.some((v) => v.name === 'data' && v.mountPath === arg('directory')), 'no mount at --directory');
  }
}

const ts = [];
files.forEach((file, fi) => {
  const text = fs.readFileSync(file, 'utf8');
  const objs = parse(file, text, '1.2');
  check(file, same(objs, parse(file, text, '1.1')), 'YAML 1.1 reads it differently');
  objs.forEach((o, di) => {
    const m = models[`${o.apiVersion}/${o.kind}`];
    check(file, m, `unexpected object ${o.apiVersion} ${o.kind}`);
    try {
      new m[0](o).validate();
    } catch (e) {
      fail(file, `${o.kind}: ${e.message.split('\n')[0]}`);
    }
    ts.push({ file, line: `export const m${fi}_${di}: ${m[1]} = ${JSON.stringify(o)};` });
  });
  expectations(file, semantics(file, objs));
  console.log(`ok ${file}: ${objs.map((o) => o.kind).join(', ')}`);
});

// The TypeScript types, all manifests in one tsc run (its start-up is the slow part).
const dir = fs.mkdtempSync(path.join(cache, 'check-'));
try {
  const imports = Object.values(models).map((m) => `import type { ${m[1]} } from "${m[2]}";`);
  fs.writeFileSync(path.join(dir, 'manifests.ts'), imports.concat(ts.map((t) => t.line)).join('\n') + '\n');
  const r = spawnSync(process.execPath, [path.join(cache, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict',
    '--skipLibCheck', '--lib', 'es2020', '--target', 'es2020', '--module', 'commonjs', '--moduleResolution', 'node',
    path.join(dir, 'manifests.ts')], { encoding: 'utf8' });
  if (r.status !== 0) {
    const first = (r.stdout || r.stderr || 'tsc failed').split('\n')[0];
    const m = /manifests\.ts\((\d+),/.exec(first);
    const at = m ? ts[Number(m[1]) - 4] : null;
    fail(at ? at.file : 'manifests', `TypeScript types: ${first.replace(/^.*?error /, '')}`);
  }
  console.log(`ok types: ${ts.length} objects`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
