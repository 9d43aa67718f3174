/** Installed version of each dependency in package.json (scripts/build-versions.mjs). */
declare const versions: Readonly<Record<string, string>>;
export default versions;
