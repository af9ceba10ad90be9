"""The views, one module by who uses them (director, sheets, link, playerday, public, ...), and
``common``, the request and response glue they share. ``urls.py`` names each view by its module,
so the address list says where a page's code is; no view module imports another but ``common``
(tests/test_layers.py)."""
