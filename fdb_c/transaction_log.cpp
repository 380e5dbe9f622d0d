#include "fdb_c/transaction_log.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <nlohmann/json.hpp>

#include "sim/store/mutation.h"

namespace contend::fdb {

namespace {

std::string hex(BytesView bytes) {
  return to_hex(bytes);
}

nlohmann::json read_json(const ReadRecord& r) {
  nlohmann::json j = {{"range", r.range},
                      {"begin", hex(r.keys.begin)},
                      {"end", hex(r.keys.end)},
                      {"snapshot", r.snapshot},
                      {"mutations_before", r.mutations_before}};
  if (!r.range) {
    j["value"] = r.value ? nlohmann::json(hex(*r.value)) : nlohmann::json(nullptr);
    return j;
  }
  j["limit"] = r.options.limit;
  j["reverse"] = r.options.reverse;
  nlohmann::json rows = nlohmann::json::array();
  for (const KeyValue& kv : r.rows)
    rows.push_back({hex(kv.key), hex(kv.value)});
  j["rows"] = std::move(rows);
  return j;
}

}  // namespace

TransactionLog::~TransactionLog() {
  if (file_ != nullptr) std::fclose(file_);
}

bool TransactionLog::open(const std::string& path, std::string& error) {
  path_ = path;
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) error = path + ": " + std::strerror(errno) + " (the transaction log)";
  return file_ != nullptr;
}

void TransactionLog::record(const Transaction& tr, ErrorCode outcome) {
  if (file_ == nullptr) return;
  const Version commit_version = tr.committed_version();
  const bool applied = commit_version != kInvalidVersion;
  nlohmann::json line = {
      {"client", tr.client()},
      {"transaction", tr.id()},
      {"read_version", tr.read_version().value_or(kInvalidVersion)},
      {"commit_version", applied ? nlohmann::json(commit_version) : nlohmann::json(nullptr)},
      {"applied", applied},
      {"outcome", error_name(outcome)}};
  nlohmann::json reads = nlohmann::json::array();
  for (const ReadRecord& r : tr.read_log())
    reads.push_back(read_json(r));
  line["reads"] = std::move(reads);
  nlohmann::json mutations = nlohmann::json::array();
  for (const Mutation& m : copy_of(tr.mutations())) {
    mutations.push_back(
        {{"type", mutation_name(m.type)}, {"param1", hex(m.param1)}, {"param2", hex(m.param2)}});
  }
  line["mutations"] = std::move(mutations);
  const std::string text = line.dump() + "\n";
  if (std::fwrite(text.data(), 1, text.size(), file_) == text.size() && std::fflush(file_) == 0)
    return;
  std::fprintf(stderr,
               "contend libfdb_c: %s: %s (writing the transaction log); the log would lack "
               "client %lld's commit of transaction %llu, so the process stops\n",
               path_.c_str(), std::strerror(errno), static_cast<long long>(tr.client()),
               static_cast<unsigned long long>(tr.id()));
  std::_Exit(kExitLogNotWritten);
}

}  // namespace contend::fdb
