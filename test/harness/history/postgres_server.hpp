// A real PostgreSQL server for the history store's tests, started by the test itself: Debian's
// initdb and postgres on a temporary directory, listening only on a Unix socket in it. As root
// the server runs as `nobody` (postgres refuses to run as root). Never a mock, never skipped:
// a machine without the server binaries fails the test and says which package to install.
#pragma once

#include <sys/types.h>
#include <string>

namespace perfgauge::test {

class PostgresServer {
  public:
    PostgresServer();   ///< initdb + postgres; throws std::runtime_error with the log on failure
    ~PostgresServer();  ///< fast shutdown, waits for the server, removes the directory
    PostgresServer(const PostgresServer&) = delete;
    PostgresServer& operator=(const PostgresServer&) = delete;

    /// A new empty database on the server, as a postgresql:// URI for perfgauge.
    std::string new_database();

  private:
    std::string dir_;
    pid_t server_ = -1;
    int databases_ = 0;
};

/// The one server of a test binary, started on first use and stopped at exit.
PostgresServer& shared_postgres();

}  // namespace perfgauge::test
