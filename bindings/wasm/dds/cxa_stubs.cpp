// The C++ runtime calls DDS's WebAssembly build needs and Debian's wasm32 libc++abi (built
// without exceptions) lacks. DDS is compiled with -fexceptions so that its try/catch/throw
// compile; without WebAssembly exception handling a throw can only end the call: it traps.
#include <cstddef>

extern "C" {
int __cxa_atexit(void (*destructor)(void*), void* object, void* dso);

void* __cxa_allocate_exception(std::size_t) { __builtin_trap(); }

void __cxa_throw(void*, void*, void (*)(void*)) { __builtin_trap(); }

// thread_local objects with destructors: with one thread they are statics (and a reactor never
// runs exit-time destructors).
int __cxa_thread_atexit(void (*destructor)(void*), void* object, void* dso) {
  return __cxa_atexit(destructor, object, dso);
}
}
