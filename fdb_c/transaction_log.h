// The transaction log of contend's libfdb_c: one JSON line per commit attempt, written when the
// commit is resolved, for `contend serializable LOG` to replay (sim/runtime/serializability.h):
//   {"client": 3, "transaction": 41, "read_version": 100412345, "commit_version": 100412377,
//    "applied": true, "outcome": "commit_unknown_result",
//    "reads": [{"range": false, "begin": "6b31", "end": "6b3100", "snapshot": false,
//               "mutations_before": 0, "value": "7631"}, ...],
//    "mutations": [{"type": "set", "param1": "6b31", "param2": "7632"}, ...]}
// Keys and values are lowercase hex. A range read also has "limit", "reverse" and "rows"
// ([[key, value], ...]); a point read's missing value is null. `applied` says whether the store
// applied the writes (true for a commit_unknown_result the fault injector applied), and
// `commit_version` is null when nothing was applied; a read-only commit has applied = false and
// outcome "success". Mutations are as the transaction buffered them: a versionstamped key or value
// keeps its placeholder and 4-byte offset (the commit version says what filled it).
// These are all the keys: a line holds no other (`contend serializable` refuses one, naming it).
// Invariants: lines are written whole, in the order commits were resolved, and flushed each.
// A line that cannot be written (a full disk) stops the process with kExitLogNotWritten and a
// message on stderr: a log missing a commit would have `contend serializable` judge a run that
// did not happen, so no client goes on past that commit.
#pragma once

#include <cstdio>
#include <string>

#include "sim/store/transaction.h"

namespace contend::fdb {

class TransactionLog {
 public:
  // The exit status of a process whose log could not be written (sysexits.h's EX_IOERR).
  static constexpr int kExitLogNotWritten = 74;

  TransactionLog() = default;
  TransactionLog(const TransactionLog&) = delete;
  TransactionLog& operator=(const TransactionLog&) = delete;
  ~TransactionLog();

  // Opens (truncates) `path`; false, with errno's message in `error`, when it cannot.
  bool open(const std::string& path, std::string& error);
  bool is_open() const { return file_ != nullptr; }
  // One commit attempt of `tr`, just resolved with `outcome`; never returns when the line cannot
  // be written.
  void record(const Transaction& tr, ErrorCode outcome);

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace contend::fdb
