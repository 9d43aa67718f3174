/**
 * Validates deploy/kubernetes/*.yaml: every object against the Kubernetes API schemas (the
 * kubernetes-models package: its validators are generated from the Kubernetes OpenAPI schemas
 * and ship in the npm package, Apache-2.0), then the few rules the runner's deployment must keep:
 * no privileged container, no privilege escalation, a readiness probe on /health, a Service and an
 * autoscaler that point at the Deployment. Like kubectl's default, fields the schema does not name
 * are not errors. `node scripts/validate-kubernetes.mjs [dir]` exits 1 on any problem;
 * tests/unit/kubernetes-manifests.test.ts runs it and proves that broken manifests fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseAllDocuments } from 'yaml';

/** The kubernetes-models module of an object: `apps/v1` + `Deployment` → kubernetes-models/apps/v1/Deployment. */
async function modelOf(apiVersion, kind) {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !/^[\w.]+(\/\w+)?$/.test(apiVersion) || !/^\w+$/.test(kind)) return null;
  try {
    return (await import(/* @vite-ignore */ `kubernetes-models/${apiVersion}/${kind}`))[kind] ?? null;
  } catch {
    return null;
  }
}

const containersOf = (object) => object?.spec?.template?.spec?.containers ?? [];

/** Problems in `objects` (each { file, object }) beyond the schemas: the deployment's own rules. */
function ruleProblems(objects) {
  const problems = [];
  const deployments = objects.filter((o) => o.object.kind === 'Deployment');
  for (const { file, object } of deployments) {
    const pod = object.spec?.template?.spec ?? {};
    for (const c of containersOf(object)) {
      const where = `${file}: Deployment ${object.metadata?.name} container ${c.name}`;
      if (c.securityContext?.privileged !== false) problems.push(`${where}: securityContext.privileged must be false`);
      if (c.securityContext?.allowPrivilegeEscalation !== false) problems.push(`${where}: securityContext.allowPrivilegeEscalation must be false`);
      const probe = c.readinessProbe;
      const onHealth = probe?.httpGet?.path === '/health' || (probe?.exec?.command ?? []).some((part) => String(part).includes('/health'));
      if (!onHealth) problems.push(`${where}: a readinessProbe on /health is required`);
    }
    if (pod.securityContext?.runAsNonRoot !== true) problems.push(`${file}: Deployment ${object.metadata?.name}: the pod must run as non-root (runAsNonRoot: true)`);
  }
  const byName = new Map(deployments.map((d) => [d.object.metadata?.name, d.object]));
  for (const { file, object } of objects) {
    if (object.kind === 'HorizontalPodAutoscaler') {
      const target = object.spec?.scaleTargetRef;
      if (target?.kind !== 'Deployment' || !byName.has(target?.name)) problems.push(`${file}: the autoscaler's scaleTargetRef names no Deployment here`);
    }
    if (object.kind === 'Service') {
      const selector = Object.entries(object.spec?.selector ?? {});
      const matches = deployments.some((d) => selector.length && selector.every(([k, v]) => d.object.spec?.template?.metadata?.labels?.[k] === v));
      if (!matches) problems.push(`${file}: Service ${object.metadata?.name} selects no Deployment's pods`);
    }
  }
  return problems;
}

/** Every problem found in the manifests of `dir` (an empty list: all valid). */
export async function validateManifests(dir) {
  const problems = [];
  const objects = [];
  const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml').sort();
  if (!files.length) problems.push(`${dir}: no manifests`);
  for (const file of files) {
    for (const doc of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      if (doc.errors.length) {
        problems.push(`${file}: YAML: ${doc.errors[0].message}`);
        continue;
      }
      const object = doc.toJS();
      if (object === null) continue;
      const Model = await modelOf(object.apiVersion, object.kind);
      if (!Model) {
        problems.push(`${file}: unknown apiVersion/kind ${object.apiVersion}/${object.kind}`);
        continue;
      }
      try {
        new Model(object).validate();
      } catch (e) {
        problems.push(`${file}: ${object.kind} ${object.metadata?.name}: ${e.message}`);
        continue;
      }
      objects.push({ file, object });
    }
  }
  // kustomization.yaml must list exactly the manifests (kubectl apply -k applies what it lists).
  const kustomization = parseAllDocuments(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'))[0]?.toJS();
  const listed = [...(kustomization?.resources ?? [])].sort();
  if (JSON.stringify(listed) !== JSON.stringify(files)) problems.push(`kustomization.yaml lists ${listed.join(', ')} but the folder has ${files.join(', ')}`);
  return [...problems, ...ruleProblems(objects)];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2] ?? 'deploy/kubernetes';
  const problems = await validateManifests(dir);
  for (const p of problems) console.error(p);
  console.log(problems.length ? `${problems.length} problem(s) in ${dir}` : `${dir}: every manifest is valid`);
  process.exitCode = problems.length ? 1 : 0;
}
