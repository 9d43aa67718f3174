// For tsconfig.worker.json only: just-bash's types name `undici` (its Node-only network branch),
// whose types pull in every Node global. Worker code type-checks against this empty stand-in
// instead, so a Node API used in a worker is an error.
declare const undici: unknown;
export default undici;
