// Test support: names for value-parameterized tests. CTest takes each test's name from
// GoogleTest's list (tests/CMakeLists.txt discovers them without "pretty values"), so a name must
// not depend on the build: never a memory dump of the parameter or a path of the checkout, and
// the name a CTest line shows is the one `--gtest_filter` accepts.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <sstream>
#include <string>

namespace contend::testing {

// `text` as a GoogleTest name: each run of characters other than letters and digits becomes one
// '_' ("hc-queue 2x1 faults<=0" is "hc_queue_2x1_faults_0").
inline std::string as_test_name(const std::string& text) {
  std::string name;
  for (unsigned char c : text) {
    if (std::isalnum(c) != 0) {
      name += static_cast<char>(c);
    } else if (!name.empty() && name.back() != '_') {
      name += '_';
    }
  }
  while (!name.empty() && name.back() == '_')
    name.pop_back();
  return name;
}

// INSTANTIATE_TEST_SUITE_P's name generator for a parameter with a PrintTo: the printed case.
struct NamedByPrinting {
  template <class Param>
  std::string operator()(const ::testing::TestParamInfo<Param>& info) const {
    std::ostringstream printed;
    PrintTo(info.param, &printed);
    return as_test_name(printed.str());
  }
};

}  // namespace contend::testing
