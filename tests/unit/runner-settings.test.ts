import { describe, expect, it } from 'vitest';
import { routeFor } from '../../runtimes/remote/routing';
import { offeredLanguages, parseRunnerUrls, runnerOrigins, runnerUrlProblem } from '../../src/app/state/runner-settings.svelte';
import type { RunnerStatus } from '../../runtimes/remote/executor';

describe('runner settings: URL list', () => {
  it('takes one URL per line, trims, drops trailing slashes, blanks, comments and duplicates', () => {
    expect(parseRunnerUrls(' http://127.0.0.1:8080/ \n\n# spare\nhttps://r.example.com\nhttp://127.0.0.1:8080\r\n')).toEqual([
      'http://127.0.0.1:8080',
      'https://r.example.com',
    ]);
    expect(parseRunnerUrls('   \n')).toEqual([]);
  });

  it('accepts https and local http only', () => {
    expect(runnerUrlProblem('http://127.0.0.1:8080')).toBeNull();
    expect(runnerUrlProblem('https://r.example.com/base')).toBeNull();
    expect(runnerUrlProblem('ftp://x')).toMatch(/not an http/);
    expect(runnerUrlProblem('http://r.example.com')).toMatch(/only https/);
  });

  it('lists distinct origins for the allow-list', () => {
    expect(runnerOrigins(['https://a.example.com/x', 'https://a.example.com/y', 'http://localhost:8080'])).toEqual([
      'https://a.example.com',
      'http://localhost:8080',
    ]);
  });
});

describe('routes the page shows and runs by (routing.ts)', () => {
  const local = ['python', 'javascript', 'typescript'] as const;
  const remote = ['python', 'cpp', 'go'] as const;

  it('without any runner, a remote choice waits and auto applies', () => {
    expect(routeFor('python', 'remote', local, null)).toBe('in-browser');
    expect(routeFor('cpp', 'remote', local, null)).toBeNull();
    expect(routeFor('cpp', 'auto', local, null)).toBeNull();
  });

  it('auto prefers the browser, then the runner, else unavailable', () => {
    // Where the in-page runtime meets the differential corpus's bar (the last argument; Python
    // does not as measured, so by default it goes to the runner: differential-routing.test.ts).
    expect(routeFor('python', 'auto', local, remote, undefined, () => false)).toBe('in-browser');
    expect(routeFor('python', 'auto', local, remote)).toBe('remote');
    expect(routeFor('cpp', 'auto', local, remote)).toBe('remote');
    expect(routeFor('rust', 'auto', local, remote)).toBeNull();
  });

  it('honours an explicit choice only where it exists', () => {
    expect(routeFor('python', 'remote', local, remote)).toBe('remote');
    expect(routeFor('javascript', 'remote', local, remote)).toBeNull();
    // A runner that offers nothing is still a runner: a remote choice does not fall back.
    expect(routeFor('python', 'remote', local, [])).toBeNull();
    expect(routeFor('cpp', 'in-browser', local, remote)).toBeNull();
  });

  it('collects the available languages of the tested runners', () => {
    const lang = (id: string, available: boolean) => ({ id, name: id, available, version: '1', command: '', official_command: '', official_version: '', timeout_seconds: 30 });
    const statuses = [
      { url: 'http://a', languages: [lang('cpp', true), lang('rust', false)] },
      { url: 'http://b', languages: [lang('go', true), lang('c++', true)] },
      { url: 'http://c', languages: null, error: 'down' },
    ] as RunnerStatus[];
    expect(offeredLanguages(statuses).sort()).toEqual(['cpp', 'go']);
  });
});
