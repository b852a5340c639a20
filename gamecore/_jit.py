"""One decorator so every kernel is compiled the same way.

``cache=True`` writes compiled machine code to disk, so a second process does not recompile;
``error_model="numpy"`` keeps integer arithmetic free of Python's zero-division checks inside
hot loops (the callers guarantee no division by zero).

The cache is kept per version of the package's source. numba checks a cached kernel against
its own source file only, not against the kernels it calls: after an edit to
``exactcount.mulmod`` the cached baccarat kernels would go on running the old ``mulmod``
inlined, a silent wrong answer. So the cache folder (``NUMBA_CACHE_DIR`` if set, else the
package's ``__pycache__``, where ``make install`` puts the kernels of every game's ``exact``
command: :mod:`gamecore.warm`) gets a subfolder named by a digest of every module of the
package: any change to any module starts a fresh cache.

A kernel is never loaded from, nor written to, a folder without that digest: where the
folder cannot be written (``NUMBA_CACHE_DIR`` unwritable, a read-only checkout) numba would
fall back to a place of its own, unversioned, and run a stale kernel (a wrong figure, no
warning). So :func:`cache_folder` chooses the folder, falling back to a private one in the
user's cache folder (also named by the digest), and numba is held to it; where nothing can be
written, kernels are compiled afresh (``cache=False``), with one warning line on standard
error.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from pathlib import Path

from gamecore.environment import numba_settings_checked
from gamecore.reading import path_text

with numba_settings_checked():  # a setting numba cannot run the kernels under: one line
    import numba
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

PACKAGE = Path(__file__).resolve().parent


def source_digest(package: Path = PACKAGE) -> str:
    """A short digest of a package's source: what names its kernel cache folder.

    Parameters
    ----------
    package : pathlib.Path
        The package's folder; every ``.py`` file under it counts, its path and contents.

    Returns
    -------
    str
        The first 16 hex digits of the SHA-256 of the files, in sorted order.
    """
    digest = hashlib.sha256()
    sources = []
    for folder, subfolders, names in os.walk(package):
        # not into the kernel caches: hundreds of folders of compiled kernels, no source
        subfolders[:] = [name for name in subfolders if name != "__pycache__"]
        sources += [Path(folder) / name for name in names if name.endswith(".py")]
    for path in sorted(sources):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


#: The digest of the source this process imported (names its kernel cache folder).
CACHE_DIGEST = source_digest()


def cache_folder(
    given: str, package: Path, cache_home: Path | None, digest: str
) -> tuple[Path | None, str | None]:
    """The folder this process caches compiled kernels in, named by the source's digest, and
    the warning line to print, if any.

    The first of these that can be written: ``given/gamecore-DIGEST`` (``NUMBA_CACHE_DIR``);
    the package's ``__pycache__/gamecore-DIGEST`` (numba's usual place, where ``make
    install`` warms the kernels); ``cache_home/gamecore/gamecore-DIGEST`` (``$XDG_CACHE_HOME``
    or ``~/.cache``: a read-only checkout), both folders of it made with mode 0700 and used
    only if they are real folders of this user that nobody else can write (a cache is loaded
    as code: a folder another user could write would let them choose it). None when none can
    be written: kernels are then compiled afresh, never cached.

    Parameters
    ----------
    given : str
        ``NUMBA_CACHE_DIR``, or ``""`` when it is not set.
    package : pathlib.Path
        The package's folder.
    cache_home : pathlib.Path or None
        The user's cache folder; None when there is none (no home).
    digest : str
        :func:`source_digest` of the package.

    Returns
    -------
    (pathlib.Path or None, str or None)
        The folder (made if missing), and a line saying where kernels are cached instead of
        ``NUMBA_CACHE_DIR``, or that none are: None when there is nothing to say.
    """
    name = f"gamecore-{digest}"
    if given and _writable_folder(Path(given) / name):
        return Path(given) / name, None
    folder = None
    if _writable_folder(package / "__pycache__" / name):
        folder = package / "__pycache__" / name
    elif cache_home is not None and _private_folder(cache_home / "gamecore" / name):
        folder = cache_home / "gamecore" / name
    if folder is None:
        return None, (
            "gamecore: warning: no folder for compiled kernels can be written (NUMBA_CACHE_DIR, "
            "the package's __pycache__, the user's cache folder): each kernel is compiled "
            "afresh in this process, never cached"
        )
    if given:
        return folder, (
            f"gamecore: warning: NUMBA_CACHE_DIR {path_text(given)} cannot be written; "
            f"compiled kernels are cached in {path_text(folder)}"
        )
    return folder, None


def _writable_folder(folder: Path) -> bool:
    """Whether ``folder`` is (or could be made) a folder a file can be written in, as numba
    checks it before caching there."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _private_folder(folder: Path) -> bool:
    """:func:`_writable_folder`, and ``folder`` and its parent real folders (not links) of
    this user's, made with mode 0700 if missing, that no other user can write."""
    try:
        folder.parent.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        for part in (folder.parent, folder):
            part.mkdir(mode=0o700, exist_ok=True)
            held = part.lstat()
            if not stat.S_ISDIR(held.st_mode) or held.st_mode & 0o022:
                return False
            if hasattr(os, "geteuid") and held.st_uid != os.geteuid():
                return False
    except OSError:
        return False
    return _writable_folder(folder)


def _user_cache_home() -> Path | None:
    """``$XDG_CACHE_HOME`` when it is an absolute path (the XDG specification ignores any
    other), else ``~/.cache``; None with no home folder, or a relative one (``HOME=x`` would
    put the cache in the working folder)."""
    given = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(given):
        return Path(given)
    try:
        home = Path.home()
    except RuntimeError:  # no HOME and no password entry
        return None
    return home / ".cache" if home.is_absolute() else None


#: Where this process caches compiled kernels (:func:`cache_folder`), None: nowhere.
CACHE_FOLDER, _warning = cache_folder(
    os.environ.get("NUMBA_CACHE_DIR") or numba.config.CACHE_DIR,
    PACKAGE,
    _user_cache_home(),
    CACHE_DIGEST,
)
if _warning is not None and sys.stderr is not None:  # None: no standard error to say it on
    try:
        print(_warning, file=sys.stderr, flush=True)
    except (OSError, ValueError):  # a broken or closed standard error: the line is lost
        pass


def _versioned_cache_in_force() -> None:
    """Point numba's cache at :data:`CACHE_FOLDER`, through its one locator that takes a
    folder as given. numba's others pick a place of their own, unversioned (``__pycache__``
    beside the source, the user's ``~/.cache/numba``) when the given one cannot be written,
    and ``NUMBA_CACHE_LOCATOR_CLASSES`` can choose them; numba re-reads its settings from
    the environment when a ``NUMBA_`` variable changes, so this is done again before each
    kernel is made."""
    numba.config.CACHE_DIR = str(CACHE_FOLDER)
    numba.config.CACHE_LOCATOR_CLASSES = "UserProvidedCacheLocator"


if CACHE_FOLDER is not None:
    _versioned_cache_in_force()


def _load_numba_array_math_without_blas_probe() -> None:
    """Import ``numba.np.arraymath`` with scipy's BLAS hidden from its probe.

    At its first compile or cache load numba imports ``numba.np.arraymath``, whose import
    probes for BLAS by importing all of ``scipy.linalg``: 15 MB of every process and a
    large share of numba's start-up. The probe decides only whether
    ``np.convolve`` and ``np.correlate`` in a kernel use BLAS or a plain loop (no gamecore
    kernel calls either; both give the same numbers). The module is imported here with the
    import of ``scipy.linalg.cython_blas`` failing, and the name is restored at once, so
    ``np.dot`` and ``np.linalg`` in a kernel still import scipy's BLAS when compiled.
    """
    name = "scipy.linalg.cython_blas"
    if name in sys.modules or "numba.np.arraymath" in sys.modules:
        return
    sys.modules[name] = None  # type: ignore[assignment]  # import raises ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules[name]


_load_numba_array_math_without_blas_probe()


def kernel(function=None, *, inline: bool = False):
    """Compile ``function`` in nopython mode with gamecore's common options.

    ``@kernel(inline=True)`` marks a small helper that numba inlines into its callers (at the
    level of its IR): a hot loop then pays no call for splitting its body into readable
    pieces (the arrays passed in are copies whose reference counts numba prunes only in
    simple code; :func:`borrowed` ones cost nothing).

    Parameters
    ----------
    function : callable or None
        The function to compile (``@kernel``); ``None`` when called with options
        (``@kernel(inline=True)``).
    inline : bool
        Whether numba inlines the kernel into the kernels that call it.

    Returns
    -------
    numba dispatcher or callable
        The compiled kernel; or, without ``function``, the decorator that compiles one.
    """
    options = {"cache": CACHE_FOLDER is not None, "nogil": True, "error_model": "numpy"}
    if inline:
        options["inline"] = "always"

    def compile_(function):
        if CACHE_FOLDER is not None:  # numba picks the kernel's cache folder here
            _versioned_cache_in_force()
        return njit(**options)(function)

    return compile_ if function is None else compile_(function)


#: Kernels other modules' kernels inline, public for that reason (tests/test_docstrings.py
#: allows exactly these). numba inlines a kernel into another module's kernel only through
#: the kernel itself; through a face the call stays a call, with reference counts of the
#: arrays passed (the blackjack simulator lost a quarter of its speed), and a face inlined by
#: numba's overload machinery (``inline="always"``) miscompiled the round loop on Python
#: 3.11 (the simulator tallied nothing; numba issues 7802 and 9489). The blackjack round's
#: steps (a seat's hands, the dealer's, the settlement) are kernels of their own module,
#: inlined into the round loop in :mod:`gamecore.blackjack.dealt`.
INLINED_ACROSS_MODULES = frozenset(
    {
        "gamecore.dealing.below",
        "gamecore.dealing.draw_card",
        "gamecore.baccarat.sim.play_round",
        "gamecore.blackjack.dealt_hands.draw",
        "gamecore.blackjack.dealt_hands.dealer_total",
        "gamecore.blackjack.dealt_hands.play_seat",
        "gamecore.blackjack.dealt_hands.settle_round",
        "gamecore.sidebets.deal.test_holds",
    }
)


def kernel_face(private_kernel):
    """Make the decorated plain function the public face of ``private_kernel``.

    A kernel is private to its module (a ``_name``); what other modules call is a typed,
    documented Python function in front of it. Called from Python the face runs its own
    body (which calls the kernel). Called from another kernel, numba compiles the private
    kernel's own source in the face's place with the kernel's options (a numba
    ``overload`` of the face whose implementation is the kernel's Python function), so the
    caller runs the same code as if it called the kernel, as a call: a face is never
    inlined into its caller's IR. A small kernel every round of another module's loop
    calls inline stays public instead (:data:`INLINED_ACROSS_MODULES`).

    Parameters
    ----------
    private_kernel : numba dispatcher
        The kernel, compiled with :func:`kernel`.

    Returns
    -------
    callable
        A decorator that registers the face and returns it unchanged.
    """
    from numba.extending import overload

    # The kernel's own options but its inlining: inlining numba's IR through an overload
    # warns (NumbaIRAssumptionWarning) on loops and branches; LLVM inlines small calls.
    options = dict(private_kernel.targetoptions)
    options.pop("inline", None)
    options.pop("cache", None)

    def register(face):
        def implementation(*args):
            return private_kernel.py_func

        overload(face, strict=False, jit_options=options)(implementation)
        return face

    return register


def _borrowed_value(context, builder, typ, value):
    """``value`` with the reference-counted pointer of every array and generator in it
    null; anything else given a reference of its own (the caller drops one)."""
    if isinstance(typ, (types.Array, types.NumPyRandomGeneratorType)):
        proxy = cgutils.create_struct_proxy(typ)(context, builder, value=value)
        proxy.meminfo = cgutils.get_null_value(proxy.meminfo.type)
        return proxy._getvalue()
    if isinstance(typ, types.BaseTuple):
        for i, member in enumerate(typ):
            item = builder.extract_value(value, i)
            value = builder.insert_value(value, _borrowed_value(context, builder, member, item), i)
        return value
    context.nrt.incref(builder, typ, value)
    return value


@intrinsic
def borrowed(typingctx, value):
    """``value`` (an array, a generator, or a tuple or NamedTuple of them) as a borrowed
    reference: the same data, but no reference count, so the copies numba makes of it
    (an inlined kernel's arguments) cost nothing. Call it only from a kernel, and only on
    values its caller keeps alive for as long as the borrowed one is used.

    Parameters
    ----------
    typingctx : numba typing context
        Supplied by numba (the kernel calls ``borrowed(value)``).
    value : array, numpy.random.Generator, tuple or NamedTuple
        What to borrow; tuples are borrowed member by member, other members kept.

    Returns
    -------
    tuple
        The signature and code generator numba compiles the call with.
    """

    def codegen(context, builder, signature, args):
        return _borrowed_value(context, builder, signature.args[0], args[0])

    return value(value), codegen
