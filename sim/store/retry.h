// Transaction attempts and the retry loop, as FoundationDB's bindings run them.
//
// attempt(tr, fn) runs one transaction body `fn(tr)` (a coroutine returning Task<T>). If a read
// inside it fails, the body — however deeply it has nested — is abandoned and destroyed, and the
// attempt returns the error as a value. run(db, fn) mirrors @fdb.transactional / Database.run:
// attempt, commit, and on a retryable error back off (on_error) and try again — including a
// blind retry of commit_unknown_result, which is exactly what makes non-idempotent recipes unsafe.
// Invariant: every loop is bounded by RunOptions::retry_limit; reaching it is reported in the
// result, never hung on.
#pragma once

#include <algorithm>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "base/task.h"
#include "sim/store/error_or.h"
#include "sim/store/transaction.h"

namespace contend {

namespace detail {

template <class Fn>
struct BodyValue;
template <class T>
struct BodyValue<Task<T>> {
  using type = T;
};
template <class Fn>
using body_value_t = typename BodyValue<std::invoke_result_t<Fn&, Transaction&>>::type;

// What attempt() returns: an awaitable that owns the body function and, once awaited, the
// body's task (no coroutine frame of its own). The awaiting coroutine becomes the
// transaction's abort target while the body runs; a failed read resumes it with the body
// suspended, and the body is destroyed here.
template <class Fn>
class AttemptOp {
 public:
  using T = body_value_t<Fn>;

  AttemptOp(Transaction& tr, Fn fn) : tr_(&tr), fn_(std::move(fn)) {}

  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> self) {
    // Made here, where this awaiter stays put until the co_await ends: a body lambda's captures
    // live in fn_.
    body_.emplace(fn_(*tr_));
    saved_target_ = tr_->abort_target();
    tr_->set_abort_target(self);
    body_->handle().promise().continuation = self;
    return body_->handle();
  }
  ErrorOr<T> await_resume() {
    tr_->set_abort_target(saved_target_);
    if (!body_->done()) {  // a read failed: the body is suspended inside that read
      ErrorCode e = tr_->take_read_error();
      body_.reset();
      return e;
    }
    if constexpr (std::is_void_v<T>) {
      body_->handle().promise().take();
      return {};
    } else {
      return body_->handle().promise().take();
    }
  }

 private:
  Transaction* tr_;
  Fn fn_;
  std::optional<Task<T>> body_;
  std::coroutine_handle<> saved_target_;
};

template <class Fn>
Task<ErrorOr<body_value_t<Fn>>> await_attempt(AttemptOp<Fn> op) {
  co_return co_await op;
}

}  // namespace detail

// One attempt of a transaction body: co_await attempt(tr, fn) gives the body's value, or the
// error of the read that abandoned it.
template <class Fn>
detail::AttemptOp<Fn> attempt(Transaction& tr, Fn fn) {
  return detail::AttemptOp<Fn>(tr, std::move(fn));
}

struct RunOptions {
  int retry_limit = 1000;
};

// What a run() loop did: the value on success, else the error it stopped on.
template <class T>
struct RunResult {
  std::optional<T> value;  // set on success (T = std::monostate for void bodies)
  ErrorCode error = ErrorCode::success;
  int attempts = 0;
  bool retry_limit_reached = false;
  // Some attempt ended in commit_unknown_result: its writes may have been applied.
  bool maybe_committed_earlier = false;
  bool ok() const { return contend::ok(error); }
};

namespace detail {
template <class T>
using stored_t = std::conditional_t<std::is_void_v<T>, std::monostate, T>;
}

template <class Fn>
Task<RunResult<detail::stored_t<detail::body_value_t<Fn>>>> run(Database db, Fn fn,
                                                                RunOptions options = {}) {
  using T = detail::body_value_t<Fn>;
  RunResult<detail::stored_t<T>> out;
  Transaction tr(db);
  ErrorCode last = ErrorCode::success;
  const int retry_limit = std::min(options.retry_limit, db.retry_limit);
  while (out.attempts < retry_limit) {
    ++out.attempts;
    auto body_result = co_await attempt(tr, fn);
    last = body_result.error();
    if (body_result.ok()) {
      last = co_await tr.commit();
      if (ok(last)) {
        if constexpr (std::is_void_v<T>) {
          out.value.emplace();
        } else {
          out.value.emplace(std::move(body_result).value());
        }
        co_return out;
      }
    }
    if (maybe_committed(last)) out.maybe_committed_earlier = true;
    if (ErrorCode e = co_await tr.on_error(last); !ok(e)) {
      out.error = e;
      co_return out;
    }
  }
  out.error = last;
  out.retry_limit_reached = true;
  co_return out;
}

}  // namespace contend
