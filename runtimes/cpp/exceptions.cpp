// C++ exception runtime for programs compiled with `-fwasm-exceptions` (benchtop, runtimes/cpp).
//
// The wasi-sdk sysroot inside @yowasp/clang ships libc++abi without its exception half and no
// libunwind, so `throw` links to nothing. This file supplies that half, following the Itanium C++
// ABI and libc++abi's own cxa_exception.cpp / cxa_personality.cpp / libunwind's Unwind-wasm.c:
// allocation, throw/rethrow, begin/end catch, exception_ptr, and the personality routine that reads
// the LSDA tables clang emits for WebAssembly. Catch-clause matching uses libc++abi's own
// `__shim_type_info::can_catch` (present in libc++abi.a), so derived-to-base, pointer and
// qualification rules are the library's. It also gives `std::terminate` the message g++'s runtime
// prints ("terminate called after throwing an instance of 'T'\n  what():  …") and `assert` glibc's.
// libc++.a itself was built without exceptions: where it would throw, it aborts. So this file
// also carries, compiled with exceptions, what of it programs commonly expect to throw: the members
// of std::string (out_of_range, length_error) and std::stoi and its family (invalid_argument,
// out_of_range, with libstdc++'s what() texts). The link puts this object before the library and
// allows the duplicate definitions, so these are the ones used.
// It is compiled once per worker (see clang.ts) and linked into every program.

#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <unwind.h>

namespace __cxxabiv1 {
// The layout of libc++abi's private __shim_type_info (private_typeinfo.h): after std::type_info's
// virtual destructor come noop1, noop2 and can_catch. Declared here only to call can_catch through
// the vtable of the type_info objects the compiler emits.
class __shim_type_info : public std::type_info {
public:
  virtual ~__shim_type_info();
  virtual void noop1() const;
  virtual void noop2() const;
  virtual bool can_catch(const __shim_type_info *thrown_type, void *&adjusted_ptr) const = 0;
};
} // namespace __cxxabiv1

using __cxxabiv1::__shim_type_info;
using Destructor = void *(*)(void *); // in WebAssembly a destructor returns `this`

namespace {

struct Exception {
  std::type_info *exceptionType;
  Destructor exceptionDestructor;
  Exception *nextException; // the stack of caught exceptions
  int handlerCount;         // negative while being rethrown
  int handlerSwitchValue;
  const unsigned char *actionRecord;
  const unsigned char *languageSpecificData;
  void *adjustedPtr;
  size_t referenceCount;
  void *primaryException; // dependent exceptions (std::rethrow_exception) only
  _Unwind_Exception unwindHeader;
};

// "CLNGC++\0" and "CLNGC++\1", as libc++abi, so that the classes read the same in a debugger.
constexpr uint64_t kOurExceptionClass = 0x434C4E47432B2B00ULL;
constexpr uint64_t kOurDependentExceptionClass = 0x434C4E47432B2B01ULL;

struct Globals {
  Exception *caughtExceptions;
  unsigned int uncaughtExceptions;
  Exception *lastRaised; // what escaped, if the program ends by an uncaught exception
} globals;

bool isOurs(const _Unwind_Exception *u) { return (u->exception_class & ~0xFFULL) == kOurExceptionClass; }
bool isDependent(const _Unwind_Exception *u) { return u->exception_class == kOurDependentExceptionClass; }
Exception *fromUnwind(_Unwind_Exception *u) { return reinterpret_cast<Exception *>(u + 1) - 1; }
Exception *fromThrown(void *thrown) { return static_cast<Exception *>(thrown) - 1; }
void *thrownFrom(Exception *e) { return e + 1; }

// The object a handler sees: the thrown object, or for a dependent exception its primary's.
void *thrownObject(_Unwind_Exception *u) {
  Exception *e = fromUnwind(u);
  return isDependent(u) ? e->primaryException : thrownFrom(e);
}

[[noreturn]] void raise(Exception *e) {
  globals.lastRaised = e;
  __builtin_wasm_throw(0, &e->unwindHeader);
}

Exception *allocate(size_t thrownSize) {
  size_t size = (sizeof(Exception) + thrownSize + 15) & ~size_t(15);
  void *raw = nullptr;
  if (posix_memalign(&raw, alignof(Exception) > 16 ? alignof(Exception) : 16, size) != 0 || !raw) std::terminate();
  memset(raw, 0, size);
  return static_cast<Exception *>(raw);
}

// ---- terminate -------------------------------------------------------------------------------

void printExceptionMessage(Exception *e) {
  if (!e || !isOurs(&e->unwindHeader)) {
    fputs(e ? "terminate called after throwing a foreign exception\n" : "terminate called without an active exception\n", stderr);
    return;
  }
  void *object = isDependent(&e->unwindHeader) ? e->primaryException : thrownFrom(e);
  const std::type_info *type = e->exceptionType;
  int status = 0;
  char *name = type ? __cxxabiv1::__cxa_demangle(type->name(), nullptr, nullptr, &status) : nullptr;
  fprintf(stderr, "terminate called after throwing an instance of '%s'\n", name && status == 0 ? name : (type ? type->name() : "?"));
  free(name);
  void *adjusted = object;
  auto *exceptionType = static_cast<const __shim_type_info *>(&typeid(std::exception));
  if (type && exceptionType->can_catch(static_cast<const __shim_type_info *>(type), adjusted)) {
    fprintf(stderr, "  what():  %s\n", static_cast<std::exception *>(adjusted)->what());
  }
}

[[noreturn]] void terminateHandler() {
  // As libstdc++'s verbose terminate handler: name the exception being handled, if any (or the
  // one in flight: a noexcept function's terminate pad calls std::terminate without catching it).
  Exception *current = globals.caughtExceptions;
  if (!current && globals.uncaughtExceptions > 0) current = globals.lastRaised;
  printExceptionMessage(current);
  fflush(stdout);
  abort();
}

__attribute__((constructor)) void installTerminateHandler() { std::set_terminate(terminateHandler); }

// ---- LSDA reading (DWARF pointer encodings) ---------------------------------------------------

enum {
  DW_EH_PE_absptr = 0x00, DW_EH_PE_uleb128 = 0x01, DW_EH_PE_udata2 = 0x02, DW_EH_PE_udata4 = 0x03,
  DW_EH_PE_udata8 = 0x04, DW_EH_PE_sleb128 = 0x09, DW_EH_PE_sdata2 = 0x0A, DW_EH_PE_sdata4 = 0x0B,
  DW_EH_PE_sdata8 = 0x0C, DW_EH_PE_pcrel = 0x10, DW_EH_PE_textrel = 0x20, DW_EH_PE_datarel = 0x30,
  DW_EH_PE_funcrel = 0x40, DW_EH_PE_aligned = 0x50, DW_EH_PE_indirect = 0x80, DW_EH_PE_omit = 0xFF,
};

uintptr_t readULEB128(const uint8_t **data) {
  uintptr_t result = 0, shift = 0;
  uint8_t byte;
  const uint8_t *p = *data;
  do {
    byte = *p++;
    result |= static_cast<uintptr_t>(byte & 0x7F) << shift;
    shift += 7;
  } while (byte & 0x80);
  *data = p;
  return result;
}

intptr_t readSLEB128(const uint8_t **data) {
  uintptr_t result = 0, shift = 0;
  uint8_t byte;
  const uint8_t *p = *data;
  do {
    byte = *p++;
    result |= static_cast<uintptr_t>(byte & 0x7F) << shift;
    shift += 7;
  } while (byte & 0x80);
  *data = p;
  if ((byte & 0x40) && shift < sizeof(result) * 8) result |= static_cast<uintptr_t>(~0) << shift;
  return static_cast<intptr_t>(result);
}

template <class T> T readUnaligned(const uint8_t *p) {
  T value;
  memcpy(&value, p, sizeof(T));
  return value;
}

uintptr_t readEncodedPointer(const uint8_t **data, uint8_t encoding) {
  if (encoding == DW_EH_PE_omit) return 0;
  const uint8_t *p = *data;
  uintptr_t result = 0;
  switch (encoding & 0x0F) {
    case DW_EH_PE_absptr: result = readUnaligned<uintptr_t>(p); p += sizeof(uintptr_t); break;
    case DW_EH_PE_uleb128: result = readULEB128(&p); break;
    case DW_EH_PE_sleb128: result = static_cast<uintptr_t>(readSLEB128(&p)); break;
    case DW_EH_PE_udata2: result = readUnaligned<uint16_t>(p); p += 2; break;
    case DW_EH_PE_udata4: result = readUnaligned<uint32_t>(p); p += 4; break;
    case DW_EH_PE_udata8: result = static_cast<uintptr_t>(readUnaligned<uint64_t>(p)); p += 8; break;
    case DW_EH_PE_sdata2: result = static_cast<uintptr_t>(readUnaligned<int16_t>(p)); p += 2; break;
    case DW_EH_PE_sdata4: result = static_cast<uintptr_t>(readUnaligned<int32_t>(p)); p += 4; break;
    case DW_EH_PE_sdata8: result = static_cast<uintptr_t>(readUnaligned<int64_t>(p)); p += 8; break;
    default: std::terminate();
  }
  switch (encoding & 0x70) {
    case DW_EH_PE_absptr: break;
    case DW_EH_PE_pcrel: if (result) result += reinterpret_cast<uintptr_t>(*data); break;
    default: std::terminate(); // textrel/datarel/funcrel/aligned: not emitted for wasm
  }
  if (result && (encoding & DW_EH_PE_indirect)) result = *reinterpret_cast<uintptr_t *>(result);
  *data = p;
  return result;
}

const __shim_type_info *typeAt(int64_t index, const uint8_t *classInfo, uint8_t encoding) {
  if (!classInfo) std::terminate();
  uintptr_t size = 0;
  switch (encoding & 0x0F) {
    case DW_EH_PE_absptr: size = sizeof(uintptr_t); break;
    case DW_EH_PE_udata2: case DW_EH_PE_sdata2: size = 2; break;
    case DW_EH_PE_udata4: case DW_EH_PE_sdata4: size = 4; break;
    case DW_EH_PE_udata8: case DW_EH_PE_sdata8: size = 8; break;
    default: std::terminate();
  }
  const uint8_t *entry = classInfo - static_cast<uintptr_t>(index) * size;
  return reinterpret_cast<const __shim_type_info *>(readEncodedPointer(&entry, encoding));
}

// Does the exception specification at `specIndex` (a 1-based offset of a 0-terminated list of type
// indices) allow the exception? (Dynamic exception specifications are gone from C++17; kept for
// completeness.)
bool specAllows(int64_t specIndex, const uint8_t *classInfo, uint8_t encoding, const __shim_type_info *thrownType, void *thrown) {
  const uint8_t *spec = classInfo + (-specIndex - 1);
  while (true) {
    uintptr_t index = readULEB128(&spec);
    if (index == 0) return false;
    const __shim_type_info *allowed = typeAt(static_cast<int64_t>(index), classInfo, encoding);
    void *adjusted = thrown;
    if (thrownType && allowed->can_catch(thrownType, adjusted)) return true;
  }
}

} // namespace

// ---- libunwind's WebAssembly part (Unwind-wasm.c) ---------------------------------------------

struct _Unwind_LandingPadContext {
  uintptr_t lpad_index; // set by the landing pad before it calls _Unwind_CallPersonality
  uintptr_t lsda;       // its function's LSDA
  uintptr_t selector;   // the matching catch clause's type index, 0 for none
};

// The tag that C++ exceptions are thrown with (its payload: the _Unwind_Exception pointer).
__asm__(".globl __cpp_exception\n.tagtype __cpp_exception i32\n__cpp_exception:\n");

namespace __cxxabiv1 {
extern "C" {

_Unwind_LandingPadContext __wasm_lpad_context;

_Unwind_Reason_Code __gxx_personality_wasm0(int, _Unwind_Action, uint64_t, _Unwind_Exception *, _Unwind_Context *);

_Unwind_Reason_Code _Unwind_CallPersonality(void *exception) {
  auto *u = static_cast<_Unwind_Exception *>(exception);
  __wasm_lpad_context.selector = 0;
  return __gxx_personality_wasm0(1, _UA_SEARCH_PHASE, u->exception_class, u, reinterpret_cast<_Unwind_Context *>(&__wasm_lpad_context));
}

_Unwind_Reason_Code _Unwind_RaiseException(_Unwind_Exception *u) { __builtin_wasm_throw(0, u); }

void _Unwind_DeleteException(_Unwind_Exception *u) {
  if (u->exception_cleanup) u->exception_cleanup(_URC_FOREIGN_EXCEPTION_CAUGHT, u);
}

// ---- the personality routine ----------------------------------------------------------------

_Unwind_Reason_Code __gxx_personality_wasm0(int version, _Unwind_Action actions, uint64_t, _Unwind_Exception *u, _Unwind_Context *context) {
  if (version != 1 || !u || !context || !(actions & _UA_SEARCH_PHASE)) return _URC_FATAL_PHASE1_ERROR;
  auto *lpad = reinterpret_cast<_Unwind_LandingPadContext *>(context);
  const uint8_t *lsda = reinterpret_cast<const uint8_t *>(lpad->lsda);
  if (!lsda) return _URC_CONTINUE_UNWIND;
  bool native = isOurs(u);
  const uint8_t *languageSpecificData = lsda;

  uint8_t lpStartEncoding = *lsda++;
  readEncodedPointer(&lsda, lpStartEncoding);
  uint8_t ttypeEncoding = *lsda++;
  const uint8_t *classInfo = nullptr;
  if (ttypeEncoding != DW_EH_PE_omit) {
    uintptr_t offset = readULEB128(&lsda);
    classInfo = lsda + offset;
  }
  ++lsda; // call-site encoding: unused, wasm's table is indexed by landing pad
  uintptr_t callSiteTableLength = readULEB128(&lsda);
  const uint8_t *callSite = lsda;
  const uint8_t *callSiteEnd = lsda + callSiteTableLength;
  const uint8_t *actionTable = callSiteEnd;

  for (uintptr_t index = 0; callSite < callSiteEnd; ++index) {
    readULEB128(&callSite); // landing pad number
    uintptr_t actionEntry = readULEB128(&callSite);
    if (index != lpad->lpad_index) continue;
    if (actionEntry == 0) return _URC_CONTINUE_UNWIND; // cleanup only
    const uint8_t *action = actionTable + (actionEntry - 1);
    void *thrown = native ? thrownObject(u) : nullptr;
    const __shim_type_info *thrownType = native ? static_cast<const __shim_type_info *>(fromUnwind(u)->exceptionType) : nullptr;
    while (true) {
      const uint8_t *record = action;
      int64_t ttypeIndex = readSLEB128(&action);
      bool found = false;
      void *adjusted = thrown;
      if (ttypeIndex > 0) {
        const __shim_type_info *catchType = typeAt(ttypeIndex, classInfo, ttypeEncoding);
        if (!catchType) found = true; // catch (...)
        else if (native && thrownType && thrown && catchType->can_catch(thrownType, adjusted)) found = true;
      } else if (ttypeIndex < 0) {
        if (native && !specAllows(ttypeIndex, classInfo, ttypeEncoding, thrownType, thrown)) found = true;
      }
      if (found) {
        if (native) {
          Exception *e = fromUnwind(u);
          e->handlerSwitchValue = static_cast<int>(ttypeIndex);
          e->actionRecord = record;
          e->languageSpecificData = languageSpecificData;
          e->adjustedPtr = adjusted;
        }
        lpad->selector = static_cast<uintptr_t>(ttypeIndex);
        return _URC_HANDLER_FOUND;
      }
      const uint8_t *next = action;
      intptr_t offset = readSLEB128(&next);
      if (offset == 0) return _URC_CONTINUE_UNWIND;
      action += offset;
    }
  }
  std::terminate(); // a landing pad the table does not know: the tables are corrupt
}

// ---- the C++ ABI: cxa_exception.cpp ---------------------------------------------------------

void *__cxa_allocate_exception(size_t thrownSize) noexcept { return thrownFrom(allocate(thrownSize)); }

void __cxa_free_exception(void *thrown) noexcept { free(fromThrown(thrown)); }

void *__cxa_allocate_dependent_exception() noexcept { return allocate(0); }

void __cxa_free_dependent_exception(void *dependent) noexcept { free(dependent); }

void __cxa_increment_exception_refcount(void *thrown) noexcept {
  if (thrown) ++fromThrown(thrown)->referenceCount;
}

void __cxa_decrement_exception_refcount(void *thrown) noexcept {
  if (!thrown) return;
  Exception *e = fromThrown(thrown);
  if (--e->referenceCount == 0) {
    if (e->exceptionDestructor) e->exceptionDestructor(thrown);
    __cxa_free_exception(thrown);
  }
}

static void exceptionCleanup(_Unwind_Reason_Code, _Unwind_Exception *u) {
  __cxa_decrement_exception_refcount(thrownFrom(fromUnwind(u)));
}

static void dependentCleanup(_Unwind_Reason_Code, _Unwind_Exception *u) {
  Exception *dependent = fromUnwind(u);
  __cxa_decrement_exception_refcount(dependent->primaryException);
  __cxa_free_dependent_exception(dependent);
}

__cxa_exception *__cxa_init_primary_exception(void *thrown, std::type_info *type, Destructor destructor) noexcept {
  Exception *e = fromThrown(thrown);
  e->exceptionType = type;
  e->exceptionDestructor = destructor;
  e->unwindHeader.exception_class = kOurExceptionClass;
  e->referenceCount = 1;
  e->unwindHeader.exception_cleanup = exceptionCleanup;
  return reinterpret_cast<__cxa_exception *>(e);
}

void __cxa_throw(void *thrown, std::type_info *type, Destructor destructor) {
  Exception *e = fromThrown(thrown);
  __cxa_init_primary_exception(thrown, type, destructor);
  globals.uncaughtExceptions += 1;
  raise(e);
}

void *__cxa_get_exception_ptr(void *unwind) noexcept {
  auto *u = static_cast<_Unwind_Exception *>(unwind);
  return isOurs(u) ? fromUnwind(u)->adjustedPtr : static_cast<void *>(u + 1);
}

void *__cxa_begin_catch(void *unwind) noexcept {
  auto *u = static_cast<_Unwind_Exception *>(unwind);
  if (!u) return nullptr; // catch_all of a non-C++ exception (a JavaScript one): nothing to hold
  Exception *e = fromUnwind(u);
  if (isOurs(u)) {
    e->handlerCount = e->handlerCount < 0 ? -e->handlerCount + 1 : e->handlerCount + 1;
    if (e != globals.caughtExceptions) {
      e->nextException = globals.caughtExceptions;
      globals.caughtExceptions = e;
    }
    globals.uncaughtExceptions -= 1;
    return e->adjustedPtr;
  }
  // A foreign exception: only catch (...) can get here.
  if (globals.caughtExceptions) std::terminate();
  globals.caughtExceptions = e;
  return u + 1;
}

void __cxa_end_catch() {
  Exception *e = globals.caughtExceptions;
  if (!e) return;
  if (!isOurs(&e->unwindHeader)) {
    globals.caughtExceptions = nullptr;
    _Unwind_DeleteException(&e->unwindHeader);
    return;
  }
  if (e->handlerCount < 0) {
    // Rethrown: keep it alive for the handler that catches it next.
    if (++e->handlerCount == 0) globals.caughtExceptions = e->nextException;
    return;
  }
  if (--e->handlerCount == 0) {
    globals.caughtExceptions = e->nextException;
    if (isDependent(&e->unwindHeader)) {
      void *primary = e->primaryException;
      __cxa_free_dependent_exception(e);
      __cxa_decrement_exception_refcount(primary);
    } else {
      __cxa_decrement_exception_refcount(thrownFrom(e));
    }
  }
}

void __cxa_call_terminate(void *unwind) noexcept {
  if (unwind) __cxa_begin_catch(unwind);
  std::terminate();
}

void __cxa_rethrow() {
  Exception *e = globals.caughtExceptions;
  if (!e) std::terminate(); // `throw;` outside a handler
  if (isOurs(&e->unwindHeader)) {
    e->handlerCount = -e->handlerCount;
    globals.uncaughtExceptions += 1;
  } else {
    globals.caughtExceptions = nullptr;
  }
  raise(e);
}

std::type_info *__cxa_current_exception_type() {
  Exception *e = globals.caughtExceptions;
  return e && isOurs(&e->unwindHeader) ? e->exceptionType : nullptr;
}

bool __cxa_uncaught_exception() noexcept { return globals.uncaughtExceptions != 0; }

unsigned int __cxa_uncaught_exceptions() noexcept { return globals.uncaughtExceptions; }

void *__cxa_current_primary_exception() noexcept {
  Exception *e = globals.caughtExceptions;
  if (!e || !isOurs(&e->unwindHeader)) return nullptr;
  void *thrown = isDependent(&e->unwindHeader) ? e->primaryException : thrownFrom(e);
  __cxa_increment_exception_refcount(thrown);
  return thrown;
}

void __cxa_rethrow_primary_exception(void *thrown) {
  if (!thrown) return; // the caller calls terminate
  Exception *primary = fromThrown(thrown);
  Exception *dependent = static_cast<Exception *>(__cxa_allocate_dependent_exception());
  dependent->primaryException = thrown;
  __cxa_increment_exception_refcount(thrown);
  dependent->exceptionType = primary->exceptionType;
  dependent->unwindHeader.exception_class = kOurDependentExceptionClass;
  dependent->unwindHeader.exception_cleanup = dependentCleanup;
  globals.uncaughtExceptions += 1;
  raise(dependent);
}

// libc++abi's cxa_aux_runtime.cpp, built without exceptions, terminates here instead of throwing.
void __cxa_bad_cast() { throw std::bad_cast(); }
void __cxa_bad_typeid() { throw std::bad_typeid(); }
void __cxa_throw_bad_array_new_length() { throw std::bad_array_new_length(); }

// glibc's message for a failed assert(), so that stderr reads as under g++.
[[noreturn]] void __assert_fail(const char *expr, const char *file, int line, const char *func) {
  fflush(stdout);
  fprintf(stderr, "test: %s:%d: %s: Assertion `%s' failed.\n", file, line, func, expr);
  abort();
}

// Called by the host when an exception escaped `_start` (a WebAssembly exception reached
// JavaScript): prints what g++'s runtime prints before it aborts.
__attribute__((export_name("__benchtop_uncaught"))) void benchtopUncaught() {
  printExceptionMessage(globals.lastRaised);
  fflush(stderr);
}

} // extern "C"

// The rest of cxa_noexception.cpp's symbols, so that its archive member is never linked.
uint64_t __getExceptionClass(const _Unwind_Exception *u) { return u->exception_class; }
void __setExceptionClass(_Unwind_Exception *u, uint64_t c) { u->exception_class = c; }
bool __isOurExceptionClass(const _Unwind_Exception *u) { return isOurs(u); }
} // namespace __cxxabiv1

// ---- what libc++.a would throw ------------------------------------------------------------------

// Every member of std::string, compiled here with exceptions; these weak definitions come before
// libc++.a's in the link, so they are the ones used (substr, at, insert, … throw out_of_range).
template class std::basic_string<char>;

namespace std {
inline namespace __2 {
namespace {
// libstdc++'s __stoa: invalid_argument if nothing was converted, out_of_range on ERANGE or when an
// int result does not fit; what() is the function's name, as under g++.
template <class Result, class Converted, class... Base>
Result convert(Converted (*function)(const char *, char **, Base...), const char *name, const string &text, size_t *index, Base... base) {
  const char *begin = text.c_str();
  char *end = nullptr;
  int saved = errno;
  errno = 0;
  Converted value = function(begin, &end, base...);
  bool range = errno == ERANGE;
  if (errno == 0) errno = saved;
  if (end == begin) throw invalid_argument(name);
  if (range) throw out_of_range(name);
  if constexpr (is_same_v<Result, int>) {
    if (value < INT_MIN || value > INT_MAX) throw out_of_range(name);
  }
  if (index) *index = static_cast<size_t>(end - begin);
  return static_cast<Result>(value);
}
} // namespace

int stoi(const string &s, size_t *i, int base) { return convert<int, long, int>(strtol, "stoi", s, i, base); }
long stol(const string &s, size_t *i, int base) { return convert<long, long, int>(strtol, "stol", s, i, base); }
unsigned long stoul(const string &s, size_t *i, int base) { return convert<unsigned long, unsigned long, int>(strtoul, "stoul", s, i, base); }
long long stoll(const string &s, size_t *i, int base) { return convert<long long, long long, int>(strtoll, "stoll", s, i, base); }
unsigned long long stoull(const string &s, size_t *i, int base) { return convert<unsigned long long, unsigned long long, int>(strtoull, "stoull", s, i, base); }
float stof(const string &s, size_t *i) { return convert<float, float>(strtof, "stof", s, i); }
double stod(const string &s, size_t *i) { return convert<double, double>(strtod, "stod", s, i); }
long double stold(const string &s, size_t *i) { return convert<long double, long double>(strtold, "stold", s, i); }
} // namespace __2
} // namespace std
