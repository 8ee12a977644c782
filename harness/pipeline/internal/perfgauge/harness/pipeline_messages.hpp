// What a pipeline stage tells the user on the way (notes, the time breakdown, progress): handed
// to the command's writer of stderr (perfgauge's, every write checked, never thrown), so the
// stages know nothing of the console.
#pragma once

#include <functional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace perfgauge::harness {

/// A writer of messages; say("perfgauge run: {}\n", note) formats and writes one.
struct Messages {
    std::function<void(std::string_view)> write;

    template <class... Args>
    void operator()(fmt::format_string<Args...> format, Args&&... args) const {
        write(fmt::format(format, std::forward<Args>(args)...));
    }
};

}  // namespace perfgauge::harness
