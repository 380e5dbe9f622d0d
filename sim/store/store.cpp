#include "sim/store/store.h"

#include <algorithm>
#include <tuple>

#include "base/invariant.h"
#include "sim/store/mutants.h"

namespace contend {

namespace {
// Below this many undo entries a commit sorts them by insertion (stable, no allocation).
constexpr std::size_t kInsertionSortMax = 16;
}  // namespace

Version Store::current_version(std::int64_t now_us) const {
  CONTEND_ASSERT(now_us >= 0, "virtual time starts at zero");
  return std::max<Version>(latest_version_, now_us);
}

Version Store::grant_read_version(std::int64_t now_us) {
  const Version before = granted_version_;
  granted_version_ = version_reached(now_us);
  CONTEND_ASSERT(granted_version_ >= before && granted_version_ >= latest_version_,
                 "read versions only grow, and see every commit made before them");
  return granted_version_;
}

void Store::grant_read_version_ahead(Version version) {
  CONTEND_ASSERT(version >= granted_version_, "read versions only grow");
  granted_version_ = version;
}

ErrorCode Store::check_read_version(Version read_version, std::int64_t now_us) const {
  CONTEND_ASSERT(read_version != kInvalidVersion && read_version <= granted_version_,
                 "a read version is one the store granted");
  if (read_version < current_version(now_us) - kMvccWindowVersions && !CONTEND_MUTANT(15)) {
    return ErrorCode::transaction_too_old;
  }
  return ErrorCode::success;
}

std::map<Bytes, Bytes, KeyLess> Store::latest_state() const {
  std::map<Bytes, Bytes, KeyLess> out;
  for (const auto& [key, value] : current_)
    out.emplace_hint(out.end(), key.bytes, value);
  return out;
}

std::optional<Bytes> Store::get(BytesView key, Version read_version) const {
  CONTEND_ASSERT(read_version <= granted_version_, "a read at a version the store granted");
  std::optional<Bytes> value;
  if (auto it = current_.find(KeyProbe(key)); it != current_.end()) value = it->second;
  // Undo newer commits, newest first, so the oldest commit after read_version has the last word.
  for (auto n = log_.end();
       !CONTEND_MUTANT(16) && n != log_.begin() && log_[n - 1].version > read_version; --n) {
    const LoggedCommit& commit = log_[n - 1];
    CONTEND_DEBUG_ASSERT(n - 1 == log_.begin() || log_[n - 2].version < commit.version,
                         "logged versions strictly increase");
    const auto e = undo_lower_bound(commit, key);
    if (e == commit.undo_end || !equal_bytes(undo_[e].key, key)) continue;
    if (undo_[e].existed) {
      value = Bytes(undo_[e].before);
    } else {
      value.reset();
    }
  }
  return value;
}

FifoRing<Store::UndoEntry>::Number Store::undo_lower_bound(const LoggedCommit& commit,
                                                           BytesView key) const {
  CONTEND_DEBUG_ASSERT(commit.undo_begin <= commit.undo_end && commit.undo_begin >= undo_.begin(),
                       "a logged commit's undo entries are still in the ring");
  return undo_.partition_point(commit.undo_begin, commit.undo_end,
                               [&](const UndoEntry& e) { return KeyLess()(e.key, key); });
}

Store::Overlay Store::overlay_since(KeyRangeRef range, Version read_version) const {
  CONTEND_ASSERT(!range.empty(), "scan() skips empty ranges before building an overlay");
  Overlay overlay;
  for (auto n = log_.end(); n != log_.begin() && log_[n - 1].version > read_version; --n) {
    const LoggedCommit& commit = log_[n - 1];
    for (auto e = undo_lower_bound(commit, range.begin);
         e != commit.undo_end && KeyLess()(undo_[e].key, range.end); ++e) {
      const UndoEntry& entry = undo_[e];
      overlay.insert_or_assign(Bytes(entry.key),
                               entry.existed ? std::optional<Bytes>(entry.before) : std::nullopt);
    }
  }
  return overlay;
}

const Store::LoggedCommit* Store::logged_commit(Version version) const {
  const auto first = log_.partition_point(
      log_.begin(), log_.end(), [&](const LoggedCommit& c) { return c.version < version; });
  const LoggedCommit* found =
      first != log_.end() && log_[first].version == version ? &log_[first] : nullptr;
  CONTEND_ASSERT(found == nullptr || found->version == version, "the commit asked for");
  return found;
}

std::optional<FifoRing<Store::LoggedCommit>::Number> Store::few_commits_after(
    Version read_version) const {
  const bool few = log_.end() - log_.begin() <= kScannedCommitsMax ||
                   log_[log_.end() - kScannedCommitsMax - 1].version <= read_version;
  if (!few) return std::nullopt;
  auto first = log_.end();
  while (first != log_.begin() && log_[first - 1].version > read_version)
    --first;
  // A lone single-key write adds nothing to logged_writes_, so this counts all but those.
  if (first != log_.end() && logged_writes_.end() - log_[first].writes_begin > kScannedWritesMax)
    return std::nullopt;
  CONTEND_ASSERT(first == log_.end() || log_[first].version > read_version,
                 "the scan starts at the first commit after the read version");
  CONTEND_ASSERT(first == log_.begin() || log_[first - 1].version <= read_version,
                 "and misses none after it");
  return first;
}

FifoRing<Store::LoggedRange>::Number Store::logged_write_meeting(const LoggedCommit& commit,
                                                                 KeyRangeRef read) const {
  CONTEND_ASSERT(!commit.write_is_undo_key, "a lone-key commit logs no write ranges");
  auto w = commit.writes_begin;
  while (w != commit.writes_end && !logged_write(w).intersects(read))
    ++w;
  return w;
}

bool Store::writes_into(const LoggedCommit& commit, KeyRangeRef read) const {
  if (commit.write_is_undo_key) return read.contains(undo_[commit.undo_begin].key);
  return logged_write_meeting(commit, read) != commit.writes_end;
}

ConflictCause Store::conflict_cause(std::size_t read_index, KeyRangeRef read,
                                    const LoggedCommit& writer) const {
  ConflictCause cause{read_index,    copy_of(read),         writer.version,
                      writer.client, writer.transaction_id, {}};
  if (writer.write_is_undo_key) {
    cause.writer_range = single_key_range(undo_[writer.undo_begin].key);
  } else if (const auto w = logged_write_meeting(writer, read); w != writer.writes_end) {
    cause.writer_range = copy_of(logged_write(w));
  }
  CONTEND_ASSERT(KeyRangeRef(cause.writer_range).intersects(read),
                 "a conflict names a committed write that meets the read range");
  return cause;
}

std::optional<ConflictCause> Store::find_conflict(const CommitRequest& request) {
  const Version read_version = request.read_version;
  // Nothing committed since the read version: no write can be newer than it.
  if (latest_version_ <= read_version) return std::nullopt;
  if (const auto first_newer = few_commits_after(read_version)) {
    // The newest commit after the read version that wrote into a read range is the one the
    // history would name: look at the few there are, newest first.
    for (std::size_t i = 0; i < request.read_ranges.size(); ++i) {
      const KeyRangeRef read = request.read_ranges[i];
      for (auto n = log_.end() - (CONTEND_MUTANT(14) ? 1 : 0); n > *first_newer; --n) {
        if (!writes_into(log_[n - 1], read)) continue;
        CONTEND_ASSERT(log_[n - 1].version > read_version, "a conflict is with a newer write");
        return conflict_cause(i, read, log_[n - 1]);
      }
    }
    return std::nullopt;
  }
  catch_up_history();
  for (std::size_t i = 0; i < request.read_ranges.size(); ++i) {
    const KeyRangeRef read = request.read_ranges[i];
    const Version newest = history_.newest_write(read);
    if (newest <= read_version + (CONTEND_MUTANT(18) ? kVersionsPerSecond : 0)) continue;
    const LoggedCommit* writer = logged_commit(newest);
    CONTEND_ASSERT(writer != nullptr,
                   "a write newer than a read version inside the window is logged");
    CONTEND_ASSERT(writes_into(*writer, read), "the history and the log agree on the writer");
    return conflict_cause(i, read, *writer);
  }
  return std::nullopt;
}

bool Store::written_after(KeyRangeRef read, Version read_version,
                          std::optional<FifoRing<LoggedCommit>::Number> first_newer) const {
  if (!first_newer) return history_.newest_write(read) > read_version;
  for (auto n = log_.end(); n > *first_newer; --n) {
    if (writes_into(log_[n - 1], read)) return true;
  }
  return false;
}

std::vector<std::size_t> Store::every_conflicting_read_range(const CommitRequest& request) {
  const auto first_newer = few_commits_after(request.read_version);
  if (!first_newer) catch_up_history();  // find_conflict brought it up to date already
  std::vector<std::size_t> conflicting;
  for (std::size_t i = 0; i < request.read_ranges.size(); ++i) {
    if (written_after(request.read_ranges[i], request.read_version, first_newer))
      conflicting.push_back(i);
  }
  return conflicting;
}

namespace {
void add_bytes(Digest128& into, BytesView bytes) {
  into.add_field(std::string_view(bytes.data(), bytes.size()));
}
}  // namespace

void Store::add_state(Digest128& into) const {
  into.add_u64(current_.size());
  for (const auto& [key, value] : current_) {
    add_bytes(into, key.bytes);
    add_bytes(into, value);
  }
  into.add_u64(log_.end() - log_.begin());
  for (auto n = log_.begin(); n != log_.end(); ++n) {
    const LoggedCommit& commit = log_[n];
    into.add_i64(commit.version);
    into.add_u64(commit.undo_end - commit.undo_begin);
    for (auto u = commit.undo_begin; u != commit.undo_end; ++u) {
      add_bytes(into, undo_[u].key);
      into.add_u64(undo_[u].existed ? 1 : 0);
      if (undo_[u].existed) add_bytes(into, undo_[u].before);
    }
    into.add_u64(commit.write_is_undo_key ? 1 : 0);
    into.add_u64(commit.writes_end - commit.writes_begin);
    for (auto w = commit.writes_begin; w != commit.writes_end; ++w) {
      add_bytes(into, logged_writes_[w].begin);
      add_bytes(into, logged_writes_[w].end);
    }
  }
  into.add_i64(latest_version_);
  into.add_i64(granted_version_);
}

void Store::catch_up_history() {
  // Commits the window dropped before they were added are older than every read version a
  // commit can still have: the history would read them as no write anyway.
  for (auto n = std::max(history_next_, log_.begin()); n != log_.end(); ++n) {
    const LoggedCommit& commit = log_[n];
    CONTEND_DEBUG_ASSERT(n == log_.begin() || log_[n - 1].version < commit.version,
                         "commits enter the history in version order");
    if (commit.write_is_undo_key) {
      history_.add_key(undo_[commit.undo_begin].key, commit.version);
      continue;
    }
    for (auto w = commit.writes_begin; w != commit.writes_end; ++w)
      history_.add(logged_write(w), commit.version);
  }
  history_next_ = log_.end();
}

CommitResult Store::commit(const CommitRequest& request, std::int64_t now_us) {
  CONTEND_ASSERT(
      request.read_version != kInvalidVersion && request.read_version <= granted_version_,
      "a commit's read version is one the store granted");
  CONTEND_ASSERT(request.mutations.empty() || !request.write_ranges.empty() ||
                     request.writes_without_conflict_ranges,
                 "every mutation has a write conflict range unless it was made without one");
  CommitResult result;
  Version commit_version = std::max<Version>({latest_version_ + 1, granted_version_ + 1, now_us});
  CONTEND_ASSERT(commit_version > latest_version_ && commit_version > request.read_version,
                 "commit versions only grow, past every read version granted");
  // A transaction with writes always carries a read conflict range (FoundationDB makes it
  // self-conflicting when its reads and writes are disjoint), so it can be too old.
  if (request.read_version < commit_version - kMvccWindowVersions) {
    result.error = ErrorCode::transaction_too_old;
    return result;
  }
  if (auto cause = find_conflict(request)) {
    result.error = ErrorCode::not_committed;
    if (request.report_conflicting_read_ranges) {
      result.conflicting_read_ranges = every_conflicting_read_range(request);
      CONTEND_ASSERT(!result.conflicting_read_ranges.empty() &&
                         result.conflicting_read_ranges.front() == cause->read_range_index,
                     "every conflicting read range begins with the one find_conflict names");
    }
    result.conflict = std::move(cause);
    return result;
  }
  apply(request, commit_version);
  CONTEND_ASSERT(latest_version_ == commit_version && log_.back().version == commit_version,
                 "an applied commit is the newest, and logged");
  result.commit_version = commit_version;
  return result;
}

void Store::record_before(BytesView key, const Bytes* before) {
  CONTEND_DEBUG_ASSERT(before == nullptr || current_.find(KeyProbe(key)) != current_.end(),
                       "a value before the commit is the key's current one");
  UndoEntry& entry = pending_undo_.emplace_back();
  entry.existed = before != nullptr;
  if (before != nullptr) {
    std::tie(entry.key, entry.before) = bytes_.append_pair(key, *before);
  } else {
    entry.key = bytes_.append(key);
  }
}

void Store::put(KeyMap::iterator at, BytesView key, BytesView value) {
  if (at != current_.end() && equal_bytes(at->first.bytes, key)) {
    assign_bytes(at->second, value);
    return;
  }
  if (spare_nodes_.empty()) {
    current_.emplace_hint(at, std::piecewise_construct, std::forward_as_tuple(key),
                          std::forward_as_tuple(value));
    return;
  }
  KeyMap::node_type node = std::move(spare_nodes_.back());
  spare_nodes_.pop_back();
  node.key().assign(key);
  node.mapped().assign(value);
  const auto inserted = current_.insert(at, std::move(node));
  CONTEND_ASSERT(equal_bytes(inserted->first.bytes, key), "a recycled node holds the new key");
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
  CONTEND_ASSERT(spare_nodes_.size() <= kSpareNodesMax, "spare nodes are bounded");
}

void Store::log_commit(const CommitRequest& request, Version commit_version, ByteFifo::Mark mark) {
  CONTEND_ASSERT(log_.empty() || log_.back().version < commit_version,
                 "logged versions strictly increase");
  LoggedCommit logged;
  logged.version = commit_version;
  logged.client = request.client;
  logged.transaction_id = request.transaction_id;
  logged.bytes_mark = mark;
  // Sorted by key; of the records of one key, the first (stable sort) holds the value before.
  auto key_less = [](const UndoEntry& a, const UndoEntry& b) { return KeyLess()(a.key, b.key); };
  if (pending_undo_.size() <= kInsertionSortMax) {  // most commits write a key or two
    for (std::size_t i = 1; i < pending_undo_.size(); ++i) {
      for (std::size_t j = i; j > 0 && key_less(pending_undo_[j], pending_undo_[j - 1]); --j)
        std::swap(pending_undo_[j], pending_undo_[j - 1]);
    }
  } else {
    std::stable_sort(pending_undo_.begin(), pending_undo_.end(), key_less);
  }
  logged.undo_begin = undo_.end();
  for (std::size_t i = 0; i < pending_undo_.size(); ++i) {
    if (i == 0 || !equal_bytes(pending_undo_[i].key, pending_undo_[i - 1].key))
      undo_.push_back(pending_undo_[i]);
  }
  logged.undo_end = undo_.end();
  for (auto e = logged.undo_begin; e != logged.undo_end; ++e) {
    CONTEND_DEBUG_ASSERT(e == logged.undo_begin || KeyLess()(undo_[e - 1].key, undo_[e].key),
                         "a commit's undo entries are sorted by key, one per key");
  }
  pending_undo_.clear();
  logged.writes_begin = logged_writes_.end();
  logged.write_is_undo_key =
      request.write_ranges.size() == 1 && logged.undo_end - logged.undo_begin == 1 &&
      is_single_key_range(request.write_ranges[0]) &&
      equal_bytes(request.write_ranges[0].begin, undo_[logged.undo_begin].key);
  if (!logged.write_is_undo_key) {
    for (const KeyRangeRef& w : request.write_ranges) {
      CONTEND_DEBUG_ASSERT(!w.empty(), "write conflict ranges are not empty");
      const auto [begin, end] = bytes_.append_pair(w.begin, w.end);
      logged_writes_.push_back(LoggedRange{begin, end});
    }
  }
  logged.writes_end = logged_writes_.end();
  log_.push_back(logged);
}

void Store::apply(const CommitRequest& request, Version commit_version) {
  const ByteFifo::Mark mark = bytes_.mark();
  CONTEND_ASSERT(pending_undo_.empty(), "no other commit is being applied");
  CONTEND_ASSERT(commit_version > latest_version_, "versions only grow");
  std::optional<Bytes> versionstamp;  // made on first use
  auto stamp = [&]() -> const Bytes& {
    if (!versionstamp) versionstamp = make_versionstamp(commit_version, 0);
    return *versionstamp;
  };
  auto set_key = [&](BytesView key, BytesView value) {
    auto at = current_.lower_bound(KeyProbe(key));
    const bool exists = at != current_.end() && equal_bytes(at->first.bytes, key);
    record_before(key, exists ? &at->second : nullptr);
    put(at, key, value);
  };
  for (const MutationRef& m : request.mutations) {
    switch (m.type) {
      case MutationType::set_value:
        set_key(m.param1, m.param2);
        break;
      case MutationType::clear_range: {
        auto first = CONTEND_MUTANT(22) ? current_.upper_bound(KeyProbe(m.param1))
                                        : current_.lower_bound(KeyProbe(m.param1));
        auto last = CONTEND_MUTANT(17) ? current_.upper_bound(KeyProbe(m.param2))
                                       : current_.lower_bound(KeyProbe(m.param2));
        for (auto it = first; it != last; ++it)
          record_before(it->first.bytes, &it->second);
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
        if (auto it = current_.find(KeyProbe(m.param1)); it != current_.end())
          existing = it->second;
        set_key(m.param1, apply_atomic(m.type, existing, m.param2));
        break;
      }
    }
  }
  log_commit(request, commit_version, mark);  // the conflict history catches up from it later

  latest_version_ = commit_version;
  ++commit_count_;
  prune(commit_version - kMvccWindowVersions);
  if (observer_ != nullptr) observer_->on_commit(request, commit_version);
}

void Store::prune(Version horizon) {
  history_.prune(horizon);
  if (log_.empty() || log_.front().version > horizon) return;  // nothing leaves the window
  while (!log_.empty() && log_.front().version <= horizon)
    log_.pop_front();
  CONTEND_ASSERT(log_.empty() || log_.front().version > horizon,
                 "the log keeps exactly the commits inside the window");
  if (log_.empty()) {
    undo_.pop_front_until(undo_.end());
    logged_writes_.pop_front_until(logged_writes_.end());
    bytes_.release_all();
  } else {
    undo_.pop_front_until(log_.front().undo_begin);
    logged_writes_.pop_front_until(log_.front().writes_begin);
    bytes_.release_before(log_.front().bytes_mark);
  }
}

}  // namespace contend
