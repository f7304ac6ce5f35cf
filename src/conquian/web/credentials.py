"""The proofs an account is signed in with, checked here and stored elsewhere (:mod:`.accounts`).

* **A password**, under a *login name* that is the account's own (not its shown name, which
  others see): hashed with Argon2id (``argon2-cffi``'s defaults), its hash upgraded when those
  change.  A login name is compared case-insensitively.
* **A passkey** (WebAuthn, ``webauthn``): the server makes the options the browser's
  ``navigator.credentials`` needs, and checks what it answers against the challenge it gave,
  the page's origin and its host (the relying party).  Passkeys are discoverable: signing in
  with one needs no name.
* **Recovery codes** instead of e-mail: ten random codes, shown once; each signs in once.
  They are stored as SHA-256 hashes (they are random, 80 bits each: no need for a slow hash),
  so that a code finds its account without a name.

>>> login_key("  Ana.Maria ")
'ana.maria'
>>> code = new_recovery_codes()[0]
>>> len(code), code.count("-"), code_hash(code) == code_hash(code.lower().replace("-", " "))
(19, 3, True)
>>> checked = hash_password("a long password")
>>> password_matches(checked, "a long password"), password_matches(checked, "another one")
(True, False)
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

LOGIN_MIN, LOGIN_MAX = 3, 32
PASSWORD_MIN, PASSWORD_MAX = 8, 128
"""A password's length in characters (the longest bounds the work a sign-in costs)."""
RECOVERY_CODES = 10
CHALLENGE_SECONDS = 300.0
"""How long a passkey challenge may be answered."""
RP_NAME = "Conquian"

_CODE_LETTERS = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/l/i: read aloud, typed by hand
_hasher = PasswordHasher()
_DUMMY_HASH = _hasher.hash("not anybody's password")


# ------------------------------------------------------------------ login names and passwords


def login_key(login: str) -> str:
    """The form a login name is stored and compared in."""
    return login.strip().casefold()


def login_problem(login: str) -> str | None:
    """What is wrong with a login name (None: nothing): its length, or a character other than
    a letter, a digit, ``.``, ``-`` or ``_``.

    >>> login_problem("ana"), login_problem("a b"), login_problem("ab")
    (None, 'characters', 'length')
    """
    key = login_key(login)
    if not LOGIN_MIN <= len(key) <= LOGIN_MAX:
        return "length"
    if not all(c.isalnum() or c in ".-_" for c in key):
        return "characters"
    return None


def password_problem(password: str) -> str | None:
    """``length`` if the password is too short or too long, else None."""
    return None if PASSWORD_MIN <= len(password) <= PASSWORD_MAX else "length"


def hash_password(password: str) -> str:
    """The Argon2id hash stored for a password (slow on purpose: call it off the event loop)."""
    return _hasher.hash(password)


def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` hashes.  With no stored hash (no such login)
    a hash is checked all the same, so the answer takes as long either way."""
    try:
        return _hasher.verify(stored or _DUMMY_HASH, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether a stored hash was made with other settings than today's."""
    return _hasher.check_needs_rehash(stored)


# ------------------------------------------------------------------ recovery codes


def new_recovery_codes() -> list[str]:
    """Ten new recovery codes, each four groups of four letters and digits."""
    codes = []
    for _n in range(RECOVERY_CODES):
        letters = "".join(secrets.choice(_CODE_LETTERS) for _k in range(16))
        codes.append("-".join(letters[k : k + 4] for k in range(0, 16, 4)))
    return codes


def code_hash(code: str) -> str:
    """The stored form of a recovery code, however it was typed (case, spaces, dashes)."""
    plain = "".join(c for c in code.lower() if c.isalnum())
    return hashlib.sha256(plain.encode("utf-8", "surrogatepass")).hexdigest()


# ------------------------------------------------------------------ passkeys


@dataclass(frozen=True, slots=True)
class Passkey:
    """A passkey as stored: its credential id (base64url), public key and signature count."""

    id: str
    public_key: bytes
    sign_count: int


def relying_party(origin: str) -> str:
    """The relying party's id of a page's origin: its host.

    >>> relying_party("https://games.example:8443")
    'games.example'
    """
    return urlsplit(origin).hostname or ""


def new_challenge() -> dict[str, Any]:
    """A passkey challenge as the session keeps it until it is answered."""
    return {"challenge": bytes_to_base64url(secrets.token_bytes(32)), "at": time.time()}


def _challenge(kept: object) -> bytes | None:
    """The challenge kept in the session, if it is one and not too old."""
    if not isinstance(kept, dict) or not isinstance(kept.get("challenge"), str):
        return None
    at = kept.get("at")
    if not isinstance(at, int | float) or time.time() - at > CHALLENGE_SECONDS:
        return None
    return base64url_to_bytes(kept["challenge"])


def registration_options(
    origin: str, challenge: dict[str, Any], player_id: str, name: str, existing: list[str]
) -> Any:
    """The options of ``navigator.credentials.create`` (JSON-ready, binary as base64url):
    a discoverable passkey for this player, none of his ``existing`` ones again."""
    options = generate_registration_options(
        rp_id=relying_party(origin),
        rp_name=RP_NAME,
        user_id=player_id.encode(),
        user_name=name,
        user_display_name=name,
        challenge=base64url_to_bytes(challenge["challenge"]),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in existing
        ],
    )
    return json.loads(options_to_json(options))


def sign_in_options(origin: str, challenge: dict[str, Any]) -> Any:
    """The options of ``navigator.credentials.get``: any passkey of this site."""
    options = generate_authentication_options(
        rp_id=relying_party(origin),
        challenge=base64url_to_bytes(challenge["challenge"]),
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return json.loads(options_to_json(options))


def registered_passkey(credential: object, kept: object, origin: str) -> Passkey | None:
    """The passkey a browser made (None: it does not answer the challenge kept, or is not
    well formed)."""
    challenge = _challenge(kept)
    if challenge is None or not isinstance(credential, dict):
        return None
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=relying_party(origin),
            expected_origin=origin,
        )
    except Exception:  # the library's own errors, and whatever malformed input raises
        return None
    return Passkey(
        bytes_to_base64url(verified.credential_id),
        verified.credential_public_key,
        verified.sign_count,
    )


def credential_id(credential: object) -> str | None:
    """The id a browser's sign-in answer names (base64url), if it names one."""
    if not isinstance(credential, dict):
        return None
    found = credential.get("id")
    return found if isinstance(found, str) and 0 < len(found) <= 1400 else None


def signed_in_count(credential: object, kept: object, origin: str, passkey: Passkey) -> int | None:
    """The new signature count if the browser's answer is signed by ``passkey`` over the
    challenge kept (None: it is not)."""
    challenge = _challenge(kept)
    if challenge is None or not isinstance(credential, dict):
        return None
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=relying_party(origin),
            expected_origin=origin,
            credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count,
        )
    except Exception:  # a bad signature, a replayed count, or a malformed answer
        return None
    return int(verified.new_sign_count)
