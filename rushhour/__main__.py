import sys

from rushhour.cli import main

sys.exit(main())
