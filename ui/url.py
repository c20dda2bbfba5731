"""The link codec: the lab's state to query parameters and back, with a validated decoder.

=========  =============================================  ===================================
key        value                                          checked against
=========  =============================================  ===================================
``data``   ``breast``, ``digits:3v8``,                    :func:`datasets.list_datasets`,
           ``synthetic:afs_trap``                         ``datasets.synthetic.GENERATORS``
``gen``    ``n_samples=400;scale=1000``                   the generator's ``Param`` ranges
``norm``   ``1`` / ``0``                                  a boolean
``algos``  ``kmeans,mspc-mpm``                            ``clustering.ALGORITHMS``
``lam``    ``0.01``                                       ``clustering._lam.LAM_RANGE``
``reg``    ``diag``                                       ``clustering._moments.REGULARIZERS``
``ap``     ``mspc-mpm.init=eig;kmeans.n_init=10``         each method's ``Param`` range/choices
``scale``  ``3:16,5:0.5`` (feature index: factor)         :data:`ui.model.FACTOR_OPTIONS` range
``view``   ``pca``, ``discriminant``, ``features:0,2``    :data:`ui.model.VIEWS`
``k``      ``3`` (number of clusters; left out for 2)      :data:`N_CLUSTERS_RANGE`
=========  =============================================  ===================================

Presenter mode is ``present=1`` (a boolean; left out when off).

:func:`decode` never raises: a value it cannot use is left out (the state keeps its default)
and a warning names the key, what it got and what it accepts. :func:`encode` is its inverse
(``decode(encode(...))`` gives the same state). No Streamlit here: :mod:`ui.state` reads
``st.query_params`` and applies the decoded values through its setters.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import datasets
from clustering import ALGORITHMS
from clustering._moments import REGULARIZERS
from datasets.synthetic import GENERATORS

from .model import (
    FACTOR_OPTIONS,
    LAM_PARAM,
    LECTURE_STEP_PARAM,
    N_CLUSTERS_PARAM,
    N_CLUSTERS_RANGE,
    RHO_PARAM,
    VIEWS,
    DataChoice,
    default_normalize,
    snap_lam,
    snap_rho,
)

__all__ = [
    "N_CLUSTERS_RANGE",
    "Decoded",
    "decode",
    "decode_choice",
    "decode_param",
    "encode",
    "encode_value",
    "repeated_keys",
]

#: Largest feature index a link may name (a data set of the lab has far fewer features).
MAX_FEATURE_INDEX = 100_000
#: Longest value a link may hold (characters): longer ones are refused by the decoder and
#: left out by the encoder, so a link stays far below what browsers and servers accept
#: (Streamlit answers HTTP 400 from about 128 KB).
MAX_VALUE_CHARS = 4_000
_SHOWN = 60  # characters of a bad value quoted in a warning


def encode_value(v: Any) -> str:
    """A parameter value as link text (``True`` -> ``"1"``, floats in ``%g``)."""
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _quote(text: Any) -> str:
    text = str(text)
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "…")


def _fmt(v: float) -> str:
    return f"{v:g}"


def accepted(param: Any) -> str:
    """What a ``Param`` accepts, in words (for warnings; numbers in ``Param.range_text``'s)."""
    if param.kind == "bool":
        return "1 or 0"
    if param.kind == "choice":
        return "one of " + ", ".join(map(str, param.choices))
    kind = "an integer" if param.kind == "int" else "a number"
    return f"{kind} {param.range_text()}"


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _parse_bool(text: str) -> bool:
    t = text.strip().lower()
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    raise ValueError


def _ascii_number(text: str) -> str:
    """``text`` stripped, refused unless written in ASCII (``float`` and ``int`` also read
    other scripts' digits: ``int("٣")`` is 3)."""
    text = text.strip()
    if not text.isascii():
        raise ValueError
    return text


def _parse_number(text: str) -> float:
    v = float(_ascii_number(text))
    if not math.isfinite(v):
        raise ValueError
    return v


def decode_param(param: Any, text: str) -> Any:
    """Parse ``text`` as a value of ``param`` (a ``clustering._spec.Param``).

    Raises ``ValueError`` (with the accepted range in the message) when ``text`` is not a
    value of the parameter's kind inside its declared range or choices.
    """
    try:
        if param.kind == "bool":
            return param.check(_parse_bool(text))
        if param.kind == "choice":
            by_text = {str(choice): choice for choice in param.choices}
            return param.check(by_text.get(text.strip(), text))
        return param.check(_parse_number(text))
    except (ValueError, TypeError, OverflowError):
        raise ValueError(f"got {_quote(text)}; accepted: {accepted(param)}") from None


@dataclass
class Decoded:
    """What a link asks for. ``None`` (or an empty mapping) means "keep the default"."""

    data: DataChoice | None = None
    algorithms: list[str] | None = None
    lam: float | None = None
    regularizer: str | None = None
    params: dict[str, dict[str, Any]] = field(default_factory=dict)
    scale: dict[int, float] | None = None
    view: str | None = None
    presenter: bool | None = None
    n_clusters: int | None = None
    rho: float | None = None
    lecture_step: int | None = None
    warnings: list[str] = field(default_factory=list)


def _warn(out: Decoded, key: str, message: str) -> None:
    out.warnings.append(f"Ignored the link's `{key}`: {message}.")


def _bundled_name(name: str) -> str | None:
    key = name.strip().lower()
    # The multi-class data sets are bundled too, but not in "all" (binary tasks).
    for known in [*datasets.list_datasets(), *datasets.list_datasets("multiclass")]:
        if known.lower() == key:
            return known
    return None


def _decode_data(params: Mapping[str, str], out: Decoded) -> None:
    data = params.get("data")
    normalize = True
    if data and data.startswith("synthetic:"):
        normalize = default_normalize("synthetic", data.split(":", 1)[1])
    if params.get("norm") is not None:
        try:
            normalize = _parse_bool(params["norm"])
        except ValueError:
            kept = int(normalize)
            _warn(out, "norm", f"got {_quote(params['norm'])}; accepted: 1 or 0 (kept {kept})")
    if not data:
        if params.get("gen"):
            _warn(out, "gen", "it needs data=synthetic:<generator>")
        return
    if data.startswith("synthetic:"):
        key = data.split(":", 1)[1]
        if key not in GENERATORS:
            _warn(
                out,
                "data",
                f"there is no synthetic generator {_quote(key)}; accepted: "
                f"{', '.join(GENERATORS)} (kept the default data set)",
            )
            return
        spec = {p.name: p for p in GENERATORS[key].params}
        gen: dict[str, Any] = {}
        for item in filter(None, params.get("gen", "").split(";")):
            name, _, value = item.partition("=")
            if name not in spec:
                _warn(
                    out,
                    "gen",
                    f"{key} has no parameter {_quote(name)}; accepted: {', '.join(spec)}",
                )
                continue
            try:
                gen[name] = decode_param(spec[name], value)
            except ValueError as err:
                _warn(out, "gen", f"{name}: {err} (kept {encode_value(spec[name].default)})")
        out.data = DataChoice.make("synthetic", key, gen, normalize)
        return
    if params.get("gen"):
        _warn(out, "gen", "it applies only to data=synthetic:<generator>")
    name = _bundled_name(data)
    if name is None:
        _warn(
            out,
            "data",
            f"there is no bundled data set {_quote(data)}; accepted: "
            f"{', '.join(datasets.list_datasets('tasks'))}, a pair task like 'digits:3v8' or "
            f"synthetic:<{'|'.join(GENERATORS)}> (kept {datasets.DEFAULT_DATASET})",
        )
        return
    out.data = DataChoice.make("bundled", name, None, normalize)


def _decode_algorithms(text: str, out: Decoded) -> None:
    keys = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in keys if k not in ALGORITHMS]
    if unknown:
        _warn(
            out,
            "algos",
            f"no method {', '.join(map(_quote, unknown))}; accepted: {', '.join(ALGORITHMS)}",
        )
    out.algorithms = [k for k in dict.fromkeys(keys) if k in ALGORITHMS]


def _decode_lam(text: str, out: Decoded) -> None:
    try:
        v = decode_param(LAM_PARAM, text)
    except ValueError as err:
        _warn(out, "lam", str(err))
        return
    out.lam = snap_lam(v)


def _decode_algorithm_params(text: str, out: Decoded) -> None:
    for item in filter(None, text.split(";")):
        target, _, value = item.partition("=")
        key, _, name = target.rpartition(".")
        if key not in ALGORITHMS:
            _warn(out, "ap", f"no method {_quote(key)}; accepted: {', '.join(ALGORITHMS)}")
            continue
        spec = {p.name: p for p in ALGORITHMS[key].params}
        if name not in spec:
            _warn(
                out,
                "ap",
                f"{key} has no parameter {_quote(name)}; accepted: {', '.join(spec) or 'none'}",
            )
            continue
        try:
            out.params.setdefault(key, {})[name] = decode_param(spec[name], value)
        except ValueError as err:
            _warn(out, "ap", f"{key}.{name}: {err} (kept {encode_value(spec[name].default)})")


def _decode_scale(text: str, out: Decoded) -> None:
    low, high = FACTOR_OPTIONS[0], FACTOR_OPTIONS[-1]
    table: dict[int, float] = {}
    for item in filter(None, text.split(",")):
        j, _, f = item.partition(":")
        try:
            index = int(_ascii_number(j))
            if not 0 <= index < MAX_FEATURE_INDEX:
                raise ValueError
            factor = _parse_number(f)
            if not low <= factor <= high:
                raise ValueError
        except (ValueError, OverflowError):
            _warn(
                out,
                "scale",
                f"got {_quote(item)}; accepted: feature index:factor with an index from 0 and "
                f"a factor from {_fmt(low)} to {_fmt(high)}, like 3:16",
            )
            continue
        table[index] = factor
    out.scale = table


def _decode_view(text: str, out: Decoded) -> None:
    kind, _, rest = text.partition(":")
    ok = kind in VIEWS and (kind == "features") == bool(rest)
    if ok and kind == "features":
        parts = rest.split(",")
        ok = len(parts) == 2 and all(
            p.strip().isascii() and p.strip().isdigit() and int(p) < MAX_FEATURE_INDEX
            for p in parts
        )
    if not ok:
        _warn(
            out,
            "view",
            f"got {_quote(text)}; accepted: pca, discriminant or features:i,j (two feature "
            "indices)",
        )
        return
    out.view = text if kind == "features" else kind


def decode(params: Mapping[str, str], repeated: Iterable[str] = ()) -> Decoded:
    """Parse the query parameters of a link; never raises.

    Every key is read on its own; a value outside the declared range or choices is left out
    and ``warnings`` says which key, what it got and what it accepts. A key the link gives
    more than once (``repeated``) or a value longer than :data:`MAX_VALUE_CHARS` is left
    out the same way.
    """
    out = Decoded()
    params = dict(params)
    for key in sorted(set(repeated)):
        if key in params:
            _warn(out, key, "the link gives it more than once, so which one is meant is unclear")
            params.pop(key)
    for key, value in list(params.items()):
        if value is not None and len(str(value)) > MAX_VALUE_CHARS:
            _warn(
                out,
                key,
                f"it is {len(str(value)):,} characters long; a link's value holds at most "
                f"{MAX_VALUE_CHARS:,}",
            )
            params.pop(key)
    steps = [
        ("data", lambda: _decode_data(params, out)),
        ("algos", lambda: _decode_algorithms(params["algos"], out)),
        ("lam", lambda: _decode_lam(params["lam"], out)),
        ("reg", lambda: _decode_reg(params["reg"], out)),
        ("ap", lambda: _decode_algorithm_params(params["ap"], out)),
        ("scale", lambda: _decode_scale(params["scale"], out)),
        ("view", lambda: _decode_view(params["view"], out)),
        ("present", lambda: _decode_presenter(params["present"], out)),
        ("k", lambda: _decode_n_clusters(params["k"], out)),
        ("rho", lambda: _decode_rho(params["rho"], out)),
        ("step", lambda: _decode_lecture_step(params["step"], out)),
    ]
    for key, step in steps:
        if key != "data" and params.get(key) is None:
            continue
        try:
            step()
        except Exception as err:  # a link must never break a page
            _warn(out, key, f"could not read it ({type(err).__name__})")
    return out


# ---- presenter mode -----------------------------------------------------------


def _decode_presenter(text: str, out: Decoded) -> None:
    try:
        out.presenter = _parse_bool(text)
    except ValueError:
        _warn(out, "present", f"got {_quote(text)}; accepted: 1 or 0 (kept 0)")


def _decode_reg(text: str, out: Decoded) -> None:
    if text not in REGULARIZERS:
        _warn(out, "reg", f"got {_quote(text)}; accepted: {', '.join(REGULARIZERS)}")
        return
    out.regularizer = text


def repeated_keys(pairs: Iterable[tuple[str, str]]) -> set[str]:
    """The keys that appear more than once among a query's ``(key, value)`` pairs."""
    seen: set[str] = set()
    twice: set[str] = set()
    for key, _ in pairs:
        (twice if key in seen else seen).add(key)
    return twice


def decode_choice(
    name: str, text: str | None, default: str, allowed: Sequence[str] | None = None
) -> tuple[str, str | None]:
    """A page's own parameter: ``(value, warning)``; ``default`` when ``text`` is missing
    or not in ``allowed`` (then ``warning`` names the key and the accepted values)."""
    if text is None:
        return default, None
    if allowed is not None and text not in allowed:
        shown = ", ".join(map(str, allowed)) if len(allowed) <= 12 else f"{len(allowed)} names"
        return default, (
            f"Ignored the link's `{name}`: got {_quote(text)}; accepted: {shown} (kept {default})."
        )
    return text, None


def encode(
    choice: DataChoice,
    algorithms: Iterable[str],
    lam: float,
    regularizer: str,
    params: Mapping[str, Mapping[str, Any]],
    scale: Mapping[int, float],
    view: str,
    presenter: bool = False,
    n_clusters: int = 2,
    rho: float = RHO_PARAM.default,
    lecture_step: int = 0,
) -> dict[str, str]:
    """The query parameters of a state (the inverse of :func:`decode`)."""
    out: dict[str, str] = {}
    if choice.kind == "bundled":
        out["data"] = choice.name
    elif choice.kind == "synthetic":
        out["data"] = f"synthetic:{choice.name}"
        if choice.params:
            out["gen"] = ";".join(f"{k}={encode_value(v)}" for k, v in choice.params)
    if choice.kind != "upload":
        out["norm"] = "1" if choice.normalize else "0"
    out["algos"] = ",".join(algorithms)
    out["lam"] = encode_value(float(lam))
    out["reg"] = regularizer
    ap = []
    for key, values in sorted(params.items()):
        ap.extend(f"{key}.{k}={encode_value(v)}" for k, v in sorted(values.items()))
    if ap:
        out["ap"] = ";".join(ap)
    if scale:
        out["scale"] = ",".join(f"{j}:{encode_value(f)}" for j, f in sorted(scale.items()))
    out["view"] = view
    if presenter:
        out["present"] = "1"
    if int(n_clusters) != 2:
        out["k"] = str(int(n_clusters))
    if snap_rho(rho) != RHO_PARAM.default:
        out["rho"] = encode_value(snap_rho(rho))
    if lecture_step:
        out["step"] = str(int(lecture_step))
    # A value too long for a link is left out (the decoder would refuse it).
    return {k: v for k, v in out.items() if len(v) <= MAX_VALUE_CHARS}


# ---- number of clusters ---------------------------------------------------------


def _decode_n_clusters(text: str, out: Decoded) -> None:
    try:
        out.n_clusters = decode_param(N_CLUSTERS_PARAM, text)
    except ValueError as err:
        _warn(out, "k", f"{err} (kept 2)")


# ---- Theorem 5's ρ and the Lecture's step ----------------------------------------


def _decode_rho(text: str, out: Decoded) -> None:
    try:
        out.rho = snap_rho(decode_param(RHO_PARAM, text))
    except ValueError as err:
        _warn(out, "rho", f"{err} (kept {encode_value(RHO_PARAM.default)})")


def _decode_lecture_step(text: str, out: Decoded) -> None:
    try:
        out.lecture_step = decode_param(LECTURE_STEP_PARAM, text)
    except ValueError as err:
        _warn(out, "step", f"{err} (the Lecture starts at step 1)")
