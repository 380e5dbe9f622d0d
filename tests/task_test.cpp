// The coroutine frame pool of base/task.h: the block sizes both of its modes (pooled, and
// unpooled under AddressSanitizer) must agree on, since one program can hold both.
#include <gtest/gtest.h>

#include <cstddef>

#include "base/sanitizers.h"
#include "base/task.h"

#if CONTEND_ADDRESS_SANITIZER
#include <sanitizer/allocator_interface.h>
#endif

namespace contend {
namespace {

using detail::FramePool;

constexpr std::size_t kFrameBytes[] = {1, 63, 64, 65, 100, 4000, 4031, 4032, 4033, 10000};

TEST(FramePool, ABlockIsWholeGranulesBelowTheLargestClass) {
  EXPECT_EQ(FramePool::block_bytes(1), 64u);
  EXPECT_EQ(FramePool::block_bytes(64), 64u);
  EXPECT_EQ(FramePool::block_bytes(65), 128u);
  EXPECT_EQ(FramePool::block_bytes(4031), 4032u);  // class 63, the largest pooled
  EXPECT_EQ(FramePool::block_bytes(4033), 4033u);  // class 64: the allocator's, as asked
}

#if CONTEND_ADDRESS_SANITIZER
// Unpooled, a frame still gets its whole block: if the pooled mode (a non-ASan library linked in)
// releases it, its list hands it to the largest frame of its class, which must fit.
TEST(FramePool, AnUnpooledFrameIsGivenItsClasssWholeBlock) {
  for (const std::size_t n : kFrameBytes) {
    void* frame = FramePool::allocate(n);
    EXPECT_EQ(__sanitizer_get_allocated_size(frame), FramePool::block_bytes(n)) << n << " bytes";
    FramePool::release(frame, n);
  }
}
#else
// Pooled, a released frame's block is served again to the largest frame of its class.
TEST(FramePool, AReleasedBlockServesTheLargestFrameOfItsClass) {
  for (const std::size_t n : kFrameBytes) {
    void* frame = FramePool::allocate(n);
    FramePool::release(frame, n);
    const std::size_t largest = FramePool::block_bytes(n);
    void* again = FramePool::allocate(largest);
    if (n <= (FramePool::kClasses - 1) * FramePool::kGranule) {  // a pooled class
      EXPECT_EQ(again, frame) << n << " bytes";
    }
    FramePool::release(again, largest);
  }
}
#endif

}  // namespace
}  // namespace contend
