"""The pure, seeded setup generator for IKI and IKI Akebono (RULINGS R15-R19). No Django; randomness is passed in.

from setupgen import Options, generate
setup = generate(Options(players=4, akebono=True), seed="K7MX2QPA")
setup.to_json()                 # docs/api.md "Setup"
checklist(setup)                # the setup steps in rulebook order, with the draws written in
"""

from setupgen.checklist import Hidden, Section, Step, checklist, hidden_item, hidden_items
from setupgen.code import CODE_MAX, PART_BY_KEY, PARTS, HouseRules, Part, SetupCode, parse_code
from setupgen.generate import (
    FIRE_MONTHS,
    GENERATOR_VERSION,
    AkebonoSetup,
    Fire,
    HouseRuleError,
    Options,
    OptionsError,
    Setup,
    StartingChoice,
    TwoPlayer,
    applicable_parts,
    check_house_rules,
    draft_order,
    generate,
    generate_with,
    house_rules,
    rng_for,
)
from setupgen.seed import ALPHABET, SEED_LENGTH, SeedError, new_seed, normalize_seed

__all__ = [
    "ALPHABET",
    "CODE_MAX",
    "FIRE_MONTHS",
    "GENERATOR_VERSION",
    "PARTS",
    "PART_BY_KEY",
    "SEED_LENGTH",
    "AkebonoSetup",
    "Fire",
    "Hidden",
    "HouseRuleError",
    "HouseRules",
    "Options",
    "OptionsError",
    "Part",
    "Section",
    "SeedError",
    "Setup",
    "SetupCode",
    "StartingChoice",
    "Step",
    "TwoPlayer",
    "applicable_parts",
    "check_house_rules",
    "checklist",
    "draft_order",
    "generate",
    "generate_with",
    "hidden_item",
    "hidden_items",
    "house_rules",
    "new_seed",
    "normalize_seed",
    "parse_code",
    "rng_for",
]
