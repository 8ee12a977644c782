#include "perfgauge/harness/selection.hpp"

#include <fmt/format.h>

namespace perfgauge::harness {

std::string repeats_note(const char* option, const std::vector<Repeat>& repeats) {
    if (repeats.empty())
        return "";
    std::vector<std::string> parts;
    for (const auto& r : repeats) {
        parts.push_back(r.text == r.earlier ? fmt::format("'{}' is given twice", r.text)
                                            : fmt::format("'{}' is '{}' again", r.text, r.earlier));
    }
    return fmt::format("{}: {}; each is measured once", option, fmt::join(parts, ", "));
}

}  // namespace perfgauge::harness
