/**
 * `bc`, the arbitrary-precision calculator that the official sandbox's image has and just-bash
 * lacks. Written for benchtop after GNU bc 1.07's documented behaviour (and checked against it,
 * tests/integration/runtime-shell.test.ts): decimal numbers of any size with bc's scale rules
 * (sum: the larger scale; product: min(a+b, max(scale, a, b)); quotient: `scale`; truncation,
 * never rounding), `scale`/`ibase`/`obase`/`last`, variables, arrays, `define`d functions with
 * `auto`, if/else, while, for, break, continue, return, print and strings, `quit` (when read) and
 * `halt`, comments, the built-ins length/scale/sqrt, and `-l`'s s c a l e j (scale 20).
 * Output as GNU prints it: ".5" without a leading zero, lines cut at 70 characters with a
 * backslash, other output bases. Errors are reported like GNU's ("(standard_in) 2: syntax error",
 * "Runtime error (func=(main), adr=0): Divide by zero") and bc still exits 0. Not implemented:
 * read(), the POSIX -s/-w checks, array references (`*a[]`).
 */

export { runBc, type BcOptions, type BcResult } from './interpreter';
