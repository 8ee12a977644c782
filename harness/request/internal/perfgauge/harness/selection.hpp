// A selection given as a list ("--sizes 4K,4096", "--cache hot,hot") names each benchmark
// once: repeats of an earlier value, however written, are folded into it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace perfgauge::harness {

/// One value of a list as the user wrote it, beside the value it means.
template <class T>
struct Written {
    T value;
    std::string text;
};

/// A value dropped because an earlier one means the same: both as written.
struct Repeat {
    std::string text;     ///< "4096"
    std::string earlier;  ///< "4K"
};

/// The values of `written` in order, each once (by ==); the ones dropped in `repeats`.
template <class T>
std::vector<T> without_repeats(const std::vector<Written<T>>& written,
                               std::vector<Repeat>& repeats) {
    std::vector<T> out;
    std::vector<const std::string*> texts;
    for (const auto& w : written) {
        const auto it = std::find(out.begin(), out.end(), w.value);
        if (it == out.end()) {
            out.push_back(w.value);
            texts.push_back(&w.text);
        } else {
            repeats.push_back({w.text, *texts[static_cast<std::size_t>(it - out.begin())]});
        }
    }
    return out;
}

/// "--sizes: '4096' repeats '4K', '4K' repeats '4K'; each is measured once", or "" when
/// `repeats` is empty.
std::string repeats_note(const char* option, const std::vector<Repeat>& repeats);

}  // namespace perfgauge::harness
