// Event-list syntax: the text after `-e`, compatible with `perf stat`.
//
//   list      := item (',' item)*
//   item      := event | '{' event (',' event)* '}' [':' modifiers]
//   event     := name [':' modifiers]
//   name      := [pmu '::'] event-name (':' attribute)*      (libpfm4, e.g. EVENT:UMASK:c=1)
//              | subsystem ':' tracepoint                     (tracefs)
//              | 'r' hex                                      (raw)
//   modifiers := one or more of 'u' (user space) and 'k' (kernel space)
//
// Parsing is purely syntactic: it never asks libpfm4 or the kernel whether a name exists
// (that is EventResolver's job), so it is deterministic and unit-tested on its own.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace perfgauge::pmu {

/// Which privilege levels to count. Neither set means "not specified": the resolver then
/// counts user space only, which works at perf_event_paranoid 2 (the common default).
struct PrivilegeModifiers {
    bool user = false;
    bool kernel = false;

    bool specified() const { return user || kernel; }
    bool operator==(const PrivilegeModifiers&) const = default;
};

/// One event as written, with its modifiers split off.
struct EventTerm {
    std::string name;  ///< everything but the trailing modifiers, e.g. "RETIRED_INSTRUCTIONS:c=1"
    PrivilegeModifiers
        modifiers;           ///< from `:u`, `:k`, `:uk` (or inherited from its `{...}:mods` group)
    std::size_t column = 0;  ///< 1-based column of the first character in the list text
};

/// A set of events scheduled together. `explicit_group` is true for `{...}`, which the user
/// asked to keep together; a bare event forms a group of its own.
struct EventGroupTerm {
    std::vector<EventTerm> events;
    bool explicit_group = false;
};

struct EventList {
    std::vector<EventGroupTerm> groups;
};

/// Base of every error about the event names a user wrote (syntax, unknown, invalid): bad input,
/// as opposed to a failure of the machine.
class EventError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A syntax error with the 1-based column where it was found. what() is a complete message:
/// the error, the list text, and a caret under the column.
class EventListSyntaxError : public EventError {
  public:
    EventListSyntaxError(std::string reason, std::string text, std::size_t column);

    const std::string& reason() const { return reason_; }
    std::size_t column() const { return column_; }

  private:
    std::string reason_;
    std::size_t column_;
};

/// Parses an event list; throws EventListSyntaxError on malformed input.
EventList parse_event_list(const std::string& text);

/// ":u", ":k", ":uk", or "" when no modifier was given.
std::string modifier_suffix(const PrivilegeModifiers& modifiers);
/// An event as written back: its name and modifier suffix ("instructions:u").
std::string term_text(const EventTerm& term);

}  // namespace perfgauge::pmu
