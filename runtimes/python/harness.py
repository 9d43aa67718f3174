# Runs one test program the way `python3 test.py` would, inside the long-lived Pyodide
# interpreter: a fresh __main__ namespace, empty stdin, tracebacks printed like CPython's,
# SystemExit mapped to an exit code, and every module the program imported forgotten afterwards.
import io
import linecache
import sys
import traceback

_BASELINE_MODULES = set(sys.modules)


def run_program(source):
    sys.stdin = io.StringIO("")
    sys.argv = ["test.py"]
    linecache.cache["test.py"] = (len(source), None, source.splitlines(True), "test.py")
    namespace = {"__name__": "__main__", "__file__": "test.py", "__builtins__": __builtins__}
    exit_code = 0
    try:
        exec(compile(source, "test.py", "exec"), namespace)
    except SystemExit as e:
        exit_code = _exit_status(e.code)
    except BaseException as e:  # noqa: BLE001 - everything a program raises ends it, as in CPython
        traceback.print_exception(type(e), e, e.__traceback__.tb_next if e.__traceback__ else None)
        exit_code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        namespace.clear()
        linecache.cache.pop("test.py", None)
        for name in set(sys.modules) - _BASELINE_MODULES:
            del sys.modules[name]
    return exit_code


def _exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1
