"""An upload's bytes are released: when its session ends, when it is replaced, and a refused
file is never kept.

The server store (:mod:`ui.uploads`) holds an upload while a session uses it and drops it
``release_after()`` seconds after the last such session has ended; the session state keeps
only names and hashes. Memory itself (RSS) is measured by ``bench/bench_hostile_upload.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import open_app, upload_csv
from ui import uploads

pytest.importorskip("streamlit.testing.v1")

DATA_PAGE = "pages/1_Data.py"
AFTER = 30.0


def _entry(content: bytes) -> dict:
    return {"name": "f.csv", "content": content, "digest": str(len(content)), "choice": None}


def test_a_closed_sessions_upload_is_dropped_after_the_wait_and_not_before():
    store = uploads._Store()
    store.put("tokenAAAA", _entry(b"x" * 1000), holder="session-a")
    store.put("tokenBBBB", _entry(b"y" * 10), holder="session-b")
    store.release("session-a", now=100.0)
    assert store.purge(now=100.0 + AFTER - 1, after=AFTER) == 0
    assert "tokenAAAA" in store.files  # a reload within the wait still finds it
    assert store.purge(now=100.0 + AFTER, after=AFTER) == 1000
    assert "tokenAAAA" not in store.files and store.holders.keys() == {"tokenBBBB"}
    assert "tokenBBBB" in store.files  # another session's upload stays


def test_an_upload_stays_while_any_session_uses_it():
    store = uploads._Store()
    store.put("tokenAAAA", _entry(b"x" * 10), holder="owner")
    assert store.get("tokenAAAA", holder="reader") is not None  # opened from the link
    store.release("owner", now=0.0)
    assert store.purge(now=10 * AFTER, after=AFTER) == 0
    store.release("reader", now=10 * AFTER)
    assert store.purge(now=11 * AFTER, after=AFTER) == 10
    assert not store.files


def test_a_session_that_comes_back_holds_its_upload_again():
    store = uploads._Store()
    store.put("tokenAAAA", _entry(b"x" * 10), holder="first")
    store.release("first", now=0.0)
    store.hold("tokenAAAA", "resumed")  # a reconnect within the wait, or a reload
    assert store.purge(now=10 * AFTER, after=AFTER) == 0 and "tokenAAAA" in store.files


def test_uploads_in_use_are_never_dropped_to_make_room(monkeypatch):
    monkeypatch.setattr(uploads, "MAX_FILES", 2)
    store = uploads._Store()
    store.put("heldAAAAA", _entry(b"h"), holder="s")
    for i in range(4):
        store.put(f"freeAAAA{i}", _entry(b"f"), holder=None)
    assert list(store.files) == ["heldAAAAA", "freeAAAA2", "freeAAAA3"]


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_session_end_lets_go_of_its_uploads_at_once_and_purges_after_the_wait(monkeypatch):
    timers = []

    class Timer:
        def __init__(self, delay, function, args):
            self.delay, self.run, self.cancelled = delay, lambda: function(*args), False
            timers.append(self)

        def start(self):
            pass

        def cancel(self):
            self.cancelled = True

    clock = _Clock()
    housekeeping = uploads._Housekeeping(clock=clock)
    monkeypatch.setattr(uploads.threading, "Timer", Timer)
    monkeypatch.setattr(uploads, "release_after", lambda: AFTER)
    monkeypatch.setattr(uploads, "_housekeeping", housekeeping)
    store = uploads._Store()
    session = uploads._Session(store)
    store.put("tokenAAAA", _entry(b"x" * 10), holder=session.key)
    uploads._session_ended(session)
    assert store.unheld_since == {"tokenAAAA": 100.0}
    # One timer 2 s later (a garbage collection); it comes back once the wait has passed.
    assert [t.delay for t in timers] == [2.0]
    uploads._session_ended(uploads._Session(store))  # another session ends meanwhile
    assert len(timers) == 1
    clock.now = 102.0
    timers[0].run()
    assert "tokenAAAA" in store.files
    assert [t.delay for t in timers[1:]] == [AFTER - 2.0 + 0.5]
    clock.now = 100.0 + AFTER + 0.5
    timers[1].run()
    assert not store.files and len(timers) == 2


def test_the_housekeeping_runs_at_most_once_every_few_seconds(monkeypatch):
    started = []

    class Timer:
        def __init__(self, delay, function, args):
            started.append(delay)

        def start(self):
            pass

        def cancel(self):
            pass

    monkeypatch.setattr(uploads.threading, "Timer", Timer)
    clock = _Clock()
    housekeeping = uploads._Housekeeping(clock=clock)
    housekeeping.run(uploads._Store())  # just ran
    housekeeping.schedule(uploads._Store(), 2.0)
    assert started == [housekeeping.MIN_GAP]


def test_only_ended_sessions_that_had_an_upload_cause_a_collection(monkeypatch):
    timers, collections = [], []

    class Timer:
        def __init__(self, delay, function, args):
            self.run = lambda: function(*args)
            timers.append(self)

        def start(self):
            pass

        def cancel(self):
            pass

    clock = _Clock()
    housekeeping = uploads._Housekeeping(clock=clock)
    monkeypatch.setattr(uploads.threading, "Timer", Timer)
    monkeypatch.setattr(uploads, "_housekeeping", housekeeping)
    monkeypatch.setattr(uploads.gc, "collect", lambda: collections.append(clock.now))
    store = uploads._Store()
    uploads._session_ended(uploads._Session(store))  # browsed, never uploaded
    assert timers == []
    session, mark = uploads._Session(store), uploads.Mark()
    session.mark = uploads.weakref.ref(mark)
    uploads._session_ended(session)
    assert list(housekeeping.awaiting) == [mark] and len(timers) == 1
    clock.now = 102.0
    timers[0].run()
    assert collections == [102.0]  # Streamlit may have dropped it: collect
    del mark  # Streamlit freed the session, and with it its state
    assert not housekeeping.awaiting
    uploads._session_ended(uploads._Session(store))
    assert len(timers) == 1 and collections == [102.0]


def test_an_upload_is_kept_an_hour_after_its_last_session_and_never_less_than_streamlit():
    import streamlit as st

    ttl = float(st.get_option("server.disconnectedSessionTTL"))
    assert uploads.release_after() == max(uploads.KEEP_SECONDS, ttl) >= 3600.0
    # The link of a closed tab still works minutes later (issue 33 item 7: it died at 30 s).
    store = uploads._Store()
    store.put("tokenAAAA", _entry(b"x" * 10), holder="uploader")
    store.release("uploader", now=0.0)
    assert store.purge(now=600.0, after=uploads.release_after()) == 0
    assert store.get("tokenAAAA", holder="student") is not None


def _costly(cost: int) -> dict:
    return {**_entry(b"z"), "cost": cost}


def test_an_upload_over_the_budget_is_refused_and_nothing_held_is_lost(monkeypatch):
    monkeypatch.setattr(uploads, "BUDGET", 1000)
    store = uploads._Store()
    store.put("heldAAAAA", _costly(400), holder="a")
    store.put("heldBBBBB", _costly(400), holder="b")
    with pytest.raises(uploads.OverBudget, match=r"holds 0 MB .* needs 0 MB"):
        store.put("newCCCCCC", _costly(300), holder="c")
    assert list(store.files) == ["heldAAAAA", "heldBBBBB"]
    # Replacing one's own upload counts the new file instead of the old one.
    store.put("heldAAAAA", _costly(600), holder="a")
    assert store.size() == 1000


def test_uploads_no_session_uses_give_way_to_a_new_one(monkeypatch):
    monkeypatch.setattr(uploads, "BUDGET", 1000)
    store = uploads._Store()
    store.put("oldAAAAAA", _costly(500), holder="gone")
    store.put("olderBBBB", _costly(400), holder="gone2")
    store.release("gone", now=0.0)
    store.release("gone2", now=1.0)
    store.put("heldCCCCC", _costly(450), holder="c")
    assert list(store.files) == ["olderBBBB", "heldCCCCC"]  # the oldest unused went first
    assert store.size() <= 1000


def test_the_cost_of_an_upload_counts_its_parsed_cells():
    from datasets.upload import preview_csv

    data = b"a,b,c\n" + b"1,2,3\n" * 10
    cells = preview_csv(data).cells
    assert cells == 30
    assert uploads.upload_cost(len(data), cells) == len(data) + 8 * 30


# ---- through the Data page -----------------------------------------------------------------


def _table(seed: int) -> bytes:
    rng = np.random.default_rng(seed)
    rows = [f"{a:.3f},{b:.3f},{k}" for k in (0, 1) for a, b in rng.normal(3 * k, 1, (20, 2))]
    return ("a,b,label\n" + "\n".join(rows) + "\n").encode()


def _holding(content: bytes) -> list[str]:
    return [t for t, e in uploads._store().files.items() if e["content"] == content]


def test_a_replaced_upload_leaves_the_store_and_the_session():
    first, second = _table(10), _table(11)
    at = upload_csv(open_app(DATA_PAGE), "first.csv", first)
    assert _holding(first) == [at.session_state["dcl.upload_token"]]
    upload_csv(at, "second.csv", second)
    assert _holding(first) == []
    assert _holding(second) == [at.session_state["dcl.upload_token"]]
    assert "content" not in at.session_state["dcl.upload"]
    # Replaced by a refused file: the usable one goes too.
    upload_csv(at, "wide.csv", ",".join(["1"] * 50_000).encode())
    assert _holding(second) == [] and at.session_state["dcl.upload_token"] == ""


def test_the_page_holds_its_upload_for_its_session():
    content = _table(12)
    at = upload_csv(open_app(DATA_PAGE), "held.csv", content)
    token = at.session_state["dcl.upload_token"]
    store = uploads._store()
    assert store.holders.get(token)  # the page's session holds it
    assert token not in store.unheld_since


def test_a_full_server_refuses_a_new_upload_with_a_message_and_keeps_the_others(monkeypatch):
    store = uploads._Store()
    monkeypatch.setattr(uploads, "_store", lambda: store)
    first, second = _table(20), _table(21)
    cost = uploads.upload_cost(len(first), 41 * 3)  # 40 rows and the header, 3 columns
    monkeypatch.setattr(uploads, "BUDGET", cost + cost // 2)
    owner = upload_csv(open_app(DATA_PAGE), "first.csv", first)
    assert _holding(first) == [owner.session_state["dcl.upload_token"]]
    other = upload_csv(open_app(DATA_PAGE), "second.csv", second)
    shown = " ".join(str(e.value) for e in other.error) + " ".join(
        str(e.value) for e in other.markdown
    )
    assert "all uploads may take together" in shown and "Upload a smaller file" in shown
    assert not other.exception
    assert _holding(second) == [] and other.session_state["dcl.upload_token"] == ""
    assert _holding(first) == [owner.session_state["dcl.upload_token"]]  # nothing lost
    owner.run()
    assert owner.session_state["dcl.data"].name == "first.csv"
