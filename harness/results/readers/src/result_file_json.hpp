// Inside the results library: the readers of each result kind, from JSON already parsed, so that
// parse_result_json parses a file once whatever it holds.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "perfgauge/harness/result.hpp"

namespace perfgauge::harness {

/// The version of the result contract `j` (a whole file) follows: its "schema_version", or
/// kUnversionedSchemaVersion without one. A version newer than this binary reads, or one that
/// is not a positive integer, is refused (ResultFileError naming `origin`, the version and the
/// newest read).
int read_schema_version(const nlohmann::json& j, const std::string& origin);

/// The machine's facts as a run result's context.perfgauge.system (and a stat result's
/// "system") records them: CPU, kernel, governor, mitigations, ...
void read_system_facts(const nlohmann::json& facts, SystemInfo& s);
/// The host's name, its logical CPUs and caches, as Google Benchmark's context names them
/// (host_name, num_cpus, caches): a run result's context, a stat result's "system".
void read_host_facts(const nlohmann::json& context, SystemInfo& s);

/// Google Benchmark's NaN, -NaN, Infinity or -Infinity, as quote_non_finite_tokens made it.
bool is_non_finite_token(const nlohmann::json& v);

/// `value` as a message shows it: JSON text cut to a few dozen characters (a wrong value may be
/// a 100,000-element array), Google Benchmark's bare NaN and Infinity as they were written.
std::string shown_value(const nlohmann::json& value);

RunResult run_from_json(const nlohmann::json& j, const std::string& origin);
RunResult stat_from_json(const nlohmann::json& j, const std::string& origin);
RunResult gbench_from_json(const nlohmann::json& j, const std::string& origin);

}  // namespace perfgauge::harness
