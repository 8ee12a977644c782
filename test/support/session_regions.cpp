// A program timing its own code with Session regions, as a user's would: "large" does ten
// times the work of "small", each entered three times. Under `perfgauge stat --backend sim`
// the simulated instructions per region must show that ratio. With a path (FILE), it also writes
// its Session report as JSON there, for the schema check (test/result_schema_check.py).
#include <cstdint>
#include <fstream>

#include "perfgauge/harness/session.hpp"

namespace {

std::uint64_t work(std::uint64_t n) {
    volatile std::uint64_t sum = 0;  // volatile: the loop is executed as written
    for (std::uint64_t i = 0; i < n; ++i)
        sum = sum + i * i;
    return sum;
}

}  // namespace

int main(int argc, char** argv) {
    perfgauge::harness::Session session("task-clock");
    std::uint64_t total = 0;
    for (int i = 0; i < 3; ++i) {
        {
            auto region = session.region("small");
            total += work(100000);
        }
        {
            auto region = session.region("large");
            total += work(1000000);
        }
    }
    if (argc > 1) {
        std::ofstream report(argv[1]);
        report << session.report(perfgauge::harness::OutputFormat::json);
        if (!report.flush())
            return 1;
    }
    return total == 0 ? 1 : 0;  // stdout stays perfgauge stat's
}
