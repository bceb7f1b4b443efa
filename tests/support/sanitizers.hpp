// Which sanitizer a test binary is built under (Makefile: make asan / make tsan; gcc defines
// __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__, clang answers __has_feature). Each is 0 or 1:
//   PL_ASAN       AddressSanitizer (+UBSan in this project's builds)
//   PL_TSAN       ThreadSanitizer
//   PL_SANITIZED  either
// For cases whose subject a sanitizer's own allocator or its slowdown makes meaningless (RSS after
// malloc_trim, minutes of synthesis with no concurrency of its own): they GTEST_SKIP saying why.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define PL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PL_ASAN 1
#endif
#endif
#ifndef PL_ASAN
#define PL_ASAN 0
#endif

#if defined(__SANITIZE_THREAD__)
#define PL_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PL_TSAN 1
#endif
#endif
#ifndef PL_TSAN
#define PL_TSAN 0
#endif

#define PL_SANITIZED (PL_ASAN || PL_TSAN)
