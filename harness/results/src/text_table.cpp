#include "perfgauge/harness/text_table.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace perfgauge::harness {

TextTable::TextTable(std::vector<std::string> headers, std::vector<Align> align)
    : headers_(std::move(headers)), align_(std::move(align)) {
    align_.resize(headers_.size(), Align::left);
}

void TextTable::add_row(std::vector<std::string> cells) {
    cells.resize(headers_.size());
    rows_.push_back(std::move(cells));
}

std::string TextTable::render() const {
    std::vector<std::size_t> width(headers_.size());
    for (std::size_t c = 0; c < headers_.size(); ++c) {
        width[c] = headers_[c].size();
        for (const auto& row : rows_)
            width[c] = std::max(width[c], row[c].size());
    }
    std::string out;
    auto emit = [&](const std::vector<std::string>& cells) {
        std::string line;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (c > 0)
                line += "  ";
            const std::string pad(width[c] - cells[c].size(), ' ');
            line += align_[c] == Align::right ? pad + cells[c] : cells[c] + pad;
        }
        line.erase(line.find_last_not_of(' ') + 1);
        out += line + '\n';
    };
    emit(headers_);
    for (const auto& row : rows_)
        emit(row);
    return out;
}

std::string format_si(double value, const std::string& unit) {
    const double a = std::fabs(value);
    if (a >= 1e12)
        return fmt::format("{:.2f}T{}", value / 1e12, unit);
    if (a >= 1e9)
        return fmt::format("{:.2f}G{}", value / 1e9, unit);
    if (a >= 1e6)
        return fmt::format("{:.2f}M{}", value / 1e6, unit);
    if (a >= 1e3)
        return fmt::format("{:.2f}k{}", value / 1e3, unit);
    return fmt::format("{:.3g}{}", value, unit);
}

std::string format_duration_ns(double ns) {
    const double a = std::fabs(ns);
    if (a >= 1e9)
        return fmt::format("{:.3f} s", ns / 1e9);
    if (a >= 1e6)
        return fmt::format("{:.3f} ms", ns / 1e6);
    if (a >= 1e3)
        return fmt::format("{:.3f} us", ns / 1e3);
    return fmt::format("{:.3f} ns", ns);
}

std::string truncate(const std::string& text, std::size_t width) {
    if (text.size() <= width)
        return text;
    if (width <= 3)
        return text.substr(0, width);
    return text.substr(0, width - 3) + "...";
}

}  // namespace perfgauge::harness
