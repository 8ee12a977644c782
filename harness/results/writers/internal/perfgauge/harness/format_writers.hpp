// The one way a report picks its writer for an OutputFormat: each kind of report (a run, a
// comparison, a stat result, side by side, a Session's) lists its writers in a table, one per
// format, and renders through it; the choice of format is made here, once, instead of a switch
// in every report. A new format is a field here, and a table entry in each report.
#pragma once

#include <string>

#include "perfgauge/harness/output_format.hpp"

namespace perfgauge::harness {

/// The writers of one kind of report, one per format; each renders `Model...` (the report's
/// data: a RunResult, a Comparison, a side-by-side result and its comparison) as text.
template <typename... Model>
struct FormatWriters {
    using Writer = std::string (*)(const Model&...);
    Writer table = nullptr;
    Writer csv = nullptr;
    Writer json = nullptr;
    Writer markdown = nullptr;

    /// The writer for `format`; null for a value that is none of the formats.
    constexpr Writer writer_for(OutputFormat format) const {
        switch (format) {
            case OutputFormat::table:
                return table;
            case OutputFormat::csv:
                return csv;
            case OutputFormat::json:
                return json;
            case OutputFormat::markdown:
                return markdown;
        }
        return nullptr;
    }

    /// `model` in `format`; "" for a value that is none of the formats.
    std::string render(OutputFormat format, const Model&... model) const {
        const Writer writer = writer_for(format);
        return writer != nullptr ? writer(model...) : std::string();
    }
};

}  // namespace perfgauge::harness
