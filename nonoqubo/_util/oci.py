"""OCI image layout archives: the container OMMX artifacts (``.ommx`` files) travel in.

An OMMX artifact archive (``ommx.artifact.ArtifactBuilder.new_archive*``) is
an OCI image layout (https://github.com/opencontainers/image-spec, "Image
Layout") packed in a plain, uncompressed tar file::

    index.json                      {"manifests": [{"digest": "sha256:<m>", ...}], ...}
    blobs/sha256/<m>                the manifest, JSON:
                                    {"annotations": {key: value},            <- artifact annotations
                                     "layers": [{"mediaType": "application/org.ommx.v1.instance",
                                                 "digest": "sha256:<i>", "size": ...,
                                                 "annotations": {key: value}}, ...]}
    blobs/sha256/<i>                a layer: the bytes its media type says
                                    (an ommx.v1.Instance / Solution / SampleSet protobuf...)
    oci-layout                      {"imageLayoutVersion": "1.0.0"} (optional)

Every blob is named by the sha256 of its bytes.  Writing goes through
OMMX's own ``ArtifactBuilder`` (the archive it makes is the reference);
reading needs only the standard library (``tarfile``, ``json``,
``hashlib``), checks every digest, and turns anything damaged into one
:class:`~nonoqubo.errors.FormatError` naming the file.  Nothing is extracted
to disk: members are read into memory by name.

Examples:
    >>> import io, json, tarfile, hashlib
    >>> manifest = json.dumps({"layers": [], "annotations": {"org.nonoqubo.kind": "qubo"}}).encode()
    >>> digest = hashlib.sha256(manifest).hexdigest()
    >>> buf = io.BytesIO()
    >>> with tarfile.open(fileobj=buf, mode="w") as tar:
    ...     for name, data in ((f"blobs/sha256/{digest}", manifest),
    ...                        ("index.json", json.dumps({"manifests": [{"digest": f"sha256:{digest}"}]}).encode())):
    ...         info = tarfile.TarInfo(name); info.size = len(data); tar.addfile(info, io.BytesIO(data))
    >>> detect(buf.getvalue()[:512]), read_archive(buf.getvalue(), "x.ommx")
    (True, ({'org.nonoqubo.kind': 'qubo'}, []))
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
from collections.abc import Mapping
from typing import IO, Any

from ..errors import FormatError, located

__all__ = ["Layer", "detect", "read_archive", "write_archive"]

#: a layer as read: (media type, its annotations, its bytes)
Layer = tuple[str, dict[str, str], bytes]


def detect(head: bytes) -> bool:
    """A tar archive whose first member is part of an OCI image layout (``blobs/``, ``index.json``, ``oci-layout``)."""
    return head[257:262] == b"ustar" and head.startswith((b"blobs/sha256/", b"index.json", b"oci-layout"))


def write_archive(media_type: str, blob: bytes, layer: Mapping[str, str], annotations: Mapping[str, str],
                  fp: IO[bytes]) -> None:
    """Write an archive of one layer to *fp*, with OMMX's ``ArtifactBuilder``.

    Args:
        media_type: the layer's media type (``application/org.ommx.v1.instance``).
        blob: the layer's bytes.
        layer: the layer's annotations.
        annotations: the artifact (manifest) annotations.
        fp: a binary file.

    ``ArtifactBuilder`` writes to a path of its own (an unnamed image); the
    archive is built in a temporary directory and copied to *fp*, so the
    caller's atomic write holds.
    """
    from ommx.artifact import ArtifactBuilder

    with tempfile.TemporaryDirectory(prefix="nonoqubo-ommx-") as tmp:
        path = os.path.join(tmp, "model.ommx")
        builder = ArtifactBuilder.new_archive_unnamed(path)
        builder.add_layer(media_type, blob, dict(layer))
        for key, value in annotations.items():
            builder.add_annotation(key, value)
        builder.build()
        with open(path, "rb") as fh:
            shutil.copyfileobj(fh, fp, 1 << 22)


def read_archive(data: bytes, source: str) -> tuple[dict[str, str], list[Layer]]:
    """The manifest annotations and the layers of an archive, every blob checked against its digest.

    Raises:
        FormatError: not a tar archive, no ``index.json``, or a manifest or blob missing or damaged.
    """
    def fail(message: str) -> FormatError:
        return FormatError(located(source, None, message))

    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
            members = {m.name.lstrip("./"): m for m in tar.getmembers() if m.isfile()}

            def member(name: str) -> bytes:
                info = members.get(name)
                got = tar.extractfile(info) if info is not None else None
                if got is None:
                    raise fail(f"the OMMX archive lacks {name}")
                return got.read()

            def blob(digest: Any) -> bytes:
                if not isinstance(digest, str) or not digest.startswith("sha256:"):
                    raise fail(f"the OMMX archive names a blob by {digest!r}, not 'sha256:<hex>'")
                content = member("blobs/" + digest.replace(":", "/", 1))
                if hashlib.sha256(content).hexdigest() != digest[len("sha256:"):]:
                    raise fail(f"the OMMX archive's blob {digest[:19]}... is damaged (its sha256 differs)")
                return content

            index = json.loads(member("index.json"))
            manifests = index.get("manifests") if isinstance(index, dict) else None
            if not manifests or not isinstance(manifests, list) or not isinstance(manifests[0], dict):
                raise fail("the OMMX archive's index.json lists no manifest")
            manifest = json.loads(blob(manifests[0].get("digest")))
            if not isinstance(manifest, dict) or not isinstance(manifest.get("layers", []), list):
                raise fail("the OMMX archive's manifest is not an OCI image manifest")
            layers = []
            for layer in manifest.get("layers", []):
                if not isinstance(layer, dict):
                    raise fail("the OMMX archive's manifest has a layer that is not an object")
                layers.append((str(layer.get("mediaType", "")), _str_map(layer.get("annotations")),
                               blob(layer.get("digest"))))
            return _str_map(manifest.get("annotations")), layers
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise fail(f"not an OMMX artifact archive (a tar file): {exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise fail(f"the OMMX archive's index or manifest is not valid JSON: {exc}") from None


def _str_map(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}
