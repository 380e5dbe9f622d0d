// Task<T>: the coroutine type of every simulated client, recipe and transaction body. It sits in
// base/, below the store (whose retry loop is a coroutine) and the runtime (which schedules them).
//
// Invariants:
// - lazily started: creating a Task runs nothing; the first `co_await task` (or start()) does;
// - single owner: a Task is move-only and destroying it destroys its coroutine frame, and with it
//   every Task the frame holds (so destroying a suspended client frees its whole call chain);
// - completion transfers control symmetrically to the awaiting coroutine (no stack growth);
// - an exception escaping the body (only programmer errors and allocation failure: expected
//   outcomes travel as values) is stored and rethrown to the awaiter.
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <new>
#include <optional>
#include <utility>

#include "base/invariant.h"
#include "base/sanitizers.h"

namespace contend {

template <class T = void>
class Task;

namespace detail {

// Coroutine frames come and go several times per simulated operation: recycle them through
// per-thread free lists by size class instead of the general allocator. Thread-local, so worlds
// on different threads (--jobs) never share a list; a frame is always freed on the thread that
// allocated it (a world never migrates).
class FramePool {
 public:
  static constexpr std::size_t kGranule = 64;
  static constexpr std::size_t kClasses = 64;  // frames up to 4 KiB are pooled

  // The size class of a frame of `n` bytes: its whole granules (kClasses and above: not pooled).
  static constexpr std::size_t class_of(std::size_t n) { return (n + kGranule - 1) / kGranule; }

  // Bytes a frame of `n` bytes occupies: whole granules below the largest class, else `n`.
  static constexpr std::size_t block_bytes(std::size_t n) {
    const std::size_t c = class_of(n);
    return c >= kClasses ? n : c * kGranule;
  }

  // The two modes below must agree on block sizes. This header is installed and inline, and
  // chooses by the including build's sanitizer: a user's ASan test linked against a non-ASan
  // libcontend may have its frames allocated by one mode and released by the other (the linker
  // keeps one definition of each), so a block the unpooled mode allocates must be large enough
  // for any frame of its class that the pooled mode later hands it to.
#if CONTEND_ADDRESS_SANITIZER
  // Under AddressSanitizer every frame goes to the allocator, so a use after free is caught.
  static void* allocate(std::size_t n) {
    return ::operator new(block_bytes(n));
  }
  static void release(void* p, std::size_t) noexcept {
    ::operator delete(p);
  }
#else
  static void* allocate(std::size_t n) {
    const std::size_t c = class_of(n);
    if (c >= kClasses) return ::operator new(n);
    FreeBlock*& head = lists()[c];
    if (head != nullptr) {
      recycled() += block_bytes(n);
      return std::exchange(head, head->next);
    }
    return ::operator new(block_bytes(n));
  }
  static void release(void* p, std::size_t n) noexcept {
    const std::size_t c = class_of(n);
    if (c >= kClasses) return ::operator delete(p);
    auto* block = static_cast<FreeBlock*>(p);
    block->next = lists()[c];
    lists()[c] = block;
  }
#endif
  // Bytes of frames this thread has served from its free lists (not from the allocator): what
  // a heap measurement misses, for benchmarks of memory per client.
  static std::size_t& recycled() {
    thread_local std::size_t bytes = 0;
    return bytes;
  }

 private:
  struct FreeBlock {
    FreeBlock* next;
  };
  struct Lists {
    FreeBlock* heads[kClasses] = {};
    ~Lists() {
      for (FreeBlock* head : heads) {
        while (head != nullptr)
          ::operator delete(std::exchange(head, head->next));
      }
    }
  };
  static FreeBlock** lists() {
    thread_local Lists lists;
    return lists.heads;
  }
};

struct TaskPromiseBase {
  static void* operator new(std::size_t n) { return FramePool::allocate(n); }
  static void operator delete(void* p, std::size_t n) noexcept { FramePool::release(p, n); }

  std::coroutine_handle<> continuation;
  std::exception_ptr exception;

  std::suspend_always initial_suspend() noexcept { return {}; }
  struct FinalAwaiter {
    bool await_ready() noexcept { return false; }
    template <class Promise>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> h) noexcept {
      auto next = h.promise().continuation;
      return next ? next : std::noop_coroutine();
    }
    void await_resume() noexcept {}
  };
  FinalAwaiter final_suspend() noexcept { return {}; }
  void unhandled_exception() noexcept { exception = std::current_exception(); }
  void rethrow_if_failed() {
    if (exception) std::rethrow_exception(exception);
  }
};

template <class T>
struct TaskPromise : TaskPromiseBase {
  std::optional<T> result;
  Task<T> get_return_object() noexcept;
  template <class U>
  void return_value(U&& value) {
    result.emplace(std::forward<U>(value));
  }
  T take() {
    rethrow_if_failed();
    CONTEND_ASSERT(result.has_value(), "a finished task without an exception has its result");
    return std::move(*result);
  }
};

template <>
struct TaskPromise<void> : TaskPromiseBase {
  Task<void> get_return_object() noexcept;
  void return_void() noexcept {}
  void take() { rethrow_if_failed(); }
};

}  // namespace detail

template <class T>
class [[nodiscard]] Task {
 public:
  using promise_type = detail::TaskPromise<T>;
  using Handle = std::coroutine_handle<promise_type>;

  Task() = default;
  explicit Task(Handle h) noexcept : handle_(h) {}
  Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { reset(); }

  bool valid() const { return static_cast<bool>(handle_); }
  bool done() const { return handle_ && handle_.done(); }
  Handle handle() const { return handle_; }

  // Runs a root task (one nobody awaits) until its first suspension.
  void start() {
    CONTEND_ASSERT(handle_ && !handle_.done(), "start() runs a task that has not finished");
    handle_.resume();
  }
  // The result of a finished root task.
  T result() {
    CONTEND_ASSERT(done(), "result() of a finished task");
    return handle_.promise().take();
  }
  // Destroys the frame (and everything it owns) whether finished or suspended.
  void reset() {
    if (handle_) std::exchange(handle_, {}).destroy();
  }

  struct Awaiter {
    Handle handle;
    bool await_ready() const noexcept { return !handle || handle.done(); }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) noexcept {
      handle.promise().continuation = awaiting;
      return handle;
    }
    T await_resume() { return handle.promise().take(); }
  };
  Awaiter operator co_await() const& noexcept { return Awaiter{handle_}; }

 private:
  Handle handle_;
};

namespace detail {
template <class T>
Task<T> TaskPromise<T>::get_return_object() noexcept {
  return Task<T>{std::coroutine_handle<TaskPromise<T>>::from_promise(*this)};
}
inline Task<void> TaskPromise<void>::get_return_object() noexcept {
  return Task<void>{std::coroutine_handle<TaskPromise<void>>::from_promise(*this)};
}
}  // namespace detail

}  // namespace contend
