#include "sim/store/bytes.h"

#include "base/invariant.h"

namespace contend {

Bytes strinc(BytesView prefix) {
  std::size_t n = prefix.size();
  while (n > 0 && static_cast<unsigned char>(prefix[n - 1]) == 0xff)
    --n;
  CONTEND_ASSERT(n > 0, "strinc of a key made only of 0xff bytes");
  Bytes out(prefix.substr(0, n));
  out.back() = static_cast<char>(static_cast<unsigned char>(out.back()) + 1);
  return out;
}

std::string to_hex(BytesView bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

std::string printable(BytesView bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size());
  for (unsigned char c : bytes) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\x";
      out.push_back(kDigits[c >> 4]);
      out.push_back(kDigits[c & 0xf]);
    }
  }
  return out;
}

}  // namespace contend
