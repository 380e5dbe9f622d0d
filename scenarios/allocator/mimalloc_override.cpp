// Routes operator new and delete of the executable this object is linked into straight to
// mimalloc (malloc and free reach it as well: libmimalloc exports them ahead of glibc's). Linked
// into `contend` and the benchmarks by contend_use_allocator (scenarios/CMakeLists.txt) when
// CONTEND_MIMALLOC is on; mimalloc asks that this header be included in one file per program.
#include <mimalloc-new-delete.h>
