#include "common/user_pattern.hpp"

#include <re2/re2.h>

#include <fmt/format.h>

#include "common/cli_common.hpp"

namespace perfgauge::cli {

UserPattern::UserPattern(const std::string& option, const std::string& pattern) {
    RE2::Options options;
    options.set_log_errors(false);  // the error is the user's, said once with the option's name
    // Room for the DFA of a counted repetition: with RE2's default 8 MB, `a{0,1000}b` fell back
    // to the NFA (about 1000 states per byte: 2.5 s of CPU on a 100k-character name).
    options.set_max_mem(int64_t{256} << 20);
    re_ = std::make_unique<RE2>(pattern, options);
    if (!re_->ok()) {
        throw UsageError(fmt::format("{} '{}': not a regular expression ({}; RE2 syntax)", option,
                                     pattern, re_->error()));
    }
}

UserPattern::~UserPattern() = default;
UserPattern::UserPattern(UserPattern&&) noexcept = default;
UserPattern& UserPattern::operator=(UserPattern&&) noexcept = default;

bool UserPattern::found_in(const std::string& text) const {
    return RE2::PartialMatch(text, *re_);
}

const std::string& UserPattern::pattern() const {
    return re_->pattern();
}

}  // namespace perfgauge::cli
