/**
 * `npm run cpp-objects`: compiles the C++ runtime's support objects as a worker would (clang in
 * WebAssembly, the runtime's own flags) and writes them, with the fingerprint of what they were
 * built from, to runtimes/cpp/support-objects.generated.ts (runtimes/cpp/support-objects.ts says
 * why). Run it after changing exceptions.cpp, glibc-rand.c, the compile flags, the headers or
 * @yowasp/clang; tests/integration/runtime-cpp.test.ts fails until then.
 */
import { writeFileSync } from 'node:fs';
import { createCppRuntime } from '../../runtimes/cpp/clang';
import { generatedModule } from '../../runtimes/cpp/support-objects';
import { readCatalogFiles } from '../../runtimes/host/node-files';

const target = 'runtimes/cpp/support-objects.generated.ts';
const started = performance.now();
const runtime = await createCppRuntime({ files: readCatalogFiles('cpp'), prebuiltObjects: false });
const { bytes } = runtime.shareable();
const exceptions = bytes?.['exceptions.o'];
const rand = bytes?.['glibc-rand.o'];
if (!(exceptions instanceof Uint8Array) || !(rand instanceof Uint8Array)) throw new Error('the runtime built no support objects');
writeFileSync(target, generatedModule(runtime.supportObjects.fingerprint, { 'exceptions.o': exceptions, 'glibc-rand.o': rand }));
console.log(`${target}: exceptions.o ${exceptions.byteLength} bytes, glibc-rand.o ${rand.byteLength} bytes, fingerprint ${runtime.supportObjects.fingerprint.slice(0, 12)}… (${Math.round(performance.now() - started)} ms)`);
