// contend's libfdb_c before any API version is selected, in a process of its own: the checks of
// fdb_c.cpp's fdb_select_api_version_impl in its order — a version selected already
// (api_version_already_set, 2201), a runtime version above the header's (api_version_invalid,
// 2202), a header version above the library's (api_version_not_supported, 2203). Before, a header
// newer than the library's was taken, and so was the same version a second time.
#define FDB_API_VERSION 730
#include "fdb_c.h"

#include <gtest/gtest.h>

namespace {

TEST(FdbCApiVersionOrder, TheVersionsAreCheckedAsFdbCCppChecksThem) {
  EXPECT_EQ(fdb_select_api_version_impl(740, 730), 2202) << "a runtime version above the header's";
  EXPECT_EQ(fdb_select_api_version_impl(730, 740), 2203) << "a header newer than the library";
  EXPECT_EQ(fdb_select_api_version_impl(609, 730), 2203) << "below what contend serves";
  EXPECT_EQ(fdb_select_api_version_impl(730, 730), 0);
  EXPECT_EQ(fdb_select_api_version_impl(730, 730), 2201) << "once only, the same version too";
  EXPECT_EQ(fdb_select_api_version_impl(740, 730), 2201) << "before the versions are looked at";
}

}  // namespace
