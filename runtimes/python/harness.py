# Runs one test program the way `python3 test.py` would, inside the long-lived Pyodide
# interpreter: a fresh __main__ namespace and working directory, empty stdin, tracebacks printed
# like CPython's, SystemExit mapped to an exit code. Afterwards it undoes what a program can leave
# behind for the next one: modules it imported (re-imported fresh next time), changes to builtins,
# sys settings and the standard streams, and files it wrote.
import ast
import builtins
import io
import linecache
import os
import shutil
import sys
import traceback

# Modules that must never be re-imported: the interpreter's own machinery, and Pyodide's (its
# asyncio event loop policy lives in asyncio). Every other module is fair game.
_CORE = {
    "sys", "builtins", "encodings", "codecs", "io", "abc", "importlib", "zipimport", "site", "os",
    "posix", "posixpath", "genericpath", "stat", "pyodide", "pyodide_js", "js", "asyncio",
    "warnings", "threading", "traceback", "linecache", "tokenize", "token", "marshal", "gc",
    "time", "signal", "selectors", "socket", "select", "ssl", "ast", "shutil",
}
_BASELINE_MODULES = set(sys.modules)
_BUILTINS = dict(builtins.__dict__)
_RECURSION_LIMIT = sys.getrecursionlimit()
_SYS_PATH = list(sys.path)
_STREAMS = (sys.stdout, sys.stderr)
_HOME = os.getcwd()
_runs = 0


def _is_core(name):
    top = name.partition(".")[0]
    return top.startswith("_") or top in _CORE


def _imported_names(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.partition(".")[0])
    return names


def run_program(source):
    global _runs
    _runs += 1
    workdir = f"/tmp/benchtop-run-{_runs}"
    os.makedirs(workdir, exist_ok=True)
    os.chdir(workdir)
    sys.stdin = io.StringIO("")
    sys.argv = ["test.py"]
    linecache.cache["test.py"] = (len(source), None, source.splitlines(True), "test.py")
    namespace = {"__name__": "__main__", "__file__": "test.py", "__builtins__": builtins}
    imported = set()
    exit_code = 0
    try:
        tree = compile(source, "test.py", "exec", ast.PyCF_ONLY_AST)
        imported = _imported_names(tree)
        exec(compile(tree, "test.py", "exec"), namespace)
    except SystemExit as e:
        exit_code = _exit_status(e.code)
    except BaseException as e:  # noqa: BLE001 - everything a program raises ends it, as in CPython
        traceback.print_exception(type(e), e, e.__traceback__.tb_next if e.__traceback__ else None)
        exit_code = 1
    finally:
        _flush()
        _reset(namespace, imported, workdir)
    return exit_code


def _flush():
    for stream in (sys.stdout, sys.stderr, *_STREAMS):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a program may leave a closed or odd stream behind
            pass


def _reset(namespace, imported, workdir):
    namespace.clear()
    linecache.cache.pop("test.py", None)
    for name in list(sys.modules):
        new = name not in _BASELINE_MODULES
        named = name.partition(".")[0] in imported
        if (new or named) and not _is_core(name):
            del sys.modules[name]
    builtins.__dict__.clear()
    builtins.__dict__.update(_BUILTINS)
    sys.setrecursionlimit(_RECURSION_LIMIT)
    sys.path[:] = _SYS_PATH
    sys.stdout, sys.stderr = _STREAMS
    os.chdir(_HOME)
    shutil.rmtree(workdir, ignore_errors=True)


def _exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1
