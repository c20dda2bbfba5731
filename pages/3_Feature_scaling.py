"""Feature scaling page: rescale features and watch which methods change their answer.

Per-feature log sliders (largest-variance features first), the MSPC paper's random AFS,
before/after views and metrics per method, the MSPC start that makes the pipeline immune,
a live check of Theorem 1, and the paper's Fig. 1 sensitivity curve behind a button.
Widgets and layout only: fits go through :mod:`ui.cache` / :mod:`ui.analysis`, figures come
from :mod:`lab.plots`.
"""

from __future__ import annotations

import streamlit as st

import datasets
from clustering import ALGORITHMS
from clustering.mspc import INITS
from lab import plots
from lab.animation import DEFAULT_FACTORS, PRESETS
from lab.experiments import protocols
from ui import alerts, cache, downloads, lesson, presenter, shared, state, widgets
from ui import analysis as ua
from ui import demos as ui_demos
from ui import scaling as ui_scaling
from ui.state import KEYS
from ui.text import plain

st.set_page_config(page_title="Feature scaling · Discriminative Clustering Lab", layout="wide")
state.init()

#: Sliders shown before the "more features" selector.
TOP_FEATURES = 8
#: Of those, the sliders beside the lesson's figure (normally, and in presenter mode).
LESSON_FEATURES, LESSON_FEATURES_PRESENTER = 3, 2
#: Methods whose local search starts from ``init``.
STARTED = tuple(k for k in ("mspc-mpm", "mspc-gep") if k in ALGORITHMS)

with lesson.header(
    "Feature scaling",
    "Change a feature's units (seconds instead of minutes): which methods change their answer?",
):
    current = widgets.data_caption()
ds = current.dataset
X, y = ds.X, ds.y
d = ds.n_features
names = list(ds.feature_names)

# ---- sidebar: methods -------------------------------------------------------------------
with st.sidebar:
    st.header("Methods")
    keys = widgets.algorithm_multiselect(
        "fs.algorithms",
        help="The methods to fit before and after the rescaling, side by side. k-means next "
        "to MSPC shows the contrast the MSPC paper is about.",
    )
    lam = widgets.lam_slider("fs.lam")
    reg = widgets.regularizer_select("fs.regularizer")
    if STARTED:
        spec_params = state.get_algorithm_params(STARTED[0])
        state.seed("fs.init", KEYS.PARAMS, spec_params.get("init", "kmeans"))
        state.keep_widget_in("fs.init", INITS, "kmeans")
        init = st.radio(
            "Where MSPC's search starts",
            list(INITS),
            key="fs.init",
            format_func=ui_scaling.START_LABELS.get,
            help="MSPC (MPM) and MSPC (GEP) improve a starting labeling step by step. Every "
            "step is immune to rescaling a feature (with Λ = diag), so the whole pipeline is "
            "immune exactly when the start is. The paper starts from k-means on the raw "
            "features, which is not: try it, then switch to the standardised start and watch "
            "the 'after' column stand still.",
        )
        state.record_start(STARTED, init)
        if not any(k in keys for k in STARTED):
            st.caption("The start matters for MSPC (MPM) and MSPC (GEP); add one of them.")
    view = widgets.view_select(d, names, key="fs.view")

params = {k: state.get_algorithm_params(k) for k in keys}

# ---- the lesson: the factors beside the before/after figure -------------------------------
order = ua.feature_order(X)
factors = ui_scaling.snapped_factors(state.get_scaling_factors(d))
box = lesson.layout()
buttons = box.controls.columns([3, 2])
if buttons[0].button(
    "Random AFS",
    icon=":material/casino:",
    key="fs.random",
    help=ui_scaling.RANDOM_AFS_HELP,
    width="stretch",
):
    state.set_scaling_factors(
        ui_scaling.paper_random_scaling(state.bump_counter("fs.random_count"), d)
    )
    factors = state.get_scaling_factors(d)
if buttons[1].button(
    "×1",
    icon=":material/restart_alt:",
    key="fs.reset",
    help="Undo every rescaling (all ×1).",
    width="stretch",
):
    state.set_scaling_factors({})
    state.set_scaling_preset("")
    factors = ui_scaling.unit_factors(d)
usable = all(ui_scaling.preset_available(p, names) for p in ("break", "rescue"))
if usable:  # the AFS trap's story; elsewhere the "every feature" section says why not
    for column, preset, icon in zip(
        box.controls.columns(2),
        ("break", "rescue"),
        (":material/call_split:", ":material/healing:"),
        strict=True,
    ):
        if column.button(
            PRESETS[preset].label.split(" ")[0],
            icon=icon,
            key=f"fs.preset.{preset}",
            width="stretch",
            help=f"{PRESETS[preset].label}: the AFS trap's story ('noise' ×10 breaks k-means; "
            "'signal' ×10 as well rescues it). Sets the factors and prepares the animation.",
        ):
            state.set_scaling_factors(ui_demos.afs_preset_factors(preset, names))
            state.set_scaling_preset(preset)
            factors = state.get_scaling_factors(d)

in_lesson = LESSON_FEATURES_PRESENTER if presenter.enabled() else LESSON_FEATURES
shown = [int(j) for j in order[: min(TOP_FEATURES, d)]]
rest = st.expander(f"Every feature's factor ({d} features)")
if not usable:
    rest.caption(
        f"{PRESETS['break'].label} and {PRESETS['rescue'].label} are the AFS trap's story: "
        "they need its 'signal' and 'noise' features (Data → synthetic → afs_trap)."
    )
if d > TOP_FEATURES:
    others = [int(j) for j in order[TOP_FEATURES:]]
    state.set_widget(
        "fs.more",
        list(
            dict.fromkeys(
                [*state.widget_value("fs.more", []), *[j for j in others if factors[j] != 1.0]]
            )
        ),
    )
    more = rest.multiselect(
        f"More features (the {TOP_FEATURES} with the largest variance have sliders)",
        others,
        key="fs.more",
        format_func=lambda j: names[j],
        help="Add sliders for features with less variance. Features are listed by variance, "
        "largest first.",
    )
    shown += [int(j) for j in more]

per_row = presenter.per_row(4, most=3)
cols = rest.columns(per_row)
new_factors = factors.copy()
for i, j in enumerate(shown):
    wkey = f"fs.factor.{j}"
    state.seed(wkey, KEYS.SCALE, float(ua.snap_factor(factors[j])))
    state.keep_widget_in(wkey, ua.FACTOR_OPTIONS, ua.snap_factor)
    where = box.controls if i < in_lesson else cols[(i - in_lesson) % per_row]
    new_factors[j] = where.select_slider(
        plain(names[j]),
        options=ua.FACTOR_OPTIONS,
        key=wkey,
        format_func=lambda f: f"×{f:g}",
        help=f"Multiply '{plain(names[j])}' by this factor — as if it were measured in other "
        f"units (×60: minutes → seconds). Log scale from ×{ua.FACTOR_OPTIONS[0]:g} to "
        f"×{ua.FACTOR_OPTIONS[-1]:g}; ×1 leaves it alone.",
    )
factors = new_factors
state.record(KEYS.SCALE, {j: float(f) for j, f in enumerate(factors) if f != 1.0})
scaled = ui_scaling.is_scaled(factors)
rest.caption(f"Rescaling: {plain(datasets.scaling.describe(factors, names))}.")

# ---- 2. before and after ------------------------------------------------------------------
if not keys:
    box.figure.info("Choose at least one method in the sidebar.")
    ua.sync_to_url()
    st.stop()

X_after = datasets.scaling.apply(X, factors)
fp_after = ui_scaling.scaled_fingerprint(current.fingerprint, factors)
with st.spinner("Clustering…"):
    msp = {"msp_lam": lam, "msp_regularizer": reg}
    # Before and after share the auto-run time: each batch gets half.
    half = cache.AUTO_RUN_SECONDS / 2
    before = cache.fit_many(
        keys, params, current.fingerprint, X, y, **msp, progress=False, budget=half
    )
    after = cache.fit_many(keys, params, fp_after, X_after, y, **msp, progress=False, budget=half)


comparison = ui_scaling.comparison_table(before, after)
comparison_title = "Accuracy and MSP before and after the rescaling"
if presenter.enabled():  # the verdict gives the numbers; on the bars they would overlap
    comparison_fig = plots.scaling_comparison_figure(comparison, title=comparison_title)
    comparison_fig.update_traces(text=None)
else:  # what every student with these runs sees: built once per server
    comparison_fig = shared.figure(
        plots.scaling_comparison_figure, comparison, title=comparison_title
    )
if y is not None:
    lesson.chart(box, comparison_fig, key="fs.comparison")
box.verdict(ui_scaling.lesson_verdict(comparison, scaled), help=widgets.msp_note(lam, reg))

detail = st.expander("Before and after, per method: the table and each method's clusters")
with detail:
    # Before and after side by side (the changes are their differences): the two MSPs' columns
    # and the accuracy's fit the page at 1280 px.
    shown_cols = ["method", "accuracy_before", "accuracy_after"]
    if y is None:
        shown_cols = ["method"]
    shown_cols += [
        "msp_before",
        "msp_after",
        "msp_heldout_before",
        "msp_heldout_after",
        "changed",
    ]
    st.dataframe(
        comparison[shown_cols],
        hide_index=True,
        width="stretch",
        column_config=ui_scaling.comparison_columns(lam, reg),
    )
    st.caption(widgets.msp_note(lam, reg))
    st.caption(
        "Both panels draw the points where they are in the original units, so only the "
        "colouring (the clusters) can change; the 'after' hyperplane is mapped back to the "
        "original units."
    )
with detail:
    for rb, ra in zip(before, after, strict=True):
        st.markdown(f"**{rb.name}**")
        left, right = st.columns(2)
        for column, result, when, factor_vec in (
            (left, rb, "before", ui_scaling.unit_factors(d)),
            (right, ra, "after", factors),
        ):
            with column:
                if not alerts.show_result_problems(result):
                    continue
                w = ui_scaling.hyperplane_in_original_units(result.w, factor_vec)
                acc = result.metrics.get("accuracy")
                msp = result.metrics.get("msp")
                bits = [when]
                if acc is not None:
                    bits.append(f"accuracy {acc:.3f}")
                if msp is not None:
                    bits.append(f"MSP {msp:.3f}")
                fig, note = ui_scaling.scatter_figure(
                    view,
                    current.fingerprint,
                    w,
                    result.b,
                    result.labels,
                    " · ".join(bits),
                    X,
                    y,
                    ds.class_names,
                    names,
                )
                presenter.chart(fig, key=f"fs.scatter.{result.key}.{when}", width="stretch")
                if note:
                    st.caption(plain(note))
                if result.kernel:
                    st.caption(result.kernel)

# ---- 3. Play: one factor swept --------------------------------------------------------------
with st.expander("3 · Play: sweep one feature from ×0.001 to ×1000"):
    n_frames = len(DEFAULT_FACTORS)
    preset = state.get_scaling_preset()
    if preset and not ui_scaling.preset_available(preset, names):
        preset = ""
    if preset:
        state.set_widget("fs.anim.feature", names.index(PRESETS[preset].feature))
    state.keep_widget_in("fs.anim.feature", range(d), int(order[0]))
    a_cols = st.columns([2, 1])
    swept = a_cols[0].selectbox(
        "Feature to sweep",
        list(range(d)),
        key="fs.anim.feature",
        format_func=lambda j: names[j],
        help=f"Its factor runs over a log scale from ×0.001 to ×1000 ({n_frames} frames); the "
        "other features keep the factors set above. Every method is refitted on every frame.",
    )
    anim_methods = {ALGORITHMS[k].name: (k, params[k]) for k in keys}
    signature = ui_scaling.animation_signature(current.fingerprint, anim_methods, swept, factors)
    if a_cols[1].button(
        "Compute the animation",
        icon=":material/play_circle:",
        key="fs.anim.run",
        help=f"{len(anim_methods)} method(s) × {n_frames} frames = {n_frames * len(anim_methods)} "
        "fits, computed once and cached.",
    ):
        state.set_widget("fs.anim.request", signature)
    if preset:
        state.set_widget("fs.anim.request", signature)
        state.set_scaling_preset("")
        held = ", ".join(f"'{k}' ×{v:g}" for k, v in PRESETS[preset].fixed.items())
        st.caption(
            f"Preset “{PRESETS[preset].label}”: '{PRESETS[preset].feature}' is swept while "
            f"{held or 'the other feature stays at ×1'}."
        )
    if state.widget_value("fs.anim.request") == signature:
        with st.spinner("Sweeping the factor and refitting every frame…"):
            _, anim_fig, anim_caption = ui_scaling.animation(
                *signature[:4],
                ui_scaling.animation_axes(view, swept, order),
                tuple(names),
                X,
                y,
            )
        presenter.chart(anim_fig, key="fs.anim.figure", width="stretch")
        st.caption(
            "Press ▶ Play or drag the slider. Points stay in the original units; colours are "
            "each method's clusters and the dashed line its hyperplane at that factor."
        )
        st.caption("The numbers of the frames: " + plain(anim_caption))
    elif state.widget_value("fs.anim.request") is not None:
        st.info("The settings changed since the animation was computed — press the button again.")
    else:
        st.caption(
            "Press the button (or a preset above) to watch each method's clusters and hyperplane "
            "frame by frame, with its accuracy and MSP in the title."
        )

# ---- 4. Theorem 1 -----------------------------------------------------------------------
with st.expander("4 · Theorem 1, live: the MSP of a fixed labeling ignores the units"):
    choices = ui_scaling.two_cluster_labelings(y, before)
    if not choices:
        st.info("No two-cluster labeling to check: add a method that found two clusters.")
    else:
        which = st.selectbox(
            "Labeling to check",
            list(choices),
            key="fs.t1.labels",
            help="Theorem 1 is about a fixed labeling: we keep these labels, rescale the "
            "features with the sliders above, and compute the MSP again.",
        )
        with alerts.guard("The MSP could not be computed"):
            checks = ua.theorem1_table(
                current.fingerprint, tuple(float(f) for f in factors), lam, X, choices[which]
            )
            t_left, t_right = st.columns([3, 2])
            with t_left:
                presenter.chart(
                    shared.figure(plots.theorem1_figure, checks),
                    key="fs.t1.figure",
                    width="stretch",
                )
            with t_right:
                for row in checks.itertuples():
                    label = f"Λ = {row.regularizer}"
                    st.metric(
                        label,
                        f"{row.msp_after:.6f}",
                        # "change 0" without an arrow: an up arrow over +0.00e+00 says it rose
                        delta=ui_scaling.msp_change(row.msp_after - row.msp_before),
                        delta_color="off",
                        delta_arrow="off",
                        help=f"MSP before: {row.msp_before:.10f}; after: {row.msp_after:.10f}; "
                        f"relative change {row.relative_difference:.1e}.",
                    )
                st.caption(
                    "With Λ = diag(Σ) (the paper's) or Λ = Σ the MSP is exactly unchanged for any "
                    "rescaling — differences of 1e-12 are rounding. With Λ = I the regulariser "
                    "does not follow the units, so the MSP moves once λ > 0."
                )
        unscaled_caption = st.empty()  # kept on every run, as the notice in section 2
        if not scaled:
            unscaled_caption.caption(
                "All factors are ×1 right now, so there is nothing to change yet."
            )

# ---- 5. Fig. 1 ----------------------------------------------------------------------------
with st.expander("5 · Sensitivity to feature scaling (the MSPC paper's Fig. 1)"):
    st.markdown(
        "In each repetition one randomly chosen feature (a different one each time; every "
        "feature once when there are fewer than the repetitions) is multiplied by each factor and "
        "every method is refitted. The curve is the mean accuracy over the repetitions. It "
        "starts from the data as loaded: the sliders above are not applied here."
    )
    if y is None:
        st.info("These data have no class labels, so accuracy cannot be measured.")
    else:
        s_cols = st.columns(3)
        paper_factors = [2.0, 4.0, 8.0, 16.0]
        chosen_factors = s_cols[0].multiselect(
            "Factors",
            [0.01, 0.1, 0.5, *paper_factors, 100.0],
            default=paper_factors,
            key="fs.s.factors",
            format_func=lambda f: f"×{f:g}",
            help="The factors each chosen feature is multiplied by. The paper uses 2, 4, 8, 16; "
            "×1 (the original data) is always included.",
        )
        repeats = s_cols[1].slider(
            "Repetitions",
            1,
            10,
            value=min(10, d),
            key="fs.s.repeats",
            help="How many different features to rescale (the paper: 10, or every feature when "
            "there are fewer). More repetitions give a smoother average and take longer.",
        )
        compare_starts = s_cols[2].toggle(
            "Compare MSPC's two starts",
            value="mspc-mpm" in ALGORITHMS,
            key="fs.s.starts",
            disabled="mspc-mpm" not in ALGORITHMS,
            help="Add MSPC (MPM) from k-means on raw features (the paper's pipeline) and from "
            "k-means on standardised features (immune) as two separate curves.",
        )
        methods: dict[str, tuple[str, dict]] = {
            ALGORITHMS[k].name: (k, params[k])
            for k in keys
            if not (compare_starts and k in STARTED)
        }
        if compare_starts:
            base = {**state.get_algorithm_params("mspc-mpm")}
            methods["MSPC (MPM), paper start"] = ("mspc-mpm", {**base, "init": "kmeans"})
            methods["MSPC (MPM), standardised start"] = (
                "mspc-mpm",
                {**base, "init": "kmeans-standardized"},
            )
        factor_list = sorted({1.0, *map(float, chosen_factors)})
        n_rep = min(int(repeats), d)
        n_fits = len(methods) * (n_rep * (len(factor_list) - 1) + 1)
        st.caption(
            f"{len(methods)} method(s) × ({n_rep} features × {len(factor_list) - 1} factors + the "
            f"original data) = {n_fits} fits. Finished runs are cached."
        )
        signature = (
            current.fingerprint,
            tuple((name, k, tuple(sorted(p.items()))) for name, (k, p) in methods.items()),
            tuple(factor_list),
            n_rep,
        )
        run = st.button("Run the experiment", type="primary", key="fs.s.run", disabled=not methods)
        # Fixed slots: the progress bar, the controls and the chart keep their places whether the
        # experiment has run or not, so the click updates the chart already on the page.
        progress_slot, controls, figure_slot = st.empty(), st.container(), st.container()
        if run:
            with progress_slot.container(), alerts.guard("The experiment could not run"):
                result = ua.run_with_progress(
                    protocols.afs_sensitivity,
                    X,
                    y,
                    methods,
                    factors=factor_list,
                    n_repeats=n_rep,
                    random_state=0,
                    text="Rescaling and refitting…",
                )
                state.set_widget("fs.sensitivity", {"signature": signature, "result": result})
        stored = state.widget_value("fs.sensitivity")
        if stored is None or stored["signature"][0] != current.fingerprint:
            presenter.chart(
                shared.figure(
                    plots.sensitivity_figure,
                    None,
                    factors=factor_list,
                    message="Press “Run the experiment” to draw the curves.",
                ),
                where=figure_slot,
                key="fs.s.figure",
                width="stretch",
                slide=False,
            )
        else:
            if stored["signature"] != signature:
                controls.warning(
                    "The settings changed since this curve was computed — press Run again."
                )
            runs, summary = stored["result"]
            error_kind = controls.radio(
                "Error bars",
                ["sem", "std", "none"],
                horizontal=True,
                key="fs.s.error",
                format_func={
                    "sem": "standard error of the mean",
                    "std": "standard deviation",
                    "none": "none",
                }.get,
                help="Standard error: how precisely the mean is known. Standard deviation: how "
                "much single repetitions vary (which feature was scaled matters).",
            )
            fig = shared.figure(plots.sensitivity_figure, summary, error=error_kind)
            presenter.chart(fig, where=figure_slot, key="fs.s.figure", width="stretch")
            failed = runs[runs["error"] != ""]
            if not failed.empty:
                st.warning(
                    f"{len(failed)} run(s) failed and are left out of the means: "
                    + plain("; ".join(sorted(set(failed["method"] + ": " + failed["error"])))[:600])
                )
            if st.toggle("Every run", key="fs.s.every_run"):
                st.dataframe(runs, hide_index=True, width="stretch")
            d_cols = st.columns(3)
            downloads.download_figure(
                fig,
                "afs-sensitivity",
                key="fs.s.download",
                label="Sensitivity figure (HTML)",
                container=d_cols[0],
            )
            downloads.download_table(
                runs,
                "afs-sensitivity-runs.csv",
                key="fs.s.csv",
                help="One row per method, factor and repetition: which feature was scaled, the "
                "accuracy and the MSP.",
                container=d_cols[1],
            )

with st.expander("Downloads"):
    dl = st.columns(3)
    downloads.download_figure(
        comparison_fig,
        "before-after",
        key="fs.download.fig",
        label="Before/after figure (HTML)",
        container=dl[0],
    )
    downloads.download_labels(ds, after, key="fs.download.labels", container=dl[1])
    downloads.download_config(
        "fs.download.config",
        extra={"scaling_factors_vector": [float(f) for f in factors]},
        container=dl[2],
    )
ua.sync_to_url()
