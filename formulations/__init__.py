"""One file per primal/dual pair. Each module defines one :class:`dualboost.Formulation` subclass.

Load one by name (``load_formulation("erlpboost")``) or from any file path
(``load_formulation("my_copy_of_erlpboost.py")``).
"""
