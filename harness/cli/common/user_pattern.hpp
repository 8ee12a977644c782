// Regular expressions the user gives (export --filter), matched in linear time.
#pragma once

#include <memory>
#include <string>

namespace re2 {
class RE2;
}

namespace perfgauge::cli {

/// A user's pattern compiled by RE2, whose automaton matches in time linear in the text:
/// std::regex backtracks (a hang on `(a|a)*b`) and recurses per character (a stack overflow on
/// a 50k-character Google Benchmark name). RE2 syntax: no backreferences or lookaround.
class UserPattern {
  public:
    /// UsageError naming `option` and RE2's own message when `pattern` is not valid.
    UserPattern(const std::string& option, const std::string& pattern);
    ~UserPattern();
    UserPattern(UserPattern&&) noexcept;
    UserPattern& operator=(UserPattern&&) noexcept;

    /// Whether the pattern matches anywhere in `text` (bytes that are not UTF-8 match nothing
    /// but themselves).
    bool found_in(const std::string& text) const;

    /// The pattern as the user gave it, for messages.
    const std::string& pattern() const;

  private:
    std::unique_ptr<re2::RE2> re_;
};

}  // namespace perfgauge::cli
