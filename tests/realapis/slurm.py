"""A Slurm cluster of one node on 127.0.0.1 for the `realapi` lane: munged, slurmctld, slurmd and
slurmrestd from Debian, each in the foreground under a directory of its own.

slurmrestd (a C server that writes its own OpenAPI 3.0 document) takes a JWT that slurmctld signs
(``scontrol token``) in ``X-SLURM-USER-TOKEN`` and the user's name in ``X-SLURM-USER-NAME``; it
refuses both for root, so the API is used as ``nobody``, and the jobs run as ``nobody`` too. The
directory is made under the system's temporary directory with its parts readable by all, because
slurmrestd drops to ``nobody`` before it reads the configuration and a job's files are written by
``nobody``; the keys stay in directories only root reads.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.realapis.servers import INSTALL_HINT, background, free_port

USER = "nobody"
DAEMONS = ("munged", "slurmctld", "slurmd", "slurmrestd", "scontrol")


@dataclass(frozen=True, slots=True)
class Cluster:
    home: Path  # readable by all; jobs write their output under home / "jobs"
    env: Mapping[str, str]  # SLURM_CONF, for scontrol and the daemons

    def token(self, lifespan: int = 3600) -> str:
        """A JWT for ``nobody``, signed by slurmctld."""
        answer = subprocess.run(
            ["scontrol", "token", f"username={USER}", f"lifespan={lifespan}"],
            env={**os.environ, **self.env},
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        )
        return answer.stdout.strip().removeprefix("SLURM_JWT=")


def _config(home: Path, host: str, ctl_port: int, node_port: int) -> str:
    return "\n".join(
        [
            "ClusterName=realapi",
            f"SlurmctldHost={host}(127.0.0.1)",
            f"SlurmctldPort={ctl_port}",
            f"SlurmdPort={node_port}",
            "AuthType=auth/munge",
            f"AuthInfo=socket={home / 'munge' / 'socket'}",
            "CredType=cred/munge",
            "AuthAltTypes=auth/jwt",
            f"AuthAltParameters=jwt_key={home / 'keys' / 'jwt.key'}",
            "SlurmUser=root",
            "SlurmdUser=root",
            f"StateSaveLocation={home / 'state'}",
            f"SlurmdSpoolDir={home / 'spool'}",
            f"SlurmctldPidFile={home / 'run' / 'slurmctld.pid'}",
            f"SlurmdPidFile={home / 'run' / 'slurmd.pid'}",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobCompType=jobcomp/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core",
            "MpiDefault=none",
            "ReturnToService=2",
            f"NodeName={host} NodeAddr=127.0.0.1 CPUs=1 RealMemory=500 State=UNKNOWN",
            f"PartitionName=debug Nodes={host} Default=YES MaxTime=60 State=UP",
            "",
        ]
    )


def _wait_for_node(env: Mapping[str, str], timeout: float = 60.0) -> None:
    """Until slurmd has registered and its node takes jobs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = subprocess.run(
            ["sinfo", "--noheader", "--format=%t"],
            check=False,
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            timeout=30,
        )
        if answer.stdout.strip() == "idle":
            return
        time.sleep(0.2)
    pytest.fail(f"the Slurm node was not idle within {timeout:.0f} s")


@contextlib.contextmanager
def cluster(log_dir: Path) -> Iterator[Cluster]:
    """A one-node cluster on free ports of 127.0.0.1, logs in ``log_dir``; the REST server is
    started by the caller (``rest_command``)."""
    missing = [daemon for daemon in DAEMONS if shutil.which(daemon) is None]
    if missing:
        pytest.fail(f"{', '.join(missing)} not installed: {INSTALL_HINT}")
    home = Path(tempfile.mkdtemp(prefix="realapi-slurm-"))
    try:
        home.chmod(0o755)
        for part, mode in (("munge", 0o700), ("keys", 0o700), ("state", 0o700), ("run", 0o755)):
            (home / part).mkdir(mode=mode)
        (home / "spool").mkdir(mode=0o755)
        (home / "jobs").mkdir()
        (home / "jobs").chmod(0o777)
        for key, size in (("munge.key", 1024), ("jwt.key", 32)):
            path = home / ("munge" if key == "munge.key" else "keys") / key
            path.write_bytes(os.urandom(size))
            path.chmod(0o400)
        host = socket.gethostname()
        conf = home / "slurm.conf"
        conf.write_text(_config(home, host, free_port(), free_port()))
        conf.chmod(0o644)
        env = {"SLURM_CONF": str(conf)}
        munge = home / "munge"
        munged = [
            "munged",
            *("--foreground", "--force", f"--socket={munge / 'socket'}"),
            f"--key-file={munge / 'munge.key'}",
            f"--pid-file={munge / 'munged.pid'}",
            f"--seed-file={munge / 'seed'}",
            f"--log-file={log_dir / 'munged-file.log'}",
        ]
        with (
            background("munged", munged, log_dir, env=env),
            background("slurmctld", ["slurmctld", "-D", "-i"], log_dir, env=env),
            background("slurmd", ["slurmd", "-D"], log_dir, env=env),
        ):
            _wait_for_node(env)
            yield Cluster(home, env)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def rest_command(port: int) -> list[str | Path]:
    """slurmrestd on 127.0.0.1:``port``, taking JWTs (it passes each on to slurmctld: the
    ``SLURM_JWT=daemon`` it runs with) and serving the v0.0.38 API of Debian's Slurm 22.05."""
    return [
        "slurmrestd",
        *("-a", "rest_auth/jwt", "-s", "openapi/v0.0.38", "-u", USER, "-g", "nogroup"),
        f"127.0.0.1:{port}",
    ]
