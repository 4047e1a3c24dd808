"""What the command line changes in Numba's start-up, so that a short solve on a warm cache loads
only what it uses (docs/benchmarks.md, "Start-up"):

* Numba's import without PyYAML's (:func:`holding_back_yaml`): Numba's configuration imports it
  to read a ``.numba_config.yaml`` in the working folder; it gets a module that imports PyYAML on
  first use instead (:func:`after_import`), so such a file is still read;
* a kernel loaded from Numba's cache without the registry refresh (:func:`_load_without_refresh`);
* an array's Numba type without importing ``numpy.ma`` (:func:`_typeof_without_numpy_ma`);
* the cache folder checked once per folder, not once per kernel (:func:`_cache_folders_checked_once`);
* a kernel's LLVM bitcode for linking parsed only if something links against it
  (:func:`_bitcode_parsed_when_linked`).

Each is the CLI process's only (installed by :mod:`.compiling` when Numba is first imported), and
each leaves Numba as it was where Numba is laid out otherwise.
"""

from __future__ import annotations

import contextlib
import sys

#: what Numba's configuration reads with PyYAML, in the working folder (numba.core.config)
NUMBA_CONFIG_FILE = ".numba_config.yaml"


@contextlib.contextmanager
def holding_back_yaml():
    """Within: ``import yaml`` fails (``None`` in ``sys.modules``) unless PyYAML is loaded already or
    a Numba configuration file is in the working folder; undone on leaving."""
    import os

    hold = "yaml" not in sys.modules and not os.path.exists(NUMBA_CONFIG_FILE)
    if hold:
        sys.modules["yaml"] = None
    try:
        yield
    finally:
        if hold and sys.modules.get("yaml", 0) is None:
            del sys.modules["yaml"]


def after_import() -> None:
    """The changes made once Numba is imported, each on its own (one failing leaves the others)."""
    for change in (_lazy_yaml, _load_without_refresh, _typeof_without_numpy_ma, _cache_folders_checked_once,
                   _bitcode_parsed_when_linked):
        with contextlib.suppress(Exception):
            change()


def collect_again() -> None:
    """Python's cyclic garbage collector back on where the console script held it for the start
    (:func:`zerosum.cli.hold_collections`), the objects made so far (Numba's) frozen first:
    ``gc.freeze`` puts them in the permanent generation, which no collection scans."""
    import gc

    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _lazy_yaml() -> None:
    """Numba's configuration told that PyYAML is there, with a module that imports it on first use
    (``importlib.util.LazyLoader``), where :func:`holding_back_yaml` kept it out and it is installed."""
    import importlib.util

    from numba.core import config

    if getattr(config, "_HAVE_YAML", True) or "yaml" in sys.modules:
        return
    spec = importlib.util.find_spec("yaml")
    if spec is None or spec.loader is None:
        return
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules["yaml"] = module
    spec.loader.exec_module(module)
    config.yaml, config._HAVE_YAML = module, True


def _load_without_refresh() -> None:
    """Numba's disk cache loads a kernel only after refreshing the target's registries (importing
    every implementation module of Numba's: its typing templates, NumPy's and Python's lowerings,
    the typed containers, jitclass ...) and initialising its runtime; a kernel loaded from the cache
    is machine code already, and needs the runtime alone.  This makes the cache's load initialise
    the runtime only.  A kernel that is not in the cache compiles as before: Numba's compiler
    refreshes the registries itself before it types anything (``CompilerBase.__init__``), and
    the extensions' entry points are loaded before any first call."""
    from numba.core import caching
    from numba.core.runtime import nrt

    cache = caching.Cache
    if getattr(cache.load_overload, "zerosum_light", False):
        return
    if not all(hasattr(cache, n) for n in ("_load_overload", "_guard_against_spurious_io_errors")) or \
            not hasattr(nrt.rtsys, "initialize"):
        return

    def load_overload(self, sig, target_context):
        if not _runtime_when_needed():  # what the refresh did that a loaded kernel may need
            nrt.rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    load_overload.zerosum_light = True
    load_overload.__doc__ = cache.load_overload.__doc__
    cache.load_overload = load_overload


def _runtime_when_needed() -> bool:
    """Whether a kernel's load starts Numba's runtime only where the kernel calls it
    (:func:`_bitcode_parsed_when_linked` installed)."""
    from numba.core import codegen

    return getattr(getattr(codegen.CPUCodeLibrary.__dict__.get("_unserialize"), "__func__", None), "zerosum_light",
                   False)


def _typeof_without_numpy_ma() -> None:
    """Numba types an array argument (a kernel's first call with it) after checking that it is not a
    masked array, ``np.ma.MaskedArray``: that attribute imports ``numpy.ma`` (its import and the
    signatures it reads cost more than the kernel's typing).  An object of class ``np.ndarray``
    itself is no masked array, and no object is one while ``numpy.ma`` is not imported: those are
    typed as Numba types them, without the check; every other object goes to Numba's own."""
    import numpy as np
    from numba.core import errors, types
    from numba.core.typing import typeof
    from numba.np import numpy_support

    original = typeof.typeof_impl.dispatch(np.ndarray)
    if getattr(original, "zerosum_light", False):
        return

    def typeof_ndarray(val, c):
        if type(val) is not np.ndarray or "numpy.ma" in sys.modules:
            return original(val, c)
        try:
            dtype = numpy_support.from_dtype(val.dtype)
        except errors.NumbaNotImplementedError:
            return original(val, c)  # Numba's refusal, as it words it
        return types.Array(dtype, val.ndim, numpy_support.map_layout(val), readonly=not val.flags.writeable)

    typeof_ndarray.zerosum_light = True
    typeof.typeof_impl.register(np.ndarray)(typeof_ndarray)


def _cache_folders_checked_once() -> None:
    """Each ``@njit(cache=True)`` function, as it is decorated (at its module's import), has its
    cache's locator check that the cache folder (``__pycache__`` beside the source) exists and is
    writable, by making a temporary file there: 86 times for the public tree's modules, for a
    handful of folders.  The check is made once per folder and process now; a folder that fails
    it is checked again each time, as before (the function then finds another locator)."""
    from numba.core import caching

    base = caching._CacheLocator
    original = base.ensure_cache_path
    if getattr(original, "zerosum_light", False):
        return
    checked: set = set()

    def ensure_cache_path(self):
        path = self.get_cache_path()
        if path in checked:
            return
        original(self)
        checked.add(path)

    ensure_cache_path.zerosum_light = True
    ensure_cache_path.__doc__ = original.__doc__
    base.ensure_cache_path = ensure_cache_path


def _bitcode_parsed_when_linked() -> None:
    """A kernel in Numba's cache is its machine code and, for a kernel compiled later that calls
    it, its LLVM bitcode to link against.  Numba parses that bitcode at every load, for the names
    it defines: 103 of the 154 ms that a two-thread solve of postflop-solver's example turn spent
    loading its eight kernels.  A warm run compiles nothing, so the bitcode is kept unparsed here
    and parsed when a compile links against the kernel (``_get_module_for_linking``) or a name
    it may define is looked up that the machine code does not hold.  The name a load looks up
    (its entry point) is taken as defined where the machine code holds it: the code Numba cached
    for that kernel, which defines it.

    Numba's runtime (NRT: its LLVM compile, and the modules its lowerings import, about 50 ms) is
    started by the first load whose machine code calls it (names ``NRT_...``), not by every
    load: the kernels of a solve allocate nothing and run without it (``_nrt=False``)."""
    from numba.core import codegen

    library = codegen.CPUCodeLibrary
    engine = codegen.JitEngine
    original = library.__dict__.get("_unserialize")
    if getattr(getattr(original, "__func__", None), "zerosum_light", False):
        return
    if not isinstance(original, classmethod) or not all(
            hasattr(library, n) for n in ("_get_module_for_linking", "enable_object_caching", "_set_compiled_object",
                                          "_finalize_final_module")) or \
            not hasattr(codegen.JITCodeLibrary, "get_pointer_to_function") or \
            not all(hasattr(engine, n) for n in ("_load_defined_symbols", "is_symbol_defined")):
        return
    unserialize, linking = original.__func__, library._get_module_for_linking
    pointer = codegen.JITCodeLibrary.get_pointer_to_function
    ll = codegen.ll

    def parse_shared(self):
        """The kept bitcode parsed, its names made known to the engine (what Numba's load did)."""
        bitcode = self.__dict__.pop("_zerosum_bitcode", None)
        if bitcode is not None:
            self._shared_module = ll.parse_bitcode(bitcode)
            self._codegen._engine._load_defined_symbols(self._shared_module)

    def _unserialize(cls, codegen_, state):
        name, kind, data = state
        if kind != "object":
            return unserialize(cls, codegen_, state)
        object_code, shared_bitcode = data
        if b"NRT_" in object_code:  # the runtime's functions, which the machine code links to
            from numba.core.registry import cpu_target
            from numba.core.runtime import nrt

            nrt.rtsys.initialize(cpu_target.target_context)
        self = codegen_.create_library(name)
        self.enable_object_caching()
        self._set_compiled_object(object_code)
        self._zerosum_bitcode = shared_bitcode
        self._zerosum_object = object_code
        self._finalize_final_module()
        return self

    def _get_module_for_linking(self):
        parse_shared(self)
        return linking(self)

    def get_pointer_to_function(self, name):
        engine_ = self._codegen._engine
        if "_zerosum_bitcode" in self.__dict__ and not engine_.is_symbol_defined(name):
            if name.encode() in self._zerosum_object:
                engine_._defined_symbols.add(name)
            else:
                parse_shared(self)
        return pointer(self, name)

    _unserialize.zerosum_light = True
    _unserialize.__doc__ = unserialize.__doc__
    library._unserialize = classmethod(_unserialize)
    library._get_module_for_linking = _get_module_for_linking
    codegen.JITCodeLibrary.get_pointer_to_function = get_pointer_to_function
