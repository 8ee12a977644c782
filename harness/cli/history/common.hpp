// What every history subcommand shares on the command line's side: opening the store its --db
// names, and the one matcher (RE2) handed to the queries (harness/history's
// history_queries.hpp) for the user's REGEX and for the REGEXes acceptances stored.
#pragma once

#include <memory>
#include <string>

#include "common/user_pattern.hpp"
#include "history/options.hpp"
#include "perfgauge/harness/history_queries.hpp"

namespace perfgauge::cli {

/// UsageError when `output` (an -o) names the SQLite store being read: it would replace it.
void refuse_output_over_store(const std::string& output, const HistoryLocation& store);

using harness::StoreUse;

/// The store, opened for `use` (harness::open_history_store); UsageError for a SQLite path
/// that is missing (but to create), a directory or no regular file, and for a store refused
/// for what it holds (harness::StoreRefused).
std::unique_ptr<harness::HistoryStore> open_store(const HistoryLocation& store,
                                                  StoreUse use = StoreUse::read);

/// `pattern` as the queries take it: its text and its RE2 matcher (`pattern` must outlive it).
harness::NamePattern name_pattern(const UserPattern& pattern);

/// How an acceptance's stored REGEX is matched: by RE2 (UserPattern), as the user's are.
harness::StoredPatternMatch stored_pattern_match();

}  // namespace perfgauge::cli
