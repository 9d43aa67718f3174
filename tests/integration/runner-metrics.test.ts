/**
 * GET /metrics (runner/server.ts): the run slots and the queue as Prometheus gauges, the metric the
 * Kubernetes autoscaler (deploy/kubernetes/hpa.yaml) can follow. Real sandboxed runs fill the one
 * slot and the queue; the gauges must say so, and drop back to zero when the runs end.
 */
import { afterAll, expect, it } from 'vitest';
import type { StartedRunner } from '../../runner/runner';
import { startTestRunner, submit } from '../support/runner-helpers';

let runner: StartedRunner | undefined;
afterAll(async () => { await runner?.close(); });

/** The gauges of a Prometheus text page, by name. */
async function gauges(url: string): Promise<{ type: string | null; values: Record<string, number> }> {
  const response = await fetch(`${url}/metrics`);
  expect(response.status).toBe(200);
  const text = await response.text();
  const values: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^(benchtop_runner_\w+) (\d+)$/.exec(line);
    if (m) values[m[1]!] = Number(m[2]);
  }
  for (const name of Object.keys(values)) expect(text).toContain(`# TYPE ${name} gauge`);
  return { type: response.headers.get('content-type'), values };
}

it('GET /metrics counts the running and the queued programs, without the bearer token', async () => {
  runner = await startTestRunner({ maxConcurrency: 1, token: 'metrics-token' });
  const auth = { authorization: 'Bearer metrics-token' };
  const idle = await gauges(runner.url);
  expect(idle.type).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(idle.values).toEqual({ benchtop_runner_queued: 0, benchtop_runner_running: 0, benchtop_runner_max_concurrency: 1, benchtop_runner_ready: 1 });

  // One slot: the first run holds it for 2 s while two more wait in the queue.
  const runs = [submit(runner.url, 'shell', 'sleep 2', undefined, auth), submit(runner.url, 'shell', 'echo b', undefined, auth), submit(runner.url, 'shell', 'echo c', undefined, auth)];
  const deadline = Date.now() + 30_000;
  let busy = idle;
  while (Date.now() < deadline && (busy.values.benchtop_runner_running !== 1 || busy.values.benchtop_runner_queued !== 2)) busy = await gauges(runner.url);
  expect(busy.values).toMatchObject({ benchtop_runner_running: 1, benchtop_runner_queued: 2 });

  expect((await Promise.all(runs)).map((r) => r.body.exec_outcome)).toEqual(['PASSED', 'PASSED', 'PASSED']);
  expect((await gauges(runner.url)).values).toMatchObject({ benchtop_runner_running: 0, benchtop_runner_queued: 0 });
});
