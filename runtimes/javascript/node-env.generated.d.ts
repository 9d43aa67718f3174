/** The bundled prelude script (scripts/build-node-env.mjs). */
declare const source: string;
export default source;
