// FoundationDB's error codes as the C API returns them, their names and descriptions
// (fdb_get_error), and the predicates of fdb_error_predicate. The store's own errors
// (sim/store/error.h) carry the same numbers; this adds the client-side codes the store never
// produces.
#pragma once

#include "sim/store/error.h"

namespace contend::fdb {

using fdb_error = int;

inline constexpr fdb_error kSuccess = 0;
inline constexpr fdb_error kOperationFailed = 1000;
inline constexpr fdb_error kTransactionCancelled = 1025;
inline constexpr fdb_error kTransactionTimedOut = 1031;
inline constexpr fdb_error kTooManyWatches = 1032;
inline constexpr fdb_error kWatchesDisabled = 1034;
inline constexpr fdb_error kOperationCancelled = 1101;
inline constexpr fdb_error kFutureReleased = 1102;
inline constexpr fdb_error kFileNotFound = 1511;
inline constexpr fdb_error kClientInvalidOperation = 2000;
inline constexpr fdb_error kKeyOutsideLegalRange = 2004;
inline constexpr fdb_error kInvertedRange = 2005;
inline constexpr fdb_error kInvalidOptionValue = 2006;
inline constexpr fdb_error kInvalidOption = 2007;
inline constexpr fdb_error kNetworkNotSetup = 2008;
inline constexpr fdb_error kNetworkAlreadySetup = 2009;
inline constexpr fdb_error kReadVersionAlreadySet = 2010;
inline constexpr fdb_error kVersionInvalid = 2011;
inline constexpr fdb_error kRangeLimitsInvalid = 2012;
inline constexpr fdb_error kFutureNotSet = 2015;
inline constexpr fdb_error kUsedDuringCommit = 2017;
inline constexpr fdb_error kInvalidMutationType = 2018;
inline constexpr fdb_error kTransactionInvalidVersion = 2020;
inline constexpr fdb_error kNoCommitVersion = 2021;
inline constexpr fdb_error kEnvironmentVariableNetworkOptionFailed = 2022;
inline constexpr fdb_error kTransactionReadOnly = 2023;
inline constexpr fdb_error kNetworkCannotBeRestarted = 2025;
inline constexpr fdb_error kMapperBadIndex = 2030;
inline constexpr fdb_error kMapperBadRangeDescriptor = 2032;
inline constexpr fdb_error kQuickGetKeyValuesHasMore = 2033;
inline constexpr fdb_error kGetMappedRangeReadsYourWrites = 2039;
inline constexpr fdb_error kKeyNotTuple = 2041;
inline constexpr fdb_error kValueNotTuple = 2042;
inline constexpr fdb_error kMapperNotTuple = 2043;
inline constexpr fdb_error kUnsupportedOperation = 2108;
inline constexpr fdb_error kTooManyTags = 2109;
inline constexpr fdb_error kTagTooLong = 2110;
inline constexpr fdb_error kSpecialKeysCrossModuleRead = 2112;
inline constexpr fdb_error kSpecialKeysNoModuleFound = 2113;
inline constexpr fdb_error kSpecialKeysWriteDisabled = 2114;
inline constexpr fdb_error kNoExternalClientProvided = 2123;
inline constexpr fdb_error kTenantsDisabled = 2136;
inline constexpr fdb_error kApiVersionUnset = 2200;
inline constexpr fdb_error kApiVersionAlreadySet = 2201;
inline constexpr fdb_error kApiVersionInvalid = 2202;
inline constexpr fdb_error kApiVersionNotSupported = 2203;
inline constexpr fdb_error kExactModeWithoutLimits = 2210;
inline constexpr fdb_error kUnknownError = 4000;
inline constexpr fdb_error kInternalError = 4100;

inline fdb_error code_of(ErrorCode e) {
  return static_cast<fdb_error>(e);
}

// An error code from the program as FoundationDB's Error::fromUnvalidatedCode takes it: one
// outside [0, 30000] becomes unknown_error.
fdb_error validated_error(fdb_error code);
// "Success" for 0, FoundationDB's description for a known code, "Unknown error" otherwise.
const char* error_description(fdb_error code);
// FDB_ERROR_PREDICATE_* applied to code; false for an unknown predicate.
bool error_predicate(int predicate, fdb_error code);

}  // namespace contend::fdb
