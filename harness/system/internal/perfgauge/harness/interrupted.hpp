// The error of work that an interrupt (SIGINT, SIGTERM, SIGHUP) stopped where it would
// otherwise wait on: a write to a FIFO or device nobody reads.
#pragma once

#include <stdexcept>
#include <string>

namespace perfgauge::harness {

/// what() says what was left incomplete; the CLI says it and exits 128 + signal().
class Interrupted : public std::runtime_error {
  public:
    Interrupted(int signal, const std::string& what) : std::runtime_error(what), signal_(signal) {}
    int signal() const { return signal_; }

  private:
    int signal_;
};

}  // namespace perfgauge::harness
