#include "history/common.hpp"

#include "common/cli_common.hpp"

namespace perfgauge::cli {

// An output file is never the SQLite store it is made from (-o history.db would replace it).
void refuse_output_over_store(const std::string& output, const HistoryLocation& store) {
    if (!output.empty() && store.engine == harness::StoreLocation::Engine::sqlite)
        refuse_outputs_over_inputs({{"-o", output}}, {{"the history store", store.target}});
}

std::unique_ptr<harness::HistoryStore> open_store(const HistoryLocation& store, StoreUse use) {
    try {
        return harness::open_history_store(store, use);
    } catch (const harness::HistoryInputError& e) {
        throw UsageError(e.what());
    } catch (const harness::StoreRefused& e) {
        throw UsageError(e.what());
    }
}

harness::NamePattern name_pattern(const UserPattern& pattern) {
    return {pattern.pattern(),
            [&pattern](const std::string& name) { return pattern.found_in(name); }};
}

harness::StoredPatternMatch stored_pattern_match() {
    return [](const std::string& pattern, const std::string& name) {
        return UserPattern("the accepted REGEX", pattern).found_in(name);
    };
}

}  // namespace perfgauge::cli
