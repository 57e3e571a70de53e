"""Input, round 3 (issue 48 item 8), through the CLI as a user runs it: compressed JSONL is
read, a corrupt file is one quarantine row while the rest of the directory builds, files no
format claims are listed, and a missing vLLM is one line before anything starts."""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

from arborwiki.jobs.cli import app
from arborwiki.storage.lance_store import LanceStore
from tests.processes import run_cli

run = CliRunner().invoke
NO_VLLM = pytest.mark.skipif(
    importlib.util.find_spec("vllm") is not None, reason="vllm is installed here"
)


def _rows(user: str, n: int) -> list[str]:
    return [
        json.dumps(
            {
                "user_id": user,
                "message_id": f"{user}-{i}",
                "turn_index": i,
                "timestamp": "2024-09-01T10:00:00Z",
                "speaker": user,
                "text": f"{user} adopted a parrot named Kiwi number {i}",
            }
        )  # fmt: skip
        for i in range(n)
    ]


@pytest.fixture(scope="module")
def mixed_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One good JSONL (3 rows), one .jsonl.gz (4), one .jsonl.zst (2), one corrupt Parquet,
    one truncated .jsonl.gz, and two files no format claims."""
    root = tmp_path_factory.mktemp("mixed") / "in"
    root.mkdir()
    (root / "good.jsonl").write_text("\n".join(_rows("plain", 3)) + "\n")
    packed = ("\n".join(_rows("gz", 4)) + "\n").encode()
    (root / "packed.jsonl.gz").write_bytes(gzip.compress(packed))
    with pa.CompressedOutputStream(str(root / "packed.jsonl.zst"), "zstd") as out:
        out.write(("\n".join(_rows("zst", 2)) + "\n").encode())
    (root / "corrupt.parquet").write_bytes(b"PAR1" + b"\x00not a parquet file\xff" * 50)
    cut = gzip.compress(("\n".join(_rows("cut", 50)) + "\n").encode())
    (root / "cut.jsonl.gz").write_bytes(cut[: len(cut) // 2])  # a download that stopped
    (root / "notes.txt").write_text("not an archive\n")
    (root / "table.csv").write_text("user_id,text\nx,y\n")
    return root


def test_a_directory_with_a_corrupt_file_builds_the_rest(
    ray_local: None, mixed_dir: Path, tmp_path: Path
) -> None:
    store = tmp_path / "store"
    args = ["build", "--input", str(mixed_dir), "--store", str(store), "--set", "ray.num_shards=1"]
    built = run(app, [*args, "--json"])
    assert built.exit_code == 0, built.output
    summary = json.loads(built.stdout.strip().splitlines()[-1])
    unreadable = {Path(p).name: why for p, why in summary["unreadable_files"].items()}
    assert set(unreadable) == {"corrupt.parquet", "cut.jsonl.gz"}, unreadable
    assert "cannot read Parquet" in unreadable["corrupt.parquet"]
    assert sorted(Path(p).name for p in summary["skipped_files"]) == ["notes.txt", "table.csv"]

    lance = LanceStore(store, follow_runs=True)
    stored = {u: len(lance.rows("messages", u)) for u in ("plain", "gz", "zst", "cut")}
    assert stored["plain"] == 3 and stored["gz"] == 4 and stored["zst"] == 2
    quarantine = lance.table("quarantine").search().limit(None).to_list()
    whole = {r["location"] for r in quarantine if r["location"].endswith("(whole file)")}
    assert whole == {"corrupt.parquet (whole file)", "cut.jsonl.gz (whole file)"}
    # counts in = counts out: every row read is stored or quarantined, the two files as one each
    assert summary["rows_read"] == 3 + 4 + 2 + stored["cut"] + len(quarantine)
    assert summary["quarantined"] == len(quarantine)

    again = run(app, args)  # the text summary names each file that was not built from
    assert again.exit_code == 0, again.output
    notes = [line for line in again.stderr.splitlines() if line.startswith(("unreadable", "skip"))]
    assert len(notes) == 4 and any("corrupt.parquet" in n and "quarantine" in n for n in notes)
    assert "skipped_files=2" in again.stdout and "unreadable_files=2" in again.stdout


@NO_VLLM
def test_a_missing_vllm_is_one_line_and_starts_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text("\n".join(_rows("u", 2)) + "\n")
    store = tmp_path / "store"
    result = run_cli(
        "build",
        "--input",
        str(tmp_path / "a.jsonl"),
        "--store",
        str(store),
        "--set",
        "extract.backend=vllm",
    )  # fmt: skip  (a process: no Ray may start)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: extract.backend=vllm needs the vllm package")
    assert not (store / "_work").exists() and "Ray" not in result.stdout + result.stderr


@NO_VLLM
def test_query_answer_without_vllm_is_one_line(tmp_path: Path) -> None:
    """Checked before the store is opened (no store here at all)."""
    result = run(app, ["query", "--local", "--answer", "--store", str(tmp_path), "--user",
                       "bob", "Which book?", "--set", "answer.backend=vllm"])  # fmt: skip
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: answer.backend=vllm needs the vllm package")
