"""A Streamlit client that speaks the server's websocket protocol (``/_stcore/stream``)
without a browser, for the class benchmark (:mod:`bench.bench_class`) and the serving tests.

A :class:`Student` connects, asks for a page (``BackMsg.rerun_script`` with the page's
script hash, as the browser does on load), presses buttons (a widget's ``trigger_value``)
and moves select sliders (``string_array_value``, the option's label; where the slider is
read from the ``raw_value`` the server sends when a page sets it), each time waiting
for the end of the run it caused (``ForwardMsg.script_finished``); it records every widget
the server drew (the last ``Element`` for each widget id), the exceptions shown, the page
the server switched to, and the process that served it (``X-Lab-Upstream`` when a proxy
names it, see ``deploy/nginx.conf``).

Only ``websockets`` and Streamlit's own protobuf classes; nothing runs in a browser, so the
client's CPU stays small beside the server's.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import urlsplit

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

__all__ = ["RunResult", "Student"]

#: ``script_finished`` values that end a run (a run stopped early for a rerun does not).
_DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR}


@dataclass
class RunResult:
    """One interaction: seconds from sending it to the end of the run it caused, and the
    exceptions that run showed."""

    seconds: float
    exceptions: list[str] = field(default_factory=list)


class Student:
    """One browser tab of the lab, over the websocket protocol.

    ``url`` is the server's (or proxy's) ``http://host:port``. Use as ``async with
    Student(url) as s: await s.open("")``.
    """

    def __init__(self, url: str, *, cookie: str | None = None, timeout: float = 300.0) -> None:
        # ``cookie``: the sticky cookie's value a reload carries; None: a new browser, which
        # gets it from its first request (deploy/nginx.conf; a server alone sets none).
        self.url = url.rstrip("/")
        self.cookie = cookie
        self.ws_url = url.replace("http://", "ws://").rstrip("/") + "/_stcore/stream"
        self.timeout = timeout
        self.pages: dict[str, str] = {}  # url_pathname -> page_script_hash
        self.page_hash = ""
        self.query_string = ""
        self.widgets: dict[str, object] = {}  # widget id -> its element proto
        self._sent: dict[str, str] = {}  # select slider id -> the option this client chose
        self.session_id = ""
        self.upstream = ""
        self._ws = None

    async def __aenter__(self) -> Student:
        if self.cookie is None:
            self.cookie = await asyncio.wait_for(self._page_cookie(), self.timeout)
        headers = {"Cookie": f"lab_server={self.cookie}"} if self.cookie else {}
        self._ws = await websockets.connect(
            self.ws_url,
            subprotocols=["streamlit"],
            max_size=None,
            open_timeout=self.timeout,
            additional_headers=headers,
        )
        headers = self._ws.response.headers
        self.upstream = headers.get("X-Lab-Upstream", "")
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def _page_cookie(self) -> str:
        """Load the page as a browser's first request does (``GET /``); the ``lab_server``
        cookie its answer sets, or "" (a server without a proxy sets none)."""
        parts = urlsplit(self.url)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port or 80)
        try:
            writer.write(
                f"GET / HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n\r\n".encode()
            )
            await writer.drain()
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            await reader.read()  # the page itself, as a browser reads it
        finally:
            writer.close()
        jar = SimpleCookie()
        for line in head.split("\r\n")[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "set-cookie":
                jar.load(value.strip())
        return jar["lab_server"].value if "lab_server" in jar else ""

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
            self._ws = None

    # ------------------------------------------------------------------ actions
    async def open(self, pathname: str = "", query_string: str = "") -> RunResult:
        """Load the page at ``pathname`` (``""``: Home), as a browser does on a page load."""
        self.query_string = query_string
        page = self.pages.get(pathname, "") if self.pages else ""
        return await self._rerun(page_hash=page, page_name=pathname, widgets=[])

    async def click(self, key: str, *, wait: bool = True) -> RunResult | None:
        """Press the button drawn with ``key=key`` (and, with ``wait``, wait for the run's
        end)."""
        wid = self.widget_id(key)
        return await self._rerun(widgets=[("trigger_value", wid, True)], wait=wait)

    async def step_slider(self, key: str, steps: int = 1) -> RunResult:
        """Move the select slider drawn with ``key=key`` by ``steps`` options (back when
        it is at its end)."""
        wid = self.widget_id(key)
        options = list(self.widgets[wid].options)
        at = options.index(self.slider_value(key))
        to = at + steps if 0 <= at + steps < len(options) else at - steps
        self._sent[wid] = options[to]
        return await self._rerun(widgets=[("string_array_value", wid, [options[to]])])

    def slider_value(self, key: str) -> str:
        """The option (its label) the select slider drawn with ``key`` shows: the value the
        server set (``raw_value``, sent when the page seeds or resets it), else the one this
        client last chose, else the slider's default."""
        wid = self.widget_id(key)
        slider = self.widgets[wid]
        if slider.raw_value:
            return slider.raw_value[0]
        if wid in self._sent:
            return self._sent[wid]
        return slider.options[int(slider.value[0] if slider.value else slider.default[0])]

    async def clear_cache(self) -> None:
        """Send Streamlit's clear-cache message (the "Clear cache" menu item's)."""
        msg = BackMsg()
        msg.clear_cache = True
        await self._ws.send(msg.SerializeToString())

    def widget_id(self, key: str) -> str:
        """The id of the widget drawn with ``key`` in the last run."""
        for wid in self.widgets:
            if wid.endswith("-" + key):
                return wid
        raise KeyError(f"no widget with key {key!r} on this page ({len(self.widgets)} widgets)")

    # ------------------------------------------------------------------ protocol
    async def _rerun(
        self, *, page_hash=None, page_name="", widgets=(), wait: bool = True
    ) -> RunResult | None:
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query_string
        state.page_script_hash = self.page_hash if page_hash is None else page_hash
        state.page_name = page_name
        for kind, wid, value in widgets:
            ws = state.widget_states.widgets.add()
            ws.id = wid
            if kind == "string_array_value":
                ws.string_array_value.data[:] = value
            else:
                setattr(ws, kind, value)
        self.widgets = {}
        start = time.perf_counter()
        await self._ws.send(msg.SerializeToString())
        if not wait:
            return None
        exceptions = await asyncio.wait_for(self._until_finished(), self.timeout)
        return RunResult(time.perf_counter() - start, exceptions)

    async def _until_finished(self) -> list[str]:
        exceptions: list[str] = []
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await self._ws.recv())
            kind = fwd.WhichOneof("type")
            if kind == "new_session":
                ns = fwd.new_session
                self.session_id = ns.initialize.session_id or self.session_id
                self.page_hash = ns.page_script_hash
                self._record_pages(ns.app_pages)
                self.widgets = {}
            elif kind == "navigation":
                self._record_pages(fwd.navigation.app_pages)
                self.page_hash = fwd.navigation.page_script_hash or self.page_hash
            elif kind == "page_info_changed":
                self.query_string = fwd.page_info_changed.query_string
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                element = fwd.delta.new_element
                which = element.WhichOneof("type")
                if which == "exception":
                    exceptions.append(element.exception.message or element.exception.type)
                elif which is not None:
                    inner = getattr(element, which)
                    wid = getattr(inner, "id", "") if hasattr(inner, "id") else ""
                    if wid:
                        self.widgets[wid] = inner
                        if getattr(inner, "raw_value", None) and wid in self._sent:
                            del self._sent[wid]  # the server set it: its value now
            elif kind == "script_finished" and fwd.script_finished in _DONE:
                return exceptions

    def _record_pages(self, app_pages) -> None:
        for page in app_pages:
            self.pages[page.url_pathname] = page.page_script_hash
