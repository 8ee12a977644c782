#include "common/backend_option.hpp"

#include <stdexcept>

namespace perfgauge::cli {

harness::Backend backend_option(const po::variables_map& vm) {
    try {
        return harness::parse_backend(vm["backend"].as<std::string>());
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

}  // namespace perfgauge::cli
