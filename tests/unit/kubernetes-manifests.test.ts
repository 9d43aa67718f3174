/**
 * deploy/kubernetes is valid against the Kubernetes API schemas (scripts/validate-kubernetes.mjs,
 * kubernetes-models' validators), and the check is not a rubber stamp: each broken copy below
 * (a schema error, a missing required field, an unknown kind, a privileged container, a selector
 * that matches nothing) fails with the reason.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import { validateManifests } from '../../scripts/validate-kubernetes.mjs';

const validate = validateManifests as (dir: string) => Promise<string[]>;
const SOURCE = 'deploy/kubernetes';
const copies: string[] = [];
afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A copy of the manifests with `file`'s text passed through `edit`. */
function broken(file: string, edit: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'benchtop-k8s-'));
  copies.push(dir);
  cpSync(SOURCE, dir, { recursive: true });
  const before = readFileSync(join(dir, file), 'utf8');
  const after = edit(before);
  expect(after, 'the edit must change the manifest').not.toBe(before);
  writeFileSync(join(dir, file), after);
  return dir;
}

describe('Kubernetes manifests', () => {
  it('the shipped manifests are valid', async () => {
    expect(await validate(SOURCE)).toEqual([]);
  });

  it('a port given as a word where the schema wants an integer fails', async () => {
    const problems = await validate(broken('deployment.yaml', (t) => t.replace('containerPort: 8080', 'containerPort: eighty')));
    expect(problems.join('\n')).toMatch(/deployment\.yaml: Deployment benchtop-runner: .*containerPort/);
  });

  it('a Deployment without its required selector fails', async () => {
    const problems = await validate(broken('deployment.yaml', (t) => t.replace(/ {2}selector:\n {4}matchLabels:\n {6}app\.kubernetes\.io\/name: benchtop-runner\n/, '')));
    expect(problems.join('\n')).toMatch(/deployment\.yaml: Deployment benchtop-runner: .*selector/);
  });

  it('an autoscaler metric of an unknown type fails', async () => {
    const problems = await validate(broken('hpa.yaml', (t) => t.replace('type: Utilization', 'type: 70')));
    expect(problems.join('\n')).toMatch(/hpa\.yaml: HorizontalPodAutoscaler benchtop-runner: /);
  });

  it('an apiVersion/kind that Kubernetes does not have fails', async () => {
    const problems = await validate(broken('service.yaml', (t) => t.replace('kind: Service', 'kind: Servise')));
    expect(problems).toContain('service.yaml: unknown apiVersion/kind v1/Servise');
  });

  it('a privileged runner container fails (bubblewrap needs user namespaces, not privileges)', async () => {
    const problems = await validate(broken('deployment.yaml', (t) => t.replace('privileged: false', 'privileged: true')));
    expect(problems).toContain('deployment.yaml: Deployment benchtop-runner container runner: securityContext.privileged must be false');
  });

  it('a Service that selects no runner pod fails', async () => {
    const problems = await validate(broken('service.yaml', (t) => t.replace(/selector:\n {4}app\.kubernetes\.io\/name: benchtop-runner/, 'selector:\n    app.kubernetes.io/name: something-else')));
    expect(problems).toContain("service.yaml: Service benchtop-runner selects no Deployment's pods");
  });
});
