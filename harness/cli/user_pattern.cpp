#include "user_pattern.hpp"

#include <re2/re2.h>

#include <fmt/format.h>

#include "cli_common.hpp"

namespace perfgauge::cli {

UserPattern::UserPattern(const std::string& option, const std::string& pattern) {
    RE2::Options options;
    options.set_log_errors(false);  // the error is the user's, said once with the option's name
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

}  // namespace perfgauge::cli
