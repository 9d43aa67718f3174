# Runs one test program the way `python3 test.py` would, inside the long-lived Pyodide
# interpreter: a fresh __main__ namespace and working directory, empty stdin, tracebacks printed
# like CPython's, SystemExit mapped to an exit code. Afterwards it undoes what a program can leave
# behind for the next one, without paying for re-imports (a fresh `import re` costs ~100 ms here):
#   - every standard-library module the program names or imports is snapshotted before the program
#     can touch it (module attributes, its classes' attributes, random generator state) and restored
#     afterwards;
#   - modules that are not from the standard library (e.g. a file the program wrote and imported)
#     are forgotten;
#   - builtins, sys settings, the standard streams and the working directory are restored, and the
#     files the program wrote are deleted.
# It also refuses the program's imports of the modules that reach JavaScript (`js`, `pyodide`, …),
# as `python3` would: defence in depth only, the walls are the worker's (docs/security.md).
import ast
import builtins
import importlib
import importlib.util
import io
import linecache
import os
import random
import shutil
import sys
import traceback

_CORE = {"sys", "builtins", "importlib", "zipimport", "pyodide", "pyodide_js", "js", "_pyodide"}
# Modules that lead from Python to JavaScript objects: not importable by the program.
_BRIDGES = frozenset({"js", "pyodide", "pyodide_js", "_pyodide", "_pyodide_core", "pyodide_http", "micropip"})
_STDLIB_PREFIXES = tuple(p for p in sys.path if p and "site-packages" not in p)
_BUILTINS = dict(builtins.__dict__)
_ORIGINAL_IMPORT = builtins.__import__
_ORIGINAL_IMPORT_MODULE = importlib.import_module
_ORIGINAL_IMPORTLIB_IMPORT = importlib.__import__
_META_PATH = list(sys.meta_path)
_RECURSION_LIMIT = sys.getrecursionlimit()
_SYS_PATH = list(sys.path)
_STREAMS = (sys.stdout, sys.stderr)
_HOME = os.getcwd()
_runs = 0


class _Snapshot:
    """The state of one module that a program could change: attributes, classes, generators."""

    def __init__(self, module):
        self.module = module
        self.attributes = dict(module.__dict__)
        name = module.__name__
        self.classes = [
            (cls, dict(vars(cls)))
            for cls in self.attributes.values()
            if isinstance(cls, type) and getattr(cls, "__module__", None) == name and not _is_builtin_type(cls)
        ]
        self.generators = [(g, g.getstate()) for g in self.attributes.values() if isinstance(g, random.Random)]

    def restore(self):
        for generator, state in self.generators:
            generator.setstate(state)
        for cls, saved in self.classes:
            for key in [k for k in vars(cls) if k not in saved]:
                _try(delattr, cls, key)
            for key, value in saved.items():
                if vars(cls).get(key, _MISSING) is not value:
                    _try(setattr, cls, key, value)
        self.module.__dict__.clear()
        self.module.__dict__.update(self.attributes)


_MISSING = object()


def _try(fn, *args):
    try:
        fn(*args)
    except (AttributeError, TypeError):
        pass  # read-only attributes (C types, __dict__ slots) cannot have been changed either


def _is_builtin_type(cls):
    return cls.__flags__ & (1 << 9) == 0  # not Py_TPFLAGS_HEAPTYPE: a static C type, immutable


def _is_core(name):
    return name.partition(".")[0] in _CORE


def _from_stdlib(module):
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None) if spec else None
    if origin in (None, "built-in", "frozen"):
        return True
    return origin.startswith(_STDLIB_PREFIXES)


def _is_bridge(name):
    return isinstance(name, str) and name.partition(".")[0] in _BRIDGES


def _no_module(name):
    return ModuleNotFoundError(f"No module named '{name.partition('.')[0]}'", name=name)


def _trusted_importer(globals):
    """The import comes from a module of the standard library or of Pyodide (not the program)."""
    if not isinstance(globals, dict):
        return False
    module = sys.modules.get(globals.get("__name__"))
    return module is not None and getattr(module, "__dict__", None) is globals and _from_stdlib(module)


def _import_module(name, package=None):
    resolved = importlib.util.resolve_name(name, package) if isinstance(name, str) and name.startswith(".") else name
    if _is_bridge(resolved):
        raise _no_module(resolved)
    return _ORIGINAL_IMPORT_MODULE(name, package)


def _importlib_import(name, globals=None, locals=None, fromlist=(), level=0):
    if level == 0 and _is_bridge(name):
        raise _no_module(name)
    return _ORIGINAL_IMPORTLIB_IMPORT(name, globals, locals, fromlist, level)


def _imported_names(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.partition(".")[0])
    return names


class _Guard:
    """Snapshots modules before the program can use them, and puts everything back afterwards."""

    def __init__(self):
        self.snapshots = {}
        self.modules_before = set(sys.modules)

    def protect(self, names):
        for name, module in list(sys.modules.items()):
            if name.partition(".")[0] in names:
                self._snapshot(name, module)

    def _snapshot(self, name, module):
        if name not in self.snapshots and module is not None and not _is_core(name):
            self.snapshots[name] = _Snapshot(module)

    def importer(self, name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and _is_bridge(name) and not _trusted_importer(globals):
            raise _no_module(name)
        known = set(sys.modules)
        module = _ORIGINAL_IMPORT(name, globals, locals, fromlist, level)
        for new in set(sys.modules) - known:  # freshly imported: snapshot before the program runs on
            self._snapshot(new, sys.modules[new])
        return module

    def reset(self):
        for snapshot in self.snapshots.values():
            snapshot.restore()
        for name in set(sys.modules) - self.modules_before:
            module = sys.modules[name]
            if not _is_core(name) and not _from_stdlib(module):
                del sys.modules[name]


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
    guard = _Guard()
    exit_code = 0
    try:
        tree = compile(source, "test.py", "exec", ast.PyCF_ONLY_AST)
        guard.protect(_imported_names(tree))
        builtins.__import__ = guard.importer
        importlib.import_module = _import_module
        importlib.__import__ = _importlib_import
        exec(compile(tree, "test.py", "exec"), namespace)
    except SystemExit as e:
        exit_code = _exit_status(e.code)
    except BaseException as e:  # noqa: BLE001 - everything a program raises ends it, as in CPython
        traceback.print_exception(type(e), e, e.__traceback__.tb_next if e.__traceback__ else None)
        exit_code = 1
    finally:
        _flush()
        namespace.clear()
        linecache.cache.pop("test.py", None)
        builtins.__dict__.clear()
        builtins.__dict__.update(_BUILTINS)
        importlib.import_module = _ORIGINAL_IMPORT_MODULE
        importlib.__import__ = _ORIGINAL_IMPORTLIB_IMPORT
        guard.reset()
        sys.meta_path[:] = _META_PATH
        sys.setrecursionlimit(_RECURSION_LIMIT)
        sys.path[:] = _SYS_PATH
        sys.stdout, sys.stderr = _STREAMS
        os.chdir(_HOME)
        shutil.rmtree(workdir, ignore_errors=True)
    return exit_code


def _flush():
    for stream in (sys.stdout, sys.stderr, *_STREAMS):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a program may leave a closed or odd stream behind
            pass


def _exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1
