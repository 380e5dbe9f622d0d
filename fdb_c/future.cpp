#include "fdb_c/future.h"

#include "base/invariant.h"
#include "fdb_c/errors.h"
#include "fdb_c/world.h"

namespace contend::fdb {

namespace {
FDBKey key_view(const Bytes& key) {
  return FDBKey{reinterpret_cast<const uint8_t*>(key.data()), static_cast<int>(key.size())};
}

std::vector<FDBKeyValue> row_views(const RangeResult& rows) {
  std::vector<FDBKeyValue> views;
  views.reserve(rows.size());
  for (const KeyValue& kv : rows) {
    views.push_back(FDBKeyValue{
        reinterpret_cast<const uint8_t*>(kv.key.data()), static_cast<int>(kv.key.size()),
        reinterpret_cast<const uint8_t*>(kv.value.data()), static_cast<int>(kv.value.size())});
  }
  return views;
}

// A mapped row as FDBMappedKeyValue lays it out; its lookup's rows are `found`.
FDBMappedKeyValue mapped_view(const MappedKeyValues::Row& row, std::vector<FDBKeyValue>& found) {
  FDBMappedKeyValue view{};
  view.key = key_view(row.key);
  view.value = key_view(row.value);
  view.getRange.begin = FDBKeySelector{key_view(row.begin), 0, 1};  // firstGreaterOrEqual
  view.getRange.end = FDBKeySelector{key_view(row.end), 0, 1};
  view.getRange.data = found.data();
  view.getRange.m_size = static_cast<int>(found.size());
  view.getRange.m_capacity = view.getRange.m_size;
  return view;
}

void make_views(FutureValue& value) {
  if (auto* kvs = std::get_if<KeyValues>(&value)) {
    kvs->views = row_views(kvs->rows);
  } else if (auto* mapped = std::get_if<MappedKeyValues>(&value)) {
    mapped->found_views.clear();
    for (const MappedKeyValues::Row& row : mapped->rows)
      mapped->found_views.push_back(row_views(row.found));
    mapped->views.clear();
    for (std::size_t i = 0; i < mapped->rows.size(); ++i)
      mapped->views.push_back(mapped_view(mapped->rows[i], mapped->found_views[i]));
  } else if (auto* keys = std::get_if<KeyList>(&value)) {
    keys->views.clear();
    for (const Bytes& k : keys->keys) {
      keys->views.push_back(
          FDBKey{reinterpret_cast<const uint8_t*>(k.data()), static_cast<int>(k.size())});
    }
  } else if (auto* strings = std::get_if<StringList>(&value)) {
    strings->views.clear();
    for (const std::string& s : strings->strings)
      strings->views.push_back(s.c_str());
  }
}
}  // namespace

bool Future::set(fdb_error_t error, FutureValue value) {
  std::lock_guard lock(mutex_);
  if (set_) return false;
  set_ = true;
  error_ = error;
  if (error == 0) {
    value_ = std::move(value);
    make_views(value_);
  }
  return true;
}

bool Future::deliver() {
  std::vector<Callback> callbacks;
  {
    std::lock_guard lock(mutex_);
    CONTEND_ASSERT(set_, "a future is set before it is delivered");
    if (ready_) return false;
    ready_ = true;
    callbacks = std::exchange(callbacks_, {});
    called_back_ = !callbacks.empty();
  }
  ready_changed_.notify_all();
  if (callbacks.empty()) return false;
  World::get().network.note_callback_run();  // before the callbacks, which may destroy it
  // The delivery's reference keeps the future alive through every callback; one that destroys
  // it drops the callbacks after it, as a destroy before delivery would.
  for (const Callback& c : callbacks) {
    {
      std::lock_guard lock(mutex_);
      if (abandoned_) break;
    }
    c.function(this, c.parameter);
  }
  return true;
}

bool Future::called_back() const {
  std::lock_guard lock(mutex_);
  return called_back_;
}

void Future::cancel() {
  if (set(kOperationCancelled)) deliver();
}

void Future::abandon() {
  {
    std::lock_guard lock(mutex_);
    callbacks_.clear();
    abandoned_ = true;
  }
  cancel();
}

void Future::release_memory() {
  {
    std::lock_guard lock(mutex_);
    if (set_) {
      if (error_ == 0) error_ = kFutureReleased;
      value_ = NoValue{};
      return;
    }
  }
  if (set(kFutureReleased)) deliver();
}

fdb_error_t Future::set_callback(FDBCallback callback, void* parameter) {
  {
    std::lock_guard lock(mutex_);
    if (!ready_) {
      callbacks_.push_back(Callback{callback, parameter});
      return 0;
    }
  }
  // Already ready: called at once, on this thread (the callback may destroy the future).
  callback(this, parameter);
  return 0;
}

bool Future::is_ready() const {
  std::lock_guard lock(mutex_);
  return ready_;
}

void Future::block_until_ready() {
  std::unique_lock lock(mutex_);
  ready_changed_.wait(lock, [&] { return ready_; });
}

fdb_error_t Future::error() const {
  std::lock_guard lock(mutex_);
  if (!ready_) return kFutureNotSet;
  return error_;
}

fdb_error_t Future::kind_never_held() const {
  std::lock_guard lock(mutex_);
  if (!ready_) return kFutureNotSet;
  return error_ != 0 ? error_ : kClientInvalidOperation;
}

void Future::release() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

}  // namespace contend::fdb
