"""Schemathesis against the OpenAPI spec: random and malformed requests never get a 5xx.

Needs the `schemathesis` package (a dev dependency); skipped without it. Bounded: a few dozen
examples per operation, the event stream excluded (it never ends by design).
"""

from __future__ import annotations

import pytest
from web_helpers import HEADERS, PIN, replay, sim_deal

from device.store import EventStore
from device.web.app import create_app

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402

STORE = EventStore(":memory:")
replay(STORE, sim_deal(7, 1), upto=10, over=False)  # a deal in progress, so routes go deep
APP = create_app(STORE, referee_pin=PIN)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP).exclude(
    path="/api/events/stream")


@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_request_gets_a_server_error(case) -> None:
    for headers in (HEADERS, {}):
        response = case.call(headers=headers)
        assert response.status_code < 500, (case.method, case.path, response.text[:300])
