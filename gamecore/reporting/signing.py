"""Signing a reports folder: a lab signs the manifest it reviewed, anyone checks it.

``MANIFEST.json`` holds every report file's SHA-256, so a signature of its exact bytes
covers every file. The signature is Ed25519 (RFC 8032) from the ``cryptography`` package, a
well-kept, audited binding of OpenSSL: nothing cryptographic is written here.

* ``gamecore keygen --private KEY --public PUB`` writes a new key pair as PEM (the private
  key PKCS #8, unencrypted: keep it as a lab keeps a seal; the public key
  SubjectPublicKeyInfo), each file created afresh with mode 0600: an existing file is never
  overwritten.
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


def _create(path: Path) -> int:
    """A new file at ``path``, open for writing with mode 0600; an existing name (a file, a
    link, anything) is refused, never overwritten or followed."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, KEY_MODE)
    except FileExistsError:
        raise GamecoreError(
            f"{path_text(path)}: already exists; a key file is never overwritten"
        ) from None
    os.fchmod(descriptor, KEY_MODE)  # whatever the umask
    return descriptor


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
        A path that exists, or the same path given twice; nothing is written.
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
    written: list[Path] = []
    try:
        for path, text in texts.items():
            descriptor = _create(path)
            written.append(path)
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
    except BaseException:
        for path in written:  # never half a pair
            path.unlink(missing_ok=True)
        raise


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
    print(f"wrote {private} (private: keep it; mode 0600) and {public} (public: share it)")
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
