"""Session state of the lab: one place for every key, its default, getter and setter.

What persists across pages (``st.session_state`` outlives a page change) and what goes into
the URL (``st.query_params``, so a link reproduces a demo):

==================  =========================  ============================================
state               getter / setter            URL parameter (example)
==================  =========================  ============================================
data set            get_data_choice / set_…    ``data=breast``, ``data=synthetic:afs_trap``
                                               with ``gen=n_samples=400;scale=1000``,
                                               ``norm=0`` (raw features)
algorithms          get_algorithms / set_…     ``algos=kmeans,mspc-mpm``
lam                 get_lam / set_lam          ``lam=0.01``
Lambda              get_regularizer / set_…    ``reg=diag``
per-method params   get_algorithm_params / …   ``ap=mspc-mpm.init=eig``
scaling factors     get_scaling_factors / …    ``scale=3:16,5:0.5`` (feature index: factor)
2-D view            get_view / set_view        ``view=pca``, ``view=features:0,2``
presenter mode      get_presenter / set_…      ``present=1`` (left out when off)
Theorem 5's ρ       get_rho / set_rho          ``rho=0.3`` (left out at 0.5)
the Lecture's step  get_lecture_step / set_…   ``step=3`` (only on the Lecture's pages)
uploaded file       get_upload / set_upload    ``upload=<token>`` (see below)
clusters k          get_n_clusters / set_…     ``k=3`` (left out for 2)
==================  =========================  ============================================

An uploaded file cannot be put in a URL: with an upload chosen, ``data`` is left out of the
URL. The file is kept in a server-side store (:mod:`ui.uploads`) under a random token that
goes into the URL, so a reload in the same browser finds it again while the lab runs; a
link opened elsewhere, or after a restart, falls back to the default data set with a
warning. Lasso constraints (must-link / cannot-link)
stay in the session only.

How pages use it::

    from ui import state
    state.init()                     # first call on every page (restores the URL once)
    current = state.get_current_data()
    ...                              # widgets seeded with state.seed(widget_key, value)
    state.sync_to_url()              # last call: write the state into the URL

Widgets keep their own keys (``st.session_state[widget_key]``), which Streamlit forgets when
a page stops drawing them; the persistent values live under ``dcl.*`` keys that no widget
owns. :func:`seed` copies a persistent value into a widget key before the widget is drawn,
and every setter drops the seeded widget keys so the widgets pick up the new value.
"""

from ..model import (
    GENERATOR_START,
    VIEWS,
    CurrentData,
    DataChoice,
    default_data_choice,
    default_normalize,
    fingerprint,
    lam_grid,
    snap_lam,
)
from ._data import (
    clear_data_error,
    forget_refused_upload,
    get_current_data,
    get_data_choice,
    get_dataset,
    get_upload,
    get_upload_file_id,
    get_upload_name,
    get_upload_refusal,
    set_data_choice,
    set_upload,
    user_chose_data,
)
from ._links import (
    UPLOAD_URL_KEY,
    give_link,
    init,
    open_link,
    record_url_value,
    set_url_value,
    sync_from_url,
    sync_to_url,
    upload_link_note,
    url_params,
    url_seed,
    url_value,
)
from ._session import (
    KEYS,
    N_CLUSTERS,
    SCALE_PRESET,
    add_constraints,
    approve_runs,
    approved_runs,
    bump_counter,
    clear_constraints,
    default_algorithms,
    enter_page,
    get,
    get_algorithm_params,
    get_algorithms,
    get_constraints,
    get_lam,
    get_lecture_step,
    get_n_clusters,
    get_presenter,
    get_regularizer,
    get_rho,
    get_scaling_factors,
    get_scaling_preset,
    get_view,
    keep_widget_in,
    lecture_step_here,
    propose_n_clusters,
    record,
    record_start,
    record_suggested_k,
    seed,
    seed_widget,
    set_algorithm_params,
    set_algorithms,
    set_lam,
    set_lecture_step,
    set_n_clusters,
    set_presenter,
    set_regularizer,
    set_rho,
    set_scaling_factors,
    set_scaling_preset,
    set_view,
    set_widget,
    suggested_k,
    widget_value,
)

__all__ = [
    "GENERATOR_START",
    "KEYS",
    "N_CLUSTERS",
    "SCALE_PRESET",
    "UPLOAD_URL_KEY",
    "VIEWS",
    "CurrentData",
    "DataChoice",
    "add_constraints",
    "approve_runs",
    "approved_runs",
    "bump_counter",
    "clear_constraints",
    "clear_data_error",
    "default_algorithms",
    "default_data_choice",
    "default_normalize",
    "enter_page",
    "fingerprint",
    "forget_refused_upload",
    "get",
    "get_algorithm_params",
    "get_algorithms",
    "get_constraints",
    "get_current_data",
    "get_data_choice",
    "get_dataset",
    "get_lam",
    "get_lecture_step",
    "get_n_clusters",
    "get_presenter",
    "get_regularizer",
    "get_rho",
    "get_scaling_factors",
    "get_scaling_preset",
    "get_upload",
    "get_upload_file_id",
    "get_upload_name",
    "get_upload_refusal",
    "get_view",
    "give_link",
    "init",
    "keep_widget_in",
    "lam_grid",
    "lecture_step_here",
    "open_link",
    "propose_n_clusters",
    "record",
    "record_start",
    "record_suggested_k",
    "record_url_value",
    "seed",
    "seed_widget",
    "set_algorithm_params",
    "set_algorithms",
    "set_data_choice",
    "set_lam",
    "set_lecture_step",
    "set_n_clusters",
    "set_presenter",
    "set_regularizer",
    "set_rho",
    "set_scaling_factors",
    "set_scaling_preset",
    "set_upload",
    "set_url_value",
    "set_view",
    "set_widget",
    "snap_lam",
    "suggested_k",
    "sync_from_url",
    "sync_to_url",
    "upload_link_note",
    "url_params",
    "url_seed",
    "url_value",
    "user_chose_data",
    "widget_value",
]
