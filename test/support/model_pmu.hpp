// The model-specific PMU libpfm4 detects on this CPU (from CPUID, even where the kernel exposes
// no PMU), if it is one these tests know: an AMD Zen 3 or an Intel of the Skylake line.
// Both vendors encode retired instructions as event 0xc0, so the tests can check the encoding.
#pragma once

#include <optional>
#include <string>

#include "perfgauge/pmu/event_resolver.hpp"

namespace perfgauge::test {

struct ModelPmu {
    std::string pmu;          ///< libpfm4's name: "amd64_fam19h_zen3", "clx", ...
    std::string retired;      ///< its retired-instructions event, as the event list names it
    std::string retired_any;  ///< the same, with the unit mask counting every instruction
    /// An event that needs a unit mask, and one of the masks its refusal must name.
    std::string needs_mask;
    std::string one_mask;
};

inline std::optional<ModelPmu> detected_model_pmu() {
    const ModelPmu known[] = {
        {"amd64_fam19h_zen3", "RETIRED_INSTRUCTIONS", "RETIRED_INSTRUCTIONS",
         "RETIRED_MMX_FP_INSTRUCTIONS", "SSE_INSTR"},
        {"clx", "INST_RETIRED", "INST_RETIRED:ANY_P", "MEM_LOAD_RETIRED", "L1_HIT"},
        {"skx", "INST_RETIRED", "INST_RETIRED:ANY_P", "MEM_LOAD_RETIRED", "L1_HIT"},
        // Client Skylake to Comet Lake: the same event table as skx (libpfm4's intel_skl_pe).
        {"skl", "INST_RETIRED", "INST_RETIRED:ANY_P", "MEM_LOAD_RETIRED", "L1_HIT"},
    };
    for (const auto& m : known) {
        if (!pmu::EventResolver::known_names(m.pmu).empty())
            return m;
    }
    return std::nullopt;
}

inline constexpr const char* kNoKnownModelPmu =
    "libpfm4 detects no CPU these tests know here (an AMD Zen 3; an Intel Cascade Lake, Skylake "
    "or Skylake Xeon)";

}  // namespace perfgauge::test
