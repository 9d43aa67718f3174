/**
 * TypeScript runtime: like the official `tsx test.ts`, types are stripped without checking
 * (sucrase), then the JavaScript runs in the same QuickJS runtime as JavaScript programs.
 * A program that cannot even be parsed fails like tsx does: an error on stderr and exit code 1.
 */
import { transform } from 'sucrase';
import { createJavaScriptRuntime, type JavaScriptRuntimeOptions } from '../javascript/quickjs';
import { packageVersion } from '../package-versions';
import type { LanguageRuntime } from '../../src/contracts';

/** Strips types; ES module syntax becomes require() only when the program uses it (as tsx's CJS output). */
export function transpileTypeScript(program: string): string {
  const usesModules = /^\s*(import|export)\s/m.test(program);
  return transform(program, {
    transforms: usesModules ? ['typescript', 'imports'] : ['typescript'],
    disableESTransforms: true,
    filePath: 'test.ts',
  }).code;
}

export async function createTypeScriptRuntime(options: JavaScriptRuntimeOptions = {}): Promise<LanguageRuntime> {
  const javascript = await createJavaScriptRuntime(options);
  return {
    description: `sucrase ${packageVersion('sucrase')} + ${javascript.description}`,
    async run(program, timeoutMs) {
      const started = performance.now();
      let code: string;
      try {
        code = transpileTypeScript(program);
      } catch (e) {
        return {
          exitCode: 1,
          stdout: '',
          stderr: `Error: Transform failed with 1 error:\ntest.ts: ERROR: ${(e as Error).message}\n`,
          timedOut: false,
          durationMs: performance.now() - started,
        };
      }
      const result = await javascript.run(code, timeoutMs);
      return { ...result, durationMs: performance.now() - started };
    },
  };
}
