#include "perfgauge/pmu/event_list.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace perfgauge::pmu {
namespace {

// Flattened view of a parsed list for compact expectations: one string per group,
// e.g. "{cycles|instructions:u}" or "task-clock".
std::string shape(const EventList& list) {
    std::string out;
    for (const auto& g : list.groups) {
        if (!out.empty())
            out += ",";
        std::string inner;
        for (const auto& e : g.events) {
            if (!inner.empty())
                inner += "|";
            inner += e.name;
            if (e.modifiers.specified()) {
                inner += std::string(":") + (e.modifiers.user ? "u" : "") +
                         (e.modifiers.kernel ? "k" : "");
            }
        }
        out += g.explicit_group ? "{" + inner + "}" : inner;
    }
    return out;
}

struct ValidCase {
    std::string text;
    std::string expected_shape;
};

void PrintTo(const ValidCase& c, std::ostream* os) {
    *os << '"' << c.text << '"';
}

class ValidEventList : public ::testing::TestWithParam<ValidCase> {};

TEST_P(ValidEventList, ParsesToExpectedShape) {
    EXPECT_EQ(shape(parse_event_list(GetParam().text)), GetParam().expected_shape);
}

INSTANTIATE_TEST_SUITE_P(
    Syntax, ValidEventList,
    ::testing::Values(
        ValidCase{"cycles", "cycles"}, ValidCase{"cycles,instructions", "cycles,instructions"},
        ValidCase{"{cycles,instructions}", "{cycles|instructions}"},
        ValidCase{"{cycles,instructions},task-clock:u", "{cycles|instructions},task-clock:u"},
        ValidCase{"cycles:u", "cycles:u"}, ValidCase{"cycles:k", "cycles:k"},
        ValidCase{"cycles:uk", "cycles:uk"}, ValidCase{"cycles:ku", "cycles:uk"},
        ValidCase{"{cycles,instructions}:k", "{cycles:k|instructions:k}"},
        ValidCase{"{cycles:u,instructions}:k", "{cycles:u|instructions:k}"},
        ValidCase{"r00c0", "r00c0"}, ValidCase{"r1a:u", "r1a:u"},
        ValidCase{"amd64_fam19h_zen3::RETIRED_INSTRUCTIONS",
                  "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS"},
        ValidCase{"perf::task-clock", "perf::task-clock"},
        ValidCase{"RETIRED_MMX_FP_INSTRUCTIONS:SSE_INSTR:c=1",
                  "RETIRED_MMX_FP_INSTRUCTIONS:SSE_INSTR:c=1"},
        ValidCase{"INST_RETIRED:ANY_P:c=1:u", "INST_RETIRED:ANY_P:c=1:u"},
        ValidCase{"syscalls:sys_enter_write", "syscalls:sys_enter_write"},
        ValidCase{"syscalls:sys_enter_write:k", "syscalls:sys_enter_write:k"},
        ValidCase{"L1-dcache-load-misses", "L1-dcache-load-misses"},
        ValidCase{" cycles , instructions ", "cycles,instructions"},
        ValidCase{"{ cycles , branches }", "{cycles|branches}"}, ValidCase{"{cycles}", "{cycles}"},
        ValidCase{"a,b,c,d,e,f", "a,b,c,d,e,f"}, ValidCase{"{a,b},{c,d}", "{a|b},{c|d}"},
        ValidCase{"sched:sched_switch,cs", "sched:sched_switch,cs"},
        ValidCase{"cpu/event=0x3c,umask=0/", "cpu/event=0x3c,umask=0/"}));

struct InvalidCase {
    std::string text;
    std::size_t column;
    std::string reason_fragment;
};

void PrintTo(const InvalidCase& c, std::ostream* os) {
    *os << '"' << c.text << '"';
}

class InvalidEventList : public ::testing::TestWithParam<InvalidCase> {};

TEST_P(InvalidEventList, ReportsColumnAndExpectation) {
    try {
        parse_event_list(GetParam().text);
        FAIL() << "expected a syntax error for '" << GetParam().text << "'";
    } catch (const EventListSyntaxError& e) {
        EXPECT_EQ(e.column(), GetParam().column) << e.what();
        EXPECT_NE(e.reason().find(GetParam().reason_fragment), std::string::npos) << e.what();
        // The full message repeats the text with a caret under the column.
        EXPECT_NE(std::string(e.what()).find(GetParam().text), std::string::npos);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Syntax, InvalidEventList,
    ::testing::Values(InvalidCase{"", 1, "empty"}, InvalidCase{"   ", 4, "empty"},
                      InvalidCase{"cycles,", 8, "after ','"},
                      InvalidCase{",cycles", 1, "expected an event name"},
                      InvalidCase{"cycles,,instructions", 8, "expected an event name"},
                      InvalidCase{"{cycles,instructions", 1, "unclosed '{'"},
                      InvalidCase{"{}", 2, "empty group"}, InvalidCase{"{cycles,}", 9, "after ','"},
                      InvalidCase{"{cycles,{instructions}}", 9, "nested"},
                      InvalidCase{"cycles}", 7, "expected ','"},
                      InvalidCase{"cycles instructions", 8, "expected ','"},
                      InvalidCase{"cycles:", 7, "after ':'"}, InvalidCase{":u", 1, "before ':'"},
                      InvalidCase{"cycles:p", 8, "unsupported modifier 'p'"},
                      InvalidCase{"cycles:uu", 9, "given twice"},
                      InvalidCase{"cycles:uh", 9, "unsupported modifier 'h'"},
                      InvalidCase{"{cycles}:x", 10, "unsupported modifier 'x'"},
                      InvalidCase{"{cycles}:", 10, "expected modifiers"},
                      InvalidCase{"cyc!les", 4, "expected ','"},
                      InvalidCase{"cpu/event=1", 1, "unterminated"},
                      InvalidCase{"a:::b", 2, "too many ':'"},
                      InvalidCase{"{cycles}instructions", 9, "expected ','"},
                      // One event twice: two columns, one result key.
                      InvalidCase{"task-clock,task-clock", 12, "listed twice (first at column 1)"},
                      InvalidCase{"{cycles,instructions},instructions", 23, "'instructions'"},
                      InvalidCase{"{cycles}:u,cycles:u", 12, "'cycles:u' is listed twice"}));

TEST(EventList, TheSameEventAtTwoPrivilegeLevelsIsTwoEvents) {
    const auto list = parse_event_list("cycles:u,cycles:k,cycles");
    ASSERT_EQ(list.groups.size(), 3u);
}

TEST(EventList, RecordsOneBasedColumnOfEachEvent) {
    const auto list = parse_event_list("cycles,{instructions,branches}");
    ASSERT_EQ(list.groups.size(), 2u);
    EXPECT_EQ(list.groups[0].events[0].column, 1u);
    EXPECT_EQ(list.groups[1].events[0].column, 9u);
    EXPECT_EQ(list.groups[1].events[1].column, 22u);
}

TEST(EventList, BareEventsAreGroupsOfTheirOwn) {
    const auto list = parse_event_list("{cycles,instructions},task-clock:u");
    ASSERT_EQ(list.groups.size(), 2u);
    EXPECT_TRUE(list.groups[0].explicit_group);
    EXPECT_FALSE(list.groups[1].explicit_group);
    EXPECT_EQ(list.groups[1].events[0].modifiers, (PrivilegeModifiers{true, false}));
}

TEST(EventList, CaretPointsAtTheColumn) {
    try {
        parse_event_list("ab,,c");
        FAIL();
    } catch (const EventListSyntaxError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("column 4"), std::string::npos) << message;
        EXPECT_NE(message.find("\n  ab,,c\n     ^"), std::string::npos) << message;
    }
}

}  // namespace
}  // namespace perfgauge::pmu
