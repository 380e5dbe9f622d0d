// contend's libfdb_c starting its network as FoundationDB's multi-version client starts it
// (MultiVersionApi, 7.3): options named by FDB_NETWORK_OPTION_<NAME> environment variables, read
// before the first option a program sets and before fdb_setup_network; the multi-version
// client's own options, whose answers depend on what was set before; and the set-up that needs a
// client to run. Before, the environment was not read, the client's options were accepted
// whatever came before, and a network whose local client was disabled was set up.
//
// Each case runs in a child process of its own (gtest's death test fork): the environment is
// read once per process, and the network is set up once.
#define FDB_API_VERSION 730
#include "fdb_c.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <thread>

namespace {

constexpr int kTraceRollSize = 31, kTraceFormat = 34, kKnob = 40;
constexpr int kDisableMultiVersionClientApi = 60, kCallbacksOnExternalThreads = 61;
constexpr int kExternalClientLibrary = 62, kExternalClientDirectory = 63;
constexpr int kDisableLocalClient = 64, kClientThreadsPerVersion = 65;
constexpr int kFutureVersionClientLibrary = 66, kRetainClientLibraryCopies = 67;
constexpr int kDisableClientBypass = 72, kClientTmpDir = 91, kExternalClient = 1001;

constexpr fdb_error_t kEnvironmentOptionFailed = 2022;
constexpr fdb_error_t kNoExternalClientProvided = 2123;

fdb_error_t text(int option, std::string_view value) {
  return fdb_network_set_option(static_cast<FDBNetworkOption>(option),
                                reinterpret_cast<const uint8_t*>(value.data()),
                                static_cast<int>(value.size()));
}
fdb_error_t integer(int option, int64_t value) {
  return fdb_network_set_option(static_cast<FDBNetworkOption>(option),
                                reinterpret_cast<const uint8_t*>(&value), 8);
}
fdb_error_t flag(int option) {
  return fdb_network_set_option(static_cast<FDBNetworkOption>(option), nullptr, 0);
}

// What a child process found: each check that did not hold, a line each.
class Checks {
 public:
  void equal(fdb_error_t actual, fdb_error_t expected, std::string_view what) {
    if (actual != expected) {
      failures_ += std::string(what) + ": answered " + std::to_string(actual) + ", expected " +
                   std::to_string(expected) + "\n";
    }
  }
  void equal(std::string_view actual, std::string_view expected, std::string_view what) {
    if (actual != expected) {
      failures_ += std::string(what) + ": \"" + std::string(actual) + "\", expected \"" +
                   std::string(expected) + "\"\n";
    }
  }
  const std::string& failures() const { return failures_; }

 private:
  std::string failures_;
};

// Runs `body` in a child process whose library nobody has used, with no fault file; the child
// exits 0 when every check held, else 1 after writing those that did not to stderr (which the
// failure shows).
template <class Body>
void in_a_fresh_process(Body body) {
  EXPECT_EXIT(
      {
        unsetenv("CONTEND_FDB_CONFIG");
        Checks checks;
        checks.equal(fdb_select_api_version(FDB_API_VERSION), 0, "fdb_select_api_version");
        body(checks);
        std::fputs(checks.failures().c_str(), stderr);
        std::exit(checks.failures().empty() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// A directory of this test's own holding an empty file for each name given.
class Files {
 public:
  Files()
      : root_(std::filesystem::path(::testing::TempDir()) /
              ("fdb_c_network_startup." + std::to_string(getpid()))) {
    std::filesystem::create_directories(root_);
  }
  ~Files() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  std::string make(const std::string& name) const {
    std::filesystem::create_directories((root_ / name).parent_path());
    std::ofstream(root_ / name).put('\0');
    return (root_ / name).string();
  }
  std::string path(const std::string& name) const { return (root_ / name).string(); }

 private:
  std::filesystem::path root_;
};

TEST(FdbCNetworkEnvironment, AVariableIsSetBeforeTheProgramsFirstOptionAndRefusedThen) {
  in_a_fresh_process([](Checks& check) {
    setenv("FDB_NETWORK_OPTION_TRACE_FORMAT", "yaml", 1);
    check.equal(text(kKnob, "a=1"), kEnvironmentOptionFailed, "the program's option is not set");
    check.equal(fdb_get_error(kEnvironmentOptionFailed),
                "Environment variable network option could not be set", "its description");
    check.equal(fdb_setup_network(), kEnvironmentOptionFailed, "nor is the network set up");
    setenv("FDB_NETWORK_OPTION_TRACE_FORMAT", "json", 1);
    check.equal(text(kKnob, "a=1"), 0, "the next call reads the environment again");
    setenv("FDB_NETWORK_OPTION_TRACE_FORMAT", "yaml", 1);
    check.equal(fdb_setup_network(), 0, "once every variable is set, none is read again");
  });
  in_a_fresh_process([](Checks& check) {
    setenv("FDB_NETWORK_OPTION_TRACE_FORMAT", "yaml", 1);
    check.equal(fdb_setup_network(), kEnvironmentOptionFailed, "read by the set-up too");
  });
  in_a_fresh_process([](Checks& check) {
    setenv("FDB_NETWORK_OPTION_DISABLE_LOCAL_CLIENT", "", 1);
    check.equal(fdb_setup_network(), kNoExternalClientProvided,
                "a variable's option acts as the program's would");
  });
  in_a_fresh_process([](Checks& check) {
    setenv("FDB_NETWORK_OPTION_TRACE_FORMAT", "yaml", 1);
    check.equal(flag(kExternalClient), 0, "EXTERNAL_CLIENT does not read the environment...");
    check.equal(text(kKnob, "a=1"), 0, "...and no later call does");
    check.equal(fdb_setup_network(), 0, "fdb_setup_network");
  });
  in_a_fresh_process([](Checks& check) {
    setenv("FDB_NETWORK_OPTION_SUPPORTED_CLIENT_VERSIONS", "\\", 1);
    check.equal(fdb_setup_network(), 0, "a hidden option is never read from the environment");
  });
}

TEST(FdbCNetworkEnvironment, AVariableHoldsValuesSeparatedByColonsWithBackslashEscapes) {
  const Files files;
  const std::string a = files.make("a.so");
  files.make("c:d.so");
  files.make("e\\f.so");
  auto libraries = [&](const std::string& variable, fdb_error_t expected, std::string why) {
    in_a_fresh_process([&](Checks& check) {
      setenv("FDB_NETWORK_OPTION_EXTERNAL_CLIENT_LIBRARY", variable.c_str(), 1);
      check.equal(fdb_setup_network(), expected, why + (": " + variable));
    });
  };
  libraries(a + ":" + a, 0, "two values, the same file");
  libraries(a + ":" + files.path("missing.so"), kEnvironmentOptionFailed, "the second is missing");
  libraries(files.path("c\\:d.so"), 0, "\\: is a ':' of the value");
  libraries(files.path("e\\\\f.so"), 0, "\\\\ is a '\\' of the value");
  libraries(files.path("e\\f.so"), kEnvironmentOptionFailed, "\\f escapes nothing");
  libraries(a + "\\", kEnvironmentOptionFailed, "a '\\' at the end");
  libraries(a + ":", kEnvironmentOptionFailed, "an empty value after the ':'");
}

TEST(FdbCNetworkEnvironment, AnIntVariableIsADecimalIntegerAsStdStollReadsIt) {
  auto roll_size = [](const char* variable, fdb_error_t expected, std::string why) {
    in_a_fresh_process([&](Checks& check) {
      setenv("FDB_NETWORK_OPTION_TRACE_ROLL_SIZE", variable, 1);
      check.equal(fdb_setup_network(), expected, why + (": \"" + std::string(variable) + "\""));
    });
  };
  roll_size("10485760", 0, "a size");
  roll_size(" +42", 0, "white space and a sign before the digits");
  roll_size("10x", kEnvironmentOptionFailed, "something after the digits");
  roll_size("42 ", kEnvironmentOptionFailed, "white space after the digits");
  roll_size("+-1", kEnvironmentOptionFailed, "two signs");
  roll_size("0x10", kEnvironmentOptionFailed, "decimal only");
  roll_size("", kEnvironmentOptionFailed, "no digits");
  roll_size("99999999999999999999", kEnvironmentOptionFailed, "past int64");
  roll_size("-1", kEnvironmentOptionFailed, "an integer the option refuses (below 0)");
  roll_size("1:2", 0, "two values, each set");
}

TEST(FdbCNetworkStartup, TheLocalClientDisabledNeedsAnExternalClientToSetTheNetworkUp) {
  const Files files;
  const std::string library = files.make("lib/libfdb_c.so");
  files.make("empty/readme.txt");
  in_a_fresh_process([](Checks& check) {
    check.equal(flag(kDisableLocalClient), 0, "DISABLE_LOCAL_CLIENT");
    check.equal(fdb_setup_network(), kNoExternalClientProvided, "no client to run");
    check.equal(fdb_get_error(kNoExternalClientProvided), "No external client library provided.",
                "its description");
    check.equal(fdb_setup_network(), 2009, "the set-up began: network_already_setup");
    check.equal(fdb_run_network(), 2008, "but did not end: network_not_setup");
    check.equal(flag(kDisableLocalClient), 2007, "DISABLE_LOCAL_CLIENT once the set-up began");
  });
  in_a_fresh_process([&](Checks& check) {
    check.equal(flag(kDisableLocalClient), 0, "DISABLE_LOCAL_CLIENT");
    check.equal(text(kExternalClientLibrary, library), 0, "EXTERNAL_CLIENT_LIBRARY");
    check.equal(fdb_setup_network(), 0, "an external client (contend serves it itself)");
  });
  in_a_fresh_process([&](Checks& check) {
    check.equal(flag(kDisableLocalClient), 0, "DISABLE_LOCAL_CLIENT");
    check.equal(text(kExternalClientDirectory, files.path("lib")), 0, "EXTERNAL_CLIENT_DIRECTORY");
    check.equal(fdb_setup_network(), 0, "a directory holding a client library");
  });
  in_a_fresh_process([&](Checks& check) {
    check.equal(flag(kDisableLocalClient), 0, "DISABLE_LOCAL_CLIENT");
    check.equal(text(kExternalClientDirectory, files.path("empty")), 0,
                "EXTERNAL_CLIENT_DIRECTORY");
    check.equal(text(kExternalClientDirectory, files.path("absent")), 0,
                "EXTERNAL_CLIENT_DIRECTORY");
    check.equal(fdb_setup_network(), kNoExternalClientProvided, "directories holding no .so file");
  });
  in_a_fresh_process([](Checks& check) {
    check.equal(integer(kClientThreadsPerVersion, 2), 0, "CLIENT_THREADS_PER_VERSION");
    check.equal(fdb_setup_network(), kNoExternalClientProvided,
                "two client threads disable the local client");
  });
  in_a_fresh_process([](Checks& check) {
    check.equal(integer(kClientThreadsPerVersion, 1), 0, "CLIENT_THREADS_PER_VERSION");
    check.equal(fdb_setup_network(), 0, "one thread keeps it");
  });
  in_a_fresh_process([](Checks& check) {
    check.equal(flag(kDisableMultiVersionClientApi), 0, "DISABLE_MULTI_VERSION_CLIENT_API");
    check.equal(integer(kClientThreadsPerVersion, 2), 0, "CLIENT_THREADS_PER_VERSION");
    check.equal(fdb_setup_network(), 2007, "threads need the multi-version client");
  });
}

TEST(FdbCNetworkStartup, TheMultiVersionClientsOptionsDependOnWhatWasSetBefore) {
  const Files files;
  const std::string library = files.make("libfdb_c.so");
  in_a_fresh_process([](Checks& check) {
    check.equal(flag(kDisableMultiVersionClientApi), 0, "DISABLE_MULTI_VERSION_CLIENT_API");
    check.equal(flag(kDisableLocalClient), 2007, "the local client is all that is left");
  });
  in_a_fresh_process([](Checks& check) {
    check.equal(flag(kDisableLocalClient), 0, "DISABLE_LOCAL_CLIENT");
    check.equal(flag(kDisableMultiVersionClientApi), 2007, "the external clients are");
  });
  in_a_fresh_process([](Checks& check) {
    check.equal(flag(kDisableClientBypass), 0, "DISABLE_CLIENT_BYPASS");
    check.equal(flag(kDisableMultiVersionClientApi), 2007, "the API is what the bypass skips");
  });
  in_a_fresh_process([](Checks& check) {
    check.equal(flag(kDisableMultiVersionClientApi), 0, "DISABLE_MULTI_VERSION_CLIENT_API");
    check.equal(flag(kDisableClientBypass), 2007, "the bypass is all that is left");
  });
  in_a_fresh_process([&](Checks& check) {
    check.equal(text(kFutureVersionClientLibrary, files.path("missing.so")), 1511,
                "a future-version library that does not exist");
    check.equal(text(kFutureVersionClientLibrary, library), 0, "one that does");
    check.equal(text(kClientTmpDir, ""), 2006, "CLIENT_TMP_DIR wants a directory");
    check.equal(text(kClientTmpDir, "/tmp"), 0, "CLIENT_TMP_DIR");
    check.equal(text(kRetainClientLibraryCopies, "yes"), 2006, "a flag takes no value");
    check.equal(flag(kRetainClientLibraryCopies), 0, "RETAIN_CLIENT_LIBRARY_COPIES");
  });
  in_a_fresh_process([&](Checks& check) {
    check.equal(text(kExternalClientLibrary, files.path("missing.so")), 1511,
                "a library that does not exist");
    check.equal(fdb_get_error(1511), "File not found", "fdb_get_error(1511)");
    check.equal(text(kExternalClientLibrary, files.path("dir/")), 1511, "no file name");
    check.equal(text(kExternalClientLibrary, ""), 2006, "the value is looked at first");
  });
  in_a_fresh_process([&](Checks& check) {
    check.equal(fdb_setup_network(), 0, "fdb_setup_network");
    check.equal(flag(kDisableMultiVersionClientApi), 2007,
                "DISABLE_MULTI_VERSION_CLIENT_API after fdb_setup_network");
    check.equal(flag(kCallbacksOnExternalThreads), 2007,
                "CALLBACKS_ON_EXTERNAL_THREADS after fdb_setup_network");
    check.equal(text(kExternalClientLibrary, library), 2007,
                "EXTERNAL_CLIENT_LIBRARY after fdb_setup_network");
    check.equal(text(kExternalClientLibrary, files.path("missing.so")), 1511,
                "a missing library, looked at first");
    check.equal(text(kExternalClientDirectory, files.path("")), 2007,
                "EXTERNAL_CLIENT_DIRECTORY after fdb_setup_network");
    check.equal(flag(kDisableLocalClient), 2007, "DISABLE_LOCAL_CLIENT after fdb_setup_network");
    check.equal(text(kTraceFormat, "json"), 0, "other options are still taken");
    check.equal(integer(kTraceRollSize, 1), 0, "TRACE_ROLL_SIZE");
    check.equal(fdb_setup_network(), 2009, "network_already_setup");
  });
}

// fdb_add_network_thread_completion_hook: refused before the set-up (network_not_setup, as
// MultiVersionApi's); each hook added runs once, in order, on the network thread, when its run
// loop ends — before fdb_run_network returns. Before, the library did not export the call: a
// program or binding that links it (the Java binding's JNI library does) failed to load.
struct HookRuns {
  std::string order;
  std::thread::id thread;
};
void note_hook(void* parameter, char name) {
  auto* runs = static_cast<HookRuns*>(parameter);
  runs->order += name;
  runs->thread = std::this_thread::get_id();
}

TEST(FdbCNetworkStartup, CompletionHooksRunOnTheNetworkThreadWhenItsLoopEnds) {
  in_a_fresh_process([](Checks& check) {
    HookRuns runs;
    auto first = [](void* p) { note_hook(p, 'a'); };
    auto second = [](void* p) { note_hook(p, 'b'); };
    check.equal(fdb_add_network_thread_completion_hook(first, &runs), 2008,
                "a hook before fdb_setup_network: network_not_setup");
    check.equal(fdb_setup_network(), 0, "fdb_setup_network");
    check.equal(fdb_add_network_thread_completion_hook(nullptr, &runs), 2000, "a null hook");
    check.equal(fdb_add_network_thread_completion_hook(first, &runs), 0, "the first hook");
    check.equal(fdb_add_network_thread_completion_hook(second, &runs), 0, "the second hook");
    std::thread::id network_thread;
    fdb_error_t run_answer = -1;
    std::string order_when_run_returned;
    std::thread network([&] {
      network_thread = std::this_thread::get_id();
      run_answer = fdb_run_network();
      order_when_run_returned = runs.order;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    check.equal(runs.order, "", "no hook runs while the network runs");
    check.equal(fdb_stop_network(), 0, "fdb_stop_network");
    network.join();
    check.equal(run_answer, 0, "fdb_run_network");
    check.equal(order_when_run_returned, "ab", "each hook once, in order, before run returned");
    check.equal(runs.thread == network_thread ? "network thread" : "another thread",
                "network thread", "the thread the hooks ran on");
  });
}

}  // namespace
