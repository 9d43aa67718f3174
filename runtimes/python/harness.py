# Two steps around one test program, called from JavaScript (pyodide.ts), so that no harness frame
# sits above the program: prepare() gets it ready and leaves a C-level callable (exec bound to the
# code and a fresh __main__ namespace) for JavaScript to call; finish() does what `python3 test.py`
# does when the program ends (atexit handlers, __main__ torn down, the traceback through
# sys.excepthook, the exit status) and returns the exit status. Nothing here needs to outlive a
# program: the whole interpreter is put back from a snapshot afterwards (snapshot.ts).
import asyncio
import atexit
import builtins
import functools
import gc
import importlib.machinery
import importlib.util
import io
import linecache
import os
import random
import selectors
import sys
import time
import traceback
import zipimport

job = None
_compile_error = None
_WORKDIR = "/tmp/benchtop-run"

# What the harness calls after a program has run is taken now, before any program: a program can
# patch builtins (isinstance…) and module attributes (atexit._run_exitfuncs, gc.collect…), and
# until 2026-12-02 such a patch turned its own failure into exit 0 where python3 (which does this
# in C) exits 1. The harness's functions look builtins up in this copy; the program's are its own.
__builtins__ = dict(builtins.__dict__)
_run_exitfuncs = atexit._run_exitfuncs
_collect = gc.collect
_print_exception = traceback.print_exception
_main_dict = sys.modules["__main__"].__dict__
# sys's own attributes, read from its dict as CPython's C code reads them: a program may give the
# sys module a class of its own (`sys.__class__ = M`) whose __getattribute__ answers otherwise.
_sys = sys.__dict__
_int_and = int.__and__
_traceback_of = BaseException.__dict__["__traceback__"].__get__  # (a subclass may shadow the attribute)

# JavaScript calls the program's exec through functools.partial, which costs one level of CPython
# 3.11's recursion count that `python3 test.py` does not spend (measured: a program recursing until
# RecursionError gets one call less than native python3 3.11 under the same limit). The enforced
# limit is therefore one above the one the program sets and sees, so recursion that fits natively
# (Rosetta's man-or-boy test: setrecursionlimit(1025)) fits here.
_DEPTH_OFFSET = 1
_set_limit = sys.setrecursionlimit
_get_limit = sys.getrecursionlimit
# Defined in a namespace of their own: a function's __globals__ is reachable from the program,
# and the harness's globals are not the program's business.
_limits = {"__builtins__": builtins, "functools": functools, "_set": _set_limit, "_get": _get_limit, "_OFFSET": _DEPTH_OFFSET}
exec("""
@functools.wraps(_set)
def setrecursionlimit(limit, /):
    if isinstance(limit, int) and limit >= 1:
        return _set(limit + _OFFSET)
    return _set(limit)  # raises as CPython does (TypeError, ValueError)

@functools.wraps(_get)
def getrecursionlimit():
    return _get() - _OFFSET
""", _limits)
_setrecursionlimit, _getrecursionlimit = _limits["setrecursionlimit"], _limits["getrecursionlimit"]


class _NoIOSelector(selectors.BaseSelector):
    """No file descriptor to wait on: waiting is sleeping until the next timer is due."""

    def register(self, fileobj, events, data=None):
        raise OSError("benchtop: no I/O in the test sandbox's event loop")

    def unregister(self, fileobj):
        raise KeyError(fileobj)

    def select(self, timeout=None):
        if timeout:
            time.sleep(timeout)
        return []

    def close(self):
        pass

    def get_map(self):
        return {}


class _EventLoop(asyncio.SelectorEventLoop):
    """asyncio as under python3 (asyncio.run, tasks, sleep), without the self-pipe: there are no
    signals or threads to wake the loop here. Pyodide's own loop defers to the browser's timers,
    which a test program must not reach."""

    def __init__(self):
        super().__init__(_NoIOSelector())

    def _make_self_pipe(self):
        pass

    def _close_self_pipe(self):
        pass

    def _write_to_self(self):
        pass

    def _process_self_data(self, data):
        pass


class _EventLoopPolicy(asyncio.DefaultEventLoopPolicy):
    _loop_factory = _EventLoop


asyncio.set_event_loop_policy(_EventLoopPolicy())
asyncio.events._set_running_loop(None)  # Pyodide marks its browser loop as always running

# The standard library's zip holds a compiled .pyc beside each .py (scripts/build-python-stdlib.mjs),
# and zipimport names a module after the file it loaded: json.__file__ would end in .pyc where
# python3's ends in .py. Named after the source, as with Pyodide's source-only zip (and __cached__
# then follows from __file__ as python3's does), for the modules imported from now on and for those
# Pyodide's start-up already imported. (Defined apart: a function's __globals__ is reachable.)
_STDLIB_ZIP = next(p for p in sys.path if p.endswith(".zip"))
_sources = {"__builtins__": builtins, "functools": functools, "_get": zipimport.zipimporter.get_filename, "_ZIP": _STDLIB_ZIP}
exec("""
@functools.wraps(_get)
def get_filename(self, fullname):
    path = _get(self, fullname)
    return path[:-1] if self.archive == _ZIP and path.endswith(".pyc") else path
""", _sources)
zipimport.zipimporter.get_filename = _sources["get_filename"]
for _module in list(sys.modules.values()):
    _spec = getattr(_module, "__spec__", None)
    if _spec is not None and isinstance(_spec.loader, zipimport.zipimporter) and _spec.loader.archive == _STDLIB_ZIP and (_spec.origin or "").endswith(".pyc"):
        _spec.origin = _module.__file__ = _spec.origin[:-1]
        _spec.cached = _module.__cached__ = importlib.util.cache_from_source(_spec.origin)
del _sources, _module, _spec

# Standard modules that test programs often import, imported once, before the snapshot: each
# import of a module the snapshot does not hold costs every run that makes it (from the compiled
# zip, per run under Node: unittest and seven common modules together about 18 ms; 130 ms when the
# zip held sources only and each was compiled anew), and each here costs the worker's start as
# much, once, so the list holds common ones only. A program finds them in sys.modules before it
# imports them, as it finds the 170 that Pyodide loads itself (docs/fidelity.md); it still has to
# import one to use it, and none keeps per-process state that a new process would draw afresh
# (random, which does, is reseeded per run).
for _name in ("json", "dataclasses", "datetime", "decimal", "fractions", "statistics", "hashlib", "base64", "queue"):
    importlib.import_module(_name)
del _name


def prepare(source):
    global job, _compile_error
    _compile_error = None
    os.makedirs(_WORKDIR, exist_ok=True)
    os.chdir(_WORKDIR)
    sys.stdin = io.StringIO("")
    sys.argv = ["test.py"]
    sys.path[0] = _WORKDIR  # the script's directory, as under `python3 test.py` (Pyodide's home before)
    random.seed()  # a new seed per program, as in a new process (the snapshot holds one state)
    sys.setrecursionlimit, sys.getrecursionlimit = _setrecursionlimit, _getrecursionlimit
    _set_limit(1000 + _DEPTH_OFFSET)  # CPython's default, as the program sees it
    # The program's file, as under `python3 test.py`: CPython's traceback printer reads it from disk.
    try:
        with open("test.py", "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(source)
    except (OSError, UnicodeError):
        pass  # tracebacks then show no source lines; the program runs all the same
    linecache.cache["test.py"] = (len(source), None, source.splitlines(True), "test.py")
    # __main__'s names in python3's order; Pyodide's own built-in (for its runPython) is hidden:
    # `globals()` and `dir(builtins)` list what they list natively. The snapshot puts it back.
    namespace = {"__name__": "__main__", "__doc__": None, "__package__": None,
                 "__loader__": importlib.machinery.SourceFileLoader("__main__", "test.py"), "__spec__": None,
                 "__annotations__": {}, "__builtins__": builtins, "__file__": "test.py", "__cached__": None}
    builtins.__dict__.pop("___EvalCodeResultException", None)
    _main_dict.clear()
    _main_dict.update(namespace)
    namespace = _main_dict
    sys.last_type = sys.last_value = sys.last_traceback = None
    try:
        # As bytes, the way python3 reads test.py: a `# -*- coding: latin-1 -*-` line then applies.
        try:
            text = source.encode("utf-8")
        except UnicodeError:
            text = source
        # Straight from the source, as python3 compiles test.py (through an AST first took about
        # twice as long: 1.24 against 0.48 ms per demo program).
        code = compile(text, "test.py", "exec")
    except (SyntaxError, ValueError) as e:  # ValueError: a NUL byte in the source
        _compile_error = e
        job = functools.partial(_raise, e)
    else:
        job = functools.partial(exec, code, namespace)


def _raise(error):
    raise error


def finish(raised, address=None):
    """The end of the process: returns the exit status of the program that just ran.

    `address`: where the exception that left the program lives (Pyodide's PythonError names it).
    Pyodide puts it in sys.last_value and then formats it, which runs the program's code
    (`__str__`, a patched traceback module): a sys.last_value that is not that object was written
    by the program, and is not believed (until 2026-12-02 a SystemExit(0) put there passed).
    """
    global job
    job = None
    error = _sys.get("last_value") if raised else None
    _sys["last_type"] = _sys["last_value"] = _sys["last_traceback"] = None
    if error is not None and id(error) != address:
        error = None
    # The real class, as CPython's exit does (isinstance would believe a forged __class__).
    if error is not None and issubclass(type(error), SystemExit):
        status = _exit_status(error.code)
    elif error is not None:
        _print_uncaught(error)
        status = 1
    elif raised:
        status = 1  # a forged sys.last_value, or the run failed outside Python (the worker reports it as broken)
    else:
        status = 0
    try:
        _run_exitfuncs()
    except BaseException:  # noqa: BLE001 - CPython reports it and exits as it would have
        pass
    try:
        _main_dict.clear()
        _collect()
    except BaseException:  # noqa: BLE001
        pass
    _flush()
    return status


def _print_uncaught(error):
    if error is _compile_error:
        error.__traceback__ = None  # python3 shows no frame for a program that does not compile
    tb = _traceback_of(error)
    try:
        _sys.get("excepthook")(type(error), error, tb)
    except BaseException:  # noqa: BLE001 - a broken hook: CPython falls back to the default
        _print_exception(type(error), error, tb)


def _flush():
    for stream in (_sys.get("stdout"), _sys.get("stderr"), _sys.get("__stdout__"), _sys.get("__stderr__")):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001 - a program may leave a closed or odd stream behind
            pass


def _exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return _int_and(code, 0xFF)  # (an int subclass's own `&` is not CPython's exit status)
    try:
        print(code, file=_sys.get("stderr"))
    except BaseException:  # noqa: BLE001
        pass
    return 1
