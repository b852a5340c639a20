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
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

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
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


#: The digest of the source this process imported (names its kernel cache folder).
CACHE_DIGEST = source_digest()


def _use_versioned_cache() -> None:
    name = f"gamecore-{CACHE_DIGEST}"
    base = os.environ.get("NUMBA_CACHE_DIR") or numba.config.CACHE_DIR
    if base:
        numba.config.CACHE_DIR = os.path.join(base, name)
        return
    # numba's usual place is __pycache__ beside the source; keep it there, versioned, when
    # that folder is writable (else numba falls back to its per-user cache, unversioned).
    folder = PACKAGE / "__pycache__" / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    numba.config.CACHE_DIR = str(folder)


_use_versioned_cache()


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
    options = {"cache": True, "nogil": True, "error_model": "numpy"}
    if inline:
        options["inline"] = "always"
    if function is None:
        return njit(**options)
    return njit(**options)(function)


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
