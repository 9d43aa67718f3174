/**
 * Python programs that Pyodide cannot run as python3 does, recognised from their text: worker
 * processes (multiprocessing, concurrent.futures.ProcessPoolExecutor) need fork and the
 * `_multiprocessing` module, which a browser has not. Such a program is declined (RunResult
 * `declined`): the router sends it to a runner, or the engine reports it unsupported, instead of
 * scoring the ModuleNotFoundError python3 would not give. An import line or the class's name is
 * unambiguous enough: a program that imports multiprocessing and uses none of its processes is
 * declined too, which costs a runner call, never a wrong verdict.
 */
const PROCESSES = /^[ \t]*(?:import[ \t]+[^#\n]*\bmultiprocessing\b|from[ \t]+multiprocessing\b)|\bProcessPoolExecutor\b/m;

export function pythonDecline(program: string): string | null {
  return PROCESSES.test(program) ? 'uses worker processes (multiprocessing), which Pyodide cannot start' : null;
}
