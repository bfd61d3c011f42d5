"""The rules reference and its search (``blood rules``).

``entry`` (one entry and its checks), ``text`` (words, stems, typos), ``index`` (ranking and
lookups) and ``loader`` (the YAML layers and the cached index). Standard library only, apart
from PyYAML when the cache must be rebuilt: the lookup path must stay cheap to import.
"""
