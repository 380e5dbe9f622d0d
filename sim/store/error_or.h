// ErrorOr<T>: a value or a FoundationDB error code — how expected failures (conflicts, too-old
// reads, unknown commit results) travel through the store API and the recipes.
#pragma once

#include <optional>
#include <utility>

#include "base/invariant.h"
#include "sim/store/error.h"

namespace contend {

template <class T>
class ErrorOr {
 public:
  ErrorOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  ErrorOr(ErrorCode error) : error_(error) {      // NOLINT: implicit by design
    CONTEND_ASSERT(!contend::ok(error), "an ErrorOr holding an error holds a real one");
  }

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  ErrorCode error() const { return error_; }
  T& value() & {
    CONTEND_ASSERT(ok(), "value() of an ErrorOr holding an error");
    return *value_;
  }
  T&& value() && {
    CONTEND_ASSERT(ok(), "value() of an ErrorOr holding an error");
    return std::move(*value_);
  }
  T& operator*() & { return value(); }
  T* operator->() { return &value(); }

 private:
  std::optional<T> value_;
  ErrorCode error_ = ErrorCode::success;
};

template <>
class ErrorOr<void> {
 public:
  ErrorOr() = default;
  ErrorOr(ErrorCode error) : error_(error) {}  // NOLINT
  bool ok() const { return contend::ok(error_); }
  explicit operator bool() const { return ok(); }
  ErrorCode error() const { return error_; }

 private:
  ErrorCode error_ = ErrorCode::success;
};

}  // namespace contend
