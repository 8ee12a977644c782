// The one way perfgauge parses JSON that comes from a file or another process: every reader
// (compare, export, history add, plot, selftest's and the measuring processes' requests) goes
// through parse_json_bounded, so that one limit on nesting holds for all of them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace perfgauge::harness {

/// The deepest nesting of arrays and objects a reader accepts. perfgauge's own files nest 5
/// levels at most (a run's context.perfgauge.workload_context...), Google Benchmark's 3. The
/// parser itself is iterative, but much of nlohmann's API is not (dump(), comparisons, copies
/// of a value): a 100,000-deep field read into memory could overflow the stack wherever it
/// is used later. Refused at the door instead, whatever the reader.
inline constexpr std::size_t kMaxJsonDepth = 64;

/// The 1-based byte offset of the first '[' or '{' (outside strings) that nests deeper than
/// `limit`; nullopt when none does. Only counts brackets: the text need not be valid JSON
/// (the parser says what else is wrong). Pure, linear, no recursion.
std::optional<std::size_t> json_too_deep_at(std::string_view text,
                                            std::size_t limit = kMaxJsonDepth);

/// "ORIGIN: JSON nested deeper than N levels at byte B ..." - what a too deep text is told.
std::string json_too_deep_message(const std::string& origin, std::size_t byte);

/// `text` parsed (a UTF-8 byte order mark at its start is skipped, as nlohmann does), after
/// json_too_deep_at found nothing too deep; otherwise ResultFileError with
/// json_too_deep_message. Syntax errors are nlohmann's json::parse_error, as from json::parse,
/// for the caller to word.
nlohmann::json parse_json_bounded(std::string_view text, const std::string& origin);

}  // namespace perfgauge::harness
