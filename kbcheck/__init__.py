"""kbcheck: keep a git-hosted research knowledge base honest."""

#: the release (the package metadata reads it from here); `kbcheck.version` says which kbcheck runs
__version__ = "0.1.0"
