/**
 * Hostile programs against the runner's isolation: each is contained, ends with a sensible
 * outcome on time, leaves nothing behind (no process, no temporary file, no file outside its own
 * directory), and the next request still works.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { prepareExecutor, type StartedRunner } from '../../runner/runner';
import { BASE_CONFIG, startTestRunner, submit } from '../support/runner-helpers';

const UID_BASE = 62000;
const SLOTS = 2;
let runner: StartedRunner;
const runTmp = mkdtempSync(join(tmpdir(), 'benchtop-hostile-'));

/** Processes still running as one of the runner's sandbox uids. */
function sandboxProcesses(): string[] {
  const out = execFileSync('ps', ['-eo', 'uid=,pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => {
    const uid = Number(line.trim().split(/\s+/)[0]);
    return uid >= UID_BASE && uid < UID_BASE + SLOTS;
  });
}

beforeAll(async () => {
  // 1 GiB of address space per process: memory hogs fail fast.
  const prepared = await prepareExecutor({ ...BASE_CONFIG, uidBase: UID_BASE, memoryMb: 1024, tmpDir: runTmp });
  runner = await startTestRunner({ maxConcurrency: SLOTS }, prepared);
});
afterAll(async () => {
  await runner.close();
  rmSync(runTmp, { recursive: true, force: true });
});

afterEach(async () => {
  // Contained: nothing of the program survives its run, and the next request works.
  if (process.getuid?.() === 0) expect(sandboxProcesses()).toEqual([]);
  const next = await submit(runner.url, 'shell', 'echo next');
  expect(next.body).toMatchObject({ exec_outcome: 'PASSED', exec_cout: 'next\n' });
});

describe('hostile programs', () => {
  it('an infinite loop ends as TIME_LIMIT_EXCEEDED on time', async () => {
    const started = performance.now();
    const reply = await submit(runner.url, 'python', 'while True:\n    pass', 2000);
    const elapsed = performance.now() - started;
    expect(reply.body.exec_outcome).toBe('TIME_LIMIT_EXCEEDED');
    expect(reply.body.response_extensions.timeout).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(6000);
  });

  it('a compiled infinite loop, and a program that ignores signals in a background child, are killed too', async () => {
    const started = performance.now();
    const reply = await submit(runner.url, 'cpp', 'int main() { volatile unsigned long i = 0; for (;;) i++; }', 3000);
    expect(reply.body.exec_outcome).toBe('TIME_LIMIT_EXCEEDED');
    const sticky = await submit(runner.url, 'shell', "(trap '' TERM HUP INT; setsid sleep 300 &) ; sleep 300", 1500);
    expect(sticky.body.exec_outcome).toBe('TIME_LIMIT_EXCEEDED');
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('a fork bomb is contained by the process limit', async () => {
    const started = performance.now();
    const reply = await submit(runner.url, 'shell', 'bomb() { bomb | bomb & }\nbomb\nsleep 2\necho survived', 5000);
    expect(['PASSED', 'TIME_LIMIT_EXCEEDED', 'RUNTIME_ERROR']).toContain(reply.body.exec_outcome);
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('a memory hog fails on its address-space limit (RUNTIME_ERROR)', async () => {
    const reply = await submit(runner.url, 'python', 'blocks = []\nwhile True:\n    blocks.append(bytearray(50 * 1024 * 1024))', 20_000);
    expect(reply.body.exec_outcome).toBe('RUNTIME_ERROR');
    expect(reply.body.exec_runtime_message).toContain('MemoryError');
    const cpp = await submit(runner.url, 'cpp', '#include <vector>\nint main() { std::vector<std::vector<char>> v; for (;;) v.emplace_back(64 << 20, 1); }', 20_000);
    expect(cpp.body.exec_outcome).toBe('RUNTIME_ERROR');
  });

  it('a 100 MB print is cut: the answer stays small and the run is stopped', async () => {
    const started = performance.now();
    const response = await fetch(`${runner.url}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ src_uid: 'print', lang: 'python', source_code: 'import sys\nchunk = "x" * (1 << 20)\nfor _ in range(100):\n    sys.stdout.write(chunk)\nprint("end")', request_extensions: { timeout_ms: 20_000 } }),
    });
    const text = await response.text();
    expect(text.length).toBeLessThan(4 * 1024 * 1024);
    const body = JSON.parse(text);
    expect(body.exec_outcome).toBe('TIME_LIMIT_EXCEEDED');
    expect(body.response_extensions).toMatchObject({ output_limit_exceeded: true, truncated: true });
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('cannot connect to a port the host listens on at 127.0.0.1 (no network)', async () => {
    let connections = 0;
    const server: Server = createServer((socket) => { connections++; socket.end('hello'); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const program = `import socket\ntry:\n    s = socket.create_connection(("127.0.0.1", ${port}), timeout=3)\n    print("reached", s.recv(5))\nexcept OSError as e:\n    print("blocked", type(e).__name__)`;
      const reply = await submit(runner.url, 'python', program, 10_000);
      expect(reply.body.exec_cout).toMatch(/^blocked/);
      const shell = await submit(runner.url, 'shell', `exec 3<>/dev/tcp/127.0.0.1/${port} && echo reached || echo blocked`, 10_000);
      expect(shell.body.exec_cout).toContain('blocked');
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('cannot write outside its own directory; what it writes to /tmp stays in the sandbox', async () => {
    const marker = `benchtop-hostile-${process.pid}-${Date.now()}`;
    const program = [
      'import os',
      `for p in ["/etc/${marker}", "/usr/${marker}", "/${marker}", "/in/${marker}", "${join(process.cwd(), marker)}", "${join(tmpdir(), marker + '-x')}"]:`,
      '    try:',
      '        open(p, "w").write("x")',
      '        print("wrote", p)',
      '    except OSError as e:',
      '        print("refused", p, type(e).__name__)',
      `open("/tmp/${marker}", "w").write("x")`,
      'open("own-file", "w").write("x")',
      'print("own", os.path.exists("own-file"))',
    ].join('\n');
    const reply = await submit(runner.url, 'python', program, 10_000);
    const lines = reply.body.exec_cout.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('refused')).length).toBeGreaterThanOrEqual(5);
    expect(lines).toContain('own True');
    // The host sees none of it.
    expect(existsSync(join('/tmp', marker))).toBe(false);
    expect(existsSync(join(process.cwd(), marker))).toBe(false);
    expect(existsSync(join(tmpdir(), `${marker}-x`))).toBe(false);
    rmSync(join(tmpdir(), `${marker}-x`), { force: true });
  });

  it('leaves no temporary run directories behind', () => {
    expect(readdirSync(runTmp)).toEqual([]);
  });
});
