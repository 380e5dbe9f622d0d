#include "sim/store/store.h"

#include <algorithm>
#include <cassert>

namespace contend {

Version Store::current_version(std::int64_t now_us) const {
  return std::max<Version>(latest_version_, now_us);
}

Version Store::grant_read_version(std::int64_t now_us) {
  granted_version_ = std::max(granted_version_, current_version(now_us));
  return granted_version_;
}

ErrorCode Store::check_read_version(Version read_version, std::int64_t now_us) const {
  if (read_version < current_version(now_us) - kMvccWindowVersions) {
    return ErrorCode::transaction_too_old;
  }
  return ErrorCode::success;
}

std::optional<Bytes> Store::get(BytesView key, Version read_version) const {
  std::optional<Bytes> value;
  if (auto it = current_.find(key); it != current_.end()) value = it->second;
  // Undo newer commits, newest first, so the oldest commit after read_version has the last word.
  for (auto it = log_.rbegin(); it != log_.rend() && it->version > read_version; ++it) {
    auto entry = std::lower_bound(it->undo.begin(), it->undo.end(), key,
                                  [](const UndoEntry& e, BytesView k) { return e.key < k; });
    if (entry != it->undo.end() && entry->key == key) value = entry->before;
  }
  return value;
}

Store::Overlay Store::overlay_since(const KeyRange& range, Version read_version) const {
  Overlay overlay;
  for (auto it = log_.rbegin(); it != log_.rend() && it->version > read_version; ++it) {
    auto first = std::lower_bound(it->undo.begin(), it->undo.end(), BytesView(range.begin),
                                  [](const UndoEntry& e, BytesView k) { return e.key < k; });
    for (auto e = first; e != it->undo.end() && e->key < range.end; ++e) {
      overlay.insert_or_assign(e->key, e->before);
    }
  }
  return overlay;
}

const Store::LoggedCommit* Store::logged_commit(Version version) const {
  auto it = std::lower_bound(log_.begin(), log_.end(), version,
                             [](const LoggedCommit& c, Version v) { return c.version < v; });
  return it != log_.end() && it->version == version ? &*it : nullptr;
}

std::optional<ConflictCause> Store::find_conflict(const CommitRequest& request) const {
  for (std::size_t i = 0; i < request.read_ranges.size(); ++i) {
    const KeyRange& read = request.read_ranges[i];
    Version newest = history_.newest_write(read);
    if (newest <= request.read_version) continue;
    ConflictCause cause{i, read, newest, -1, 0, {}};
    if (const LoggedCommit* writer = logged_commit(newest)) {
      cause.writer_client = writer->client;
      cause.writer_transaction_id = writer->transaction_id;
      for (const KeyRange& w : writer->writes) {
        if (w.intersects(read)) {
          cause.writer_range = w;
          break;
        }
      }
    }
    return cause;
  }
  return std::nullopt;
}

CommitResult Store::commit(const CommitRequest& request, std::int64_t now_us) {
  assert(request.read_version != kInvalidVersion && request.read_version <= granted_version_);
  CommitResult result;
  Version commit_version = std::max<Version>({latest_version_ + 1, granted_version_ + 1, now_us});
  // A transaction with writes always carries a read conflict range (FoundationDB makes it
  // self-conflicting when its reads and writes are disjoint), so it can be too old.
  if (request.read_version < commit_version - kMvccWindowVersions) {
    result.error = ErrorCode::transaction_too_old;
    return result;
  }
  if (auto cause = find_conflict(request)) {
    result.error = ErrorCode::not_committed;
    result.conflict = std::move(cause);
    return result;
  }
  apply(request, commit_version);
  result.commit_version = commit_version;
  return result;
}

void Store::record_before(std::vector<UndoEntry>& touched, BytesView key) {
  for (const UndoEntry& e : touched) {
    if (e.key == key) return;  // commits touch few keys: a linear scan beats a map
  }
  std::optional<Bytes> before;
  if (auto it = current_.find(key); it != current_.end()) before = it->second;
  touched.push_back(UndoEntry{Bytes(key), std::move(before)});
}

void Store::apply(const CommitRequest& request, Version commit_version) {
  std::vector<UndoEntry> touched;
  touched.reserve(request.mutations.size());
  const Bytes versionstamp = make_versionstamp(commit_version, 0);
  for (const Mutation& m : request.mutations) {
    switch (m.type) {
      case MutationType::set_value:
        record_before(touched, m.param1);
        current_.insert_or_assign(m.param1, m.param2);
        break;
      case MutationType::clear_range: {
        auto first = current_.lower_bound(BytesView(m.param1));
        auto last = current_.lower_bound(BytesView(m.param2));
        for (auto it = first; it != last; ++it)
          record_before(touched, it->first);
        current_.erase(first, last);
        break;
      }
      case MutationType::set_versionstamped_key: {
        Bytes key = fill_versionstamp(m.param1, versionstamp);
        record_before(touched, key);
        current_.insert_or_assign(std::move(key), m.param2);
        break;
      }
      case MutationType::set_versionstamped_value:
        record_before(touched, m.param1);
        current_.insert_or_assign(m.param1, fill_versionstamp(m.param2, versionstamp));
        break;
      default: {
        record_before(touched, m.param1);
        std::optional<Bytes> existing;
        if (auto it = current_.find(BytesView(m.param1)); it != current_.end())
          existing = it->second;
        current_.insert_or_assign(m.param1, apply_atomic(m.type, existing, m.param2));
        break;
      }
    }
  }
  for (const KeyRange& w : request.write_ranges)
    history_.add(w, commit_version);

  LoggedCommit logged;
  logged.version = commit_version;
  logged.client = request.client;
  logged.transaction_id = request.transaction_id;
  std::sort(touched.begin(), touched.end(),
            [](const UndoEntry& a, const UndoEntry& b) { return a.key < b.key; });
  logged.undo = std::move(touched);
  logged.writes.assign(request.write_ranges.begin(), request.write_ranges.end());
  log_.push_back(std::move(logged));

  latest_version_ = commit_version;
  ++commit_count_;
  prune(commit_version - kMvccWindowVersions);
  if (observer_ != nullptr) observer_->on_commit(request, commit_version);
}

void Store::prune(Version horizon) {
  while (!log_.empty() && log_.front().version <= horizon)
    log_.pop_front();
  history_.prune(horizon);
}

}  // namespace contend
