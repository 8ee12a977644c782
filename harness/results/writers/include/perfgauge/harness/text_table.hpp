// The one tabular path: a table (headers, rows, column alignment) built once by run, stat and
// compare, rendered to the console, to escaped CSV or to Markdown. Notes around a table stay
// with the writer that knows what they say.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace perfgauge::harness {

class TextTable {
  public:
    enum class Align { left, right };

    explicit TextTable(std::vector<std::string> headers, std::vector<Align> align = {});

    void add_row(std::vector<std::string> cells);
    /// Columns separated by two spaces; trailing spaces trimmed; a missing cell prints empty.
    std::string render() const;
    /// RFC 4180: one header line, fields with a comma, quote or line break quoted.
    std::string render_csv() const;
    /// A GitHub-flavoured Markdown table; right-aligned columns get `---:`, `|` is escaped.
    std::string render_markdown() const;
    bool empty() const { return rows_.empty(); }

  private:
    std::vector<std::string> headers_;
    std::vector<Align> align_;
    std::vector<std::vector<std::string>> rows_;
};

/// One CSV field, quoted (and quotes doubled) when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text);

/// "a,b,c" -> {"a", "b", "c"}: a fixed CSV header constant as the table's column names.
std::vector<std::string> csv_columns(std::string_view header);

/// 1234567 -> "1.23M" (k, M, G, T), followed by `unit`; small values keep 3 significant digits.
std::string format_si(double value, const std::string& unit = "");

/// A duration given in ns, in the unit that suits it: "12.345 ns", "1.234 us", "5.678 ms", "1.234
/// s".
std::string format_duration_ns(double ns);

/// Cuts `text` to at most `width` characters, ending in "..." when cut.
std::string truncate(const std::string& text, std::size_t width);

}  // namespace perfgauge::harness
