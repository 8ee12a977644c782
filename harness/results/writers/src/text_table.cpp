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

std::string TextTable::render_csv() const {
    std::string out;
    auto emit = [&](const std::vector<std::string>& cells) {
        for (std::size_t c = 0; c < cells.size(); ++c)
            out += (c > 0 ? "," : "") + csv_field(cells[c]);
        out += '\n';
    };
    emit(headers_);
    for (const auto& row : rows_)
        emit(row);
    return out;
}

std::string TextTable::render_markdown() const {
    auto cell = [](const std::string& text) {
        std::string escaped;
        // A '|' would end the cell and a line break the row.
        for (char ch : text) {
            if (ch == '|')
                escaped += "\\|";
            else if (ch == '\n' || ch == '\r')
                escaped += ' ';
            else
                escaped += ch;
        }
        return escaped;
    };
    std::string out;
    auto emit = [&](const std::vector<std::string>& cells) {
        out += "|";
        for (const auto& c : cells)
            out += " " + cell(c) + " |";
        out += '\n';
    };
    emit(headers_);
    out += "|";
    for (const auto a : align_)
        out += a == Align::right ? "---:|" : "---|";
    out += '\n';
    for (const auto& row : rows_)
        emit(row);
    return out;
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::vector<std::string> csv_columns(std::string_view header) {
    std::vector<std::string> columns;
    while (!header.empty()) {
        const auto comma = header.find(',');
        columns.emplace_back(header.substr(0, comma));
        header = comma == std::string_view::npos ? "" : header.substr(comma + 1);
    }
    return columns;
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
