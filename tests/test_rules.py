"""The rules object (spades_lab.rules) against RULES.md: defaults, presets, round trips, errors.

Every number of the game lives in one frozen `Rules` value. These tests pin the defaults to the
numbers written in RULES.md, check that a rules object survives dict, JSON and TOML (and files)
unchanged, and that bad input fails with a `RulesError` that names the field and what is allowed.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib

import pytest
from referee import DEFAULT_RULES

from spades_lab.rules import PRESETS, Rules, RulesError, load_rules, preset

# RULES.md "Default: 4-player partnership Spades" and "Default scoring", written out by hand.
RULES_MD_DEFAULTS = {
    "target": 500,  # "if a team has reached the target (500)"
    "hand_cap": None,  # a cap is a simulation option, off unless configured
    "mercy": False,  # "mercy ... (off by default; threshold configurable)"
    "mercy_threshold": -200,  # "a team at or below -200 loses"
    "trick_value": 10,  # "+10 x contract"
    "bag_value": 1,  # "+1 per overtrick"
    "bag_penalty_enabled": True,
    "bag_threshold": 10,  # "Whenever a team's bag count reaches 10"
    "bag_penalty": 100,  # "-100 points"
    "nil_value": 100,  # "Nil: +100 ... -100"
    "nil_tricks_as_bags": True,  # "Tricks won by a nil bidder count as bags" (default on)
    "min_bid": 1,  # "Each seat bids nil (0) or 1..13"
    "max_bid": 13,
}

# A rules object with every field away from its default, for round trips.
CUSTOM = Rules(
    target=300,
    hand_cap=40,
    mercy=True,
    mercy_threshold=-350,
    trick_value=20,
    bag_value=2,
    bag_penalty_enabled=False,
    bag_threshold=5,
    bag_penalty=50,
    nil_value=50,
    nil_tricks_as_bags=False,
    min_bid=2,
    max_bid=9,
)


# --------------------------------------------------------------------------- defaults and presets


def _core(rules: Rules) -> dict:
    """The fields of the default 4-player game (variant fields added later are checked elsewhere)."""
    values = rules.to_dict()
    return {name: values[name] for name in RULES_MD_DEFAULTS}


def test_defaults_equal_rules_md() -> None:
    assert _core(Rules()) == RULES_MD_DEFAULTS
    # The independent referee read the same numbers from RULES.md, for every field both know.
    assert {name: DEFAULT_RULES[name] for name in RULES_MD_DEFAULTS} == RULES_MD_DEFAULTS
    engine = Rules().to_dict()
    shared = set(engine) & set(DEFAULT_RULES)
    assert {k: engine[k] for k in shared} == {k: DEFAULT_RULES[k] for k in shared}


def test_custom_differs_from_default_in_every_field() -> None:
    # Guards the round-trip tests below: a field left at its default would round-trip trivially.
    default, custom = _core(Rules()), _core(CUSTOM)
    assert [k for k in default if default[k] == custom[k]] == []


def test_presets() -> None:
    assert set(PRESETS) >= {"standard", "short"}
    assert preset("standard") == Rules()
    assert preset("short").target == 250
    assert preset("short") == Rules(target=250)
    assert load_rules("short") == Rules(target=250)
    assert load_rules("standard") == Rules()
    assert load_rules(None) == Rules()
    assert Rules(target=250).preset_name() == "short"
    assert Rules().preset_name() == "standard"
    assert CUSTOM.preset_name() is None


def test_preset_key_in_a_dict_is_a_base_the_other_keys_override() -> None:
    rules = Rules.from_dict({"preset": "short", "mercy": True})
    assert rules == Rules(target=250, mercy=True)
    assert Rules.from_dict({"preset": "short", "target": 400}).target == 400
    assert load_rules({"preset": "short"}) == Rules(target=250)


def test_replace_keeps_other_fields_and_validates() -> None:
    rules = CUSTOM.replace(target=700)
    assert rules.target == 700
    assert rules.replace(target=300) == CUSTOM
    with pytest.raises(RulesError, match="target"):
        CUSTOM.replace(target=0)


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("rules", [Rules(), Rules(target=250), CUSTOM, Rules(hand_cap=1, mercy=True)])
def test_round_trip_dict_json_toml(rules: Rules) -> None:
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_json(rules.to_json()) == rules
    assert Rules.from_toml(rules.to_toml()) == rules
    # The JSON and TOML texts are real JSON/TOML holding the same values (not just self-consistent).
    assert json.loads(rules.to_json()) == rules.to_dict()
    assert tomllib.loads(rules.to_toml()) == {k: v for k, v in rules.to_dict().items() if v is not None}


def test_load_rules_from_files(tmp_path) -> None:
    toml_file = tmp_path / "rules.toml"
    toml_file.write_text(CUSTOM.to_toml())
    assert load_rules(toml_file) == CUSTOM
    assert load_rules(str(toml_file)) == CUSTOM
    json_file = tmp_path / "rules.json"
    json_file.write_text(CUSTOM.to_json())
    assert load_rules(json_file) == CUSTOM
    # A hand-written TOML file with a few keys: the rest are the defaults.
    short_file = tmp_path / "short.toml"
    short_file.write_text('# my club\npreset = "short"\nmercy = true\nmercy_threshold = -300\n')
    assert load_rules(short_file) == Rules(target=250, mercy=True, mercy_threshold=-300)


def test_load_rules_missing_or_broken_file(tmp_path) -> None:
    with pytest.raises(RulesError, match="does not exist"):
        load_rules(tmp_path / "nope.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("target = = 3\n")
    with pytest.raises(RulesError, match="TOML"):
        load_rules(broken)


# --------------------------------------------------------------------------- errors


def test_unknown_field_names_it_and_lists_allowed_fields() -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict({"targt": 300})
    message = str(info.value)
    assert "targt" in message
    for name in RULES_MD_DEFAULTS:
        assert name in message
    with pytest.raises(RulesError, match="targt"):
        Rules.from_toml("targt = 300\n")
    with pytest.raises(RulesError, match="targt"):
        Rules.from_json('{"targt": 300}')


@pytest.mark.parametrize(
    "changes, field, allowed",
    [
        ({"target": -100}, "target", "1..1,000,000,000"),
        ({"target": 0}, "target", "1..1,000,000,000"),
        ({"bag_threshold": 0}, "bag_threshold", "1..1000 bags"),
        ({"hand_cap": 0}, "hand_cap", "None or 1..1,000,000 hands"),
        ({"max_bid": 14}, "max_bid", "1..13"),
        ({"min_bid": 0}, "min_bid", "1..max_bid"),
        ({"min_bid": 8, "max_bid": 7}, "min_bid", "1..max_bid"),
        ({"nil_value": -1}, "nil_value", "0..1,000,000"),
        ({"mercy_threshold": 600}, "mercy_threshold", "-1,000,000,000..499"),
    ],
)
def test_impossible_values_name_the_field_and_what_is_allowed(changes: dict, field: str, allowed: str) -> None:
    for build in (lambda: Rules(**changes), lambda: Rules.from_dict(changes)):
        with pytest.raises(RulesError) as info:
            build()
        assert field in str(info.value)
        assert allowed in str(info.value)


@pytest.mark.parametrize(
    "changes, field, expected",
    [
        ({"target": "500"}, "target", "int"),
        ({"target": 500.0}, "target", "int"),
        ({"target": True}, "target", "int"),
        ({"mercy": 1}, "mercy", "bool"),
        ({"nil_tricks_as_bags": "yes"}, "nil_tricks_as_bags", "bool"),
        ({"hand_cap": "10"}, "hand_cap", "int or None"),
    ],
)
def test_wrong_types_name_the_field_and_the_type(changes: dict, field: str, expected: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict(changes)
    message = str(info.value)
    assert field in message and expected in message
    with pytest.raises(RulesError, match=field):
        Rules(**changes)


def test_wrong_type_from_toml() -> None:
    with pytest.raises(RulesError, match="target.*int"):
        Rules.from_toml('target = "500"\n')
    with pytest.raises(RulesError, match="mercy.*bool"):
        Rules.from_toml("mercy = 1\n")


def test_unknown_preset_names_it_and_lists_presets() -> None:
    for build in (lambda: preset("long"), lambda: Rules.from_dict({"preset": "long"}), lambda: load_rules("long")):
        with pytest.raises(RulesError) as info:
            build()
        message = str(info.value)
        assert "long" in message and "standard" in message and "short" in message


def test_not_a_mapping() -> None:
    with pytest.raises(RulesError, match="mapping"):
        Rules.from_dict([("target", 300)])  # type: ignore[arg-type]


def test_rules_are_errors_of_type_value_error() -> None:
    # Callers catching ValueError (argument parsing, CLI) also catch rules mistakes.
    assert issubclass(RulesError, ValueError)


# --------------------------------------------------------------------------- frozen


def test_rules_are_frozen() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 100  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.mercy = True  # type: ignore[misc]
    assert rules.target == 500 and rules.mercy is False
    # Presets are shared objects: they must stay what they were.
    with pytest.raises(dataclasses.FrozenInstanceError):
        PRESETS["short"].target = 500  # type: ignore[misc]
    assert preset("short").target == 250


def test_rules_are_hashable_values() -> None:
    assert hash(Rules(target=250)) == hash(preset("short"))
    assert len({Rules(), Rules(), Rules(target=250)}) == 2
