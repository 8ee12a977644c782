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

/// Cuts `text` to at most `width` characters, ending in "..." when cut.
std::string truncate(const std::string& text, std::size_t width);

}  // namespace perfgauge::harness
