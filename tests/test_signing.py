"""gamecore keygen / sign / verify --public-key: Ed25519 over MANIFEST.json's exact bytes.

The folders here hold a manifest of one file and no report, so verify checks the signature
and the hashes and reruns nothing."""

import base64
import hashlib
import json
import stat

import pytest
from cryptography.hazmat.primitives import serialization
from helpers import assert_refused, run_gamecore

from gamecore.errors import GamecoreError
from gamecore.reporting import signing, verify


@pytest.fixture
def folder(tmp_path):
    reports = tmp_path / "reports"
    reports.mkdir(parents=True)
    (reports / "t.csv").write_text("x\n1\n")
    digest = hashlib.sha256(b"x\n1\n").hexdigest()
    manifest = {"files": {"t.csv": digest}, "reports": {}}
    (reports / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return reports


@pytest.fixture
def keys(tmp_path):
    private, public = tmp_path / "key.pem", tmp_path / "key.pub"
    signing.keygen(private, public)
    return private, public


def test_keygen_writes_an_ed25519_pair_of_mode_0600_and_never_overwrites(tmp_path, keys):
    private, public = keys
    for path in keys:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    key = serialization.load_pem_private_key(private.read_bytes(), password=None)
    pub = serialization.load_pem_public_key(public.read_bytes())
    # the pair: the public key checks what the private one signs (RFC 8032 by the library)
    pub.verify(key.sign(b"par sheet"), b"par sheet")
    before = private.read_bytes(), public.read_bytes()
    with pytest.raises(GamecoreError, match="already exists"):
        signing.keygen(private, tmp_path / "other.pub")
    with pytest.raises(GamecoreError, match="already exists"):
        signing.keygen(tmp_path / "other.pem", public)
    assert not (tmp_path / "other.pub").exists() and not (tmp_path / "other.pem").exists()
    assert (private.read_bytes(), public.read_bytes()) == before
    assert_refused(
        run_gamecore("keygen", "--private", str(private), "--public", str(tmp_path / "x")),
        "already exists",
        "key.pem",
    )


def test_a_signed_folder_verifies_and_any_change_to_the_manifest_fails_in_one_line(
    folder, keys, tmp_path
):
    private, public = keys
    result = run_gamecore("sign", str(folder), "--key", str(private))
    assert result.returncode == 0, result.stderr
    signature = base64.b64decode((folder / "MANIFEST.json.sig").read_text())
    assert len(signature) == 64
    # the signature covers the manifest's exact bytes, checked here by the library itself
    key = serialization.load_pem_public_key(public.read_bytes())
    key.verify(signature, (folder / "MANIFEST.json").read_bytes())
    assert verify.verify(folder, public_key=public) == []
    result = run_gamecore("verify", str(folder), "--public-key", str(public))
    assert result.returncode == 0 and "the signature" in result.stdout, result.stderr

    # one byte of the manifest changed (a space): the signature is bad, nothing else runs
    manifest = folder / "MANIFEST.json"
    manifest.write_bytes(manifest.read_bytes().replace(b"\n", b" \n", 1))
    result = run_gamecore("verify", str(folder), "--public-key", str(public))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{folder / 'MANIFEST.json.sig'}: bad signature: MANIFEST.json is not what the key "
        f"{public} signed"
    ]

    # another key's signature: bad too
    other_private, other_public = tmp_path / "o.pem", tmp_path / "o.pub"
    signing.keygen(other_private, other_public)
    signing.sign(folder, other_private)
    assert verify.verify(folder, public_key=other_public) == []
    (line,) = verify.verify(folder, public_key=public)
    assert "bad signature" in line

    # no signature, a signature that is not one
    (folder / "MANIFEST.json.sig").write_text("not base64!\n")
    (line,) = verify.verify(folder, public_key=public)
    assert line.endswith("MANIFEST.json.sig: not a signature (64 bytes in base64 on one line)")
    (folder / "MANIFEST.json.sig").unlink()
    result = run_gamecore("verify", str(folder), "--public-key", str(public))
    assert result.returncode == 1
    assert result.stdout == (
        f"{folder / 'MANIFEST.json.sig'}: missing: MANIFEST.json is not signed (gamecore sign "
        "writes it)\n"
    )


def test_a_key_that_is_not_one_is_bad_input(folder, keys, tmp_path):
    private, public = keys
    junk = tmp_path / "junk.pem"
    junk.write_text("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
    assert_refused(run_gamecore("verify", str(folder), "--public-key", str(junk)), "junk.pem")
    assert_refused(run_gamecore("sign", str(folder), "--key", str(public)), "key.pub")
    assert_refused(run_gamecore("sign", str(folder), "--key", str(tmp_path / "none")), "none")
    assert not (folder / "MANIFEST.json.sig").exists()
    # a manifest that is not one is not signed
    (folder / "MANIFEST.json").write_text("[]")
    assert_refused(run_gamecore("sign", str(folder), "--key", str(private)), "not a gamecore")


def test_the_signature_is_not_a_report_file(folder, keys):
    private, public = keys
    signing.sign(folder, private)
    assert verify.check_hashes(folder, verify.read_manifest(folder)) == []
