"""Local paths and object-store URIs behind one small set of calls.

Every path a build touches (archive input, staging under `STORE/_work`, the extraction
cache, the Lance store) may be a local path or a URI such as `s3://bucket/prefix`,
`gs://…` or `az://…`. Files go through `pyarrow.fs` (`FileSystem.from_uri`), Lance through
its own object-store support (`lance_storage_options`). No `Path` arithmetic and no `os`
call ever sees a URI: callers join, list, read and write through this module.

Credentials and the endpoint come from the environment, as the libraries read them
(`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION`,
`AWS_ENDPOINT_URL` for S3-compatible stores; `GOOGLE_APPLICATION_CREDENTIALS`;
`AZURE_STORAGE_ACCOUNT_NAME` / `AZURE_STORAGE_ACCOUNT_KEY`), never from config files.

Completion never relies on an atomic rename (S3 has none): a writer puts its data objects
first and its marker object last (`write_bytes`, one whole-object PUT, which object stores
make visible all at once or not at all); a reader trusts data only once the marker exists.
On a local disk `write_bytes` still writes a temporary file and renames it into place.
"""

from __future__ import annotations

import contextlib
import fnmatch
import io
import os
import threading
import uuid
from collections.abc import Iterable
from functools import cache
from typing import IO
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.fs as pafs
import pyarrow.parquet as pq

GLOB_CHARS = frozenset("*?[")
ENDPOINT_ENV = ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_ENDPOINT")
"""Where an S3-compatible endpoint is named (pyarrow reads AWS_ENDPOINT_URL itself)."""
STORE_ENV_PREFIXES = ("AWS_", "GOOGLE_", "GCS_", "AZURE_")
"""Environment variables that configure object-store access (forwarded to Ray workers)."""

IO_BUFFER_BYTES = 1 << 20
"""Read-ahead for streamed object-store input (one request per MiB, not per line)."""

_lock = threading.Lock()


def is_uri(path: str) -> bool:
    """`s3://b/k`, `gs://…`, `az://…` (any scheme but file://); a local path is not."""
    scheme = urlsplit(str(path)).scheme
    return "://" in str(path) and len(scheme) > 1 and scheme != "file"


def _local(path: str) -> str:
    text = str(path)
    return text.removeprefix("file://") if text.startswith("file://") else text


@cache
def _filesystem(scheme: str, netloc: str, settings: tuple[tuple[str, str], ...]) -> pafs.FileSystem:
    """One filesystem per bucket and object-store settings (the environment's, which pyarrow
    reads itself: a changed endpoint or key gets a new filesystem, not a stale one)."""
    with _lock:
        fs, _ = pafs.FileSystem.from_uri(f"{scheme}://{netloc}/")
    return fs


def resolve(path: str) -> tuple[pafs.FileSystem, str]:
    """(filesystem, path inside it): the pair every pyarrow call takes."""
    if is_uri(path):
        parts = urlsplit(str(path))
        settings = tuple(sorted(object_store_env().items()))
        fs = _filesystem(parts.scheme, parts.netloc, settings)
        return fs, f"{parts.netloc}{parts.path}".rstrip("/")
    return pafs.LocalFileSystem(), os.path.abspath(_local(path))


def join(base: str, *parts: str) -> str:
    """`base/part/...`: `/` between URI parts, the OS separator for local paths."""
    if is_uri(base):
        return "/".join([str(base).rstrip("/"), *(p.strip("/") for p in parts if p)])
    return os.path.join(_local(base), *parts)


def name(path: str) -> str:
    """The last component: `s3://b/x/a.jsonl` → `a.jsonl`."""
    return str(path).rstrip("/").rsplit("/", 1)[-1] if is_uri(path) else os.path.basename(path)


def suffix(path: str) -> str:
    """`.jsonl` for `…/a.jsonl`, '' without one (as `Path.suffix`)."""
    base = name(path)
    dot = base.rfind(".")
    return base[dot:] if 0 < dot < len(base) - 1 else ""


COMPRESSIONS = {".gz": "gzip", ".zst": "zstd"}
"""Compressed archives read as a stream (pyarrow's codecs): `.jsonl.gz`, `.jsonl.zst`."""


def compression(path: str) -> str | None:
    """The codec a file's last suffix names (`gzip` for `a.jsonl.gz`), else None."""
    return COMPRESSIONS.get(suffix(path).lower())


def archive_suffix(path: str) -> str:
    """The suffix that says a file's format: `.jsonl.gz` for a compressed one, else `suffix`."""
    last = suffix(path)
    if compression(path) is None:
        return last
    base = name(path)[: -len(last)]
    dot = base.rfind(".")
    return (base[dot:] if 0 < dot < len(base) - 1 else "") + last


def stem(path: str) -> str:
    base = name(path)
    return base[: len(base) - len(suffix(path))]


def canonical(path: str) -> str:
    """The identity of an input: a URI as given (no trailing slash), a resolved local path."""
    if is_uri(path):
        return str(path).rstrip("/")
    return os.path.realpath(_local(path))


def _info(path: str) -> pafs.FileInfo:
    fs, inner = resolve(path)
    return fs.get_file_info(inner)


def size_and_mtime(path: str) -> tuple[int, int]:
    """(bytes, modification time in ns) of one file: a local `stat`, an object's HEAD."""
    info = _info(path)
    if info.type != pafs.FileType.File:
        raise FileNotFoundError(path)
    return int(info.size or 0), int(info.mtime_ns or 0)


def exists(path: str) -> bool:
    return _info(path).type != pafs.FileType.NotFound


def is_file(path: str) -> bool:
    return _info(path).type == pafs.FileType.File


def is_dir(path: str) -> bool:
    """A directory, or on an object store a prefix that holds at least one object."""
    info = _info(path)
    if info.type == pafs.FileType.Directory:
        return True
    if info.type != pafs.FileType.NotFound or not is_uri(path):
        return False
    return bool(list_files(path, recursive=True))


def _child(base: str, inner_base: str, inner: str) -> str:
    """A listed inner path back in the caller's spelling (URI or local)."""
    if is_uri(base):
        parts = urlsplit(str(base))
        return f"{parts.scheme}://{inner}"
    return os.path.join(_local(base), os.path.relpath(inner, inner_base))


def list_files(path: str, recursive: bool = True, pattern: str = "*") -> list[str]:
    """Files under `path` whose name matches `pattern`, sorted; [] when `path` is absent."""
    fs, inner = resolve(path)
    selector = pafs.FileSelector(inner, recursive=recursive, allow_not_found=True)
    found = [
        _child(path, inner, info.path)
        for info in fs.get_file_info(selector)
        if info.type == pafs.FileType.File and fnmatch.fnmatchcase(name(info.path), pattern)
    ]
    return sorted(found)


def list_dirs(path: str) -> list[str]:
    """Immediate sub-directories (object stores: common prefixes) of `path`, sorted."""
    fs, inner = resolve(path)
    selector = pafs.FileSelector(inner, recursive=False, allow_not_found=True)
    infos = fs.get_file_info(selector)
    return sorted(_child(path, inner, i.path) for i in infos if i.type == pafs.FileType.Directory)


def glob(pattern: str) -> list[str]:
    """Files matching a glob (`**` crosses directories), local or on an object store."""
    if not is_uri(pattern):
        import glob as local_glob

        return sorted(p for p in local_glob.glob(pattern, recursive=True) if os.path.isfile(p))
    cut = min(pattern.index(c) for c in GLOB_CHARS if c in pattern)
    root = pattern[:cut].rsplit("/", 1)[0]
    wanted = pattern.replace("**/", "*").replace("**", "*")
    return [f for f in list_files(root, recursive=True) if fnmatch.fnmatchcase(f, wanted)]


def read_bytes(path: str) -> bytes:
    fs, inner = resolve(path)
    with fs.open_input_stream(inner) as stream:
        return stream.read()


def read_text(path: str) -> str:
    return read_bytes(path).decode("utf-8")


def open_input(path: str) -> IO[bytes]:
    """A binary stream that iterates by line (JSONL) without reading the whole file."""
    if not is_uri(path):
        return open(_local(path), "rb")  # noqa: SIM115 - the caller closes it
    fs, inner = resolve(path)
    return io.BufferedReader(fs.open_input_file(inner), buffer_size=IO_BUFFER_BYTES)  # type: ignore[arg-type]


def open_archive(path: str) -> IO[bytes]:
    """`open_input`, decompressed when the suffix names a codec (`COMPRESSIONS`)."""
    codec = compression(path)
    raw = open_input(path)
    if codec is None:
        return raw
    return io.BufferedReader(pa.CompressedInputStream(raw, codec), buffer_size=IO_BUFFER_BYTES)  # type: ignore[arg-type]


def makedirs(path: str) -> None:
    """Create a local directory (and parents); object stores have no directories to make."""
    if not is_uri(path):
        os.makedirs(_local(path), exist_ok=True)


def write_bytes(path: str, data: bytes) -> None:
    """The whole object at once: one PUT on an object store; temp file + rename locally."""
    fs, inner = resolve(path)
    if is_uri(path):
        with fs.open_output_stream(inner) as out:
            out.write(data)
        return
    makedirs(os.path.dirname(inner))
    tmp = _temporary(inner)
    with open(tmp, "wb") as out:
        out.write(data)
    os.replace(tmp, inner)


def _temporary(local: str) -> str:
    """A hidden sibling name (readers list `part-*` / named files, never `.tmp-*`)."""
    folder, base = os.path.split(local)
    return os.path.join(folder, f".tmp-{uuid.uuid4().hex}-{base}")


def write_text(path: str, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def write_parquet(table: pa.Table, path: str) -> None:
    """One Parquet file, whole or absent: an object-store upload becomes visible only when
    complete; locally a temporary file is renamed into place. Without dictionary encoding:
    these files are a build's own intermediates (parts, staged shards, drafts), read once,
    and mostly unique text and vectors, where building dictionaries took two thirds of the
    write (staged shards of 40K messages: 1.58 → 0.50 CPU s, 5 % larger, read 17 % faster)."""
    fs, inner = resolve(path)
    if is_uri(path):
        pq.write_table(table, inner, filesystem=fs, use_dictionary=False)
        return
    makedirs(os.path.dirname(inner))
    tmp = _temporary(inner)
    pq.write_table(table, tmp, use_dictionary=False)
    os.replace(tmp, inner)


def read_parquet(path: str, columns: list[str] | None = None) -> pa.Table:
    fs, inner = resolve(path)
    return pq.read_table(inner, filesystem=fs, columns=columns)


def parquet_schema(path: str) -> pa.Schema:
    """A Parquet file's schema, from its footer (no rows read)."""
    fs, inner = resolve(path)
    return pq.read_schema(inner, filesystem=fs)


def parquet_dataset(files: Iterable[str], schema: pa.Schema | None = None) -> pads.Dataset:
    """A dataset over Parquet files that all live on one filesystem (local or one store)."""
    resolved = [resolve(f) for f in files]
    if not resolved:
        return pads.dataset([], format="parquet", schema=schema)
    fs = resolved[0][0]
    return pads.dataset([p for _, p in resolved], format="parquet", schema=schema, filesystem=fs)


def remove(path: str) -> None:
    """Delete one file; a missing one is fine."""
    fs, inner = resolve(path)
    with contextlib.suppress(OSError):  # FileNotFoundError included
        fs.delete_file(inner)


def remove_tree(path: str) -> None:
    """Delete a directory (an object-store prefix) and all under it; missing is fine."""
    fs, inner = resolve(path)
    with contextlib.suppress(OSError):  # FileNotFoundError included
        fs.delete_dir(inner)


def endpoint() -> str | None:
    """The S3-compatible endpoint named in the environment, if any."""
    return next((os.environ[k] for k in ENDPOINT_ENV if os.environ.get(k)), None)


def lance_storage_options(uri: str) -> dict[str, str]:
    """What Lance needs beyond the environment for `uri`: the endpoint, and `allow_http`
    when it is plain http (Lance refuses http otherwise). Credentials stay in the env."""
    if not str(uri).startswith("s3://"):
        return {}
    options: dict[str, str] = {}
    url = endpoint()
    if url:
        options["endpoint"] = url
        if url.startswith("http://"):
            options["allow_http"] = "true"
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    if region:
        options["region"] = region
    return options


def object_store_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The object-store settings of this process's environment (to hand to Ray workers
    on other machines, which do not inherit the driver's environment)."""
    source = os.environ if environ is None else environ
    return {k: v for k, v in source.items() if k.startswith(STORE_ENV_PREFIXES)}


def uses_object_store(paths: Iterable[str]) -> bool:
    return any(is_uri(p) for p in paths if p)


__all__ = [
    "canonical",
    "exists",
    "glob",
    "is_dir",
    "is_file",
    "is_uri",
    "join",
    "lance_storage_options",
    "list_dirs",
    "list_files",
    "makedirs",
    "name",
    "object_store_env",
    "open_input",
    "parquet_dataset",
    "read_bytes",
    "read_parquet",
    "read_text",
    "remove",
    "remove_tree",
    "resolve",
    "size_and_mtime",
    "stem",
    "suffix",
    "write_bytes",
    "write_parquet",
    "write_text",
]
