// The formats perfgauge writes, a closed set: every writer is a switch over OutputFormat with no
// default, compiled with -Werror=switch (results/CMakeLists.txt), so a format added here does
// not compile until each writer says what it does with it (its text, or no_writer). Each
// command accepts the formats its reports have, parsed here, in one place.
#pragma once

#include <array>
#include <span>
#include <string_view>

namespace perfgauge::harness {

/// table, CSV, JSON, Markdown: what every result renders in; bmf: Bencher Metric Format
/// (export); answer: the one-screen summary first (run's decoders, stat side by side).
enum class OutputFormat { table, csv, json, markdown, bmf, answer };

/// The formats every result renders in, in the order messages name them.
inline constexpr std::array<OutputFormat, 4> kResultFormats = {
    OutputFormat::table, OutputFormat::csv, OutputFormat::json, OutputFormat::markdown};

/// The name --format takes: "table", "csv", "json", "md", "bmf", "answer".
const char* output_format_name(OutputFormat format);

/// `text` as one of `accepted` ("markdown" too, for md); throws std::invalid_argument naming
/// the choices in `accepted`'s order: "unknown format 'x': choose table, csv, json or md".
OutputFormat parse_output_format(std::string_view text,
                                 std::span<const OutputFormat> accepted = kResultFormats);

/// A report asked for a format it has no writer for (`report`: "a run result"): throws
/// std::invalid_argument. The commands accept only their reports' formats, so this is a
/// caller's mistake, said rather than answered with an empty or another format's text.
[[noreturn]] void no_writer(std::string_view report, OutputFormat format);

}  // namespace perfgauge::harness
