// Whether this build runs under AddressSanitizer, for tests that must know (a bound on memory or
// on address space that the sanitizer's shadow memory breaks). GCC defines __SANITIZE_ADDRESS__;
// Debian's clang 14, which the sanitizer build uses, answers only __has_feature(address_sanitizer).
// CONTEND_ADDRESS_SANITIZER is 1 under either, else 0.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define CONTEND_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CONTEND_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef CONTEND_ADDRESS_SANITIZER
#define CONTEND_ADDRESS_SANITIZER 0
#endif
