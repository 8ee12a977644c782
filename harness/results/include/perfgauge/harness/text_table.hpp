// Aligned plain-text tables for the console.
#pragma once

#include <string>
#include <vector>

namespace perfgauge::harness {

class TextTable {
  public:
    enum class Align { left, right };

    explicit TextTable(std::vector<std::string> headers, std::vector<Align> align = {});

    void add_row(std::vector<std::string> cells);
    /// Columns separated by two spaces; trailing spaces trimmed; a missing cell prints empty.
    std::string render() const;
    bool empty() const { return rows_.empty(); }

  private:
    std::vector<std::string> headers_;
    std::vector<Align> align_;
    std::vector<std::vector<std::string>> rows_;
};

/// 1234567 -> "1.23M" (k, M, G, T), followed by `unit`; small values keep 3 significant digits.
std::string format_si(double value, const std::string& unit = "");

/// A duration given in ns, in the unit that suits it: "12.345 ns", "1.234 us", "5.678 ms", "1.234
/// s".
std::string format_duration_ns(double ns);

/// Cuts `text` to at most `width` characters, ending in "..." when cut.
std::string truncate(const std::string& text, std::size_t width);

}  // namespace perfgauge::harness
