/** bc's two kinds of error (reported differently) and the `quit` signal, shared by every stage. */

export class BcSyntaxError extends Error {}
export class BcRuntimeError extends Error {}

/** Thrown when `quit` is read: bc stops at once (even inside an `if` that would not run). */
export class Quit extends Error {}
