/**
 * The installed versions of the npm packages the runtimes are made of, read from their own
 * package.json at build time (scripts/build-versions.mjs): a runtime's description names the
 * package it really runs, and an upgrade needs no edit here.
 */
import versions from './package-versions.generated.js';

/** The installed version of `name`, a dependency in package.json. */
export function packageVersion(name: string): string {
  const version = Object.hasOwn(versions, name) ? versions[name] : undefined;
  if (!version) throw new Error(`benchtop: ${name} is not a dependency in package.json`);
  return version;
}
