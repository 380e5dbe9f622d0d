// Random key suffixes as explored choices: what an exhaustive world that explores draws hands a
// recipe for os.urandom(20) after a key prefix.
//
// A suffix matters only through where its key sorts among the keys under the same prefix (its
// *group*): the recipes compare suffixes by key order and never read their bytes otherwise. So
// instead of the seed's bytes, each draw chooses where it sorts among the suffixes drawn under
// its group so far in the run: choice c puts it below exactly c of them (choice 0, the default,
// above them all, as if suffixes rose in the order they were drawn). Every order of a group's
// suffixes is then some path of choices, and the bytes are made to realise it: a suffix's first
// n - 8 bytes are the midpoint, as a big-endian number, of the room between its neighbours'; its
// last 8 are a tag the caller gives (the client and how many suffixes it drew before), so that
// suffixes stay distinct across groups too (a recipe may use one as an id elsewhere: the staging
// queue's result slots) without their bytes depending on the order of draws in other groups.
//
// Invariants: a group's suffixes are distinct in their first n - 8 bytes, all n bytes long, and
// kept ascending; a draw's value depends only on the group's earlier draws, the choice and the
// tag, never on the seed. Running out of room (about 8(n - 8) nested draws into one gap) is a
// failed assertion, not a silent collision.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/digest128.h"

namespace contend {

class SuffixDraws {
 public:
  // How many places a new draw under `group` may sort into: one more than the group's draws.
  std::uint32_t places(std::string_view group) const;
  // Draws an n-byte suffix under `group` that sorts below exactly `choice` of its earlier draws
  // and ends in `tag`. REQUIRES: choice < places(group); n is the same for every draw of a group,
  // 9 <= n <= 64; no two draws share a tag.
  std::string draw(std::string_view group, std::size_t n, std::uint32_t choice, std::uint64_t tag);
  // The group's name as footprints carry it (never kAnyGroup).
  static std::uint64_t group_id(std::string_view group);
  // Adds every group and its suffixes, in order (a state digest: later draws depend on them).
  void add_state(Digest128& d) const;

 private:
  std::map<std::string, std::vector<std::string>, std::less<>> groups_;  // ascending order parts
};

}  // namespace contend
