/**
 * The shapes every layer shares (docs/architecture.md, "Layers"). This folder imports nothing
 * outside itself, not even node: modules or library types; `npm run check` enforces it.
 */
export * from './languages';
export * from './outcome';
export * from './problem';
export * from './run';
export * from './usage';
export * from './answers';
export * from './errors';
