"""Hand-written text of REPRODUCTION.md on the largest r(held-out MSP, accuracy) that any
choice among the default's labelings and the classes reaches; spliced into
:data:`lab.experiments._notes_heldout.HELDOUT_NOTES` at the end of the section "Can the
reported held-out MSP follow accuracy?"."""

#: measured by ``python bench/heldout_variants.py --part max-r``
CEILING_NOTES = """
**Any choice among these labelings** (`python bench/heldout_variants.py --part max-r`, about
7 minutes under `nice`; the digits rows alone take 30 seconds). Measured with the current
default (its shipped labels: mean accuracy 0.972 on the digits pairs, r = 0.656). On every
data set the candidates are the labelings the default climbs to from its starts (up to 4;
several starts often climb to the same one) and the class labeling, each scored by the
held-out MSP as shipped (lam 0.2) or at lam 0.05; candidates below accuracy 0.6 are never
chosen. "r found" is the best selection (one candidate per data set) that coordinate ascent
found, moving one data set and then two at a time from the most accurate selection and 200
random feasible ones: an achieved value, a lower bound of the maximum. "Upper bound
(proved)": no selection reaches it. For a selection with r >= t, the residuals of the
least-squares line of accuracy on score sum to (1 - r^2) times the sum of squared accuracy
deviations, at most (1 - t^2) times; regions of lines and mean accuracies where no choice of
one candidate per data set can meet that (a multiplier on the mean's constraint tightens the
test) are excluded, and t is proved once all are (bisection to 0.01;
`tests/test_heldout_ceiling.py` checks both numbers against brute force). The shares of r
are each data set's term (s_i - mean s)(a_i - mean a) / sqrt(sum (s - mean s)^2 sum (a -
mean a)^2); they sum to r.

| score at lam | selection (max r: no pair below 0.6, and) | mean accuracy | r found | r upper bound (proved) | largest shares of r (1v8's) | r without the largest / without 1v8 | pairs chosen below 0.9 | pairs less / more accurate than shipped |
|---|---|---|---|---|---|---|---|---|
| 0.2 | shipped labels | 0.972 | 0.656 | | 1v8 +0.35, 5v9 +0.12 | 0.65 | 1v2, 1v8, 5v9 | |
| 0.2 | mean accuracy >= 0.96 | 0.960 | 0.946 | 0.953 | 5v9 +0.21, 7v8 +0.21 (1v8 -0.01) | 0.93 / 0.97 | 0v9, 2v8, 5v9, 7v8, 8v9 | 9 / 22 |
| 0.2 | mean accuracy >= 0.96, the starts only (no class labeling) | 0.960 | 0.885 | 0.900 | 5v9 +0.33, 7v8 +0.32 (1v8 +0.09) | 0.83 / 0.95 | 1v2, 1v8, 5v9, 7v8, 8v9 | 8 / 6 |
| 0.2 | mean accuracy >= 0.96, no pair below 0.8 | 0.978 | 0.811 | 0.817 | 8v9 +0.18, 3v5 +0.15 (1v8 -0.03) | 0.78 / 0.90 | 3v5, 5v9, 8v9 | 10 / 19 |
| 0.2 | mean accuracy >= the shipped 0.972 | 0.972 | 0.924 | 0.934 | 5v9 +0.30, 0v9 +0.28 (1v8 -0.01) | 0.90 / 0.96 | 0v9, 2v8, 5v9 | 5 / 22 |
| 0.2 | every pair at least its shipped accuracy | 0.976 | 0.693 | 0.703 | 1v8 +0.36, 5v9 +0.12 | 0.75 | 1v2, 1v8, 5v9 | 0 / 15 |
| 0.2 | no other constraint | 0.953 | 0.949 | 0.956 | 5v9 +0.20, 7v8 +0.20 (1v8 -0.01) | 0.94 / 0.98 | 0v9, 2v8, 3v5, 5v9, 7v8, 8v9 | 15 / 15 |
| 0.05 | shipped labels | 0.972 | 0.722 | | 1v8 +0.42, 5v9 +0.12 | 0.66 | 1v2, 1v8, 5v9 | |
| 0.05 | mean accuracy >= 0.96 | 0.960 | 0.945 | 0.952 | 0v9 +0.23, 5v9 +0.22 (1v8 -0.01) | 0.93 / 0.97 | 0v9, 2v8, 5v9, 7v8 | 13 / 14 |
| 0.05 | mean accuracy >= 0.96, the starts only (no class labeling) | 0.960 | 0.927 | 0.936 | 5v9 +0.33, 7v8 +0.30 (1v8 +0.16) | 0.90 / 0.95 | 1v2, 1v8, 5v9, 7v8, 8v9 | 10 / 6 |
| 0.05 | mean accuracy >= 0.96, no pair below 0.8 | 0.978 | 0.855 | 0.864 | 8v9 +0.20, 3v5 +0.17 (1v8 -0.02) | 0.83 / 0.93 | 3v5, 5v9, 8v9 | 9 / 16 |
| 0.05 | mean accuracy >= the shipped 0.972 | 0.972 | 0.926 | 0.935 | 0v9 +0.30, 5v9 +0.30 (1v8 -0.01) | 0.89 / 0.96 | 0v9, 2v8, 5v9 | 6 / 23 |
| 0.05 | every pair at least its shipped accuracy | 0.978 | 0.793 | 0.799 | 1v8 +0.44, 5v9 +0.14 | 0.77 | 1v2, 1v8, 5v9 | 0 / 17 |
| 0.05 | no other constraint | 0.930 | 0.962 | 0.972 | 0v9 +0.14, 5v9 +0.14 (1v8 +0.06) | 0.96 / 0.98 | 0v7, 0v8, 0v9, 1v4, 1v8, 2v8, 3v5, 5v6, 5v9, 7v8, 8v9 | 18 / 15 |

- **The score does not cap r below 0.8 on these labelings; the accuracies it would take do.**
  Under the issue's constraints (mean accuracy >= 0.96, no pair below 0.6) a choice reaches
  r = 0.946 (at most 0.953) scored as shipped, 0.945 (at most 0.952) at lam 0.05. It takes the
  classes on `1v8` and on many other pairs, and on four pairs a start that fails (`0v9`,
  `2v8`, `5v9`, `7v8` at accuracy 0.65-0.69) and scores lowest; the largest shares of r are
  theirs. Without the class labeling, the starts alone reach 0.885 (at most 0.900; 0.927, at
  most 0.936, at lam 0.05), the largest shares on `5v9` and `7v8`, both chosen below 0.9.
  With no pair below 0.8 a choice still reaches 0.811 (at most 0.817; 0.855, at most 0.864,
  at lam 0.05), again with the classes on `1v8` and, on 10 pairs (9 at lam 0.05), a labeling
  less accurate than the shipped one (`3v5` and `8v9` below 0.9).
- **With these two scores, a rule that is never less accurate than the default on any pair
  cannot reach 0.8:** r is at most 0.703 scored as shipped (0.693 found) and at most 0.799 at
  lam 0.05 (0.793 found). So with them every choice with r >= 0.8 returns, on some pair, a
  labeling less accurate than the default's. Three other settings of the score do not have
  this limit ("Every score setting" below).
- **What carries r today:** `1v8` (accuracy 0.615) contributes +0.35 of the shipped 0.656
  (+0.42 of 0.722 at lam 0.05), the largest share; without `1v8` the other 44 pairs give
  r = 0.65 (0.66 at lam 0.05). The selections of largest r that may take the class labeling
  take it on `1v8` (accuracy 1, held-out MSP 0.721 as shipped, 0.758 at lam 0.05), except
  under "every pair at least its shipped accuracy" and, at lam 0.05, "no other constraint";
  its share is then -0.01 to -0.03, and the largest shares go to pairs chosen below 0.9.

The other families of the ceilings table (`*` held aside), scored as shipped / at lam 0.05.
Cells: r found / r upper bound (mean accuracy of the selection found); no data set below 0.6
in any selection (the shipped labels have some).

| family | shipped labels: mean accuracy / below 0.6 / r | max r, mean accuracy >= the shipped | max r, every set at least its shipped accuracy | max r, no other constraint |
|---|---|---|---|---|
| letter (lam 0.2) | 0.801 / 4 / 0.398 | -0.057 / 0.273 (0.983) | -0.057 / 0.265 (0.983) | -0.057 / 0.273 (0.983) |
| letter (lam 0.05) | 0.801 / 4 / 0.368 | -0.047 / 0.272 (0.900) | -0.047 / 0.264 (0.900) | -0.047 / 0.272 (0.900) |
| wine/iris* (lam 0.2) | 0.961 / 0 / 0.953 | 0.960 / 0.970 (0.961) | 0.960 / 0.970 (0.961) | 0.977 / 0.983 (0.925) |
| wine/iris* (lam 0.05) | 0.961 / 0 / 0.934 | 0.953 / 0.959 (0.961) | 0.953 / 0.959 (0.961) | 0.960 / 0.970 (0.957) |
| letter* (lam 0.2) | 0.862 / 1 / 0.642 | 0.793 / 0.800 (0.864) | 0.579 / 0.586 (0.897) | 0.798 / 0.804 (0.860) |
| letter* (lam 0.05) | 0.862 / 1 / 0.663 | 0.803 / 0.810 (0.864) | 0.597 / 0.603 (0.893) | 0.816 / 0.822 (0.856) |
| digits-half* (lam 0.2) | 0.968 / 1 / 0.816 | 0.964 / 0.973 (0.968) | 0.912 / 0.918 (0.975) | 0.985 / 0.993 (0.931) |
| digits-half* (lam 0.05) | 0.968 / 1 / 0.824 | 0.965 / 0.973 (0.968) | 0.902 / 0.908 (0.978) | 0.986 / 0.993 (0.934) |

On the letter pairs no choice without a pair below 0.6 reaches r = 0.28 (the interval is
wide there: the best choice found has r = -0.06); r above that needs pairs below 0.6, as the
shipped labels have (4 pairs, r 0.40). On the letter* pairs a rule never less accurate than
the default (and with no pair below 0.6) stays below 0.586 (0.603 at lam 0.05). On the
digits-half* pairs such a rule reaches 0.912 (at most 0.918): there the shipped labels have
`1v8/2` below 0.6, every choice here replaces it by a labeling of accuracy 0.6 or more, and
`1v8/2` has the largest share of r (+0.59 in the output of `--part max-r`). Under mean
accuracy >= 0.96 a choice reaches 0.975 there (at most 0.981), 0.855 (at most 0.864) with no
pair below 0.8.

**Every score setting measured** (`python bench/heldout_variants.py --part max-r-variants`,
about 3.5 minutes under `nice`). The same candidates and shipped labels (`random_state=0`,
mean accuracy 0.972, no pair below 0.6); only the score of every labeling changes, to each
setting of this section's pipeline and rescore tables. "Never less accurate": every pair at
least its shipped accuracy (found / proved bound, as above). "Fewest moves": replacing, one pair at a time, the
shipped labeling by a climbed start at least as accurate (never the classes; greedy, up to
3 moves) until r >= 0.8. "Chosen by the score": the default with that score choosing among
its starts and reported as `msp_heldout_` (settings the pipeline can change). "total" is
undefined on 13 pairs; its row is over the other 32.

| score | r of the shipped labels | never less accurate: r found / bound | mean accuracy >= 0.96, no pair below 0.6: r found / bound | fewest moves to r >= 0.8 | chosen by the score: mean accuracy / below 0.6 / r |
|---|---|---|---|---|---|
| shipped (lam 0.2, diag, 2 parts, 3 repeats, prior 2) | 0.656 | 0.693 / 0.703 | 0.946 / 0.953 | none in 3 | 0.972 / 0 / 0.656 |
| lam 0.01 | 0.7997 | **0.865 / 0.874** | 0.968 / 0.976 | `7v9`: r 0.826 | 0.970 / 1 / 0.781 |
| lam 0.05 | 0.722 | 0.793 / 0.799 | 0.945 / 0.952 | none in 3 | 0.972 / 0 / 0.722 |
| lam 0.1 | 0.690 | 0.739 / 0.747 | 0.945 / 0.952 | none in 3 | 0.972 / 0 / 0.690 |
| lam 0.5 | 0.592 | 0.624 / 0.630 | 0.944 / 0.951 | none in 3 | 0.973 / 0 / 0.541 |
| lam 1 | 0.529 | 0.560 / 0.567 | 0.938 / 0.945 | none in 3 | 0.974 / 0 / 0.480 |
| identity | 0.595 | 0.626 / 0.631 | 0.954 / 0.960 | none in 3 | |
| total (32 pairs) | 0.547 | 0.687 / 0.697 | 0.907 / 0.913 | none in 3 | |
| 3 parts | 0.689 | 0.741 / 0.749 | 0.940 / 0.948 | none in 3 | 0.973 / 0 / 0.596 |
| 5 parts | 0.731 | 0.763 / 0.771 | 0.943 / 0.951 | none in 3 | 0.974 / 0 / 0.647 |
| 10 parts | 0.7990 | **0.829 / 0.835** | 0.940 / 0.948 | `7v9`: r 0.819 | 0.973 / 0 / 0.738 |
| 10 repeats | 0.646 | 0.715 / 0.724 | 0.946 / 0.952 | none in 3 | 0.973 / 0 / 0.608 |
| prior 0 | 0.598 | 0.645 / 0.651 | 0.947 / 0.954 | none in 3 | |
| prior 5 | 0.734 | 0.769 / 0.776 | 0.945 / 0.951 | none in 3 | |
| 5 parts, lam 0.05 | 0.7939 | **0.834 / 0.840** | 0.942 / 0.950 | `7v9`: r 0.816 | 0.974 / 0 / 0.705 |
| digits-half*, shipped | 0.816 | 0.912 / 0.918 | | none needed | |
| digits-half*, lam 0.05 | 0.824 | 0.902 / 0.908 | | none needed | |

- **A rule never less accurate than the default reaches r >= 0.8 on the digits pairs only
  when the score is the held-out MSP at lam 0.01, with 10 parts, or with 5 parts at lam
  0.05** (found 0.865, 0.829, 0.834; proved at most 0.874, 0.835, 0.840); at each of the
  other 12 settings the proved bound is below 0.8 (0.799 at lam 0.05 the largest). At those
  three the shipped labels themselves reach r = 0.7997, 0.7990, 0.7939, and one move gets
  past 0.8: on `7v9`, the labeling climbed from k-means on range-scaled features (accuracy
  0.961) instead of the shipped one (from standardised features, 0.905). Each of the three
  scores ranks that labeling lower (0.889 against 0.926 at lam 0.01), so choosing by the
  score does not make the move: the default choosing by these scores gives r = 0.781 (with
  `1v8` at 0.556, below 0.6), 0.738 and 0.705.
- **Seeds:** the shipped labels' r under these three scores moves with `random_state`
  (`--part seeds`, seeds 0-4): on the digits pairs 0.758-0.816 at lam 0.01, 0.792-0.816
  with 10 parts, 0.751-0.810 with 5 parts at lam 0.05 (shipped score 0.64-0.71); on the
  digits-half* pairs 0.732-0.814, 0.799-0.820, 0.795-0.824 (shipped score 0.77-0.84).
- Under the issue's constraints (mean accuracy >= 0.96, no pair below 0.6) the best choice
  found reaches 0.907-0.968 over the settings (bounds 0.913-0.976); at every setting that is
  above the never-less-accurate bound, so each of these choices is less accurate than the
  default on some pair. On the held-aside digits-half* pairs a rule never
  less accurate than the default reaches 0.912 (at most 0.918) scored as shipped and 0.902
  (at most 0.908) at lam 0.05, without the 0.6 floor as well (their shipped labels have
  `1v8/2` at 0.596, and r 0.816 / 0.824 as they are).
"""
