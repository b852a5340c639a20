"""Signing a reports folder: a lab signs the manifest it reviewed, anyone checks it.

``MANIFEST.json`` holds every report file's SHA-256, so a signature of its exact bytes
covers every file. The signature is Ed25519 (RFC 8032) from the ``cryptography`` package, a
well-kept, audited binding of OpenSSL: nothing cryptographic is written here.

* ``gamecore keygen --private KEY --public PUB`` writes a new key pair as PEM (the private
  key PKCS #8, unencrypted: keep it as a lab keeps a seal; the public key
  SubjectPublicKeyInfo), each file created afresh with mode 0600: an existing file is never
  overwritten. Both are written in full to temporary files beside them first and named only
  then, and removed if the command cannot say it wrote them: never one key, never half.
* ``gamecore sign REPORTS --key KEY`` signs ``MANIFEST.json``'s bytes and writes
  ``MANIFEST.json.sig`` beside it (the 64-byte signature in base64, one line), replacing an
  earlier signature in one rename.
* ``gamecore verify REPORTS --public-key PUB`` checks the signature before anything else
  (:func:`check_signature`): a missing or bad signature is one line naming the file.

A rebuild (``make reports``) writes a new manifest and leaves the old signature, which then
no longer matches: the new build is unsigned until someone signs it.
"""

from __future__ import annotations

import base64
import binascii
import errno
import os
import sys
import tempfile
from pathlib import Path

from gamecore.errors import GamecoreError, one_line
from gamecore.reading import MAX_MANIFEST_BYTES, path_text, read_bounded
from gamecore.reporting.finalize import folder_lock, pending_commit
from gamecore.reporting.manifest import MANIFEST, SIGNATURE, read_manifest

#: The largest key file read (a PEM Ed25519 key is about 120 bytes).
MAX_KEY_BYTES = 16 << 10
#: The largest signature file read (the signature in base64 is 88 characters).
MAX_SIGNATURE_BYTES = 1 << 10
#: The mode of the key files keygen writes: the owner's only.
KEY_MODE = 0o600


def _write_part(path: Path, text: bytes) -> Path:
    """``text`` in a new temporary file of mode 0600 beside ``path`` (the same folder, so
    that it can take its name), written and synced; removed if that fails."""
    try:
        descriptor, part = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as error:
        raise GamecoreError(f"{path_text(path)}: cannot be written ({error.strerror})") from None
    try:
        os.fchmod(descriptor, KEY_MODE)  # mkstemp's mode already; said, not assumed
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException as error:
        Path(part).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise GamecoreError(
                f"{path_text(path)}: cannot be written ({error.strerror})"
            ) from None
        raise
    return Path(part)


#: What ``link`` says on a file system without hard links (FAT, some network ones).
_NO_LINKS = (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS)


def _place(part: Path, path: Path) -> None:
    """Give the written file ``part`` the name ``path``, never replacing what has it: a hard
    link fails if the name is taken (a rename would overwrite it); where the file system has
    no hard links, a rename after a check."""
    try:
        os.link(part, path, follow_symlinks=False)
    except FileExistsError:
        raise GamecoreError(
            f"{path_text(path)}: already exists; a key file is never overwritten"
        ) from None
    except OSError as error:
        if error.errno not in _NO_LINKS:
            raise GamecoreError(
                f"{path_text(path)}: cannot be written ({error.strerror})"
            ) from None
        if os.path.lexists(path):
            raise GamecoreError(
                f"{path_text(path)}: already exists; a key file is never overwritten"
            ) from None
        os.rename(part, path)


def keygen(private: Path, public: Path) -> None:
    """Write a new Ed25519 key pair: the private key to ``private``, the public to
    ``public``, both PEM, both new files of mode 0600.

    Parameters
    ----------
    private, public : Path
        Where the keys go; neither may exist (nor be the same path).

    Raises
    ------
    GamecoreError
        A path that exists, or the same path given twice, or a key that cannot be written
        (a full disk, a folder not ours); nothing is left written.
    """
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private, public = Path(private), Path(public)
    if os.path.abspath(private) == os.path.abspath(public):
        raise GamecoreError(f"{path_text(private)}: the private and public keys need two files")
    for path in (private, public):
        if os.path.lexists(path):
            raise GamecoreError(
                f"{path_text(path)}: already exists; a key file is never overwritten"
            )
    key = Ed25519PrivateKey.generate()
    texts = {
        private: key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
        public: key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ),
    }
    parts: list[Path] = []
    placed: list[Path] = []
    try:  # both written in full first, then both named: never one key, never half of one
        for path, text in texts.items():
            parts.append(_write_part(path, text))
        for part, path in zip(parts, texts, strict=True):
            _place(part, path)
            placed.append(path)
    except BaseException:
        for path in placed:
            path.unlink(missing_ok=True)
        raise
    finally:
        for part in parts:
            part.unlink(missing_ok=True)


def _load_key(path: Path, private: bool):
    """The Ed25519 key in the PEM file ``path`` (private or public), or one line why not."""
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519

    kind = "private" if private else "public"
    raw = read_bounded(path, MAX_KEY_BYTES, f"{kind} key {path_text(path)}")
    try:
        if private:
            key = serialization.load_pem_private_key(raw, password=None)
        else:
            key = serialization.load_pem_public_key(raw)
    except (ValueError, TypeError, UnsupportedAlgorithm) as error:
        reason = one_line(str(error))[:120] or type(error).__name__
        raise GamecoreError(
            f"{path_text(path)}: not a PEM {kind} key (gamecore keygen writes one; {reason})"
        ) from None
    wanted = ed25519.Ed25519PrivateKey if private else ed25519.Ed25519PublicKey
    if not isinstance(key, wanted):
        raise GamecoreError(f"{path_text(path)}: not an Ed25519 {kind} key")
    return key


def _manifest_bytes(reports: Path) -> bytes:
    path = reports / MANIFEST
    if not os.path.lexists(path):
        raise GamecoreError(f"{path_text(path)}: no manifest (make reports writes it)")
    return read_bounded(path, MAX_MANIFEST_BYTES, path_text(path))


def sign(reports: Path, key: Path) -> Path:
    """Sign ``reports/MANIFEST.json``'s exact bytes with the private key in ``key`` and write
    ``reports/MANIFEST.json.sig`` (replacing an earlier one in one rename).

    Parameters
    ----------
    reports : Path
        The reports folder.
    key : Path
        The PEM Ed25519 private key (:func:`keygen`).

    Returns
    -------
    Path
        The signature file.
    """
    reports = Path(reports)
    if not reports.is_dir():
        raise GamecoreError(f"{path_text(reports)}: not a reports folder")
    private = _load_key(Path(key), private=True)
    target = reports / SIGNATURE
    try:
        with folder_lock(reports):  # no build commits meanwhile
            pending = pending_commit(reports)
            if pending is not None:
                raise GamecoreError(
                    f"{path_text(reports)}: a build was stopped while its reports were put "
                    f"in place ({pending.name}); run make reports to complete it, then sign"
                )
            read_manifest(reports)  # a manifest, not any file
            _write_signature(target, private.sign(_manifest_bytes(reports)))
    except OSError as error:  # a read-only folder, a full disk, a folder named like the file
        raise GamecoreError(f"{path_text(target)}: cannot be written ({error.strerror})") from None
    return target


def _write_signature(target: Path, signature: bytes) -> None:
    """``signature`` in base64 to ``target``, through a temporary file beside it renamed in
    one step: a reader sees the old signature or the new, never half of one."""
    descriptor, part = tempfile.mkstemp(prefix=f".{SIGNATURE}.", dir=target.parent)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(base64.b64encode(signature) + b"\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(part, 0o644)
        os.replace(part, target)
    except BaseException:
        Path(part).unlink(missing_ok=True)
        raise


def check_signature(reports: Path, public: Path) -> str | None:
    """Whether ``reports/MANIFEST.json.sig`` is a signature of ``MANIFEST.json``'s bytes by
    the key in ``public``.

    Parameters
    ----------
    reports : Path
        The reports folder.
    public : Path
        The PEM Ed25519 public key (an unreadable one is a :class:`GamecoreError`).

    Returns
    -------
    str or None
        None when it is; else one line naming the signature file and what is wrong.
    """
    from cryptography.exceptions import InvalidSignature

    reports = Path(reports)
    key = _load_key(Path(public), private=False)
    manifest = _manifest_bytes(reports)
    path = reports / SIGNATURE
    name = path_text(path)
    if not os.path.lexists(path):
        return f"{name}: missing: {MANIFEST} is not signed (gamecore sign writes it)"
    try:
        text = read_bounded(path, MAX_SIGNATURE_BYTES, name).strip()
        signature = base64.b64decode(text, validate=True)
    except GamecoreError as error:
        return str(error)
    except (binascii.Error, ValueError):
        return f"{name}: not a signature (64 bytes in base64 on one line)"
    if len(signature) != 64:
        return f"{name}: not a signature (64 bytes in base64 on one line)"
    try:
        key.verify(signature, manifest)
    except InvalidSignature:
        return f"{name}: bad signature: {MANIFEST} is not what the key {path_text(public)} signed"
    return None


def keygen_command(private: str, public: str) -> int:
    """``gamecore keygen --private KEY --public PUB``.

    Parameters
    ----------
    private, public : str
        Where the keys go.

    Returns
    -------
    int
        0 (a refusal is a :class:`GamecoreError`: exit 2).
    """
    keygen(Path(private), Path(public))
    try:  # said, or not made: keys nobody was told of are removed
        print(f"wrote {private} (private: keep it; mode 0600) and {public} (public: share it)")
        sys.stdout.flush()
    except BaseException:
        Path(private).unlink(missing_ok=True)
        Path(public).unlink(missing_ok=True)
        raise
    return 0


def sign_command(reports: str, key: str) -> int:
    """``gamecore sign REPORTS --key KEY``.

    Parameters
    ----------
    reports : str
        The reports folder.
    key : str
        The private key file.

    Returns
    -------
    int
        0 (a refusal is a :class:`GamecoreError`: exit 2).
    """
    target = sign(Path(reports), Path(key))
    print(f"wrote {target}", file=sys.stdout)
    return 0
