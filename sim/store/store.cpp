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
    if (entry == it->undo.end() || entry->key != key) continue;
    if (entry->existed) {
      value = entry->before;
    } else {
      value.reset();
    }
  }
  return value;
}

Store::Overlay Store::overlay_since(const KeyRange& range, Version read_version) const {
  Overlay overlay;
  for (auto it = log_.rbegin(); it != log_.rend() && it->version > read_version; ++it) {
    auto first = std::lower_bound(it->undo.begin(), it->undo.end(), BytesView(range.begin),
                                  [](const UndoEntry& e, BytesView k) { return e.key < k; });
    for (auto e = first; e != it->undo.end() && e->key < range.end; ++e) {
      overlay.insert_or_assign(e->key, e->existed ? std::optional<Bytes>(e->before) : std::nullopt);
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

void Store::record_before(LoggedCommit& commit, BytesView key, const Bytes* before) {
  for (const UndoEntry& e : commit.undo) {
    if (e.key == key) return;  // commits touch few keys: a linear scan beats a map
  }
  UndoEntry& entry = commit.undo.push_slot();
  entry.key.assign(key);
  entry.existed = before != nullptr;
  if (before != nullptr) entry.before.assign(*before);
}

void Store::put(KeyMap::iterator at, BytesView key, BytesView value) {
  if (at != current_.end() && at->first == key) {
    at->second.assign(value);
    return;
  }
  if (spare_nodes_.empty()) {
    current_.emplace_hint(at, key, value);
    return;
  }
  KeyMap::node_type node = std::move(spare_nodes_.back());
  spare_nodes_.pop_back();
  node.key().assign(key);
  node.mapped().assign(value);
  current_.insert(at, std::move(node));
}

void Store::erase_range(KeyMap::iterator first, KeyMap::iterator last) {
  while (first != last) {
    auto next = std::next(first);
    if (spare_nodes_.size() < kSpareNodesMax) {
      spare_nodes_.push_back(current_.extract(first));
    } else {
      current_.erase(first);
    }
    first = next;
  }
}

Store::LoggedCommit& Store::start_logged_commit(const CommitRequest& request,
                                                Version commit_version) {
  if (spare_commits_.empty()) {
    log_.emplace_back();
  } else {
    log_.push_back(std::move(spare_commits_.back()));
    spare_commits_.pop_back();
  }
  LoggedCommit& logged = log_.back();
  logged.version = commit_version;
  logged.client = request.client;
  logged.transaction_id = request.transaction_id;
  logged.undo.clear();
  logged.writes.clear();
  for (const KeyRange& w : request.write_ranges) {
    KeyRange& slot = logged.writes.push_slot();
    slot.begin.assign(w.begin);
    slot.end.assign(w.end);
  }
  return logged;
}

void Store::apply(const CommitRequest& request, Version commit_version) {
  LoggedCommit& logged = start_logged_commit(request, commit_version);
  std::optional<Bytes> versionstamp;  // made on first use
  auto stamp = [&]() -> const Bytes& {
    if (!versionstamp) versionstamp = make_versionstamp(commit_version, 0);
    return *versionstamp;
  };
  auto set_key = [&](BytesView key, BytesView value) {
    auto at = current_.lower_bound(key);
    const bool exists = at != current_.end() && at->first == key;
    record_before(logged, key, exists ? &at->second : nullptr);
    put(at, key, value);
  };
  for (const Mutation& m : request.mutations) {
    switch (m.type) {
      case MutationType::set_value:
        set_key(m.param1, m.param2);
        break;
      case MutationType::clear_range: {
        auto first = current_.lower_bound(BytesView(m.param1));
        auto last = current_.lower_bound(BytesView(m.param2));
        for (auto it = first; it != last; ++it)
          record_before(logged, it->first, &it->second);
        erase_range(first, last);
        break;
      }
      case MutationType::set_versionstamped_key:
        set_key(fill_versionstamp(m.param1, stamp()), m.param2);
        break;
      case MutationType::set_versionstamped_value:
        set_key(m.param1, fill_versionstamp(m.param2, stamp()));
        break;
      default: {
        std::optional<Bytes> existing;
        if (auto it = current_.find(BytesView(m.param1)); it != current_.end())
          existing = it->second;
        set_key(m.param1, apply_atomic(m.type, existing, m.param2));
        break;
      }
    }
  }
  for (const KeyRange& w : request.write_ranges)
    history_.add(w, commit_version);
  std::sort(logged.undo.begin(), logged.undo.end(),
            [](const UndoEntry& a, const UndoEntry& b) { return a.key < b.key; });

  latest_version_ = commit_version;
  ++commit_count_;
  prune(commit_version - kMvccWindowVersions);
  if (observer_ != nullptr) observer_->on_commit(request, commit_version);
}

void Store::prune(Version horizon) {
  while (!log_.empty() && log_.front().version <= horizon) {
    if (spare_commits_.size() < kSpareCommitsMax) spare_commits_.push_back(std::move(log_.front()));
    log_.pop_front();
  }
  history_.prune(horizon);
}

}  // namespace contend
