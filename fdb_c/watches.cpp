#include "fdb_c/watches.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "base/invariant.h"
#include "fdb_c/errors.h"

namespace contend::fdb {

bool DatabaseState::has_room_for_a_watch() const {
  const auto listed = static_cast<std::int64_t>(listed_watches.size());
  if (listed < options.max_watches) return true;
  const auto cancelled = std::count_if(listed_watches.begin(), listed_watches.end(),
                                       [](const Future* f) { return f->is_ready(); });
  return listed - cancelled < options.max_watches;
}

WatchSlot::WatchSlot(std::shared_ptr<DatabaseState> database, const Future* future)
    : database_(std::move(database)), future_(future) {
  CONTEND_ASSERT(database_ != nullptr, "a watch belongs to a database");
  const bool listed = database_->listed_watches.insert(future_).second;
  CONTEND_ASSERT(listed, "a watch's future is listed once");
}

WatchSlot& WatchSlot::operator=(WatchSlot&& other) noexcept {
  if (this != &other) {
    unlist();
    database_ = std::move(other.database_);
    future_ = other.future_;
  }
  return *this;
}

WatchSlot::~WatchSlot() {
  unlist();
}

void WatchSlot::unlist() noexcept {
  if (database_ == nullptr) return;
  const std::size_t erased = database_->listed_watches.erase(future_);
  CONTEND_ASSERT(erased == 1, "a listed watch is unlisted once");
  database_.reset();
}

void WatchList::on_commit(const CommitRequest& request, Version commit_version) {
  // A watch that joins after this commit is checked against the value it read, not by key: with
  // none waiting, what the commit wrote reaches nothing.
  if (by_key_.empty()) return;
  std::optional<Bytes> versionstamp;  // as the store's apply: made on first use, batch order 0
  for (const MutationRef& m : request.mutations) {
    if (m.type == MutationType::clear_range) {
      if (!KeyRangeRef{m.param1, m.param2}.empty())
        written_.push_back(KeyRange{Bytes(m.param1), Bytes(m.param2)});
    } else if (m.type == MutationType::set_versionstamped_key) {
      if (!versionstamp) versionstamp = make_versionstamp(commit_version, 0);
      written_.push_back(single_key_range(fill_versionstamp(m.param1, *versionstamp)));
    } else {
      written_.push_back(single_key_range(m.param1));
    }
  }
}

void WatchList::check(const Store& store, Version latest, std::vector<Future*>& fired) {
  for (Watch& w : joined_) {
    if (leaves(w, store, latest, fired)) continue;
    Bytes key = w.key;
    by_key_.emplace(std::move(key), std::move(w));
  }
  joined_.clear();
  // A key written twice is looked at twice: the second look finds its watches unchanged.
  for (const KeyRange& range : written_) {
    auto it = by_key_.lower_bound(range.begin);
    while (it != by_key_.end() && compare_bytes(it->first, range.end) < 0)
      it = leaves(it->second, store, latest, fired) ? by_key_.erase(it) : std::next(it);
  }
  written_.clear();
  if (checks_until_sweep_ > 0) {
    --checks_until_sweep_;
    return;
  }
  sweep_cancelled();
  checks_until_sweep_ = by_key_.size();
}

bool WatchList::leaves(Watch& watch, const Store& store, Version latest,
                       std::vector<Future*>& fired) {
  if (watch.future->is_ready()) {  // cancelled
    watch.future->release();
    return true;
  }
  if (store.get(watch.key, latest) == watch.seen) return false;
  if (watch.future->set(kSuccess)) {
    fired.push_back(watch.future);  // the list's reference passes to the delivery
  } else {
    watch.future->release();  // cancelled meanwhile
  }
  return true;
}

void WatchList::sweep_cancelled() {
  std::erase_if(by_key_, [](auto& entry) {
    Future* future = entry.second.future;
    if (!future->is_ready()) return false;
    future->release();
    return true;
  });
}

}  // namespace contend::fdb
