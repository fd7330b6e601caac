// Included first into every DDS file of the WebAssembly build (bindings/wasm/dds/build.sh).
// Debian's wasm32 libc++ is built without threads and without file streams, and DDS uses both:
// std::thread pools for its batch calls, mutexes, and std::ofstream for debug files. This
// header gives one-thread stand-ins so that DDS's sources compile unchanged:
//   - a mutex that does nothing, and hardware_concurrency() == 1;
//   - starting a thread, or waiting for another one, traps: no call the core makes (one
//     context, one deal at a time) reaches them;
//   - an output file stream that is never open and discards what is written.
#pragma once
#ifdef __cplusplus
#include <__config>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <utility>

#ifdef _LIBCPP_HAS_NO_THREADS
_LIBCPP_BEGIN_NAMESPACE_STD

class mutex {
 public:
  constexpr mutex() noexcept = default;
  mutex(const mutex&) = delete;
  mutex& operator=(const mutex&) = delete;
  void lock() {}
  bool try_lock() { return true; }
  void unlock() {}
};
using recursive_mutex = mutex;

template <class M>
class unique_lock {
 public:
  unique_lock() noexcept = default;
  explicit unique_lock(M& m) : m_(&m), owns_(true) { m.lock(); }
  unique_lock(M& m, defer_lock_t) noexcept : m_(&m), owns_(false) {}
  unique_lock(M& m, adopt_lock_t) noexcept : m_(&m), owns_(true) {}
  ~unique_lock() {
    if (owns_) m_->unlock();
  }
  unique_lock(const unique_lock&) = delete;
  unique_lock& operator=(const unique_lock&) = delete;
  void lock() {
    m_->lock();
    owns_ = true;
  }
  void unlock() {
    m_->unlock();
    owns_ = false;
  }
  bool owns_lock() const noexcept { return owns_; }
  M* mutex() const noexcept { return m_; }

 private:
  M* m_ = nullptr;
  bool owns_ = false;
};

class condition_variable {
 public:
  void notify_one() noexcept {}
  void notify_all() noexcept {}
  // With one thread, a wait whose condition does not hold already would never end.
  void wait(unique_lock<mutex>&) { __builtin_trap(); }
  template <class P>
  void wait(unique_lock<mutex>&, P ready) {
    if (!ready()) __builtin_trap();
  }
};

class thread {
 public:
  thread() noexcept = default;
  template <class F, class... A>
  explicit thread(F&&, A&&...) {
    __builtin_trap();
  }
  thread(thread&&) noexcept = default;
  thread& operator=(thread&&) noexcept = default;
  bool joinable() const noexcept { return false; }
  void join() {}
  void detach() {}
  static unsigned hardware_concurrency() noexcept { return 1; }
};

namespace this_thread {
// DDS sleeps only to wait for another thread.
template <class R, class P>
inline void sleep_for(const chrono::duration<R, P>&) {
  __builtin_trap();
}
inline void yield() noexcept {}
}  // namespace this_thread

_LIBCPP_END_NAMESPACE_STD
#endif  // _LIBCPP_HAS_NO_THREADS

#ifdef _LIBCPP_HAS_NO_FILESYSTEM
_LIBCPP_BEGIN_NAMESPACE_STD
// A file stream that is never open: its null buffer makes every write a no-op.
template <class C, class T>
class basic_ofstream : public basic_ostream<C, T> {
 public:
  basic_ofstream() : basic_ostream<C, T>(nullptr) {}
  explicit basic_ofstream(const char*, ios_base::openmode = ios_base::out) : basic_ostream<C, T>(nullptr) {}
  explicit basic_ofstream(const string&, ios_base::openmode = ios_base::out) : basic_ostream<C, T>(nullptr) {}
  void open(const char*, ios_base::openmode = ios_base::out) { this->setstate(ios_base::failbit); }
  void open(const string&, ios_base::openmode = ios_base::out) { this->setstate(ios_base::failbit); }
  bool is_open() const { return false; }
  void close() {}
};
_LIBCPP_END_NAMESPACE_STD
#endif  // _LIBCPP_HAS_NO_FILESYSTEM
#endif  // __cplusplus
