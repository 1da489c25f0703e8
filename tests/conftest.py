from __future__ import annotations

import os
import sys
from pathlib import Path

# Tests never reach the network and never write outside their temp dirs.
os.environ.setdefault("YOLO_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).parent))
