#include "perfgauge/pmu/event_list.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace perfgauge::pmu {

namespace {

std::string format_syntax_error(const std::string& reason, const std::string& text,
                                std::size_t column) {
    return fmt::format("invalid event list at column {}: {}\n  {}\n  {}^", column, reason, text,
                       std::string(column > 0 ? column - 1 : 0, ' '));
}

// Characters that may appear in an event name. ':' separates attributes and modifiers, '='
// carries libpfm4 attribute values (c=1), '.' and '-' appear in perf and tracepoint names.
bool is_name_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_' || c == '-' || c == '.' || c == ':' || c == '=' ||
           c == '@' || c == '/';
}

// Trailing segment of modifier letters. Lower-case u/k/h/p are perf's privilege and precision
// modifiers; no libpfm4 attribute or tracepoint is spelled with those letters alone.
bool looks_like_modifiers(const std::string& segment) {
    if (segment.empty())
        return false;
    for (char c : segment) {
        if (c != 'u' && c != 'k' && c != 'h' && c != 'p')
            return false;
    }
    return true;
}

class Parser {
  public:
    explicit Parser(const std::string& text) : text_(text) {}

    EventList parse() {
        EventList list;
        skip_spaces();
        if (at_end())
            fail("the event list is empty; expected an event name such as 'cycles'");
        for (;;) {
            list.groups.push_back(peek() == '{' ? parse_group() : parse_single());
            skip_spaces();
            if (at_end())
                break;
            if (peek() != ',')
                fail(fmt::format("expected ',' between events, found '{}'", peek()));
            ++pos_;
            skip_spaces();
            if (at_end())
                fail("expected an event name after ',' (trailing comma?)");
        }
        refuse_repeats(list);
        return list;
    }

  private:
    // Each event is one column of a table and one key of a result file: the same event twice
    // would make two columns but one key (the second overwriting the first).
    void refuse_repeats(const EventList& list) const {
        std::vector<const EventTerm*> seen;
        for (const auto& group : list.groups) {
            for (const auto& event : group.events) {
                const auto first = std::find_if(seen.begin(), seen.end(), [&](const EventTerm* e) {
                    return term_text(*e) == term_text(event);
                });
                if (first != seen.end()) {
                    fail_at(event.column - 1,
                            fmt::format("'{}' is listed twice (first at column {}); list each "
                                        "event once",
                                        term_text(event), (*first)->column));
                }
                seen.push_back(&event);
            }
        }
    }

    EventGroupTerm parse_single() {
        EventGroupTerm group;
        group.events.push_back(parse_event());
        return group;
    }

    EventGroupTerm parse_group() {
        const std::size_t open = pos_;
        ++pos_;  // '{'
        EventGroupTerm group;
        group.explicit_group = true;
        skip_spaces();
        if (!at_end() && peek() == '}')
            fail("empty group '{}': expected an event name");
        for (;;) {
            skip_spaces();
            if (at_end())
                fail_at(open, "unclosed '{': expected '}'");
            if (peek() == '{')
                fail("groups cannot be nested: expected an event name");
            group.events.push_back(parse_event());
            skip_spaces();
            if (at_end())
                fail_at(open, "unclosed '{': expected '}'");
            if (peek() == '}')
                break;
            if (peek() != ',')
                fail(fmt::format("expected ',' or '}}' in group, found '{}'", peek()));
            ++pos_;
            skip_spaces();
            if (!at_end() && peek() == '}')
                fail("expected an event name after ',' in group");
        }
        ++pos_;  // '}'
        if (!at_end() && peek() == ':') {
            const std::size_t mods_column = pos_ + 2;
            ++pos_;
            std::string mods;
            while (!at_end() && is_name_char(peek()))
                mods += text_[pos_++];
            const auto parsed = parse_modifiers(mods, mods_column);
            for (auto& event : group.events) {
                if (!event.modifiers.specified())
                    event.modifiers = parsed;
            }
        }
        return group;
    }

    EventTerm parse_event() {
        const std::size_t start = pos_;
        if (at_end() || !is_name_char(peek())) {
            if (at_end())
                fail("expected an event name");
            fail(fmt::format("expected an event name, found '{}'", peek()));
        }
        std::string raw;
        while (!at_end() && (is_name_char(peek()) || in_slash_term(raw))) {
            raw += text_[pos_++];
        }
        if (in_slash_term(raw))
            fail_at(start, "unterminated 'pmu/.../' term: expected '/'");
        if (raw.front() == ':')
            fail_at(start, "expected an event name before ':'");
        if (raw.back() == ':')
            fail_at(pos_ - 1, "expected a modifier or attribute after ':'");

        EventTerm term;
        term.column = start + 1;
        // Split trailing perf modifiers (":u", ":k", ":uk") off the name; "::" is a PMU prefix.
        const std::size_t colon = raw.rfind(':');
        if (colon != std::string::npos && colon > 0 && raw[colon - 1] != ':') {
            const std::string segment = raw.substr(colon + 1);
            if (looks_like_modifiers(segment)) {
                term.modifiers = parse_modifiers(segment, start + colon + 2);
                raw.resize(colon);
            }
        }
        if (raw.find(":::") != std::string::npos) {
            fail_at(start + raw.find(":::"), "too many ':' (use 'pmu::event' or 'event:attr')");
        }
        term.name = std::move(raw);
        return term;
    }

    PrivilegeModifiers parse_modifiers(const std::string& mods, std::size_t column) {
        if (mods.empty())
            fail_at(column - 1, "expected modifiers after ':' (u, k or uk)");
        PrivilegeModifiers result;
        for (std::size_t i = 0; i < mods.size(); ++i) {
            const char c = mods[i];
            bool* flag = c == 'u' ? &result.user : c == 'k' ? &result.kernel : nullptr;
            if (flag == nullptr) {
                fail_at(column - 1 + i,
                        fmt::format("unsupported modifier '{}': perfgauge supports u (user space) "
                                    "and k (kernel space)",
                                    c));
            }
            if (*flag)
                fail_at(column - 1 + i, fmt::format("modifier '{}' given twice", c));
            *flag = true;
        }
        return result;
    }

    // Inside perf's "pmu/term=1,term=2/" syntax commas belong to the term.
    static bool in_slash_term(const std::string& raw) {
        return std::count(raw.begin(), raw.end(), '/') % 2 == 1;
    }

    void skip_spaces() {
        while (!at_end() && std::isspace(static_cast<unsigned char>(peek())))
            ++pos_;
    }
    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return text_[pos_]; }

    [[noreturn]] void fail(const std::string& reason) const { fail_at(pos_, reason); }
    [[noreturn]] void fail_at(std::size_t index, const std::string& reason) const {
        throw EventListSyntaxError(reason, text_, index + 1);
    }

    const std::string& text_;
    std::size_t pos_ = 0;
};

}  // namespace

EventListSyntaxError::EventListSyntaxError(std::string reason, std::string text, std::size_t column)
    : EventError(format_syntax_error(reason, text, column)),
      reason_(std::move(reason)),
      column_(column) {}

EventList parse_event_list(const std::string& text) {
    return Parser(text).parse();
}

std::string modifier_suffix(const PrivilegeModifiers& m) {
    if (!m.specified())
        return "";
    return std::string(":") + (m.user ? "u" : "") + (m.kernel ? "k" : "");
}

std::string term_text(const EventTerm& term) {
    return term.name + modifier_suffix(term.modifiers);
}

}  // namespace perfgauge::pmu
