import sys

from kbcheck.cli import main

sys.exit(main())
