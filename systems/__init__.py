"""Rules, one subpackage per ruleset; each module registers its systems when imported."""
