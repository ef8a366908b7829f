"""kbcheck: keep a git-hosted research knowledge base honest."""

__version__ = "0.1.0"
